"""CLIP: picture cards and clue words in one vector space (images seen, not their captions).

Loads a sentence-transformers CLIP folder such as ``clip-ViT-B-32`` from a local path (no
registry package ships CLIP weights, so nothing is downloaded: copy the folder from a
machine that has it and point ``load_clip`` or ``$SPYMASTER_AI_CLIP_MODEL`` at it). Clue
words go through CLIP's text tower, picture cards through its image tower; their cosine is
the similarity. Text-to-text cosines of CLIP sit on another scale than text-to-image ones,
so a board mixing words and pictures is better served by the caption backend.

Reproducibility: every forward pass has one shape, whatever is asked. Texts are encoded in
batches of exactly ``TEXT_BATCH`` texts of one token length, images in batches of exactly
``IMAGE_BATCH`` (the last batch padded with repeats), so a vector does not depend on what
it was batched with (plain ``encode`` differs in the last bits with batch composition).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..pictures.deck import PictureDeck, is_picture_id, load_deck
from ..rules.cards import normalise_word
from .base import EmbeddingError, clean_words, unit_rows
from .cache import cache_root
from .encoded import Advance, EncodedEmbedding
from .sentence_models import ensure_offline, folder_fingerprint
from .vocabulary import Vocabulary, load_vocabulary

if TYPE_CHECKING:
    from PIL import Image

CLIP_MODEL_ENV = "SPYMASTER_AI_CLIP_MODEL"
TEXT_BATCH = 32
IMAGE_BATCH = 16
# CLIP's text tower reads at most 77 tokens.
MAX_TEXT_TOKENS = 77
BACKGROUND = (255, 255, 255)


def default_clip_folder() -> Path:
    """``$SPYMASTER_AI_CLIP_MODEL``, else ``<cache>/models/clip-ViT-B-32``."""
    override = os.environ.get(CLIP_MODEL_ENV)
    return Path(override).expanduser() if override else cache_root() / "models" / "clip-ViT-B-32"


def square_rgb(image: "Image.Image") -> "Image.Image":
    """The picture on white, padded to a centred square.

    Emoji are transparent (CLIP would see black behind them), and CLIP's preprocessing
    crops the centre square, which would cut both halves of a 2:1 combined card.
    """
    from PIL import Image

    rgba = image.convert("RGBA")
    side = max(rgba.size)
    canvas = Image.new("RGBA", (side, side), BACKGROUND + (255,))
    canvas.alpha_composite(rgba, ((side - rgba.width) // 2, (side - rgba.height) // 2))
    return canvas.convert("RGB")


class ClipEmbedding(EncodedEmbedding):
    """CLIP similarity between clue words and picture cards (``"pic:..."`` ids of the deck)."""

    def __init__(self, folder: str | Path, vocabulary: Vocabulary | None = None,
                 deck: PictureDeck | None = None, name: str | None = None,
                 text_template: str = "{}") -> None:
        folder = Path(folder).expanduser()
        name = name or f"clip:{folder}"
        if not folder.is_dir():
            raise EmbeddingError(
                f"{name}: no CLIP model folder at {folder}. Copy a sentence-transformers CLIP "
                f"folder (e.g. clip-ViT-B-32) there, or set ${CLIP_MODEL_ENV} to one.")
        if "{}" not in text_template:
            raise EmbeddingError(f"{name}: text_template must contain '{{}}', got {text_template!r}")
        ensure_offline()
        try:
            from sentence_transformers import SentenceTransformer

            self.model = SentenceTransformer(str(folder), device="cpu")
        except Exception as exc:  # noqa: BLE001 - any load failure becomes one clear error
            raise EmbeddingError(f"{name}: cannot load a CLIP model from {folder} "
                                 f"({type(exc).__name__}: {exc})") from exc
        self.folder = folder
        self.deck = deck if deck is not None else load_deck()
        self.text_template = text_template
        self._image_memo: dict[str, np.ndarray] = {}
        dim = self.model.get_embedding_dimension()
        if not dim:
            dim = self.model.encode(["a"], convert_to_numpy=True, show_progress_bar=False).shape[1]
        identity = {"path": str(folder.resolve()), "files": folder_fingerprint(folder),
                    "template": text_template}
        super().__init__(name, vocabulary if vocabulary is not None else load_vocabulary(),
                         identity, int(dim), f"CLIP (sentence-transformers) in {folder}")

    # -- text ------------------------------------------------------------------------------
    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        texts = [self.text_template.format(w) for w in words]
        tokenizer = getattr(self.model.tokenizer, "tokenizer", self.model.tokenizer)
        ids = tokenizer(texts, truncation=True, max_length=MAX_TEXT_TOKENS)["input_ids"]
        lengths = np.fromiter((len(i) for i in ids), dtype=np.int64, count=len(texts))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for length in np.unique(lengths):
            same = np.flatnonzero(lengths == length)
            for start in range(0, len(same), TEXT_BATCH):
                chunk = same[start:start + TEXT_BATCH]
                batch = [texts[i] for i in chunk]
                batch += [batch[-1]] * (TEXT_BATCH - len(batch))
                out[chunk] = self._forward(batch, TEXT_BATCH)[:len(chunk)]
                advance(len(chunk))
        return out

    def _forward(self, inputs: list[Any], batch_size: int) -> np.ndarray:
        return np.asarray(self.model.encode(inputs, batch_size=batch_size, convert_to_numpy=True,
                                            normalize_embeddings=False, show_progress_bar=False),
                          dtype=np.float32)

    # -- images ----------------------------------------------------------------------------
    def encode_images(self, images: Sequence["Image.Image"]) -> np.ndarray:
        """float32 (n, dim) unit vectors of Pillow images (each independent of the others)."""
        prepared = [square_rgb(im) for im in images]
        out = np.empty((len(prepared), self.dim), dtype=np.float32)
        for start in range(0, len(prepared), IMAGE_BATCH):
            batch = prepared[start:start + IMAGE_BATCH]
            n = len(batch)
            batch += [batch[-1]] * (IMAGE_BATCH - n)
            out[start:start + n] = self._forward(batch, IMAGE_BATCH)[:n]
        return unit_rows(out)

    def image_vectors(self, card_ids: Sequence[str]) -> np.ndarray:
        """float32 (n, dim) unit vectors of picture cards, encoded once per card and memoised."""
        ids = [normalise_word(c) for c in card_ids]
        unknown = [c for c in ids if c not in self.deck]
        if unknown:
            raise EmbeddingError(f"{self.name}: no picture card {unknown[0]!r} in the deck at {self.deck.root}")
        with self._lock:
            missing = [c for c in dict.fromkeys(ids) if c not in self._image_memo]
            if missing:
                vectors = self.encode_images([self.deck[c].open_image() for c in missing])
                self._image_memo.update(zip(missing, vectors))
            return np.stack([self._image_memo[c] for c in ids]) if ids else np.zeros((0, self.dim), np.float32)

    # -- the Embedding interface -----------------------------------------------------------
    def knows(self, word: str) -> bool:
        word = normalise_word(word)
        if is_picture_id(word):
            return word in self.deck
        return super().knows(word)

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors: picture ids through the image tower, anything else through the text tower."""
        words = clean_words(words)
        pictures = [i for i, w in enumerate(words) if is_picture_id(w)]
        if not pictures:
            return super().vectors(words)
        out = np.empty((len(words), self.dim), dtype=np.float32)
        out[pictures] = self.image_vectors([words[i] for i in pictures])
        texts = [i for i, w in enumerate(words) if not is_picture_id(w)]
        if texts:
            out[texts] = super().vectors([words[i] for i in texts])
        return out

    def rank(self, clue: str, cards: Sequence[str]) -> list[tuple[str, float]]:
        """The cards from most to least similar to the clue (see ``rank_cards``)."""
        return rank_cards(self, clue, cards)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "text_template": self.text_template, "deck_cards": len(self.deck)}


def rank_cards(embedding: Any, clue: str, cards: Sequence[str]) -> list[tuple[str, float]]:
    """Every card with its similarity to the clue, best first; ties keep board order."""
    if isinstance(cards, str):
        clean_words(cards)  # raises the usual error for a bare string
    cards = list(cards)
    if not cards:
        return []
    scores = np.asarray(embedding.similarity([clue], cards), dtype=np.float32)[0]
    order = np.argsort(-scores, kind="stable")
    return [(cards[i], float(scores[i])) for i in order]


def load_clip(folder: str | Path | None = None, vocab_size: int | None = None,
              deck: PictureDeck | None = None, text_template: str = "{}") -> ClipEmbedding:
    """CLIP from ``folder`` (default: ``default_clip_folder()``) with the shared clue vocabulary."""
    folder = Path(folder) if folder is not None else default_clip_folder()
    return ClipEmbedding(folder, load_vocabulary(vocab_size), deck=deck, text_template=text_template)
