"""WordLlama: static token embeddings distilled from Llama 2 70B, averaged over a text's tokens.

A genuinely different model from the sentence-transformers ones (another tokenizer, another
training corpus), and fast enough for CI: it loads in a fraction of a second and encodes
30,000 words in well under one. The wheel ships its weights and tokenizer; we point the
loader at the package folder so it never tries to download them.
"""

from __future__ import annotations

import logging
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from .base import EmbeddingError, clean_words
from .encoded import Advance, EncodedEmbedding
from .keyed_vectors import hashed_vector
from .vocabulary import Vocabulary

CONFIG = "l2_supercat"
DIM = 256


def _import_wordllama() -> tuple[Any, Any]:
    """Import wordllama without the ``logging.basicConfig(level=INFO)`` it runs at import,
    which would make every library's INFO messages appear in our command-line output."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    return wordllama, WordLlama


class WordLlamaEmbedding(EncodedEmbedding):
    """Mean of WordLlama token embeddings; a clue word is native when it is a single token."""

    disk_cache = False

    def __init__(self, vocabulary: Vocabulary) -> None:
        wordllama, WordLlama = _import_wordllama()
        package_dir = Path(wordllama.__file__).parent
        try:
            # cache_dir=package dir: wordllama looks for its bundled tokenizer under
            # "tokenizer/" but ships it under "tokenizers/", which is where it looks in a cache.
            self.model = WordLlama.load(config=CONFIG, dim=DIM, cache_dir=package_dir,
                                        disable_download=True)
        except Exception as exc:  # noqa: BLE001
            raise EmbeddingError(f"wordllama: cannot load its bundled model ({type(exc).__name__}: {exc})") from exc
        self._table = np.asarray(self.model.embedding, dtype=np.float32)
        identity = {"package": "wordllama", "version": version("wordllama"), "config": CONFIG, "dim": DIM}
        super().__init__("wordllama", vocabulary, identity, self._table.shape[1],
                         "WordLlama l2_supercat 256 d: Llama 2 70B token embeddings, averaged")

    def _token_ids(self, words: list[str]) -> list[list[int]]:
        return [[i for i, m in zip(enc.ids, enc.attention_mask) if m]
                for enc in self.model.tokenize(words)]

    def _native_mask(self, words: list[str]) -> list[bool]:
        return [len(ids) == 1 for ids in self._token_ids(words)]

    def reads(self, word: str) -> bool:
        """Any word made of tokens: WordLlama embeds every text as the mean of its tokens, so
        a word of several tokens ("android") is read the way the model reads anything. It
        does not *know* it (:meth:`knows`: one token), so it never offers it as its own clue."""
        (word,) = clean_words([word])
        return bool(word) and bool(self._token_ids([word])[0])

    def unreadable(self, word: str) -> bool:
        return not self.reads(word)

    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        # Sequential float64 sums per word: a word's vector never depends on its batch.
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for start in range(0, len(words), 4096):
            chunk = words[start:start + 4096]
            ids = self._token_ids(chunk)
            counts = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(chunk))
            tokenised = counts > 0
            if tokenised.any():
                flat = self._table[np.concatenate([x for x in ids if x])].astype(np.float64)
                starts = np.concatenate(([0], np.cumsum(counts[tokenised])[:-1]))
                sums = np.add.reduceat(flat, starts, axis=0)
                out[start + np.flatnonzero(tokenised)] = sums / counts[tokenised][:, None]
            for i in np.flatnonzero(~tokenised):  # nothing the tokenizer knows: no meaning
                out[start + i] = hashed_vector(chunk[i], self.dim)
            advance(len(chunk))
        return out
