"""The English lexicon the rules consult: wordfreq frequencies and lemminflect lemmas.

Why a module of its own: every rule asks the same few questions ("is this a word?", "how
common is it?", "what are its dictionary forms?"), and the answers are cached here once.
Only the standard library, lemminflect and wordfreq are used.
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

import lemminflect
import wordfreq

_MIN_PART = 3  # letters in a compound part or a stem ("ear" + "thquake" is no split)

# Function words are never compound parts nor derivational stems: "her" is no part of herring,
# nor "some" of handsome, nor "less" of unless.
_FUNCTION_WORDS: frozenset[str] = frozenset(
    """the and but nor for per was were are has had did does who whom whose what which how why
    when where her hers his him she they them their theirs our ours your yours its you me my
    mine not this that these those than then some any each every all both either neither
    with from into onto upon unto via less more most much many few such same other own
    very too also just only ever never yet still here there thus hence whether while whilst
    till until since upon amid among against toward towards beneath within without""".split()
)

# ---------------------------------------------------------------------------------------------
# Lexicon helpers (cached; wordfreq's table is loaded once, lazily)


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, float]:
    return wordfreq.get_frequency_dict("en")


def _zipf(word: str) -> float:
    """wordfreq's Zipf frequency of a lower-case word (0 when unattested)."""
    f = _frequencies().get(word)
    return round(math.log10(f) + 9.0, 2) if f else 0.0


@lru_cache(maxsize=1 << 17)
def _lexicon_lemmas(word: str) -> frozenset[str] | None:
    """All lemmas lemminflect knows for ``word`` (None when it is not in the lexicon).

    Cached: lemminflect deep-copies its entry on every call, the main cost of a cold check.
    """
    found = lemminflect.getAllLemmas(word)
    if not found:
        return None
    return frozenset(f.lower() for forms in found.values() for f in forms if f.isalpha())


def _is_lemma(word: str) -> bool:
    """A dictionary form in lemminflect's lexicon ("dive" yes; "lit", a form of light, no)."""
    lemmas = _lexicon_lemmas(word)
    return word not in _FUNCTION_WORDS and lemmas is not None and word in lemmas


def _known(word: str) -> bool:
    """A word of English: in lemminflect's lexicon or attested by wordfreq (not "moonsquid")."""
    return _lexicon_lemmas(word) is not None or _zipf(word) > 0


def _lexical(word: str) -> bool:
    """A content word of lemminflect's English lexicon (not a function word)."""
    return word not in _FUNCTION_WORDS and _lexicon_lemmas(word) is not None


def _fold(text: str) -> str:
    """Drop accents (café -> cafe) so spelling with or without diacritics matches."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Lemma links in lemminflect's data that no dictionary gives (taxes is not a plural of taxi).
_BAD_LEMMAS: dict[str, frozenset[str]] = {"taxes": frozenset({"taxis", "taxi"}), "dive": frozenset({"diva"})}


@lru_cache(maxsize=1 << 17)
def _lemmas(word: str) -> frozenset[str]:
    """Dictionary forms of an inflected word (broken -> break), without the word itself."""
    lemmas = _lexicon_lemmas(word)
    if not lemmas:
        return frozenset()
    return lemmas - {word} - _BAD_LEMMAS.get(word, frozenset())
