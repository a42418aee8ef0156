"""Picture cards scored through their words: any text backend plus each picture's caption and tags.

This is the default backend for Codenames Pictures, and it plays offline with any text model.
A picture card (``"pic:dog"``) stands for the pictures it shows (one, or two on a combined
card); each picture is its caption plus its tags. Plain words pass straight through, so a
mixed board of words and pictures (RULES.md section 2) works too.

How a clue is scored against one picture (``mode``):

- ``"mean"``: ``w * sim(clue, caption) + (1 - w) * mean over tags of sim(clue, tag)``
  (``w = caption_weight``; a picture without tags is its caption alone);
- ``"max"``: the best of ``sim(clue, caption)`` and every ``sim(clue, tag)``;
- ``"caption"``: the caption alone (the baseline: what a player who ignores the tags sees).

A card scores the best of its pictures: a clue only needs to fit one thing on the card.

Which mode plays better was measured on the shipped deck with two probes
(``python -m spymaster_ai.embeddings.captions minilm glove50``):

- *held-out tag* (``held_out_tag_probe``; 2,000 boards of 20 single pictures, seed 0): one
  tag of one picture is removed and given as the clue; where does that picture rank?
- *clues* (``clue_probe``; ``clue_probe.json`` beside the deck): 60 clues written by hand
  for three fixed boards of 20 cards (combined cards included), one intended card each.

Top-1 rate and mean rank of the intended picture (1 is best; chance is 0.05 and 10.5):

==============  ====================  ====================  ====================  ====================
mode            MiniLM held-out tag   MiniLM clues          GloVe-50 held-out     GloVe-50 clues
==============  ====================  ====================  ====================  ====================
caption         0.554  3.43           0.767  2.03           0.384  4.50           0.450  3.18
max             0.598  2.89           0.800  1.60           0.427  3.72           **0.717  1.90**
mean, w = 0.3   **0.635  2.66**       0.800  1.43           **0.442  3.48**       0.600  2.25
mean, w = 0.5   0.631  2.70           0.800  1.45           0.435  3.63           0.600  2.35
mean, w = 0.7   0.607  2.93           **0.833  1.43**       0.420  3.94           0.533  2.65
==============  ====================  ====================  ====================  ====================

Tags always help: every mode beats the caption alone. ``mean`` with ``w = 0.5`` is the
default: with MiniLM (the project's default text model) it is best or within noise of the
best on both probes (60 clues: one clue is 0.017 of top-1), and it does not lean on either
probe's bias (the held-out probe rewards tag weight, since the clue *was* a tag). With
GloVe-50, ``max`` finds the hand-written clues' cards clearly more often (0.72 against
0.60): pass ``mode="max"`` for static word vectors.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..pictures.deck import PictureCard, PictureDeck, is_picture_id, load_deck
from ..rules.cards import normalise_word
from .base import Embedding, EmbeddingError, clean_words

CAPTION_MODES = ("mean", "max", "caption")
DEFAULT_MODE = "mean"
CAPTION_WEIGHT = 0.5


@dataclass(frozen=True)
class _Expansion:
    """Items spread into texts: texts of one picture are contiguous, pictures of one item too."""

    texts: list[str]
    weights: np.ndarray  # float32 per text; sums to 1 within a picture
    picture_starts: np.ndarray  # index of each picture's first text
    item_starts: np.ndarray  # index of each item's first picture


class CaptionEmbedding(Embedding):
    """A text backend that also scores picture cards, through their captions and tags."""

    def __init__(self, text: Embedding, deck: PictureDeck | None = None, mode: str = DEFAULT_MODE,
                 caption_weight: float = CAPTION_WEIGHT) -> None:
        if mode not in CAPTION_MODES:
            raise EmbeddingError(f"unknown caption mode {mode!r}; use one of {', '.join(CAPTION_MODES)}")
        if not 0.0 <= caption_weight <= 1.0:
            raise EmbeddingError(f"caption_weight must lie in [0, 1], got {caption_weight}")
        self.text = text
        self.deck = deck if deck is not None else load_deck()
        self.mode = mode
        self.caption_weight = float(caption_weight)
        suffix = "" if (mode, caption_weight) == (DEFAULT_MODE, CAPTION_WEIGHT) else f"/{mode}"
        if mode == "mean" and caption_weight != CAPTION_WEIGHT:
            suffix += f"{caption_weight:g}"
        self.name = f"captions:{text.name}{suffix}"
        self.lang = getattr(text, "lang", "en")  # the clue vocabulary's language is the text model's

    # -- the Embedding interface ------------------------------------------------------------
    def clue_vocabulary(self) -> tuple[str, ...]:
        return self.text.clue_vocabulary()

    def clue_zipf(self) -> np.ndarray:
        return self.text.clue_zipf()

    def similarity_stats(self) -> tuple[float, float]:
        """The text model's scale: clues are words, so clue-to-clue statistics are its own."""
        return self.text.similarity_stats()

    def knows(self, word: str) -> bool:
        """A picture card is known when the deck has it and the text model knows its caption."""
        word = normalise_word(word)
        if is_picture_id(word):
            return word in self.deck and all(self.text.knows(p.caption) for p in self.deck.parts(word))
        return self.text.knows(word)

    def unreadable(self, word: str) -> bool:
        """A plain word as the text model says; a picture card when the text model knows no
        part of any of its captions and tags (its score would be noise)."""
        word = normalise_word(word)
        if is_picture_id(word):
            if word not in self.deck:
                return False
            texts = [t for p in self.deck.parts(word) for t in (p.caption, *p.tags)]
            return all(self.text.unreadable(t) for t in texts)
        return self.text.unreadable(word)

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """float32 (len(rows), len(cols)); picture cards in either list are scored by their words."""
        if isinstance(rows, str) or isinstance(cols, str):
            clean_words(rows if isinstance(rows, str) else cols)  # raises the usual error
        row_pictures = any(is_picture_id(normalise_word(w)) for w in rows if isinstance(w, str))
        col_pictures = any(is_picture_id(normalise_word(w)) for w in cols if isinstance(w, str))
        if not row_pictures and not col_pictures:
            return self.text.similarity(rows, cols)
        # Rows without pictures go to the text model as they are (it caches its vocabulary).
        row_x = self._expand(rows) if row_pictures else None
        col_x = self._expand(cols) if col_pictures else None
        left = row_x.texts if row_x else rows
        right = col_x.texts if col_x else cols
        left_unique, left_index = _unique(left) if row_x else (left, None)
        right_unique, right_index = _unique(right)
        sims = self.text.similarity(left_unique, right_unique)
        if left_index is not None:
            sims = sims[left_index]
        sims = sims[:, right_index]
        # Texts -> pictures on both sides first, then pictures -> cards: a card-to-card score
        # is the best pair of pictures, each picture scored over all its texts.
        expansions = [(x, axis) for x, axis in ((col_x, 1), (row_x, 0)) if x is not None]
        for x, axis in expansions:
            sims = self._pictures(sims, x, axis)
        for x, axis in expansions:
            sims = np.maximum.reduceat(sims, x.item_starts, axis=axis)
        return np.ascontiguousarray(sims, dtype=np.float32)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "text_model": self.text.name, "mode": self.mode,
                "caption_weight": self.caption_weight, "deck_cards": len(self.deck)}

    # -- pictures as texts ------------------------------------------------------------------
    def picture_texts(self, picture: PictureCard) -> tuple[list[str], list[float]]:
        """One picture's texts (caption first) and their weights under this mode."""
        if self.mode == "caption" or not picture.tags:
            return [picture.caption], [1.0]
        tags = list(picture.tags)
        if self.mode == "max":
            return [picture.caption, *tags], [1.0] * (1 + len(tags))
        share = (1.0 - self.caption_weight) / len(tags)
        return [picture.caption, *tags], [self.caption_weight] + [share] * len(tags)

    def _expand(self, items: Sequence[str]) -> _Expansion:
        texts: list[str] = []
        weights: list[float] = []
        picture_starts: list[int] = []
        item_starts: list[int] = []
        for item in clean_words(items):
            item_starts.append(len(picture_starts))
            if is_picture_id(item):
                if item not in self.deck:
                    raise EmbeddingError(f"{self.name}: no picture card {item!r} in the deck at {self.deck.root}")
                for picture in self.deck.parts(item):
                    picture_starts.append(len(texts))
                    t, w = self.picture_texts(picture)
                    texts += t
                    weights += w
            else:
                picture_starts.append(len(texts))
                texts.append(item)
                weights.append(1.0)
        return _Expansion(texts, np.asarray(weights, dtype=np.float32),
                          np.asarray(picture_starts, dtype=np.intp), np.asarray(item_starts, dtype=np.intp))

    def _pictures(self, sims: np.ndarray, x: _Expansion, axis: int) -> np.ndarray:
        """Texts -> pictures along ``axis``: the weighted mean, or the max, of a picture's texts."""
        if self.mode == "max":
            return np.maximum.reduceat(sims, x.picture_starts, axis=axis)
        shape = (1, -1) if axis == 1 else (-1, 1)
        return np.add.reduceat(sims * x.weights.reshape(shape), x.picture_starts, axis=axis)


