"""Summary figures of a set of games, with 95% intervals.

Win rates use the Wilson score interval (scipy's ``binomtest(...).proportion_ci``), which
stays inside [0, 1] and is sound at 0% and 100%, unlike the normal approximation; means
(turns, scores) use a Student t interval.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Optional, Sequence

import numpy as np

from ..rules.moves import LossCause
from .play import GameResult

__all__ = ["LAST_GAMES", "LOSS_CAUSES", "STEPHENSON_LOSS", "match_summary", "mean_interval", "stephenson_score", "summarise", "wilson_interval"]

# Every loss cause a result can carry: the engines' own, plus "error" (an agent forfeited).
LOSS_CAUSES = tuple(c.value for c in LossCause) + ("error",)
# Single-team games, scored in turns (Kim et al. 2019, Stephenson et al. 2024).
_ONE_TEAM = ("kim2019", "solo", "pictures_solo")
# Stephenson et al. (2024) score a single-team game as its turns if won, 25 if lost.
STEPHENSON_LOSS = 25
# The end of a match the learning figures read: its last ten games (Archibald & Brosnahan's periods end so).
LAST_GAMES = 10


def stephenson_score(result: GameResult) -> Optional[float]:
    """Turns if won, 25 if lost (Stephenson et al. 2024); None outside single-team games."""
    if result.game not in _ONE_TEAM:
        return None
    return float(result.turns if result.won else STEPHENSON_LOSS)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``; (0, 1) when n is 0."""
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    from scipy import stats  # imported on use: scipy.stats takes a second to load

    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def mean_interval(
    values: Iterable[float], confidence: float = 0.95, lowest: Optional[float] = None
) -> Optional[tuple[float, float]]:
    """Student t interval of the mean; None with fewer than two values. ``lowest``: the
    smallest value the quantity can take (turns, scores: 0), where the interval is cut, since
    a few games can give a t interval reaching below it."""
    data = np.asarray(list(values), dtype=float)
    if data.size < 2:
        return None
    mean = float(data.mean())
    sem = float(data.std(ddof=1)) / math.sqrt(data.size)
    if sem == 0.0:
        return (mean, mean)
    from scipy import stats

    half = float(stats.t.ppf(0.5 + confidence / 2, data.size - 1)) * sem
    low = mean - half if lowest is None else max(lowest, mean - half)
    return (low, mean + half)


def _mean(values: Sequence[float]) -> Optional[float]:
    return float(np.mean(values)) if len(values) else None


def summarise(
    results: Sequence[GameResult], *, seconds: Optional[float] = None, played: Optional[int] = None
) -> dict:
    """Aggregate figures of ``results`` (all of one game kind and lineup).

    ``seconds`` is the wall time of the run and ``played`` how many games it actually played
    (a resumed run plays fewer than it reports); together they give games per second.
    ``mean_score`` averages the score of won games (Duet and solo score only a win).
    """
    n = len(results)
    wins = sum(1 for r in results if r.won)
    causes = Counter(r.loss_cause for r in results if not r.won)
    loss_causes = {c: int(causes.get(c, 0)) for c in LOSS_CAUSES}
    loss_causes.update({str(c): int(k) for c, k in causes.items() if c not in loss_causes})
    turns = [r.turns for r in results]
    won_turns = [r.turns for r in results if r.won]
    stephenson = [s for s in map(stephenson_score, results) if s is not None]
    scores = [r.score for r in results if r.won and r.score is not None]
    clues = sum(r.clues for r in results)
    errors = [r.error for r in results if r.error]
    examples: list[dict] = []
    for e in errors:
        if e not in examples and len(examples) < 3:
            examples.append(e)
    ci = wilson_interval(wins, n)
    summary = {
        "game": results[0].game if results else None,
        "games": n,
        "wins": wins,
        "losses": n - wins,
        "win_rate": wins / n if n else None,
        "ci95": [ci[0], ci[1]],
        "loss_causes": loss_causes,
        "mean_turns": _mean(turns),
        "turns_ci95": _as_list(mean_interval(turns, lowest=0.0)),
        "turns_per_win": _mean(won_turns),
        "turns_per_win_ci95": _as_list(mean_interval(won_turns, lowest=0.0)),
        "stephenson_score": _mean(stephenson),
        "stephenson_score_ci95": _as_list(mean_interval(stephenson, lowest=0.0)),
        "mean_score": _mean(scores),
        "score_ci95": _as_list(mean_interval(scores, lowest=0.0)),
        "mean_clues": clues / n if n else None,
        "mean_clue_count": sum(r.announced for r in results) / clues if clues else None,
        "words_per_clue": sum(r.correct for r in results) / clues if clues else None,
        "invalid_clues": sum(r.invalid_clues for r in results),
        "errors": len(errors),
        "error_examples": examples,
        "seconds": seconds,
        "games_per_second": (played if played is not None else n) / seconds if seconds else None,
    }
    kind = summary["game"]
    if kind in ("classic", "pictures"):
        decided = [r for r in results if r.extra.get("winner")]
        first = sum(1 for r in decided if r.extra["winner"] == r.extra["starting"])
        summary["starting_team_win_rate"] = first / len(decided) if decided else None
    if kind == "duet":
        sudden = [r for r in results if r.extra.get("sudden_death")]
        summary["sudden_death_rate"] = len(sudden) / n if n else None
        # of the games that reached it, the share won there: what the guessers' last picks are worth
        summary["sudden_death_win_rate"] = sum(1 for r in sudden if r.won) / len(sudden) if sudden else None
        summary["mean_greens_left"] = _mean([r.extra.get("greens_left", 0) for r in results])
    return summary


def match_summary(results: Sequence[GameResult], length: int) -> dict:
    """The learning figures of a run of matches of ``length`` games.

    ``curve``: for each game index j of a match, the win rate over every match's game j with
    its Wilson interval, and the mean turns with their t interval; ``last10_*``: the last ten
    games of every match pooled (all of them in a shorter match): win rate, turns per win,
    and Stephenson's score (single-team games; None otherwise).
    """
    by_game: list[list[GameResult]] = [[] for _ in range(length)]
    for r in results:
        by_game[r.extra["match_game"]].append(r)
    curve = []
    for j, games in enumerate(by_game):
        wins = sum(1 for r in games if r.won)
        turns = [r.turns for r in games]
        curve.append({
            "game": j, "games": len(games), "wins": wins, "win_rate": wins / len(games) if games else None,
            "ci95": list(wilson_interval(wins, len(games))), "mean_turns": _mean(turns),
            "turns_ci95": _as_list(mean_interval(turns, lowest=0.0)),
        })
    last = [r for games in by_game[-LAST_GAMES:] for r in games]
    wins = sum(1 for r in last if r.won)
    won_turns = [r.turns for r in last if r.won]
    stephenson = [s for s in map(stephenson_score, last) if s is not None]
    return {
        "match": length,
        "matches": len(by_game[0]),
        "curve": curve,
        "last10_games": len(last),
        "last10_win_rate": wins / len(last) if last else None,
        "last10_ci95": list(wilson_interval(wins, len(last))),
        "last10_turns_per_win": _mean(won_turns),
        "last10_turns_per_win_ci95": _as_list(mean_interval(won_turns, lowest=0.0)),
        "last10_score": _mean(stephenson),
        "last10_score_ci95": _as_list(mean_interval(stephenson, lowest=0.0)),
    }


def _as_list(pair: Optional[tuple[float, float]]) -> Optional[list[float]]:
    return None if pair is None else [pair[0], pair[1]]
