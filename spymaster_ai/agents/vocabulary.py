"""The words a spymaster may say, and how common each one is.

Why a separate step: the clue vocabulary is fixed for an agent's lifetime, so filtering it
(one plain word, known to every model the agent consults) and looking up its
frequency prior happen once, not per game or per clue.
"""

from __future__ import annotations

from typing import Iterable, Optional, Protocol, Sequence

import numpy as np
from wordfreq import zipf_frequency


class SimilarityModel(Protocol):
    """What the agents need from an embedding (``spymaster_ai.embeddings`` backends qualify)."""

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray: ...

    def clue_vocabulary(self) -> tuple[str, ...]: ...

    def knows(self, word: str) -> bool: ...


def is_clue_shaped(word: str) -> bool:
    """A plain lower-case ASCII word of two letters or more.

    Single letters and digits are never clues (RULES.md §4.5). Stop words are the
    vocabulary's business (``spymaster_ai.embeddings`` filters its shared clue vocabulary).
    """
    return len(word) >= 2 and word.isascii() and word.isalpha() and word.islower()


def clue_candidates(models: Sequence[SimilarityModel], size: Optional[int] = None) -> tuple[str, ...]:
    """The first ``size`` clue-shaped words of ``models[0]``'s vocabulary that every model knows."""
    if not models:
        raise ValueError("need at least one embedding")
    out: list[str] = []
    seen: set[str] = set()
    for word in models[0].clue_vocabulary():
        word = word.strip()
        if word in seen or not is_clue_shaped(word):
            continue
        if all(m.knows(word) for m in models[1:]):
            out.append(word)
            seen.add(word)
            if size is not None and len(out) >= size:
                break
    if not out:
        raise ValueError("no clue-shaped word is known to every model")
    return tuple(out)


def zipf_prior(words: Iterable[str], low: float = 2.5, high: float = 5.5) -> np.ndarray:
    """How common each word is, from 0 (Zipf <= ``low``, rare) to 1 (Zipf >= ``high``).

    Common words are the ones a human partner knows and reads the same way; rare words
    that an embedding happens to place well are often misread.
    """
    z = np.fromiter((zipf_frequency(w, "en") for w in words), dtype=np.float64)
    return np.clip((z - low) / (high - low), 0.0, 1.0).astype(np.float32)
