"""The checks in RULES.md order, and the two entry points :func:`check_clue` and :func:`legal_mask`.

Why a module of its own: this is where the rules are ordered and the verdict's wording is
made; the word analysis it relies on lives in the sibling modules.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..cards import normalise_word
from .analysis import _Board, _Text, _analyse, _board
from .compounds import _is_part
from .forms import _root_paths, _same_word
from .lexicon import _known
from .options import _DEFAULT_OPTIONS, LegalityOptions
from .verdicts import (
    RULE_COMPOUND_PART,
    RULE_LETTERS_OR_POSITION,
    RULE_NOT_ONE_WORD,
    RULE_PICTURE_APPEARANCE,
    RULE_VISIBLE_WORD,
    RULE_WORD_FORM,
    Verdict,
)
from .word_tables import COLOUR_WORDS, DISTANCE_WORDS, LETTER_WORDS, NUMBER_WORDS, POSITION_WORDS, SHAPE_WORDS


def _describe_form(clue: _Text, card: _Text, shared: str) -> str:
    kinds = _root_paths(clue.key).get(shared, frozenset()) | _root_paths(card.key).get(shared, frozenset())
    if kinds == {"spelling"}:
        return "a spelling variant"
    if kinds <= {"inflection", "spelling"}:
        return "an inflected form"
    return "a derived form"


def _first(keys: Iterable[str], index: dict[str, int]) -> tuple[int, str]:
    return min((index[k], k) for k in keys)


def _board_violation(clue: _Text, board: _Board) -> Verdict | None:
    if clue.key in board.by_key:
        word = board.words[board.by_key[clue.key]]
        card = normalise_word(word)
        return Verdict(
            False,
            RULE_VISIBLE_WORD,
            word,
            f'"{clue.shown}" is the visible board word {card.upper()} (rule 1: a visible word is not a clue)',
        )
    shared = clue.roots & board.roots
    if shared:
        i, root = _first(shared, board.by_root)
        word = board.words[i]
        card = _analyse(word)
        if card.key in shared:
            root = card.key  # "organization" and ORGANIZE: name the board word, not "organise"
        how = _describe_form(clue, card, root)
        via = "" if root in (clue.key, card.key) else f' (both come from "{root}")'
        return Verdict(
            False,
            RULE_WORD_FORM,
            word,
            f'"{clue.shown}" is {how} of the visible board word {card.shown.upper()}{via} '
            f"(rule 2: no form of a visible word)",
        )
    shared = clue.morphemes & board.morphemes
    if shared:
        i, part = _first(shared, board.by_morpheme)
        word = board.words[i]
        card = _analyse(word)
        board_word = card.shown.upper()
        if part == clue.key:
            what = f"is a part of the visible compound {board_word}"
        elif part in clue.roots:
            what = f'is a form of "{part}", a part of the visible compound {board_word}'
        elif part in card.roots:
            what = f"is built on the visible board word {board_word}"
        else:
            what = f'shares the part "{part}" with the visible board word {board_word}'
        return Verdict(
            False,
            RULE_COMPOUND_PART,
            word,
            f'"{clue.shown}" {what} (rule 3: no part of a compound, nor a word built on one)',
        )
    return _open_compound_violation(clue, board)


def _open_compound_violation(clue: _Text, board: _Board) -> Verdict | None:
    """Rule 3 reversed, for words the lexicon does not list: a compound that contains a visible
    word whole as one of its two parts (firetruck with FIRE; invented: moonsquid with MOON),
    the other part a common word."""
    if clue.open_forms.isdisjoint(board.wholes):
        return None
    hits = []
    for token, head, tail in clue.open_splits:
        for half, other in ((head, tail), (tail, head)):
            shared = _same_word(half) & board.wholes
            if shared and _is_part(other):
                i, form = _first(shared, board.by_whole)
                hits.append((i, form, token, head, tail, half))
    i, form, token, head, tail, half = min(hits)
    word = board.words[i]
    card = _analyse(word)
    board_word = card.shown.upper()
    if form == card.key:
        target = f"the visible board word {board_word}"
    else:
        target = f'"{form}", a word of the visible card {board_word}'
    if half != form:
        target = f'"{half}", a form of {target}'
    subject = f'"{clue.shown}"' if token == clue.key else f'"{token}" in "{clue.shown}"'
    if _known(token):
        what, rule = "a compound", "rule 3: no compound that contains a visible word"
    else:
        what, rule = "an invented compound", "rule 3: no compound, invented or not, that contains a visible word"
    return Verdict(False, RULE_COMPOUND_PART, word, f'{subject} is {what} built on {target} ("{head}" + "{tail}"; {rule})')


def _letters_violation(clue: _Text, options: LegalityOptions, count: int | None) -> Verdict | None:
    shown = clue.shown
    if options.pictures and len(clue.tokens) == 1 and len(clue.key) == 1 and clue.number is None:
        # Word cards: a letter is a clue about meaning ("X: 1" for RAY). Pictures show no written
        # name, so a letter is about the letters of a name ("S: 3", RULES.md §2).
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is a single letter (Pictures §2: clues about the letters in a name are not allowed)',
        )
    forms = clue.forms
    if forms & LETTER_WORDS:
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is about letters (rule 5: clues about spelling are not allowed)',
        )
    if forms & POSITION_WORDS or clue.key in DISTANCE_WORDS:
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is a position word (rule 5: clues about positions on the table are not allowed)',
        )
    if count is not None and (clue.number == count or any(NUMBER_WORDS.get(f) == count for f in forms | {clue.key})):
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is the clue\'s own number {count} (rule 5: the count cannot be the clue)',
        )
    if options.colours_forbidden and forms & COLOUR_WORDS:
        if options.pictures:
            why = "Pictures §2: clues about the colours of the pictures are invalid; the checker cannot see intent"
        else:
            why = "the forbid_colours option refuses colour words"
        return Verdict(False, RULE_PICTURE_APPEARANCE, None, f'"{shown}" is a colour word ({why})')
    if options.pictures:
        if options.forbid_shapes and forms & SHAPE_WORDS:
            return Verdict(
                False,
                RULE_PICTURE_APPEARANCE,
                None,
                f'"{shown}" is a shape word (Pictures option: shape words are forbidden)',
            )
    return None


_ACRONYM_HOW = {
    "dotted": "is an acronym",
    "known": "is an acronym",
    "capitals": "is typed in capitals as an acronym (a word that is none is typed in lower case)",
}


def _violation(clue: _Text, board: _Board, options: LegalityOptions, count: int | None) -> Verdict | None:
    """The first rule the clue breaks (rules in RULES.md order), or None when it is legal."""
    if clue.problem:
        rule, reason = clue.problem
        return Verdict(False, rule, None, reason)
    # a board word first: a visible card typed in capitals is that card, even one the lexicon
    # lacks (hypothesis found TRUNK read as an acronym)
    if not options.pictures or options.strict_captions:
        found = _board_violation(clue, board)
        if found:
            return found
    if clue.acronym and not options.acronyms:
        return Verdict(
            False,
            RULE_NOT_ONE_WORD,
            None,
            f'"{clue.shown.upper()}" {_ACRONYM_HOW[clue.acronym]} (rule 4: acronyms are allowed only as a game option)',
        )
    one_word = clue.place or options.multi_word or (options.proper_names and clue.name)
    if len(clue.tokens) > 1 and not one_word:
        if options.proper_names:
            allowed = "except in place names and, in this game, proper names written as names (James Bond)"
        else:
            allowed = "except in place names, unless the game allows multi-word clues"
        return Verdict(
            False, RULE_NOT_ONE_WORD, None, f'"{clue.shown}" is not one word (rule 4: no spaces or hyphens, {allowed})'
        )
    if clue.foreign:
        rule, reason = clue.foreign
        return Verdict(False, rule, None, reason)
    return _letters_violation(clue, options, count)


def _visible_tuple(visible_words: Sequence[str]) -> tuple[str, ...]:
    if isinstance(visible_words, str):
        raise TypeError("visible_words must be a sequence of words, not one string")
    return tuple(str(w) for w in visible_words)


def check_clue(
    clue: str,
    visible_words: Sequence[str],
    options: LegalityOptions | None = None,
    count: int | None = None,
) -> Verdict:
    """Whether ``clue`` may be given while ``visible_words`` are uncovered, and if not, why.

    ``count`` is the clue's number when known (to refuse "three: 3"); covered words are simply
    left out of ``visible_words`` and so become legal again.

    Limit: translations of a visible word (rule 6) are refused only as foreign words of the six
    CHECKED_LANGUAGES (Spanish, French, German, Italian, Portuguese, Dutch); "ringo" or "neko"
    (Japanese) pass with APPLE or CAT. There is no translator.
    """
    options = options or _DEFAULT_OPTIONS
    if options.lang != "en":
        from ..lang.checks import check_clue_in

        return check_clue_in(options.lang, clue, _visible_tuple(visible_words), options, count)
    found = _violation(_analyse(str(clue)), _board(_visible_tuple(visible_words)), options, count)
    if found:
        return found
    return Verdict(True, None, None, f'"{normalise_word(clue)}" is a legal clue')


def legal_mask(
    candidates: Sequence[str],
    visible_words: Sequence[str],
    options: LegalityOptions | None = None,
) -> list[bool]:
    """``check_clue(c, visible_words, options).legal`` for every candidate, fast.

    Each candidate's analysis is cached across calls and the board is indexed once, so a fixed
    clue vocabulary costs a few set operations per candidate per board.
    """
    options = options or _DEFAULT_OPTIONS
    if options.lang != "en":
        from ..lang.checks import legal_mask_in

        return legal_mask_in(options.lang, candidates, _visible_tuple(visible_words), options)
    board = _board(_visible_tuple(visible_words))
    check_board = not options.pictures or options.strict_captions
    pos_or_letter = POSITION_WORDS | LETTER_WORDS
    if options.colours_forbidden:
        pos_or_letter = pos_or_letter | COLOUR_WORDS
    if options.pictures and options.forbid_shapes:
        pos_or_letter = pos_or_letter | SHAPE_WORDS
    out: list[bool] = []
    append = out.append
    for raw in candidates:
        a = _analyse(raw)
        # Fast path: a plain single word that touches no board key, root, morpheme or whole word.
        if (
            a.problem is None
            and a.foreign is None
            and not a.acronym
            and len(a.tokens) == 1
            and len(a.key) > 1
            and (
                not check_board
                or (
                    a.key not in board.by_key
                    and a.morphemes.isdisjoint(board.morphemes)
                    and a.open_forms.isdisjoint(board.wholes)
                )
            )
            and a.forms.isdisjoint(pos_or_letter)
            and a.key not in DISTANCE_WORDS
        ):
            append(True)
        else:
            append(_violation(a, board, options, None) is None)
    return out
