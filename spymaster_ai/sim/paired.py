"""Paired comparisons of runs played on the same boards.

Why: every cell of a tournament and every point of a sweep plays game ``i`` from the same seed,
so game ``i`` of one run and game ``i`` of another meet the same board, key and agent seeds
(common random numbers). Compared game by game, the deal's variance cancels, and a paired
interval is much narrower than two separate intervals side by side. Games are matched by
their seed (their board), never by position, so two runs of other seeds or lengths are paired
on the boards they share, or refused when they share none.

For runs A and B over their paired games (``paired_difference``):

- win rate A − B, with a 95% paired bootstrap interval (percentile; the same resampled games,
  or whole matches in a run of matches, for A and B; seeded, so a rerun or a resumed run gives
  the same interval);
- the exact McNemar test on wins: the discordant games (``a_only``: A won, B lost;
  ``b_only``: B won, A lost) and the two-sided binomial p of ``a_only`` of ``a_only + b_only``
  at 1/2 (1 when no game is discordant). It treats games as independent, which games of a
  match are not: read a match tournament's bootstrap interval instead;
- mean turns A − B over *all* paired games, with its bootstrap interval: turns as each game
  records them, the figure a cell's "mean turns" shows (Duet: turns played, so a game lost to
  the assassin is short; kim2019: a loss counts 25), so the difference is exactly the
  difference of the two runs' mean turns. Beside it, turns over the games *both* won
  (``both_won`` games): the speed of a win, free of short losses, but conditioned on the
  outcome of both runs, so read it with the win-rate difference.

Each interval is for one comparison; a table of many holds some that exclude 0 by chance.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

import numpy as np

__all__ = [
    "BOOTSTRAP_SEED", "CAVEAT", "PairingError", "RESAMPLES", "TURNS_MEANING", "cell_pairs", "paired_difference",
    "paired_table_rows",
]

RESAMPLES = 10_000  # bootstrap resamples: the interval's ends move by about 0.1 point between seeds
BOOTSTRAP_SEED = 0
TURNS_MEANING = (
    "mean turns over all paired games, as each game records them (the cells' mean turns: a Duet game lost to the "
    "assassin is short, a kim2019 loss counts 25); turns_both_won: over the games both won"
)
CAVEAT = (
    "not corrected for multiple comparisons: each interval and p-value is for one comparison on its own, "
    "and of 20 comparisons with no real difference about 1 excludes 0 at 95%"
)
_CELLS_PER_CHUNK = 4_000_000  # resamples x units held at once: the bootstrap's memory stays ~32 MB


class PairingError(ValueError):
    """Two runs that cannot be compared game by game (no board in common, a board twice)."""


def _columns(run: Mapping[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    try:
        seed = np.asarray(run["seed"], dtype=np.int64)
        won = np.asarray(run["won"], dtype=bool)
        turns = np.asarray(run["turns"], dtype=float)
    except KeyError as exc:
        raise PairingError(f"run {name} has no per-game {exc.args[0]!r}: pairing needs seed, won and turns") from None
    if not (seed.ndim == won.ndim == turns.ndim == 1 and seed.size == won.size == turns.size):
        raise PairingError(f"run {name}: seed, won and turns must be 1-D arrays of one length")
    if np.unique(seed).size != seed.size:
        raise PairingError(f"run {name} holds a board (seed) twice: its games are not one game per board")
    return seed, won, turns


def _pair_indices(a: Mapping, b: Mapping) -> tuple[np.ndarray, np.ndarray, dict]:
    seed_a, _, _ = _columns(a, "A")
    seed_b, _, _ = _columns(b, "B")
    _, ia, ib = np.intersect1d(seed_a, seed_b, assume_unique=True, return_indices=True)
    if ia.size == 0:
        raise PairingError(
            f"the two runs share no board (A: {seed_a.size} games, B: {seed_b.size} games, no seed in common): "
            "a paired comparison needs runs of the same master seed (and game kind and options)"
        )
    order = np.argsort(ia, kind="stable")  # A's game order
    return ia[order], ib[order], {"a": int(seed_a.size - ia.size), "b": int(seed_b.size - ib.size)}


def _bootstrap(sums: np.ndarray, resamples: int, seed: int, confidence: float) -> np.ndarray:
    """Percentile intervals of ratios of resampled sums: ``sums`` holds per unit (a game, or a
    match) (numerator, denominator) column pairs; units are drawn with replacement, the same
    draw for every column. Returns (lo, hi) per ratio, NaN where every draw had no denominator."""
    units = sums.shape[0]
    rng = np.random.default_rng(seed)
    chunk = max(1, _CELLS_PER_CHUNK // max(units, 1))
    uniform = np.full(units, 1.0 / units)
    ratios = []
    for start in range(0, resamples, chunk):
        weights = rng.multinomial(units, uniform, size=min(chunk, resamples - start)).astype(float)
        totals = weights @ sums  # (draws, columns)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios.append(totals[:, 0::2] / totals[:, 1::2])
    drawn = np.concatenate(ratios)
    tail = (1 - confidence) / 2
    out = np.full((drawn.shape[1], 2), np.nan)
    for k in range(drawn.shape[1]):
        finite = drawn[:, k][np.isfinite(drawn[:, k])]
        if finite.size:
            out[k] = np.quantile(finite, [tail, 1 - tail])
    return out


def _number(x: float) -> Optional[float]:
    return None if x is None or not np.isfinite(x) else float(x)


def paired_difference(
    a: Mapping[str, Sequence], b: Mapping[str, Sequence], *, groups: Optional[Sequence[int]] = None,
    resamples: int = RESAMPLES, seed: int = BOOTSTRAP_SEED, confidence: float = 0.95,
) -> dict:
    """A − B over the games both runs played on the same board (see the module docstring).

    ``a``/``b``: per-game ``seed``, ``won`` and ``turns`` (``Tally.outcomes()``); ``groups``:
    A's per-game unit of resampling (a run of matches: the match), games by default."""
    from scipy import stats

    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    ia, ib, unpaired = _pair_indices(a, b)
    _, won_a, turns_a = _columns(a, "A")
    _, won_b, turns_b = _columns(b, "B")
    wa, wb, ta, tb = won_a[ia], won_b[ib], turns_a[ia], turns_b[ib]
    n = ia.size
    both = wa & wb
    units = np.arange(n) if groups is None else np.unique(np.asarray(groups)[ia], return_inverse=True)[1].ravel()
    per_game = np.column_stack([
        wa.astype(float) - wb, np.ones(n), ta - tb, np.ones(n), np.where(both, ta - tb, 0.0), both.astype(float),
    ])
    sums = np.zeros((int(units.max()) + 1, per_game.shape[1]))
    np.add.at(sums, units, per_game)
    (win_lo, win_hi), (turn_lo, turn_hi), (bw_lo, bw_hi) = _bootstrap(sums, resamples, seed, confidence)
    a_only, b_only = int((wa & ~wb).sum()), int((wb & ~wa).sum())
    discordant = a_only + b_only
    p = float(stats.binomtest(a_only, discordant, 0.5).pvalue) if discordant else 1.0
    n_both = int(both.sum())
    return {
        "games": int(n),
        "unpaired": unpaired,
        "win_rate": [float(wa.mean()), float(wb.mean())],
        "win_rate_diff": float(wa.mean() - wb.mean()),
        "win_rate_diff_ci95": [float(win_lo), float(win_hi)],
        "discordant": {"a_only": a_only, "b_only": b_only},
        "mcnemar_p": p,
        "mean_turns": [float(ta.mean()), float(tb.mean())],
        "turns_diff": float((ta - tb).mean()),
        "turns_diff_ci95": [float(turn_lo), float(turn_hi)],
        "both_won": n_both,
        "turns_both_won_diff": float((ta - tb)[both].mean()) if n_both else None,
        "turns_both_won_diff_ci95": [_number(bw_lo), _number(bw_hi)] if n_both else None,
    }


