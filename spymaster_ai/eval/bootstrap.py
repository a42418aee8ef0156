"""Seeded 95% bootstrap intervals for per-turn figures, resampling whole games.

Why games and not rows: the turns of one game share a board and its players, so they are not
independent; resampling rows would give intervals that are too narrow. Each game contributes
its sum and its number of turns, and scipy's ``bootstrap`` resamples the games (paired) and
recomputes the pooled mean. The percentile method is used because figures such as top-1
agreement are bounded shares for which BCa is undefined on all-equal data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

__all__ = ["DEFAULT_RESAMPLES", "Estimate", "estimate_difference", "estimate_mean"]

DEFAULT_RESAMPLES = 2000


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` turns from ``games`` games, with its bootstrap 95% interval."""

    value: Optional[float]
    ci95: Optional[tuple[float, float]]  # None with fewer than two games
    n: int
    games: int

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
            "n": self.n,
            "games": self.games,
        }


def _per_game(values: np.ndarray, groups: Optional[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    if groups is None:
        return values.copy(), np.ones(len(values))
    groups = np.asarray(groups)
    if groups.shape != values.shape[:1]:
        raise ValueError(f"{len(groups)} game ids for {len(values)} values")
    _, inverse = np.unique(groups, return_inverse=True)
    counts = np.bincount(inverse).astype(float)
    sums = np.stack([np.bincount(inverse, weights=col) for col in np.atleast_2d(values.T)], axis=-1)
    return (sums[:, 0] if values.ndim == 1 else sums), counts


def _pooled_ci(columns: tuple[np.ndarray, ...], statistic, seed: int, resamples: int) -> tuple[float, float]:
    from scipy import stats  # imported on use: scipy.stats takes a second to load

    result = stats.bootstrap(
        columns, statistic, paired=True, vectorized=True, n_resamples=resamples,
        confidence_level=0.95, method="percentile", rng=np.random.default_rng(seed),
    )
    low, high = result.confidence_interval
    return (float(low), float(high))


def estimate_mean(
    values: Sequence[float], groups: Optional[Sequence[int]] = None, seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> Estimate:
    """The mean of ``values`` and a game-resampling 95% interval (``groups``: game id per value;
    None: every value its own game). Seeded: the same inputs give the same interval."""
    data = np.asarray(values, dtype=float)
    if data.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if data.size == 0:
        return Estimate(None, None, 0, 0)
    sums, counts = _per_game(data, groups)
    value = float(data.mean())
    if len(counts) < 2:
        return Estimate(value, None, int(data.size), len(counts))
    ci = _pooled_ci((sums, counts), lambda s, c, axis=-1: s.sum(axis) / c.sum(axis), seed, resamples)
    return Estimate(value, ci, int(data.size), len(counts))


def estimate_difference(
    a: Sequence[float], b: Sequence[float], groups: Optional[Sequence[int]] = None, seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> Estimate:
    """mean(a) - mean(b) over the same turns (paired), with a game-resampling 95% interval."""
    left, right = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if left.shape != right.shape or left.ndim != 1:
        raise ValueError("a and b must be one-dimensional and of the same length")
    if left.size == 0:
        return Estimate(None, None, 0, 0)
    sums, counts = _per_game(np.stack([left, right], axis=1), groups)
    value = float(left.mean() - right.mean())
    if len(counts) < 2:
        return Estimate(value, None, int(left.size), len(counts))
    ci = _pooled_ci((sums[:, 0], sums[:, 1], counts),
                    lambda x, y, c, axis=-1: (x.sum(axis) - y.sum(axis)) / c.sum(axis), seed, resamples)
    return Estimate(value, ci, int(left.size), len(counts))
