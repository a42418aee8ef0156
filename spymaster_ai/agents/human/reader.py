"""The human reader: the probability that a person takes each card for a clue.

Why a fitted model: every agent so far read clues as one embedding does, and people read
them otherwise (on held-out human Duet play the best agent's first card was the giver's
intended one 0.67 of the time, people's 0.89). This reader is a conditional logit over the
features of :mod:`.features`: P(card | clue, board) = softmax over the visible cards of
``w . standardise(x_card)``. It is fitted to real people's guesses (the "Cultural Codes"
Duet data, Shaikh et al. 2023) by ``experiments/human_reader.py``, and the weights ship
in ``reader_params.json`` beside this file with where they came from.

The conditional logit is fitted by maximum likelihood (scipy's L-BFGS, an L2 penalty):
scikit-learn has no model of a choice among a varying set of cards. Its likelihood is ten
lines; the standardisation and the folds of the cross-validation are scikit-learn's.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..vocabulary import clue_candidates, reads
from .features import MODELS, feature_names, features_from_sims, phrase_matrix, spelled_matrix

__all__ = ["ChoiceSet", "HumanReader", "ReaderParams", "STOP_FEATURES", "fit_conditional_logit", "load_params", "shared_reader", "softmax", "stop_features", "PARAMS_PATH"]

PARAMS_PATH = Path(__file__).with_name("reader_params.json")
# Clue words people use: common base forms (Zipf >= 3.5) that every reader model reads.
REFERENCE_MIN_ZIPF = 3.5
# How many (clues, cards) readings a reader keeps: a game's clues and single-card looks.
KEPT_READINGS = 256


@dataclass(frozen=True)
class ChoiceSet:
    """One person's choice: the features of the cards they could take (rows), which they took."""

    x: np.ndarray  # (cards, features)
    chosen: int
    weight: float = 1.0
    group: int = 0  # the game, for folds