def cell_pairs(spymasters: Sequence[str], guessers: Sequence[str], which: str = "shared") -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The pairs of tournament cells to compare: ``"shared"`` (cells with the same spymaster or
    the same guesser: one agent changes, so the difference is that agent's) or ``"all"``."""
    if which not in ("shared", "all"):
        raise ValueError(f"pairs must be 'shared' or 'all', got {which!r}")
    cells = [(s, g) for s in spymasters for g in guessers]
    return [
        (x, y) for i, x in enumerate(cells) for y in cells[i + 1:]
        if which == "all" or x[0] == y[0] or x[1] == y[1]
    ]


def _signed(x: Optional[float], scale: float = 1.0, digits: int = 1) -> str:
    return "–" if x is None else f"{scale * x:+.{digits}f}"


def _interval(ci: Optional[Sequence[Optional[float]]], scale: float = 1.0, digits: int = 1) -> str:
    if not ci or ci[0] is None:
        return ""
    return f" [{_signed(ci[0], scale, digits)}, {_signed(ci[1], scale, digits)}]"


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def paired_table_rows(comparison: dict) -> tuple[str, str, str, str, str]:
    """A comparison's cells as text: win rate A − B in points [95%], discordant A only / B
    only, McNemar p, turns A − B [95%], and over games both won (n)."""
    c = comparison
    both = c.get("turns_both_won_diff")
    return (
        _signed(c["win_rate_diff"], 100) + _interval(c["win_rate_diff_ci95"], 100),
        f"{c['discordant']['a_only']}/{c['discordant']['b_only']}",
        _p(c["mcnemar_p"]),
        _signed(c["turns_diff"], digits=2) + _interval(c["turns_diff_ci95"], digits=2),
        ("–" if both is None else _signed(both, digits=2)) + f" (n={c['both_won']})",
    )
