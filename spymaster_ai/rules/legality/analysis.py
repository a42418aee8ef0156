"""How a clue or a card is read: normalised text, tokens, and the keys the rules compare.

Why a module of its own: every text is analysed once (cached) into its key, roots and
morphemes, and a board is indexed once, so checking a whole vocabulary against a board is a
few set intersections per candidate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..cards import normalise_word
from .compounds import _is_part, _morphemes, _open_split
from .foreign import _foreign
from .forms import _roots, _same_word
from .lexicon import _FUNCTION_WORDS, _MIN_PART, _fold, _lexicon_lemmas
from .place_names import PLACE_NAMES
from .verdicts import RULE_LETTERS_OR_POSITION, RULE_NOT_A_WORD
from .word_tables import KNOWN_ACRONYMS, POSITION_WORDS


_JUNK = re.compile(r"[^a-z \-]")
_DOTTED_ACRONYM = re.compile(r"^(?:[a-z]\.){1,}[a-z]\.?$")
_CAPITALS = re.compile(r"[A-Z]{2,5}")  # an acronym typed as such (FBI, NASA); see KNOWN_ACRONYMS
# Lower-case words a name may hold (Leonardo da Vinci, Statue of Liberty, Ludwig van Beethoven).
_NAME_PARTICLES = frozenset("of the and de da di del della des du la le van von der den bin al y".split())


def _written_as_name(raw: str) -> bool:
    """Several words, each capitalised as typed (James Bond, North Dakota, Jean-Luc Picard).

    No offline lexicon knows proper names of several words (wordfreq is case-folded), so the
    proper_names option reads the spelling: what is written as a name is taken for one.
    """
    words = [w for w in re.split(r"[ \-]+", str(raw).strip()) if w]
    return (
        len(words) > 1
        and words[0][:1].isupper()
        and all(w[:1].isupper() or w.lower() in _NAME_PARTICLES for w in words)
    )


# ---------------------------------------------------------------------------------------------
# Analysis of one clue or card (cached per text)


@dataclass(frozen=True)
class _Text:
    """A normalised clue or card: its words, and the keys the rules compare."""

    shown: str  # normalised text, as given (for messages)
    tokens: tuple[str, ...]  # accent-folded words
    problem: tuple[str, str] | None  # (rule, reason) when it is no word at all
    acronym: str  # how it reads as an acronym: "dotted" (F.B.I.), "capitals" (FBI), "known" (fbi), or ""
    key: str  # the tokens joined: "ice cream", "ice-cream" and "icecream" are one card
    forms: frozenset[str]  # a one-word text with its lemmas and spellings ("rows" -> row); rule 5
    roots: frozenset[str]
    morphemes: frozenset[str]
    foreign: tuple[str, str] | None = None  # (rule, reason): a one-word clue that is a foreign word
    # Unlisted compounds (rule 3 reversed): (word, head, tail) for each word of the text the
    # lexicon does not list that splits into two words (firetruck -> fire, truck), and the
    # forms of every half whose other half is a common word (what a visible word must match).
    open_splits: tuple[tuple[str, str, str], ...] = ()
    open_forms: frozenset[str] = frozenset()
    number: int | None = None  # a clue written in digits ("7", "007"): its value, for the count rule
    place: bool = False  # a multi-word place name (New York): one word for rule 4 (PLACE_NAMES)
    name: bool = False  # several words written as a name (James Bond): the proper_names option


_NONE: frozenset[str] = frozenset()


@lru_cache(maxsize=1 << 17)
def _analyse(raw: str) -> _Text:
    shown = normalise_word(raw)
    text = _fold(shown)
    acronym = ""
    if _DOTTED_ACRONYM.match(text):
        acronym, text = "dotted", text.replace(".", "")
    elif text in KNOWN_ACRONYMS:
        acronym = "known"
    elif _CAPITALS.fullmatch(str(raw).strip()) and text not in _FUNCTION_WORDS and _lexicon_lemmas(text) is None:
        acronym = "capitals"
    if not text:
        return _Text(shown, (), (RULE_NOT_A_WORD, "the clue is empty"), "", "", _NONE, _NONE, _NONE)
    if text.isdecimal():
        # A number is a clue when it is about meaning (RULES.md §4.5: fa "X: 1", vi "B: 2"); only
        # the count itself is refused, by the count rule. It collides with no word of the board.
        number = frozenset({text})
        return _Text(shown, (text,), None, "", text, number, number, number, number=int(text))
    if any(c.isdigit() for c in text):
        reason = f'"{shown}" mixes digits with other characters: a clue is a word, or a number in digits only (rule 5)'
        return _Text(shown, (), (RULE_LETTERS_OR_POSITION, reason), "", "", _NONE, _NONE, _NONE)
    bad = _JUNK.search(text)
    tokens = tuple(re.split(r"[ \-]+", text))
    if bad or any(not t for t in tokens):
        what = f"the character {bad.group()!r}" if bad else "a stray hyphen"
        reason = f'"{shown}" is not a word: it contains {what}; a clue is made of letters only'
        return _Text(shown, (), (RULE_NOT_A_WORD, reason), "", "", _NONE, _NONE, _NONE)
    key = "".join(tokens)
    foreign = None
    if len(tokens) == 1:
        forms = _same_word(key)
        roots, morphemes = _roots(key), _morphemes(key)
        foreign = None if acronym else _foreign(key)
        content = [key]
    else:
        # Single letters are words here too ("x" of X-RAY), except the article and the pronoun.
        content = [t for t in tokens if (len(t) > 1 or t not in "ai") and t not in _FUNCTION_WORDS]
        # A phrase made only of position words ("top left") is about positions as a whole.
        forms = frozenset(tokens[:1]) if all(t in POSITION_WORDS for t in tokens) else _NONE
        roots = frozenset({key})
        morphemes = frozenset({key}).union(*(_morphemes(t) for t in content))
    splits = tuple((t, *s) for t in content if (s := _open_split(t)))
    open_forms = frozenset().union(
        *(_same_word(half) for _, head, tail in splits for half, other in ((head, tail), (tail, head)) if _is_part(other))
    )
    multi = len(tokens) > 1
    place = multi and " ".join(tokens) in PLACE_NAMES
    name = multi and _written_as_name(raw)
    return _Text(shown, tokens, None, acronym, key, forms, roots, morphemes, foreign, splits, open_forms, None, place, name)


@dataclass(frozen=True)
class _Board:
    """The visible words, indexed by key, root and morpheme (first board word wins)."""

    words: tuple[str, ...]
    by_key: dict[str, int]
    by_root: dict[str, int]
    by_morpheme: dict[str, int]
    roots: frozenset[str]
    morphemes: frozenset[str]
    # Each visible word as written (a one-word card, or a word of a multi-word card) in all its
    # forms: what an unlisted compound may not contain whole (rule 3 reversed).
    by_whole: dict[str, int]
    wholes: frozenset[str]


PICTURE_ID_PREFIX = "pic:"


def card_texts(card: str) -> tuple[str, ...]:
    """The words a card stands for. A picture card id ``pic:CAPTION`` (spaces written ``_``,
    a combined card's captions joined by ``+``) stands for its captions, so the Pictures
    house option ``strict_captions`` can forbid them; any other card stands for itself."""
    text = str(card)
    if not text.lower().startswith(PICTURE_ID_PREFIX):
        return (text,)
    return tuple(part.replace("_", " ") for part in text[len(PICTURE_ID_PREFIX):].split("+") if part)


@lru_cache(maxsize=256)
def _board(visible: tuple[str, ...]) -> _Board:
    by_key: dict[str, int] = {}
    by_root: dict[str, int] = {}
    by_morpheme: dict[str, int] = {}
    by_whole: dict[str, int] = {}
    for i, card in enumerate(visible):
        for word in card_texts(card):
            a = _analyse(word)
            if a.problem:
                continue
            by_key.setdefault(a.key, i)
            for r in a.roots:
                by_root.setdefault(r, i)
            for m in a.morphemes:
                by_morpheme.setdefault(m, i)
            for t in a.tokens:
                if len(t) >= _MIN_PART and t not in _FUNCTION_WORDS:
                    for f in _same_word(t):
                        by_whole.setdefault(f, i)
    return _Board(
        visible, by_key, by_root, by_morpheme, frozenset(by_root), frozenset(by_morpheme), by_whole, frozenset(by_whole)
    )

