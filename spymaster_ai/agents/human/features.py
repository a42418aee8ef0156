"""What the human reader looks at: per clue and card, several models' readings and a few word facts.

Why these: people agree with no single embedding (MiniLM's first card is a person's 0.54 of
the time on the human Duet split), but each model's reading carries part of the signal, and
people also pick common cards over rare ones and cards a clue is spelled like. Every
feature is a function of similarity matrices that the spymaster already holds for a whole
board (clue vocabulary x cards), so the same code scores one clue for a guesser and 7,000
candidate clues for a spymaster, vectorised.

Per model (``MODELS``: packaged and quick to load, so a first game starts within a minute):

* ``board_z``: the clue's similarity to each card z-scored over the visible cards (how far
  the card stands out on this board, as an embedding guesser reads it);
* ``evoke``: the similarity in standard deviations of *that card's* similarity to the
  common words of :func:`reference_vocabulary` (hub-corrected: a card close to every word
  does not win every clue; this is also how strongly the card calls the clue to mind);
* ``lead``: ``board_z`` minus the best other card's (how clearly the card is the one).

Per card: its word frequency (``card_zipf``), and ``spelled_like`` (the clue and the card
share their first four letters, one contains the other, or they are within edit distance
1 / 2; see :func:`spelled_like`), which people follow and models do not see.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
from wordfreq import zipf_frequency

__all__ = [
    "MODELS",
    "PER_MODEL",
    "feature_names",
    "features_from_sims",
    "spelled_like",
    "edit_distance",
]

# The packaged models the reader reads with: static GloVe and WordLlama load in a second,
# MiniLM encodes the common-word vocabulary once (cached). e5-small would take two minutes
# on a fresh install for little gain (see experiments/human_reader.py).
MODELS = ("minilm", "glove50", "wordllama")
PER_MODEL = ("board_z", "evoke", "lead")
CARD_FEATURES = ("card_zipf", "spelled_like")


def feature_names(models: Sequence[str] = MODELS) -> list[str]:
    return [f"{m}:{f}" for m in models for f in PER_MODEL] + list(CARD_FEATURES)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), two short rows of ints."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


@lru_cache(maxsize=500_000)
def spelled_like(clue: str, card: str) -> bool:
    """A person may read ``clue`` as ``card`` by its letters: they share their first four
    letters, one contains the other, or they lie within edit distance 1 (either word of four
    letters or fewer) or 2 (both longer). GRAB and CRAB, PURSUE and PURSE."""
    a, b = clue.lower().replace(" ", ""), card.lower().replace(" ", "")
    if a == b:
        return True
    if len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4]:
        return True
    if (len(b) >= 3 and b in a) or (len(a) >= 3 and a in b):
        return True
    limit = 1 if min(len(a), len(b)) <= 4 else 2
    if abs(len(a) - len(b)) > limit:
        return False
    return edit_distance(a, b) <= limit


@lru_cache(maxsize=100_000)
def _zipf(word: str) -> float:
    return zipf_frequency(word, "en")


def card_zipf(cards: Sequence[str]) -> np.ndarray:
    return np.array([_zipf(c) for c in cards], dtype=np.float32)


def features_from_sims(
    sims: Sequence[np.ndarray],
    card_mean: Sequence[np.ndarray],
    card_std: Sequence[np.ndarray],
    visible: np.ndarray,
    clues: Sequence[str],
    cards: Sequence[str],
    spelled: np.ndarray | None = None,
) -> np.ndarray:
    """(clues, cards, features) float32 for the cards of one board.

    ``sims``: per model, (clues, cards) raw similarities. ``card_mean``/``card_std``: per
    model, (cards,) each card's similarity mean and spread over the reference vocabulary.
    ``visible``: (cards,) bool, the cards still in play: board z-scores and leads are taken
    over them only (features of covered cards are computed but meaningless). ``spelled``:
    (clues, cards) :func:`spelled_like`, if the caller holds it for the board already.
    """
    vis = np.asarray(visible, dtype=bool)
    n_clues, n_cards = len(clues), len(cards)
    out = np.zeros((n_clues, n_cards, len(sims) * len(PER_MODEL) + len(CARD_FEATURES)), dtype=np.float32)
    for k, s in enumerate(sims):
        s = np.asarray(s, dtype=np.float32)
        on = s[:, vis]
        mean = on.mean(axis=1, keepdims=True)
        sd = np.maximum(on.std(axis=1, keepdims=True), 1e-6)
        z = (s - mean) / sd
        evoke = (s - card_mean[k][None, :]) / np.maximum(card_std[k][None, :], 1e-6)
        zv = np.where(vis[None, :], z, -np.inf)
        if vis.sum() >= 2:
            top2 = -np.partition(-zv, 1, axis=1)[:, :2]  # (clues, 2): best and second best
            best_other = np.where(z >= top2[:, :1], top2[:, 1:2], top2[:, :1])
        else:
            best_other = np.zeros((n_clues, 1), dtype=np.float32)
        lead = z - best_other
        base = k * len(PER_MODEL)
        out[:, :, base] = z
        out[:, :, base + 1] = evoke
        out[:, :, base + 2] = lead
    out[:, :, -2] = card_zipf(cards)[None, :]
    if spelled is None:
        spelled = np.array([[spelled_like(c, w) for w in cards] for c in clues], dtype=bool)
    out[:, :, -1] = spelled
    return out
