"""Persian words: normalised first (yeh, kaf, diacritics, ZWNJ: :mod:`.normalise`), then plural,
possessive and comparative suffixes, written joined or after a ZWNJ, are forms (RULES.md §4).

A suffix is taken off only when what is left is a word of hazm's lexicon (shipped as
``data/lexicon_fa.tsv``), and, when written joined, only when the whole is no lemma of that
lexicon: "باران" (rain) is a word of its own, not a plural of "بار" (load), while "کتابها" and
"کتاب‌هایم" are forms of "کتاب". A compound written with a ZWNJ ("کتاب‌خانه") has the words on
either side as parts; one written joined ("کتابخانه") is split only into two common words
(wordfreq Zipf >= JOINED_PART_ZIPF) of at least three letters, since short Persian words hide
inside many longer ones.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from .normalise import ZWNJ, fa_key, normalise
from .words import LangWord, _data_lines

JOINED_PART_ZIPF = 4.0
# A joined compound's first part may be a short common noun (گل in گلخانه) when this common.
SHORT_HEAD_ZIPF = 4.5
# Longest first: possessives on plurals, plurals, possessives and the indefinite, comparatives.
_SUFFIXES = (
    "هایمان", "هایتان", "هایشان", "هایم", "هایت", "هایش", "های", "ها",
    "یمان", "یتان", "یشان", "مان", "تان", "شان", "ترین", "تر",
    "گان", "یان", "ان", "ات", "ای", "ام", "ی", "م", "ت", "ش",
)


@lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """hazm's words: key -> "L" (tagged as a content word), "PL" (a plural) or "" (untagged)."""
    out = {}
    for line in _data_lines("lexicon_fa.tsv"):
        key, _, tag = line.partition("\t")
        out[key] = tag
    return out


def _strippable(key: str, suffix: str) -> bool:
    """Whether ``suffix`` may come off ``key``: never from a tagged lemma ("باران", "تنها"),
    only the longer suffixes from an untagged word ("ماهی" is fish, not a moon's), any from
    a plural or a word hazm does not list."""
    tag = lexicon().get(key)
    if tag == "L":
        return False
    return tag != "" or len(suffix) >= 2


def _stems(shown: str, guard: bool = True) -> set[str]:
    """Keys of the words left after taking off suffixes, one or more (کتاب‌هایم -> کتاب);
    ``guard=False`` strips a lexicon lemma too (a compound's piece: "زمینی" in "سیب‌زمینی")."""
    out: set[str] = set()
    frontier = [shown]
    while frontier:
        word = frontier.pop()
        head, zwnj, tail = word.rpartition(ZWNJ)
        pieces = [(head, tail)] if zwnj and fa_key(tail) in _SUFFIXES else []
        key = fa_key(word)
        pieces += [(word[: -len(s)], s) for s in _SUFFIXES
                   if key.endswith(s) and word.endswith(s) and (not guard or _strippable(key, s))]
        if key.endswith("گان") and not any(s == "گان" for _, s in pieces):  # ستارگان -> ستاره: the گ/ه plural is never a word's own ending
            pieces.append((word[:-3], "گان"))
        for stem, suffix in pieces:
            stem = stem.rstrip(ZWNJ)
            candidates = [stem] + ([stem + "ه"] if suffix == "گان" else [])
            for candidate in candidates:
                ckey = fa_key(candidate)
                if len(ckey) >= 2 and ckey in lexicon() and ckey not in out:
                    out.add(ckey)
                    frontier.append(candidate)
    return out


def _joined_parts(key: str) -> set[str]:
    out = set()
    for cut in range(2, len(key) - 2):
        head, tail = key[:cut], key[cut:]
        head_zipf = SHORT_HEAD_ZIPF if cut == 2 else JOINED_PART_ZIPF
        if zipf_frequency(head, "fa") >= head_zipf and zipf_frequency(tail, "fa") >= JOINED_PART_ZIPF:
            if head in lexicon() and tail in lexicon():
                out |= {head, tail}
    return out


@lru_cache(maxsize=1 << 17)
def analyse(text: str) -> LangWord:
    shown = normalise("fa", text)
    tokens = tuple(t for t in re.split(r"[ \-]+", shown) if t)
    key = fa_key(shown).replace(" ", "")
    forms = frozenset({key} | _stems(shown))
    parts: set[str] = set()
    pieces = [p for t in tokens for p in t.split(ZWNJ) if p]
    if len(pieces) > 1:
        for piece in pieces:
            pkey = fa_key(piece)
            if pkey not in _SUFFIXES and pkey in lexicon():
                parts |= {pkey} | _stems(piece, guard=False)
    if len(pieces) == 1:
        parts |= _joined_parts(key)
    persian_script = not re.search("[a-z]", key)
    known = persian_script and (key in lexicon() or zipf_frequency(key, "fa") > 0 or bool(_stems(shown)))
    return LangWord(shown, key, tokens, forms, frozenset(parts - forms), len(tokens) == 1, known, spelling=key)
