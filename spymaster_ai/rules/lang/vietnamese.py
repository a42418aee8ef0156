"""Vietnamese words: one word may be several syllables written apart ("cá mập", shark).

RULES.md §4 (vi): a syllable-word of a visible multi-syllable card is a part (ĐỘNG ĐẤT: neither
"động" nor "đất"), and a word that contains a whole card is built on it (GÀ -> "gà trống"). So a
word's ``parts`` are its proper runs of syllables (every single syllable, and "máy bay" in
"máy bay chiến đấu"), and the checker compares a clue with a card one way each: the clue is a
run of the card, or the card a run of the clue. Two words that merely share a syllable are
different words ("phòng ngủ" with XÀ PHÒNG, "mã số" with HÀ MÃ): nearly every Vietnamese word
shares a syllable with something, so parts never meet parts here (:data:`SHARED_PARTS_COLLIDE`
in :mod:`.checks`). Tone marks are spelling ("ma" is not "má"); only where the mark sits
("hoà"/"hòa") is a spelling variant. A clue typed without any marks ("tien") is read as the
word it most likely is (:func:`toneless_reading`), never as English.

What is one word comes from underthesea's Viet74K dictionary, read from the installed
package's data file (no import of underthesea, no model load), and from the speaker's glossary
(``glossary_vi.tsv``: its cards, clue words and the words a person may type, among them places
and everyday compounds Viet74K lacks: ĐÀ LẠT, HÀ NỘI, THÚ CƯNG, HÀNH LÝ).
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from .normalise import normalise, vi_tone_key
from .words import LangWord


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """Viet74K: the words of Vietnamese, normalised (many of two or three syllables)."""
    spec = importlib.util.find_spec("underthesea")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("Vietnamese needs underthesea's dictionary: pip install underthesea")
    path = Path(spec.submodule_search_locations[0]) / "corpus" / "data" / "Viet74K.txt"
    return frozenset(normalise("vi", line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


# Everyday compounds Viet74K lacks (each one word to a speaker; found writing the §4 tests).
EXTRA_WORDS = frozenset(["giao hàng", "phòng tắm", "gửi hàng", "nhận hàng"])


def is_word(text: str) -> bool:
    from .words import glossary_words

    return text in dictionary() or text in EXTRA_WORDS or text in glossary_words("vi")


def _runs(tokens: tuple[str, ...]) -> frozenset[str]:
    """The tone keys of every proper run of consecutive syllables (single syllables included)."""
    n = len(tokens)
    return frozenset(vi_tone_key(" ".join(tokens[i:j])) for i in range(n) for j in range(i + 1, n + 1) if j - i < n)


_MARKS = re.compile("[\u0300-\u036f]")


def strip_marks(text: str) -> str:
    """``text`` with every diacritic taken off (tone marks, â ê ô ơ ư ă, and đ -> d): how a
    keyboard without Vietnamese input types it."""
    decomposed = unicodedata.normalize("NFD", normalise("vi", text))
    return _MARKS.sub("", decomposed).replace("đ", "d")


@lru_cache(maxsize=1)
def _by_stripped() -> dict[str, tuple[str, ...]]:
    from .words import clue_words

    out: dict[str, list[str]] = {}
    for word in dict.fromkeys([*clue_words("vi"), *dictionary(), *EXTRA_WORDS]):
        out.setdefault(strip_marks(word), []).append(word)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=1 << 14)
def toneless_reading(text: str, cards: tuple[str, ...] = ()) -> str | None:
    """The Vietnamese word a clue typed without marks most likely is ("tien" -> "tiền"), or None.

    Only a clue with no diacritic at all that is no Vietnamese word as typed ("ma" is one, and
    stays "ma") is read; its reading is the most frequent (wordfreq, vi) of the dictionary
    words, clue words and ``cards`` that it spells without their marks."""
    shown = normalise("vi", text)
    if not shown or strip_marks(shown) != shown or is_word(shown) or not re.fullmatch(r"[a-z]+(?: [a-z]+)*", shown):
        return None
    from wordfreq import zipf_frequency

    found = list(_by_stripped().get(shown, ()))
    found += [c for c in map(lambda w: normalise("vi", w), cards) if strip_marks(c) == shown and c not in found]
    if not found:
        return None
    return max(found, key=lambda w: (zipf_frequency(w, "vi"), w in cards))


@lru_cache(maxsize=1 << 17)
def analyse(text: str) -> LangWord:
    shown = normalise("vi", text)
    tokens = tuple(t for t in re.split(r"[ \-]+", shown) if t)
    key = " ".join(tokens)
    forms = frozenset({vi_tone_key(key)})
    parts = _runs(tokens)
    one_word = len(tokens) == 1 or is_word(key)
    known = is_word(key)  # Latin letters read as Vietnamese only when the dictionary has them
    return LangWord(shown, key, tokens, forms, parts - forms, one_word, known, spelling=vi_tone_key(key))
