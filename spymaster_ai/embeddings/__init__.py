"""Embedding backends behind one small interface (clue vocabulary, vectors, similarity).

>>> from spymaster_ai.embeddings import load_embedding
>>> model = load_embedding("minilm")            # memoised per process
>>> sims = model.similarity(model.clue_vocabulary(), board_words)   # (30000, 25) float32
"""

from __future__ import annotations

from .base import Embedding, EmbeddingError, VectorEmbedding
from .cache import CacheWarning, cache_root
from .registry import (
    DEFAULT_EMBEDDING,
    EmbeddingInfo,
    available_embeddings,
    canonical_name,
    load_embedding,
    prepare_embedding,
)
from .vocabulary import DEFAULT_VOCAB_SIZE, Vocabulary, load_vocabulary, zipf_frequencies

__all__ = [
    "DEFAULT_EMBEDDING",
    "DEFAULT_VOCAB_SIZE",
    "CacheWarning",
    "Embedding",
    "EmbeddingError",
    "EmbeddingInfo",
    "VectorEmbedding",
    "Vocabulary",
    "available_embeddings",
    "cache_root",
    "canonical_name",
    "load_embedding",
    "load_vocabulary",
    "prepare_embedding",
    "zipf_frequencies",
]
