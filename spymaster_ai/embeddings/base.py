"""The one small interface every embedding backend implements.

Agents only ever ask three things of a model: which clue words it can score, whether it
knows a word natively, and a similarity matrix between two word lists. Backends with real
vectors (every single model) also expose unit vectors; ensembles only expose similarities.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from ..rules.cards import normalise_word

# How many distinct clue words are sampled to calibrate a model's similarity scale.
CALIBRATION_SAMPLE = 1000


class EmbeddingError(Exception):
    """Unknown backend name, missing model package (with the pip command), bad word, ..."""


def clean_words(words: Sequence[str] | str) -> list[str]:
    """Normalise words as the rules do (trim, lower case, single spaces); refuse empty ones.

    A bare string is refused too: ``similarity("apple", ...)`` would silently mean five
    one-letter words.
    """
    if isinstance(words, str):
        raise EmbeddingError(f"expected a sequence of words, got the string {words!r}")
    out = []
    for word in words:
        if not isinstance(word, str):
            raise EmbeddingError(f"cannot embed {word!r}: not a string")
        norm = normalise_word(word)
        if not norm:
            raise EmbeddingError(f"cannot embed {word!r}: empty word")
        out.append(norm)
    return out


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (float32); an all-zero row stays zero."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


class TupleRowCache:
    """Rows computed for recent long word tuples, keyed by the tuple's identity, so that callers
    who keep passing the same tuple (an ensemble's joint vocabulary, an agent's filtered
    vocabulary) pay for its rows once. Not thread-safe: callers hold their model's lock."""

    def __init__(self, size: int = 4, min_length: int = 256) -> None:
        self.size, self.min_length = size, min_length
        self._entries: OrderedDict[int, tuple[tuple[str, ...], Any]] = OrderedDict()

    def applies(self, words: Sequence[str]) -> bool:
        return isinstance(words, tuple) and len(words) >= self.min_length

    def get(self, words: tuple[str, ...]) -> Any:
        """The rows stored for this very tuple (not a recycled id), or None."""
        hit = self._entries.get(id(words))
        if hit is None or hit[0] is not words:
            return None
        self._entries.move_to_end(id(words))
        return hit[1]

    def put(self, words: tuple[str, ...], rows: Any) -> None:
        self._entries[id(words)] = (words, rows)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


