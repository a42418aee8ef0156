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
1 / 2; see :func:`spelled_like`), which people follow and models do not see; and
``phrase_link``: the clue and the card stand together in a set phrase, an idiom or a name's
story (EYE and STORM, JACK and LANTERN; :mod:`spymaster_ai.embeddings.phrase_links`), a link
people make at once and no embedding holds.
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
    "median_evoke",
    "phrase_matrix",
    "spelled_like",
    "spelled_matrix",
]

# The packaged models the reader reads with: static GloVe and WordLlama load in a second,
# MiniLM encodes the common-word vocabulary once (cached), and ``eat`` (people's free
# associations, the Edinburgh Associative Thesaurus) builds its vectors once (cached): it
# took the cross-validated top-1 from 0.628 to 0.660 and the intended hit from 0.701 to 0.752.
# e5-small would take two minutes on a fresh install for little gain (see
# experiments/human_reader.py).
MODELS = ("minilm", "glove50", "wordllama", "eat")
PER_MODEL = ("board_z", "evoke", "lead")
CARD_FEATURES = ("card_zipf", "spelled_like", "phrase_link")


def feature_names(models: Sequence[str] = MODELS) -> list[str]:
    return [f"{m}:{f}" for m in models for f in PER_MODEL] + list(CARD_FEATURES)


def median_evoke(x: np.ndarray, n_models: int) -> np.ndarray:
    """``x`` (..., features) -> (...): the median model's "evoke" (how strongly the card calls
    the clue to mind), the test both human agents put a link to."""
    step, first = len(PER_MODEL), PER_MODEL.index("evoke")
    return np.median(x[..., first : step * n_models : step], axis=-1)


def _spelling(word: str) -> str:
    return word.lower().replace(" ", "")


@lru_cache(maxsize=500_000)
def spelled_like(clue: str, card: str) -> bool:
    """A person may read ``clue`` as ``card`` by its letters: they share their first four
    letters, one contains the other, or they lie within edit distance 1 (either word of four
    letters or fewer) or 2 (both longer). GRAB and CRAB, PURSUE and PURSE."""
    return bool(spelled_matrix([clue], [card])[0, 0])


def spelled_matrix(clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
    """(clues, cards) bool: :func:`spelled_like` for every pair, the edit distances computed
    by rapidfuzz in one call (a Python edit distance took 8 s for a board's 7,000 clue words)."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    a, b = [_spelling(c) for c in clues], [_spelling(w) for w in cards]
    la = np.array([len(x) for x in a])[:, None]
    lb = np.array([len(x) for x in b])[None, :]
    dist = cdist(a, b, scorer=Levenshtein.distance, score_cutoff=2, dtype=np.int32, workers=1)
    out = dist <= np.where(np.minimum(la, lb) <= 4, 1, 2)
    for j, card in enumerate(b):
        for i, clue in enumerate(a):
            if (len(clue) >= 4 and len(card) >= 4 and clue[:4] == card[:4]) or (len(card) >= 3 and card in clue) \
                    or (len(clue) >= 3 and clue in card):
                out[i, j] = True
    return out


def phrase_matrix(clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
    """(clues, cards) float32: how strongly each clue and card stand in one phrase (0: none)."""
    from ...embeddings.phrase_links import phrase_links

    return phrase_links().links(clues, cards)


@lru_cache(maxsize=100_000)
def _zipf(word: str, lang: str = "en") -> float:
    return zipf_frequency(word, lang)


def card_zipf(cards: Sequence[str], lang: str = "en") -> np.ndarray:
    """(cards,) each card's word frequency in its own language (people pick common cards)."""
    return np.array([_zipf(c, lang) for c in cards], dtype=np.float32)


def features_from_sims(
    sims: Sequence[np.ndarray],
    card_mean: Sequence[np.ndarray],
    card_std: Sequence[np.ndarray],
    visible: np.ndarray,
    clues: Sequence[str],
    cards: Sequence[str],
    spelled: np.ndarray | None = None,
    phrase: np.ndarray | None = None,
    lang: str = "en",
) -> np.ndarray:
    """(clues, cards, features) float32 for the cards of one board.

    ``sims``: per model, (clues, cards) raw similarities. ``card_mean``/``card_std``: per
    model, (cards,) each card's similarity mean and spread over the reference vocabulary.
    ``visible``: (cards,) bool, the cards still in play: board z-scores and leads are taken
    over them only (features of covered cards are computed but meaningless). ``spelled``:
    (clues, cards) :func:`spelled_like`, and ``phrase``: (clues, cards) :func:`phrase_matrix`,
    if the caller holds them for the board already. ``lang``: the cards' language, for their
    frequency; in another language than English spelling and English phrases link nothing
    (a Vietnamese clue shares a syllable with half the board), so both are 0 there.
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
        # a model with no vector for the clue or the card (the association thesaurus lacks
        # the word: all its similarities are exactly 0) says nothing there: 0, the average
        silent = np.all(s == 0, axis=1, keepdims=True) | np.all(s == 0, axis=0, keepdims=True)
        if silent.any():
            z, evoke, lead = (np.where(silent, 0.0, a) for a in (z, evoke, lead))
        base = k * len(PER_MODEL)
        out[:, :, base] = z
        out[:, :, base + 1] = evoke
        out[:, :, base + 2] = lead
    card_base = len(sims) * len(PER_MODEL)
    out[:, :, card_base] = card_zipf(cards, lang)[None, :]
    if lang != "en":
        return out  # no spelling and no English phrase is a link in another language
    if spelled is None:
        spelled = spelled_matrix(clues, cards)
    out[:, :, card_base + 1] = spelled
    if phrase is None:
        phrase = phrase_matrix(clues, cards)
    out[:, :, card_base + 2] = phrase
    return out
