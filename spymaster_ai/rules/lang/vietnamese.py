"""Vietnamese words: one word may be several syllables written apart ("cá mập", shark), and a
syllable that is itself a word is a part of it (RULES.md §4: "a syllable-word of a visible
multi-syllable card is a part"). Tone marks are spelling ("ma" is not "má"); only where the
mark sits ("hoà"/"hòa") is a spelling variant.

What is one word comes from underthesea's Viet74K dictionary, read from the installed
package's data file (no import of underthesea, no model load).
"""

from __future__ import annotations

import importlib.util
import re
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


def is_word(text: str) -> bool:
    return text in dictionary()


@lru_cache(maxsize=1 << 17)
def analyse(text: str) -> LangWord:
    shown = normalise("vi", text)
    tokens = tuple(t for t in re.split(r"[ \-]+", shown) if t)
    key = " ".join(tokens)
    forms = frozenset({vi_tone_key(key)})
    parts = frozenset(vi_tone_key(t) for t in tokens if is_word(t)) if len(tokens) > 1 else frozenset()
    one_word = len(tokens) == 1 or is_word(key)
    known = is_word(key)  # Latin letters read as Vietnamese only when the dictionary has them
    return LangWord(shown, key, tokens, forms, parts - forms, one_word, known, spelling=vi_tone_key(key))