class Embedding(ABC):
    """A word-similarity model: clue vocabulary, native-word test, similarity matrix."""

    name: str
    # The language of the clue vocabulary (set by the registry; rules.lang.LANGUAGES).
    lang: str = "en"
    # Whether a phrase is read as a phrase ("shaved ice"), not as its words' average (a
    # sentence model does; word vectors and bags of tokens do not).
    reads_phrases: bool = False

    @abstractmethod
    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """float32 (len(rows), len(cols)) cosine-like similarity; any non-empty string works."""

    @abstractmethod
    def clue_vocabulary(self) -> tuple[str, ...]:
        """Candidate clue words this backend can score (shared vocabulary ∩ native words)."""

    @abstractmethod
    def knows(self, word: str) -> bool:
        """True when the word is embedded natively rather than through a fallback."""

    def unreadable(self, word: str) -> bool:
        """True when the model knows no part of the word, so its vector is a stand-in hashed
        from the spelling (:func:`.keyed_vectors.hashed_vector`): similarities to it are noise,
        which a person asking about such a card should be told. False for models that read any
        text (sentence encoders)."""
        return False

    def reads(self, word: str) -> bool:
        """True when this model's similarities for ``word`` carry its meaning: the word is
        native (:meth:`knows`), or the model builds it from parts the way it embeds any text.
        A spymaster's partner models only have to read a clue word, not know it."""
        return self.knows(word)

    def clue_zipf(self) -> np.ndarray:
        """Zipf frequency of each clue_vocabulary() word (float32), so agents can prefer common words."""
        cached = getattr(self, "_clue_zipf", None)
        if cached is None:
            from .vocabulary import zipf_frequencies

            cached = zipf_frequencies(self.clue_vocabulary(), self.lang)
            cached.setflags(write=False)
            self._clue_zipf = cached
        return cached

    def similarity_stats(self) -> tuple[float, float]:
        """(mean, std) of the similarity between distinct clue words: the model's own scale.

        Used to standardise similarities so that models with different scales (GloVe cosines
        spread widely, E5 cosines sit near 0.85) can be averaged or compared. Computed once
        on an evenly spaced, deterministic sample of the clue vocabulary.
        """
        cached = getattr(self, "_similarity_stats", None)
        if cached is None:
            vocab = self.clue_vocabulary()
            if len(vocab) < 2:
                raise EmbeddingError(f"{self.name}: clue vocabulary too small to calibrate")
            step = max(1, len(vocab) // CALIBRATION_SAMPLE)
            sample = list(vocab[::step][:CALIBRATION_SAMPLE])
            sims = np.asarray(self.similarity(sample, sample), dtype=np.float64)
            off_diagonal = sims[~np.eye(len(sample), dtype=bool)]
            std = float(off_diagonal.std())
            cached = (float(off_diagonal.mean()), std if std > 0 else 1.0)
            self._similarity_stats = cached
        return cached

    def describe(self) -> dict[str, Any]:
        """Facts for ``spymaster-ai embeddings info`` (cheap: never encodes the vocabulary)."""
        return {"name": self.name, "kind": type(self).__name__,
                "vocabulary_size": len(self.clue_vocabulary())}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class VectorEmbedding(Embedding):
    """A backend with real unit vectors; similarity is a cosine, i.e. one matrix product.

    Subclasses implement ``vectors`` and ``_vocabulary_matrix`` (the precomputed vectors of
    ``clue_vocabulary()``); the hot spymaster call ``similarity(clue_vocabulary(), board)``
    then multiplies that cached matrix by 25 board vectors.
    """

    dim: int

    @abstractmethod
    def vectors(self, words: Sequence[str]) -> np.ndarray:
        """float32 (n, dim) unit vectors; words the model lacks get a fallback vector."""

    @abstractmethod
    def _vocabulary_matrix(self) -> np.ndarray:
        """float32 (len(clue_vocabulary()), dim) unit vectors, computed once."""

    @cached_property
    def _lock(self) -> threading.RLock:
        return threading.RLock()

    @cached_property
    def _row_cache(self) -> TupleRowCache:
        return TupleRowCache()

    def vocabulary_vectors(self) -> np.ndarray:
        """Read-only unit vectors of clue_vocabulary(), row for row."""
        with self._lock:
            matrix = self._vocabulary_matrix()
        matrix.setflags(write=False)
        return matrix

    def _matrix(self, words: Sequence[str]) -> np.ndarray:
        vocab = self.clue_vocabulary()
        if words is vocab:
            return self.vocabulary_vectors()
        if self._row_cache.applies(words):
            with self._lock:
                hit = self._row_cache.get(words)  # type: ignore[arg-type]
                if hit is not None:
                    return hit
                if words == vocab:
                    return self.vocabulary_vectors()
                matrix = self.vectors(words)
                matrix.setflags(write=False)
                self._row_cache.put(words, matrix)  # type: ignore[arg-type]
                return matrix
        if len(words) == len(vocab) and not isinstance(words, str) and tuple(words) == vocab:
            return self.vocabulary_vectors()
        return self.vectors(words)

    def similarity_stats(self) -> tuple[float, float]:
        """As ``Embedding.similarity_stats``, read straight from the vocabulary vectors."""
        cached = getattr(self, "_similarity_stats", None)
        if cached is None:
            matrix = self.vocabulary_vectors()
            if len(matrix) < 2:
                raise EmbeddingError(f"{self.name}: clue vocabulary too small to calibrate")
            step = max(1, len(matrix) // CALIBRATION_SAMPLE)
            cached = self._stats_of(matrix[::step][:CALIBRATION_SAMPLE])
            self._similarity_stats = cached
        return cached

    @staticmethod
    def _stats_of(sample: np.ndarray) -> tuple[float, float]:
        """Mean and spread of the similarities between distinct rows of ``sample``."""
        sims = (sample @ sample.T).astype(np.float64)
        off_diagonal = sims[~np.eye(len(sample), dtype=bool)]
        std = float(off_diagonal.std())
        return float(off_diagonal.mean()), std if std > 0 else 1.0

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """Cosine similarity: one float32 matrix product of unit vectors."""
        left = self._matrix(rows)
        right = self._matrix(cols)
        return np.asarray(left @ right.T, dtype=np.float32)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "dim": self.dim}