@dataclass
class ReaderParams:
    """The fitted reader: feature names, standardisation, weights and where they came from."""

    models: tuple[str, ...]
    features: list[str]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    provenance: dict[str, Any] = field(default_factory=dict)
    # P(a guess is one of the giver's targets) = sigmoid(stop[0] + stop[1:] . stop_features):
    # fitted to whether people's guesses were right (see :func:`stop_features`).
    stop: tuple[float, ...] = (0.0, 0.0, 0.0)

    def to_json(self) -> dict:
        return {
            "models": list(self.models),
            "features": self.features,
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "weights": [round(float(v), 6) for v in self.weights],
            "stop": [round(float(v), 6) for v in self.stop],
            "provenance": self.provenance,
        }

    @classmethod
    def from_json(cls, data: dict) -> "ReaderParams":
        try:
            params = cls(
                models=tuple(data["models"]),
                features=list(data["features"]),
                mean=np.asarray(data["mean"], dtype=np.float64),
                scale=np.asarray(data["scale"], dtype=np.float64),
                weights=np.asarray(data["weights"], dtype=np.float64),
                provenance=dict(data.get("provenance", {})),
                stop=tuple(float(v) for v in data["stop"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed reader parameters: {exc}") from None
        n = len(params.features)
        if not (params.mean.shape == params.scale.shape == params.weights.shape == (n,)):
            raise ValueError("malformed reader parameters: mean, scale and weights need one value per feature")
        if len(params.stop) != 1 + len(STOP_FEATURES):
            raise ValueError(f"malformed reader parameters: stop needs {1 + len(STOP_FEATURES)} values")
        if params.features != feature_names(params.models):
            raise ValueError("reader parameters were fitted on other features than this version computes; refit them")
        return params

    def logits(self, x: np.ndarray) -> np.ndarray:
        """``x`` (..., features) -> (...) the linear score of each card."""
        return ((x - self.mean) / self.scale) @ self.weights

    def p_correct(self, probs: np.ndarray, card: int) -> float:
        """The chance that a person's pick ``card`` is one the giver meant, given the
        reader's probabilities ``probs`` over the cards then visible."""
        f = stop_features(probs, card)
        u = self.stop[0] + float(np.dot(self.stop[1:], f))
        return float(1.0 / (1.0 + np.exp(-u)))


# What the stop rule reads of a pick: how likely the reader makes it, and by how much it
# leads the next likeliest card (log probabilities).
STOP_FEATURES = ("log_p", "log_lead")


def stop_features(probs: np.ndarray, card: int) -> np.ndarray:
    p = np.asarray(probs, dtype=np.float64)
    others = np.delete(p, card)
    best_other = float(others.max()) if others.size else 1e-12
    lp = np.log(max(float(p[card]), 1e-12))
    return np.array([lp, lp - np.log(max(best_other, 1e-12))])


def load_params(path: Optional[Path] = None) -> ReaderParams:
    """The shipped parameters (or those at ``path``), checked against today's features."""
    path = Path(path) if path is not None else PARAMS_PATH
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"no reader parameters at {path}: run experiments/human_reader.py --write") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    return ReaderParams.from_json(data)


def fit_conditional_logit(sets: Sequence[ChoiceSet], l2: float = 1.0, mean: Optional[np.ndarray] = None,
                          scale: Optional[np.ndarray] = None,
                          fixed: Optional[dict[int, float]] = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, weights) maximising the penalised conditional log-likelihood of ``sets``.

    Features are standardised (scikit-learn's StandardScaler over every card of every set)
    and the weights get an L2 penalty of ``l2`` times their squared norm; the optimum is
    unique, so the fit is deterministic. ``fixed``: feature column -> the logit one unit of
    the raw feature adds, held there while the other weights are fitted around it (a prior
    for a feature the data rarely shows, such as a phrase link).
    """
    from scipy.optimize import minimize
    from sklearn.preprocessing import StandardScaler

    if not sets:
        raise ValueError("no choice to fit the reader on")
    if mean is None or scale is None:
        scaler = StandardScaler().fit(np.concatenate([s.x for s in sets]).astype(np.float64))
        mean, scale = scaler.mean_, np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    width = max(len(s.x) for s in sets)
    n_feat = sets[0].x.shape[1]
    X = np.zeros((len(sets), width, n_feat))
    mask = np.zeros((len(sets), width), dtype=bool)
    for i, s in enumerate(sets):
        X[i, : len(s.x)] = (s.x - mean) / scale
        mask[i, : len(s.x)] = True
    chosen = np.array([s.chosen for s in sets])
    wts = np.array([s.weight for s in sets], dtype=np.float64)
    x_chosen = X[np.arange(len(sets)), chosen]

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        u = np.where(mask, X @ w, -np.inf)
        top = u.max(axis=1, keepdims=True)
        e = np.exp(u - top)
        z = e.sum(axis=1)
        p = e / z[:, None]
        ll = (x_chosen @ w) - (top[:, 0] + np.log(z))
        grad = x_chosen - np.einsum("ij,ijk->ik", p, X)
        return -(wts @ ll) + l2 * (w @ w), -(wts @ grad) + 2 * l2 * w

    start = np.zeros(n_feat)
    bounds = [(None, None)] * n_feat
    for j, per_unit in (fixed or {}).items():
        start[j] = per_unit * scale[j]  # the standardised weight of that raw slope
        bounds[j] = (start[j], start[j])
    result = minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 1000})
    return np.asarray(mean), np.asarray(scale), result.x


def softmax(logits: np.ndarray, mask: Optional[np.ndarray] = None, axis: int = -1) -> np.ndarray:
    u = np.asarray(logits, dtype=np.float64)
    if mask is not None:
        u = np.where(mask, u, -np.inf)
    u = u - u.max(axis=axis, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=axis, keepdims=True)


class HumanReader:
    """P(a person takes each card) for a clue on a board, from several models' readings.

    ``models``: name -> loaded model; by default the packaged ``MODELS``, loaded on first use.
    ``params``: the fitted weights (default: the shipped ones). One reader can serve every
    agent of a process: it keeps each card's statistics over the reference vocabulary.
    ``lang``: the board's language; another than English is read through its glossary
    (``models`` are then :class:`~spymaster_ai.embeddings.glossed.GlossedEmbedding`), with
    no spelling or English phrase as a link (see :func:`glossed_reader`).
    """

    def __init__(self, params: Optional[ReaderParams] = None, models: Optional[dict[str, Any]] = None,
                 lang: str = "en") -> None:
        self.lang = lang
        self.params = params if params is not None else load_params()
        self.model_names = tuple(self.params.models)
        self._models = dict(models) if models is not None else None
        self._reference: Optional[tuple[str, ...]] = None
        self._stats: list[dict[str, tuple[float, float]]] = [{} for _ in self.model_names]
        self._lock = threading.RLock()
        self._kept: "OrderedDict[tuple, tuple]" = OrderedDict()
        self._kept_features: "OrderedDict[tuple, np.ndarray]" = OrderedDict()
        self._kept_stats: "OrderedDict[tuple[str, ...], tuple]" = OrderedDict()
        self._read: dict[str, bool] = {}

    @property
    def models(self) -> list[Any]:
        with self._lock:
            if self._models is None:
                from ...embeddings.registry import load_embedding

                self._models = {name: load_embedding(name) for name in self.model_names}
            return [self._models[name] for name in self.model_names]

    def reference_vocabulary(self) -> tuple[str, ...]:
        """Common clue words that every reader model reads: the cards' yardstick, and the
        human spymaster's clue vocabulary."""
        with self._lock:
            if self._reference is None:
                self._reference = clue_candidates(self.models, None, REFERENCE_MIN_ZIPF)
            return self._reference

    def reads(self, clue: str) -> bool:
        """Whether every reader model can read ``clue`` (an invented word is read by none);
        kept per word (a guesser asks about every clue of the game at every guess)."""
        hit = self._read.get(clue)
        if hit is None:
            hit = all(reads(m, clue) for m in self.models)
            if len(self._read) > 10_000:
                self._read.clear()
            self._read[clue] = hit
        return hit

    def card_stats(self, cards: Sequence[str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per model, each card's similarity mean and spread over the reference vocabulary
        (read-only; a card's are computed once, a board's arrays kept for its next reads)."""
        key = tuple(cards)
        with self._lock:
            hit = self._kept_stats.get(key)
            if hit is not None:
                self._kept_stats.move_to_end(key)
                return hit
            means, stds = [], []
            for k, model in enumerate(self.models):
                cache = self._stats[k]
                missing = [c for c in dict.fromkeys(cards) if c not in cache]
                if missing:
                    s = np.asarray(model.similarity(self.reference_vocabulary(), missing), dtype=np.float64)
                    for j, c in enumerate(missing):
                        cache[c] = (float(s[:, j].mean()), float(s[:, j].std()))
                means.append(np.array([cache[c][0] for c in cards], dtype=np.float32))
                stds.append(np.array([cache[c][1] for c in cards], dtype=np.float32))
            for a in (*means, *stds):
                a.setflags(write=False)
            self._kept_stats[key] = (means, stds)
            while len(self._kept_stats) > KEPT_READINGS:
                self._kept_stats.popitem(last=False)
        return means, stds

    def features(self, cards: Sequence[str], clues: Sequence[str], visible: Optional[np.ndarray] = None,
                 sims: Optional[Sequence[np.ndarray]] = None) -> np.ndarray:
        """(clues, cards, features). ``sims``: per model, (clues, cards) similarities if the
        caller holds them already (the spymaster's board matrices). Without them the answer
        is kept for the last few questions (read-only): a guesser asks the same again."""
        cards, clues = list(cards), list(clues)
        if visible is None:
            visible = np.ones(len(cards), dtype=bool)
        if sims is None:
            return self._features(tuple(clues), tuple(cards), np.asarray(visible, dtype=bool))
        means, stds = self.card_stats(cards)
        return features_from_sims(sims, means, stds, visible, clues, cards, lang=self.lang)

    def _features(self, clues: tuple[str, ...], cards: tuple[str, ...], visible: np.ndarray) -> np.ndarray:
        key = (clues, cards, visible.tobytes())
        with self._lock:
            hit = self._kept_features.get(key)
            if hit is not None:
                self._kept_features.move_to_end(key)
                return hit
        sims, spelled, phrase = self._inputs(clues, cards)
        means, stds = self.card_stats(cards)
        x = features_from_sims(sims, means, stds, visible, list(clues), list(cards), spelled, phrase, lang=self.lang)
        x.setflags(write=False)
        with self._lock:
            self._kept_features[key] = x
            while len(self._kept_features) > KEPT_READINGS:
                self._kept_features.popitem(last=False)
        return x

    def _inputs(self, clues: tuple[str, ...], cards: tuple[str, ...]
                ) -> tuple[list[np.ndarray], Optional[np.ndarray], Optional[np.ndarray]]:
        """Per model the (clues, cards) similarities, and the spelling and phrase links, kept
        for the last clues read on a board: a guesser reads the same clue for every guess, its
        earlier clues again, and each card alone for its evoke (the same call gives the same
        numbers, so a kept answer is the answer)."""
        key = (clues, cards)
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
                return hit
        sims = [np.asarray(m.similarity(list(clues), list(cards)), dtype=np.float32) for m in self.models]
        spelled = phrase = None
        if self.lang == "en":
            spelled, phrase = spelled_matrix(clues, cards), phrase_matrix(clues, cards)
        for a in (*sims, spelled, phrase):
            if a is not None:
                a.setflags(write=False)
        with self._lock:
            self._kept[key] = (sims, spelled, phrase)
            while len(self._kept) > KEPT_READINGS:
                self._kept.popitem(last=False)
        return sims, spelled, phrase

    def params_for(self, cards: Sequence[str]) -> ReaderParams:
        """The weights to read a board of these cards with (one set; see the cross-fitted
        reader of ``eval human``, which answers per game)."""
        return self.params

    def logits(self, cards: Sequence[str], clue: str, visible: Optional[np.ndarray] = None) -> np.ndarray:
        return self.params_for(cards).logits(self.features(cards, [clue], visible)[0])

    def probabilities(self, cards: Sequence[str], clue: str, visible: Optional[np.ndarray] = None) -> np.ndarray:
        """(cards,) P(a person's next pick is each card); 0 for cards not ``visible``."""
        vis = np.ones(len(cards), dtype=bool) if visible is None else np.asarray(visible, dtype=bool)
        return softmax(self.logits(cards, clue, vis), vis)


_SHARED_READER: Optional[HumanReader] = None
_SHARED_LOCK = threading.Lock()


def shared_reader(loader: Optional[Callable[[str], Any]] = None) -> HumanReader:
    """The process's reader with the shipped parameters: every agent of a process shares its
    models (``loader``: name -> model, e.g. the registry's per-process loader) and the
    cards' statistics."""
    global _SHARED_READER
    with _SHARED_LOCK:
        if _SHARED_READER is None:
            params = load_params()
            models = {n: loader(n) for n in params.models} if loader is not None else None
            _SHARED_READER = HumanReader(params, models)
        return _SHARED_READER


_GLOSSED_READERS: dict[str, HumanReader] = {}
_GLOSSED_LOCK = threading.Lock()


def glossed_reader(lang: str, loader: Optional[Callable[[str], Any]] = None) -> HumanReader:
    """The process's reader for boards in ``lang`` (de, vi, fa): the shipped English reader,
    its models reading each word as its English senses in the language's glossary written by a
    speaker (:mod:`spymaster_ai.embeddings.glossed`). Why: the reader knows how people link
    meanings; the glossary carries the other language's words to those meanings."""
    from ...embeddings.glossed import GlossedEmbedding, glossary

    with _GLOSSED_LOCK:
        reader = _GLOSSED_READERS.get(lang)
        if reader is None:
            english = shared_reader(loader)
            models = dict(zip(english.model_names, english.models))
            gloss = glossary(lang)
            reader = HumanReader(english.params, {n: GlossedEmbedding(m, gloss) for n, m in models.items()}, lang=lang)
            _GLOSSED_READERS[lang] = reader
        return reader
