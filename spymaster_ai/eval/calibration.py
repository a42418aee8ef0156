"""A guesser calibrated on human first guesses (``eval human --calibrate``).

Why: raw cosine rankings disagree with people in systematic ways (some cards are close to
almost every word, "hubs"; models disagree on which words are related). A small logistic
regression over each model's standardised similarity, its board z-score, whether the card is
that model's top pick and how much of a hub the card is, plus the card's word frequency,
learns how much to trust each signal.

Honest by construction: the validation turns are split by *game* (all turns of a board on
one side) with a seeded permutation; the model is fitted on one part and every figure is
reported on the other, beside the uncalibrated agent on the same turns. Nothing but the
validation split is ever read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ..agents.vocabulary import reads
from .adapter import Unscorable
from .human_data import GuessTurn
from .human_join import guess_games

__all__ = ["CalibratedGuesser", "CalibrationSplit", "member_models", "split_by_game"]

DEFAULT_FIT_SHARE = 0.5
# A card's hubness: the mean of its HUB_NEIGHBOURS highest similarities to the clue vocabulary.
HUB_NEIGHBOURS = 10


@dataclass(frozen=True)
class CalibrationSplit:
    """Which guess rows fit the model and which are reported (disjoint sets of games)."""

    seed: int
    fit_rows: frozenset[int]
    test_rows: frozenset[int]
    fit_games: int
    test_games: int

    def to_json(self) -> dict:
        return {"seed": self.seed, "fit_turns": len(self.fit_rows), "test_turns": len(self.test_rows),
                "fit_games": self.fit_games, "test_games": self.test_games}


def split_by_game(turns: Sequence[GuessTurn], seed: int, fit_share: float = DEFAULT_FIT_SHARE) -> CalibrationSplit:
    """Shuffle the games with ``numpy.random.default_rng(seed)``; the first ``fit_share`` fit."""
    if not 0.0 < fit_share < 1.0:
        raise ValueError(f"fit_share must be between 0 and 1, got {fit_share}")
    games = guess_games(turns)
    order = np.random.default_rng(seed).permutation(int(games.max()) + 1 if len(games) else 0)
    n_fit = int(round(len(order) * fit_share))
    fit_games = set(order[:n_fit].tolist())
    fit = frozenset(t.row for t, g in zip(turns, games) if g in fit_games)
    test = frozenset(t.row for t in turns) - fit
    return CalibrationSplit(seed, fit, test, n_fit, len(order) - n_fit)


def member_models(embedding: Any) -> tuple[Any, ...]:
    """The single models inside an embedding (an ensemble's members, else the model itself)."""
    members = getattr(embedding, "members", None)
    return tuple(members) if members else (embedding,)


class CalibratedGuesser:
    """Ranks cards by a logistic regression fitted to human first guesses.

    Features per card, for each model: similarity to the clue in that model's own standard
    units (``similarity_stats``), its z-score across the board, 1 if it is the model's top
    card, its hubness (mean of its 10 highest similarities to the model's clue vocabulary,
    same units: a card close to everything is a weak guess for any one clue); and the card's
    wordfreq Zipf frequency. A linear score over the standardised features, fitted with
    scikit-learn's ``LogisticRegression`` on card pairs (see :meth:`fit`; deterministic
    lbfgs), ranks the cards; the best score is the guess.
    """

    def __init__(self, models: Sequence[Any], name: str = "calibrated", C: float = 1.0) -> None:
        if not models:
            raise ValueError("calibration needs at least one model")
        self.models = tuple(models)
        self.name = name
        self.C = float(C)
        self._scaler: Any = None
        self._weights: Optional[np.ndarray] = None
        self._hubness: list[dict[str, float]] = [{} for _ in self.models]

    @property
    def feature_names(self) -> list[str]:
        names = []
        for m in self.models:
            label = getattr(m, "name", type(m).__name__)
            names += [f"{label}:similarity", f"{label}:board_z", f"{label}:is_top", f"{label}:hubness"]
        return names + ["card_zipf"]

    def _check(self, clue: str) -> None:
        for m in self.models:
            if not reads(m, clue):
                raise Unscorable("clue-unknown", f"{getattr(m, 'name', 'a model')} cannot read {clue!r}")

    @staticmethod
    def _scale(model: Any) -> tuple[float, float]:
        stats = getattr(model, "similarity_stats", None)
        return stats() if callable(stats) else (0.0, 1.0)

    def _hub(self, k: int, words: Sequence[str]) -> np.ndarray:
        """Hubness of each word under model ``k`` (computed once per word)."""
        cache, model = self._hubness[k], self.models[k]
        missing = list(dict.fromkeys(w for w in words if w not in cache))
        if missing:
            vocab = model.clue_vocabulary()
            mean, std = self._scale(model)
            sims = (np.asarray(model.similarity(missing, vocab), dtype=np.float64) - mean) / std
            top = min(HUB_NEIGHBOURS, sims.shape[1])
            best = np.partition(sims, sims.shape[1] - top, axis=1)[:, -top:]
            cache.update(zip(missing, best.mean(axis=1).tolist()))
        return np.array([cache[w] for w in words])

    def features(self, board: Sequence[str], clue: str) -> np.ndarray:
        """(cards, features) float64 for one clue on one board."""
        from ..embeddings.vocabulary import zipf_frequencies

        self._check(clue)
        columns = []
        for k, m in enumerate(self.models):
            raw = np.asarray(m.similarity([clue], list(board)), dtype=np.float64)[0]
            mean, std = self._scale(m)
            sim = (raw - mean) / std
            sd = sim.std()
            z = (sim - sim.mean()) / sd if sd > 0 else np.zeros_like(sim)
            top = (sim >= sim.max()).astype(np.float64)
            columns += [sim, z, top, self._hub(k, board)]
        columns.append(np.asarray(zipf_frequencies(list(board)), dtype=np.float64))
        return np.stack(columns, axis=1)

    def fit(self, turns: Sequence[GuessTurn]) -> "CalibratedGuesser":
        """Fit on the human first guesses of ``turns`` (turns without one, or with an unknown
        clue, are skipped).

        The choice is among the cards of one board, so the model is fitted on pairs: the
        chosen card's features minus each other card's (and the reverse, labelled 0), with no
        intercept. That is the logistic approximation of a conditional logit, and it scores
        cards, not boards.
        """
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        boards: list[tuple[np.ndarray, int]] = []
        for turn in turns:
            if turn.first_guess is None:
                continue
            try:
                x = self.features(turn.remaining, turn.clue)
            except Unscorable:
                continue
            boards.append((x, turn.remaining.index(turn.first_guess)))
        if not any(len(x) > 1 for x, _ in boards):
            raise ValueError("no turn with a choice between cards to fit the calibration on")
        scaler = StandardScaler().fit(np.concatenate([x for x, _ in boards]))
        diffs = []
        for x, chosen in boards:
            z = scaler.transform(x)
            diffs.append(z[chosen] - np.delete(z, chosen, axis=0))
        pairs = np.concatenate(diffs)
        X = np.concatenate([pairs, -pairs])
        y = np.concatenate([np.ones(len(pairs), dtype=int), np.zeros(len(pairs), dtype=int)])
        model = LogisticRegression(C=self.C, fit_intercept=False, max_iter=2000).fit(X, y)
        self._scaler, self._weights = scaler, model.coef_[0].copy()
        self.fitted_turns = len(boards)
        return self

    def scores(self, board: Sequence[str], clue: str) -> np.ndarray:
        if self._weights is None:
            raise RuntimeError("fit the calibrated guesser first")
        return self._scaler.transform(self.features(board, clue)) @ self._weights

    def rank_cards(self, board: Sequence[str], clue: str, count: int = 1) -> list[str]:
        """Every card, best first (ties: board order)."""
        s = self.scores(board, clue)
        order = np.argsort(-s, kind="stable")
        return [board[i] for i in order]

    def coefficients(self) -> dict[str, float]:
        """The fitted weights per standardised feature (for the report)."""
        if self._weights is None:
            raise RuntimeError("fit the calibrated guesser first")
        return {n: round(float(c), 4) for n, c in zip(self.feature_names, self._weights)}
