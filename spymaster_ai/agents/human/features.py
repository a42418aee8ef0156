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
people make at once and no embedding holds. It is read as a person reads it
(:func:`phrase_reading`): a link is plain when it is the clue's only one on the board and the
clue is in few phrases.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Sequence

import numpy as np
from wordfreq import zipf_frequency

__all__ = [
    "MODELS",
    "PER_MODEL",
    "feature_names",
    "features_from_sims",
    "silent_cards",
    "evoke_from_sims",
    "median_evoke",
    "median_of_models",
    "phrase_matrix",
    "phrase_reading",
    "spelled_like",
    "spelled_matrix",
]

# The packaged models the reader reads with: static GloVe and WordLlama load in a second,
# MiniLM encodes the common-word vocabulary once (cached), and ``eat`` (people's free
# associations, the Edinburgh Associative Thesaurus) ships its vectors in the package: it took
# the cross-validated top-1 from 0.628 to 0.660 and the intended hit from 0.701 to 0.752.
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
    return median_of_models([x[..., first + step * k] for k in range(n_models)])


def median_of_models(values: Sequence[np.ndarray]) -> np.ndarray:
    """The elementwise median of a few equally shaped arrays, exactly as ``np.median`` over a
    stacked last axis gives it (for four: the mean of the middle two, in the arrays' dtype), by
    a sorting network of elementwise minima and maxima instead of a sort per element (a board's
    7,000 x 25 medians took 40 ms)."""
    if len(values) == 4:
        a, b, c, d = values
        lo1, hi1 = np.minimum(a, b), np.maximum(a, b)
        lo2, hi2 = np.minimum(c, d), np.maximum(c, d)
        middle = np.maximum(lo1, lo2) + np.minimum(hi1, hi2)
        return middle / np.asarray(2, dtype=middle.dtype)
    return np.median(np.stack(values, axis=-1), axis=-1)


def _spelling(word: str) -> str:
    return word.lower().replace(" ", "")


@lru_cache(maxsize=500_000)
def spelled_like(clue: str, card: str) -> bool:
    """A person may read ``clue`` as ``card`` by its letters: they share their first four
    letters, one contains the other, or they lie within edit distance 1 (either word of four
    letters or fewer) or 2 (both longer). GRAB and CRAB, PURSUE and PURSE."""
    return bool(spelled_matrix([clue], [card])[0, 0])


class _Spellings:
    """What :func:`spelled_matrix` reads of a list of clues, worked out once per list: their
    spellings, lengths, four-letter prefixes, the clues joined into one string and where each
    starts, and the rows of each spelling."""

    def __init__(self, clues: Sequence[str]) -> None:
        self.words = [_spelling(c) for c in clues]
        self.lengths = np.array([len(x) for x in self.words], dtype=np.int64)
        self.prefix: dict[str, int] = {}
        self.prefix_ids = np.array([self.prefix.setdefault(x[:4], len(self.prefix)) if len(x) >= 4 else -1
                                    for x in self.words], dtype=np.int64)
        self.joined = "\0".join(self.words)  # a separator no word holds
        self.starts = np.cumsum(np.concatenate([[0], self.lengths[:-1] + 1])) if self.words else np.zeros(0, np.int64)
        self.rows: dict[str, list[int]] = {}
        for i, x in enumerate(self.words):
            self.rows.setdefault(x, []).append(i)


_SPELLINGS: dict[tuple[str, ...], _Spellings] = {}
_SPELLINGS_LOCK = threading.Lock()


def _spellings(clues: Sequence[str]) -> _Spellings:
    if len(clues) < 100:
        return _Spellings(clues)
    key = tuple(clues)
    with _SPELLINGS_LOCK:
        hit = _SPELLINGS.get(key)
    if hit is None:
        hit = _Spellings(key)
        with _SPELLINGS_LOCK:
            _SPELLINGS[key] = hit
            while len(_SPELLINGS) > 4:
                _SPELLINGS.pop(next(iter(_SPELLINGS)))
    return hit


