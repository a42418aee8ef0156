"""Forgiving reading of what the human types: card names, clues and the few commands.

Why: a player types fast and in any case. A card may be named by a unique start of its
name (or of one word of a picture's caption) of at least three letters; an unknown,
ambiguous or too short name gets a message that says which, and nothing is played. A typo gets the closest card that may be chosen as
a suggestion ("Did you mean DIARY?"), never played for the player: a wrong guess costs a turn.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Collection, Iterable, Mapping, Optional, Sequence

from ..rules.cards import normalise_word, quoted
from ..rules.moves import Clue

__all__ = ["COMMANDS", "InputError", "command_of", "match_card", "names_as_typed", "parse_clue", "read_spelling"]

# What a typed word means as a command (only when it is the whole line).
COMMANDS: dict[str, str] = {
    "stop": "stop",
    "pass": "stop",
    "end": "stop",
    "help": "help",
    "?": "help",
    "h": "help",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "board": "board",
    "why": "why",
    "ai": "handover",
    "you": "handover",
}

_UNLIMITED = ("unlimited", "inf", "infinity", "∞")
# Counts in ASCII digits only: \d would also take Arabic-Indic or Persian digits (OCEAN ٢),
# which the rules' clue counts are not written in; such a count gets a message of its own.
_CLUE = re.compile(r"^(?P<word>.+?)\s*[:,=]?\s+(?P<num>[0-9]+|unlimited|inf|infinity|∞)$|^(?P<word2>.+?)[:,=](?P<num2>[0-9]+|unlimited|inf|infinity|∞)$")
_LAST_DIGITS = re.compile(r"[\s:,=](\d+)$")
# A card is played by a start of its name only from this many letters on (or by its whole
# name, or a whole word of a caption): one letter, C for CANDLE or O for ONION, is a slip of
# the keyboard as often as a choice, and a wrong touch costs a turn or the game.
MIN_PREFIX = 3


class InputError(ValueError):
    """Typed input that cannot be played as it stands; the message says why."""


def _key(text: str) -> str:
    """Comparable form: case-folded, hyphens/underscores/plus signs as spaces, single spaces.

    Case folding, not lower case: a card FUßBALL is shown as FUSSBALL (str.upper), so that
    spelling, and fußball, must both name it."""
    return normalise_word(re.sub(r"[-_+]", " ", str(text))).casefold()


def command_of(text: str) -> Optional[str]:
    """The command a whole line names ("stop", "help", "quit", "board"), or None."""
    return COMMANDS.get(normalise_word(text))


def match_card(
    text: str,
    cards: Sequence[str],
    allowed: Collection[str],
    labels: Mapping[str, str] | None = None,
    why_not: Mapping[str, str] | None = None,
    fold: Callable[[str], str] | None = None,
) -> str:
    """The card of ``allowed`` that ``text`` names, else :class:`InputError` saying why.

    Tiers, first hit wins: the whole name; one whole word of the name (picture captions);
    a prefix (:data:`MIN_PREFIX` letters or more) of the name or of one of its words; then, with ``fold`` (a language's spelling
    fold, German ``ü -> ue``), the same three on folded spellings, so BRUECKE names BRÜCKE.
    More than one card in a tier is ambiguous. ``why_not`` maps cards that are on the board
    but not allowed to the reason (shown when the text names one of them).
    """
    labels = labels or {}
    why_not = why_not or {}
    typed = _key(text)
    if not typed:
        raise InputError("type a card name")
    names = {c: _key(labels.get(c, c)) for c in cards}
    words = {c: n.split() for c, n in names.items()}
    short = len(typed) < MIN_PREFIX
    tiers = [
        lambda c: names[c] == typed,
        lambda c: typed in words[c] and " " not in typed,
        lambda c: not short and (names[c].startswith(typed) or any(w.startswith(typed) for w in words[c])),
    ]
    if fold is not None:
        typed_f = fold(typed)
        names_f = {c: fold(n) for c, n in names.items()}
        words_f = {c: n.split() for c, n in names_f.items()}
        tiers += [
            lambda c: names_f[c] == typed_f,
            lambda c: typed_f in words_f[c] and " " not in typed_f,
            lambda c: not short and (names_f[c].startswith(typed_f) or any(w.startswith(typed_f) for w in words_f[c])),
        ]
    for tier in tiers:
        hits = [c for c in cards if tier(c)]
        if not hits:
            continue
        ok = [c for c in hits if c in allowed]
        if len(ok) == 1:
            return ok[0]
        if len(ok) > 1:
            shown = ", ".join(labels.get(c, c).upper() for c in ok)
            raise InputError(f"{quoted(text.strip())} is ambiguous: it could be {shown}; type more letters")
        card = hits[0]
        reason = why_not.get(card, "cannot be chosen now")
        raise InputError(f"{labels.get(card, card).upper()} {reason}")
    if short and any(names[c].startswith(typed) or any(w.startswith(typed) for w in words[c]) for c in cards):
        raise InputError(f"{quoted(text.strip())} is too short to name a card: type at least {MIN_PREFIX} letters "
                         "of its name (or the whole name); nothing was played")
    message = f"{quoted(text.strip())} is not a card on this board"
    near = _closest(typed, [c for c in cards if c in allowed], names, words)
    if near is not None:
        message += f". Did you mean {labels.get(near, near).upper()}?"
    raise InputError(message + " (type 'board' to see it again)")


# How alike (difflib's ratio) a typed name must be to a card's to be suggested: DAIRY for
# DIARY is 0.8; CLEAR for POLAR (of POLAR BEAR), 0.6, is no typo.
TYPO_CUTOFF = 0.75


def _closest(typed: str, cards: Sequence[str], names: Mapping[str, str], words: Mapping[str, list]) -> Optional[str]:
    """The card whose name, or one word of it that no other card shares, is spelt most like
    ``typed`` (difflib's ratio, at least :data:`TYPO_CUTOFF`), or None."""
    owners: dict[str, set[str]] = {}
    for card in cards:
        for spelling in {names[card], *words[card]}:
            owners.setdefault(spelling, set()).add(card)
    spellings = sorted(s for s, who in owners.items() if len(who) == 1)
    close = difflib.get_close_matches(typed, spellings, n=1, cutoff=TYPO_CUTOFF)
    return next(iter(owners[close[0]])) if close else None


def parse_clue(text: str, max_count: int) -> Clue:
    """A clue typed as "word 2", "word: 2", "word,2", "word 0" or "word unlimited"."""
    line = " ".join(str(text).strip().split())
    m = _CLUE.match(line)
    other = _LAST_DIGITS.search(line)
    if not m and other and not other.group(1).isascii():
        raise InputError(f"{quoted(line)}: write the clue's number with the digits 0-9, e.g. 'ocean 2'")
    if not m:
        raise InputError(
            f"{quoted(line)} is not a clue: type a word and a number, e.g. 'ocean 2' (or 'ocean 0', 'ocean unlimited')"
        )
    word = (m.group("word") or m.group("word2")).strip().strip(":,=").strip()
    num = (m.group("num") or m.group("num2")).lower()
    if not word:
        raise InputError("a clue needs a word before its number")
    if num in _UNLIMITED:
        return Clue(word, 0, True)
    count = int(num)
    if count > max_count:
        raise InputError(f"the number must be at most {max_count} (the cards left); got {count}")
    return Clue(word, count)


def names_as_typed(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as typed (whole, a word, or a start of either), with
    no spelling fold: when it does not, the person is told how the typing was read."""
    typed, key = _key(text), _key(name)
    return key.startswith(typed) or any(w.startswith(typed) for w in key.split())


# A keyboard spelling is read as the umlaut word when that is this much more frequent
# (wordfreq Zipf): MAEDCHEN (2.8) -> MÄDCHEN (5.2), SUESSIGKEIT (0) -> SÜSSIGKEIT (2.9); QUELLE stays.
SPELLING_MARGIN = 1.0


def read_spelling(word: str, known: Iterable[str], fold: Callable[[str], str],
                  spellings: Callable[[str], list[str]] | None = None,
                  frequency: Callable[[str], float] | None = None) -> Optional[str]:
    """The word that ``word`` spells with a keyboard's substitutes (German "ue" for "ü", "ss"
    for "ß": SUESSIGKEIT for SÜSSIGKEIT), or None when it is read as typed.

    First a ``known`` word (board cards first, then the clue vocabulary by frequency) whose
    ``fold`` (rules.lang.normalise.de_fold) is the typed word's, unless the typed word is
    itself known; else, with ``spellings`` and ``frequency``, the most frequent other spelling
    when it is a word (Zipf >= 1.5) at least SPELLING_MARGIN more frequent than the typing."""
    typed = _key(word)
    if not typed or " " in typed:
        return None
    folded = fold(typed)
    found = None
    for candidate in known:
        key = _key(candidate)
        if key == typed:
            return None
        if found is None and fold(key) == folded:
            found = candidate
    if found is not None or spellings is None or frequency is None:
        return found
    best = max(spellings(typed), key=frequency, default=None)
    if best is not None and frequency(best) >= max(1.5, frequency(typed) + SPELLING_MARGIN):
        return best
    return None
