"""Ensembles of models: similarity only, in standard-deviation units.

Each member's cosine is first standardised with that member's own scale
(``similarity_stats``: mean and spread of similarities between distinct clue words), so a
model whose cosines crowd near 0.85 weighs as much as one whose cosines spread from -0.3
to 1. 0 then means "as related as two random words", 3 means "far more related than usual".
The standardisation is a fixed affine map per model, so a pair of words gets the same
score whatever else is in the query.

- ``ensemble:A+B+...``  the mean of the members' standardised similarities.
- ``consensus:A+B+...`` a soft minimum: ``-t * log(mean(exp(-z_i / t)))`` with t = 0.5. A
  pair scores high only when every model finds it related (t -> 0 is the strict minimum,
  large t the mean). A spymaster that uses it as its partner model keeps clues that several
  guessers would all understand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .base import Embedding, EmbeddingError, clean_words

CONSENSUS_TEMPERATURE = 0.5


class EnsembleEmbedding(Embedding):
    """Mean ("ensemble") or soft-min ("consensus") of standardised member similarities."""

    def __init__(self, members: Sequence[Embedding], mode: str = "ensemble",
                 temperature: float = CONSENSUS_TEMPERATURE) -> None:
        if mode not in ("ensemble", "consensus"):
            raise EmbeddingError(f"unknown ensemble mode {mode!r} (use 'ensemble' or 'consensus')")
        if len(members) < 2:
            raise EmbeddingError(f"{mode}: needs at least two models, got {len(members)}")
        names = [m.name for m in members]
        if len(set(names)) != len(names):
            raise EmbeddingError(f"{mode}: a model is listed twice in {'+'.join(names)}")
        if temperature <= 0:
            raise EmbeddingError(f"{mode}: temperature must be positive, got {temperature}")
        self.members = tuple(members)
        self.mode = mode
        self.temperature = float(temperature)
        self.name = f"{mode}:{'+'.join(names)}"
        member_vocabs = [set(m.clue_vocabulary()) for m in self.members[1:]]
        self._vocab = tuple(w for w in self.members[0].clue_vocabulary()
                            if all(w in v for v in member_vocabs))
        if not self._vocab:
            raise EmbeddingError(f"{self.name}: the models share no clue word")
        self._stats = [m.similarity_stats() for m in self.members]

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocab

    def knows(self, word: str) -> bool:
        return all(m.knows(word) for m in self.members)

    def reads(self, word: str) -> bool:
        return all(m.reads(word) for m in self.members)

    def unreadable(self, word: str) -> bool:
        return any(m.unreadable(word) for m in self.members)

    def standardised(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """(members, rows, cols) float32: each member's similarity in its own std units."""
        if isinstance(rows, str) or isinstance(cols, str):
            clean_words(rows if isinstance(rows, str) else cols)  # raises the usual error
        if rows is not self._vocab and len(rows) == len(self._vocab) and tuple(rows) == self._vocab:
            rows = self._vocab  # members cache their vectors of this exact tuple
        out = np.empty((len(self.members), len(rows), len(cols)), dtype=np.float32)
        for k, (member, (mean, std)) in enumerate(zip(self.members, self._stats)):
            out[k] = (member.similarity(rows, cols) - np.float32(mean)) / np.float32(std)
        return out

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        z = self.standardised(rows, cols)
        if self.mode == "ensemble":
            return z.mean(axis=0, dtype=np.float32)
        t = np.float32(self.temperature)
        # Soft minimum via log-mean-exp of -z/t, shifted by the row max for stability.
        scaled = -z / t
        top = scaled.max(axis=0)
        lme = top + np.log(np.exp(scaled - top).mean(axis=0, dtype=np.float32))
        return (-t * lme).astype(np.float32)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "members": [m.name for m in self.members],
                "member_scales": {m.name: {"mean": round(s[0], 4), "std": round(s[1], 4)}
                                  for m, s in zip(self.members, self._stats)},
                "temperature": self.temperature if self.mode == "consensus" else None}