def spelled_matrix(clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
    """(clues, cards) bool: :func:`spelled_like` for every pair, vectorised: the edit distances
    computed by rapidfuzz in one call (a Python edit distance took 8 s for a board's 7,000 clue
    words), the shared first letters by comparing ids of four-letter prefixes, and containment
    by finding each card in the clues joined into one string and looking each card's pieces up
    among the clues (a Python loop over the pairs took half a second a board). A long list of
    clues (a spymaster's vocabulary) is prepared once per process."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    clue_side = _spellings(clues)
    a, b = clue_side.words, [_spelling(w) for w in cards]
    if not a or not b:
        return np.zeros((len(a), len(b)), dtype=bool)
    la, lb = clue_side.lengths, np.array([len(x) for x in b], dtype=np.int64)
    dist = cdist(a, b, scorer=Levenshtein.distance, score_cutoff=2, dtype=np.int32, workers=1)
    out = dist <= np.where(np.minimum(la[:, None], lb[None, :]) <= 4, 1, 2)
    # the same first four letters (both words of four letters or more)
    pb = np.array([clue_side.prefix.get(x[:4], -2) if len(x) >= 4 else -2 for x in b], dtype=np.int64)
    out |= clue_side.prefix_ids[:, None] == pb[None, :]
    for j, card in enumerate(b):
        if len(card) >= 3:  # the card inside the clue: every place it occurs in the joined clues
            hits = []
            at = clue_side.joined.find(card)
            while at >= 0:
                hits.append(at)
                at = clue_side.joined.find(card, at + 1)
            if hits:
                out[np.searchsorted(clue_side.starts, hits, side="right") - 1, j] = True
        # the clue inside the card (a clue of three letters or more): the card's pieces
        pieces = {card[s:e] for s in range(len(card)) for e in range(s + 3, len(card) + 1)}
        found = [i for piece in pieces for i in clue_side.rows.get(piece, ())]
        if found:
            out[found, j] = True
    return out


def phrase_matrix(clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
    """(clues, cards) float32: how strongly each clue and card stand in one phrase (0: none)."""
    from ...embeddings.phrase_links import phrase_links

    return phrase_links().links(clues, cards)


def phrase_degrees(clues: Sequence[str]) -> np.ndarray:
    """(clues,) how many words each clue stands in a phrase with (see :func:`phrase_reading`)."""
    from ...embeddings.phrase_links import phrase_links

    return phrase_links().degrees(clues)


def phrase_reading(phrase: np.ndarray, visible: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """(clues, cards) float32: each phrase link as plainly as a person reads it.

    A link's strength, times its share of the clue's links to the visible cards (a clue in a
    phrase with one card names it; one in phrases with four names none), times the clue's
    specificity ``1 / log10(10 + degree)`` (near 1 for BATTEN, in a few phrases; for LINE, in a
    thousand, a third). Why: on the human Duet data a linked card was the first pick 52% of
    the time when the clue linked it alone and 16% (each) when the clue linked four or more,
    and 75% for a clue of under 30 links against 20% for one of over 300
    (``experiments/phrase_specificity.py``). Each row is its own clue's alone.
    """
    phrase = np.asarray(phrase, dtype=np.float32)
    on_board = phrase[:, np.asarray(visible, dtype=bool)].sum(axis=1, keepdims=True)
    share = np.divide(phrase, on_board, out=np.zeros_like(phrase), where=on_board > 0)
    specificity = 1.0 / np.log10(10.0 + np.asarray(degrees, dtype=np.float32))
    return (phrase * share * specificity[:, None]).astype(np.float32)


@lru_cache(maxsize=100_000)
def _zipf(word: str, lang: str = "en") -> float:
    return zipf_frequency(word, lang)


def card_zipf(cards: Sequence[str], lang: str = "en") -> np.ndarray:
    """(cards,) each card's word frequency in its own language (people pick common cards)."""
    return np.array([_zipf(c, lang) for c in cards], dtype=np.float32)


def evoke_from_sims(s: np.ndarray, card_mean: np.ndarray, card_std: np.ndarray) -> np.ndarray:
    """(clues, cards): each similarity in standard deviations of that card's similarity to the
    reference vocabulary (the ``evoke`` feature before a silent model is zeroed)."""
    return (s - card_mean[None, :]) / np.maximum(card_std[None, :], 1e-6)


def silent_cards(s: np.ndarray) -> np.ndarray:
    """(cards,) bool: the cards a model has no vector for (every similarity exactly 0)."""
    return np.all(s == 0, axis=0)


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
    silent: Sequence[np.ndarray] | None = None,
    phrase_degree: np.ndarray | None = None,
) -> np.ndarray:
    """(clues, cards, features) float32 for the cards of one board.

    ``sims``: per model, (clues, cards) raw similarities. ``card_mean``/``card_std``: per
    model, (cards,) each card's similarity mean and spread over the reference vocabulary.
    ``visible``: (cards,) bool, the cards still in play: board z-scores and leads are taken
    over them only (features of covered cards are computed but meaningless). ``spelled``:
    (clues, cards) :func:`spelled_like`, ``phrase``: (clues, cards) :func:`phrase_matrix` and
    ``phrase_degree``: (clues,) :func:`phrase_degrees`, if the caller holds them already (the
    feature is their :func:`phrase_reading` over the visible cards). ``lang``: the cards' language, for their
    frequency; in another language than English spelling and English phrases link nothing
    (a Vietnamese clue shares a syllable with half the board), so both are 0 there.
    ``silent``: per model, (cards,) :func:`silent_cards` over a whole clue vocabulary when
    ``sims`` hold only some of its rows (the spymaster reads its candidate clues only); by
    default the cards silent over the rows given. Every row is computed from its own
    similarities alone, so the rows of a part of a vocabulary are those of the whole.
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
        evoke = evoke_from_sims(s, card_mean[k], card_std[k])
        zv = np.where(vis[None, :], z, -np.inf)
        if vis.sum() >= 2:
            # the best and second best z (the best again when two tie for it): the values a
            # partition gives, by two maxima (a partition per clue took a third of the time)
            best = zv.max(axis=1, keepdims=True)
            at_best = zv == best
            second = np.where(at_best, -np.inf, zv).max(axis=1, keepdims=True)
            second = np.where(at_best.sum(axis=1, keepdims=True) >= 2, best, second)
            best_other = np.where(z >= best, second, best)
        else:
            best_other = np.zeros((n_clues, 1), dtype=np.float32)
        lead = z - best_other
        # a model with no vector for the clue or the card (the association thesaurus lacks
        # the word: all its similarities are exactly 0) says nothing there: 0, the average
        mute = silent_cards(s)[None, :] if silent is None else np.asarray(silent[k], dtype=bool)[None, :]
        mute = np.all(s == 0, axis=1, keepdims=True) | mute
        if mute.any():
            z, evoke, lead = (np.where(mute, 0.0, a) for a in (z, evoke, lead))
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
    if phrase_degree is None:
        phrase_degree = phrase_degrees(clues)
    out[:, :, card_base + 2] = phrase_reading(phrase, vis, phrase_degree)
    return out