def _unique(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Distinct texts in first-seen order, and each text's index among them."""
    position: dict[str, int] = {}
    index = np.fromiter((position.setdefault(t, len(position)) for t in texts), dtype=np.intp, count=len(texts))
    return list(position), index


def load_captions(text: str | Embedding = "minilm", deck: PictureDeck | None = None,
                  mode: str = DEFAULT_MODE, caption_weight: float = CAPTION_WEIGHT,
                  vocab_size: int | None = None) -> CaptionEmbedding:
    """The caption backend over a text backend (a registry name or an Embedding)."""
    if isinstance(text, str):
        from .registry import load_embedding

        text = load_embedding(text, vocab_size=vocab_size)
    return CaptionEmbedding(text, deck=deck, mode=mode, caption_weight=caption_weight)


# -- measuring the modes --------------------------------------------------------------------
def held_out_tag_probe(text: Embedding, deck: PictureDeck | None = None, modes: Sequence[str] = CAPTION_MODES,
                       boards: int = 2000, board_size: int = 20, seed: int = 0,
                       caption_weight: float = CAPTION_WEIGHT) -> dict[str, dict[str, float]]:
    """How well each mode finds a picture from a tag it was not given.

    Each trial draws a single picture with at least two tags and ``board_size - 1`` other
    single pictures that lack the chosen tag, removes that tag from the picture, and ranks
    the board by similarity to the tag. Returns, per mode, the top-1 rate and the mean rank
    (1 is best). Deterministic for a seed.
    """
    deck = deck if deck is not None else load_deck()
    singles = [c for c in deck if not c.combined]
    targets = [c for c in singles if len(c.tags) >= 2]
    if len(singles) < board_size or not targets:
        raise EmbeddingError("the deck is too small for the probe")
    rng = random.Random(seed)
    trials = []
    for _ in range(boards):
        target = rng.choice(targets)
        tag = rng.choice(target.tags)
        others = [c for c in rng.sample(singles, board_size + 5) if c.id != target.id and tag not in c.tags]
        board = [target, *others[: board_size - 1]]
        held = PictureCard(target.id, target.image, target.caption,
                           tuple(t for t in target.tags if t != tag), target.category, target.source)
        trials.append((tag, [held, *board[1:]]))

    results: dict[str, dict[str, float]] = {}
    for mode in modes:
        model = CaptionEmbedding(text, deck=deck, mode=mode, caption_weight=caption_weight)
        ranks = []
        for tag, board in trials:
            scores = np.empty(len(board), dtype=np.float32)
            texts, weights, starts = [], [], []
            for card in board:
                starts.append(len(texts))
                t, w = model.picture_texts(card)
                texts += t
                weights += w
            x = _Expansion(texts, np.asarray(weights, dtype=np.float32),
                           np.asarray(starts, dtype=np.intp), np.arange(len(board), dtype=np.intp))
            unique, index = _unique(texts)
            sims = text.similarity([tag], unique)[:, index]
            scores[:] = model._pictures(sims, x, axis=1)[0]  # one picture per card here
            # Rank of the target (index 0); ties count against it.
            ranks.append(1 + int(np.sum(scores[1:] >= scores[0])))
        ranks_arr = np.asarray(ranks, dtype=np.float64)
        results[mode] = {"top1": float(np.mean(ranks_arr == 1)), "mean_rank": float(ranks_arr.mean())}
    return results


CLUE_PROBE_FILE = "clue_probe.json"


def clue_probe(text: Embedding, deck: PictureDeck | None = None, modes: Sequence[str] = CAPTION_MODES,
               caption_weight: float = CAPTION_WEIGHT, path: str | Path | None = None) -> dict[str, dict[str, float]]:
    """How well each mode finds the intended card of hand-written clues on fixed boards.

    Reads ``clue_probe.json`` beside the deck (boards of card ids; clues with one intended
    card each, written by a person looking at the boards) and returns, per mode, the top-1
    rate and the mean rank of the intended card (ties count against it).
    """
    deck = deck if deck is not None else load_deck()
    data = json.loads(Path(path or deck.root / CLUE_PROBE_FILE).read_text(encoding="utf-8"))
    boards: dict[str, list[str]] = data["boards"]
    results: dict[str, dict[str, float]] = {}
    for mode in modes:
        model = CaptionEmbedding(text, deck=deck, mode=mode, caption_weight=caption_weight)
        scores = {name: model.similarity([clue for b, clue, _ in data["clues"] if b == name], cards)
                  for name, cards in boards.items()}
        ranks = []
        seen: dict[str, int] = {}
        for board, _clue, target in data["clues"]:
            row = seen[board] = seen.get(board, -1) + 1
            sims = scores[board][row]
            ranks.append(int(np.sum(sims >= sims[boards[board].index(target)])))
        ranks_arr = np.asarray(ranks, dtype=np.float64)
        results[mode] = {"top1": float(np.mean(ranks_arr == 1)), "mean_rank": float(ranks_arr.mean())}
    return results


def main(argv: Sequence[str] | None = None) -> None:
    """Print the probe for the given text backends: ``python -m spymaster_ai.embeddings.captions minilm glove50``."""
    import argparse

    parser = argparse.ArgumentParser(description="Score the caption modes with both probes.")
    parser.add_argument("models", nargs="*", default=["minilm", "glove50"])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--caption-weight", type=float, default=CAPTION_WEIGHT)
    args = parser.parse_args(argv)
    from .registry import load_embedding

    for name in args.models:
        model = load_embedding(name)
        held_out = held_out_tag_probe(model, boards=args.boards, seed=args.seed, caption_weight=args.caption_weight)
        clues = clue_probe(model, caption_weight=args.caption_weight)
        print(json.dumps({"model": name, "caption_weight": args.caption_weight,
                          "held_out_tag": held_out, "clues": clues}), flush=True)


if __name__ == "__main__":
    main()
