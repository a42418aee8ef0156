"""A dictionary-backed embedding: hand-made vectors, no model files.

Why: agent scoring must be testable where the right clue is known by construction, and a
researcher writing a custom agent needs an embedding that loads instantly. It offers the same
methods the agents use from a real backend (``similarity``, ``clue_vocabulary``, ``knows``,
``vectors``), so anything that works on it works on the packaged models.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np

from ..embeddings.base import Embedding, EmbeddingError


class ToyEmbedding(Embedding):
    """Cosine similarity over explicitly given vectors.

    ``vectors`` maps each known word to its vector; ``vocabulary`` is the clue vocabulary
    (default: every known word, in the mapping's order).
    """

    def __init__(
        self,
        vectors: Mapping[str, Sequence[float]],
        vocabulary: Optional[Sequence[str]] = None,
        name: str = "toy",
    ) -> None:
        if not vectors:
            raise ValueError("a toy embedding needs at least one vector")
        self.name = name
        self._index = {w.lower(): i for i, w in enumerate(vectors)}
        matrix = np.asarray([list(v) for v in vectors.values()], dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        if np.any(norms == 0):
            raise ValueError("toy vectors must be non-zero")
        self._unit = matrix / norms
        vocab = tuple(w.lower() for w in (vocabulary if vocabulary is not None else vectors))
        unknown = [w for w in vocab if w not in self._index]
        if unknown:
            raise ValueError(f"vocabulary words without a vector: {unknown[:5]}")
        self._vocabulary = vocab

    def knows(self, word: str) -> bool:
        return word.lower() in self._index

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocabulary

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``words`` (an EmbeddingError names the first unknown word)."""
        try:
            rows = [self._index[w.lower()] for w in words]
        except KeyError as exc:
            raise EmbeddingError(f"the toy embedding {self.name!r} cannot embed {exc.args[0]!r}") from None
        return self._unit[rows]

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """Cosine similarity, shape (len(rows), len(cols)), float32."""
        return (self.vectors(rows) @ self.vectors(cols).T).astype(np.float32)

    def similarity_stats(self) -> tuple[float, float]:
        """(mean, std) of the similarity between distinct known words (a toy has few clue words)."""
        sims = self._unit @ self._unit.T
        off = sims[~np.eye(len(sims), dtype=bool)]
        std = float(off.std()) if off.size else 1.0
        return (float(off.mean()) if off.size else 0.0, std if std > 0 else 1.0)

    def __repr__(self) -> str:
        return f"ToyEmbedding({self.name!r}, {len(self._index)} words)"
