"""Summary figures of a set of games, with 95% intervals.

Win rates use the Wilson score interval (scipy's ``binomtest(...).proportion_ci``), which
stays inside [0, 1] and is sound at 0% and 100%, unlike the normal approximation; means
(turns, scores) use a Student t interval.
"""

from __future__ import annotations

import json
import math
from array import array
from collections import Counter
from typing import Iterable, Optional, Sequence

import numpy as np

from ..rules.moves import LossCause
from .play import GameResult

__all__ = ["LAST_GAMES", "LOSS_CAUSES", "STEPHENSON_LOSS", "Tally", "match_summary", "mean_interval", "stephenson_score", "summarise", "wilson_interval"]

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
    data = np.asarray(values if isinstance(values, np.ndarray) else list(values), dtype=float)
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


class Tally:
    """Running figures of a stream of games, fed in any order: ``summarise`` without the games.

    Why: a long run holds no finished game (about 18 KB each, its record). Counts and sums are
    kept as integers; the t intervals need the per-game turns and scores in order (numpy's sum
    of squared deviations rounds differently in another order, and the summary must stay the
    same to the last digit), so those are kept as small numeric columns (42 bytes a game, its
    seed too, which pairs it with other runs' games on its board) with each game's ``key`` (the runner: its index; ``summarise``: its position), and put in
    key order when a summary is asked for. Each game is added once; the caller deduplicates.
    """

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self._game: Optional[tuple[int, str]] = None  # (key, kind) of the first game
        self._causes: Counter = Counter()
        self._cause_first: dict = {}
        self._sums = Counter()  # clues, announced, correct, invalid_clues, greens_left, sudden...
        self._errors = 0
        self._examples: list[tuple[int, dict]] = []  # the 3 distinct errors met first, by key
        self._codes: dict[str, list] = {}  # json(code) -> [code, games, first key]
        self._key = array("q")
        self._seed = array("q")  # the game's seed: its board (paired comparisons, ``outcomes``)
        self._turns = array("q")
        self._won = array("b")
        self._one_team = array("b")
        self._score = array("d")  # NaN: no score
        self._match_game = array("q")  # -1: not a game of a match

    @classmethod
    def of(cls, results: Iterable[GameResult]) -> "Tally":
        """The tally of ``results`` in their order."""
        tally = cls()
        for position, r in enumerate(results):
            tally.add(r, position)
        return tally

    def add(self, r: GameResult, key: int) -> None:
        self.games += 1
        self.wins += bool(r.won)
        if self._game is None or key < self._game[0]:
            self._game = (key, r.game)
        if not r.won:
            self._causes[r.loss_cause] += 1
            if key < self._cause_first.get(r.loss_cause, key + 1):
                self._cause_first[r.loss_cause] = key
        sums = self._sums
        sums["clues"] += r.clues
        sums["announced"] += r.announced
        sums["correct"] += r.correct
        sums["invalid_clues"] += r.invalid_clues
        # counted for every game; reported for the kind of the first game (as summarise always did)
        if r.extra.get("winner"):
            sums["decided"] += 1
            sums["first"] += r.extra["winner"] == r.extra["starting"]
        sums["greens_left"] += r.extra.get("greens_left", 0)
        if r.extra.get("sudden_death"):
            sums["sudden"] += 1
            sums["sudden_won"] += bool(r.won)
        if r.error:
            self._errors += 1
            self._note_error(r.error, key)
        code = (r.provenance or {}).get("code")
        entry = self._codes.setdefault(json.dumps(code, sort_keys=True), [code, 0, key])
        entry[1] += 1
        entry[2] = min(entry[2], key)
        self._key.append(key)
        self._seed.append(int(r.seed))
        self._turns.append(r.turns)
        self._won.append(bool(r.won))
        self._one_team.append(r.game in _ONE_TEAM)
        self._score.append(math.nan if r.score is None else float(r.score))
        self._match_game.append(int(r.extra.get("match_game", -1)))

    def _note_error(self, error: dict, key: int) -> None:
        for k, (first, e) in enumerate(self._examples):
            if e == error:
                self._examples[k] = (min(first, key), e)
                break
        else:
            self._examples.append((key, error))
        self._examples.sort(key=lambda pair: pair[0])
        del self._examples[3:]  # a later error can only come before these by being met earlier

    def _columns(self, order: Optional[np.ndarray] = None) -> dict[str, np.ndarray]:
        key = np.frombuffer(self._key, dtype=np.int64) if self.games else np.zeros(0, np.int64)
        if order is None:
            order = np.argsort(key, kind="stable")
        take = lambda a, t: (np.frombuffer(a, dtype=t) if self.games else np.zeros(0, t))[order]  # noqa: E731
        return {"turns": take(self._turns, np.int64), "won": take(self._won, np.int8).astype(bool),
                "one_team": take(self._one_team, np.int8).astype(bool), "score": take(self._score, np.float64),
                "match_game": take(self._match_game, np.int64), "seed": take(self._seed, np.int64),
                "key": key[order]}

    def outcomes(self) -> dict[str, np.ndarray]:
        """Each game's key (the runner: its index), seed (its board), won and turns, in key order:
        what a paired comparison of two runs on the same boards needs (``sim.paired``)."""
        col = self._columns()
        return {"index": col["key"], "seed": col["seed"], "won": col["won"], "turns": col["turns"]}

    def played_by(self) -> list[dict]:
        """Each distinct code that played the games, with its number of games, first met first."""
        return [{"code": code, "games": n} for code, n, _ in sorted(self._codes.values(), key=lambda e: e[2])]

    def summary(self, *, seconds: Optional[float] = None, played: Optional[int] = None) -> dict:
        """The figures of :func:`summarise` (see there)."""
        n, wins = self.games, self.wins
        col = self._columns()
        turns = col["turns"].astype(float)
        won = col["won"]
        won_turns = turns[won]
        stephenson = np.where(won, turns, float(STEPHENSON_LOSS))[col["one_team"]]
        score = col["score"]
        scores = score[won & ~np.isnan(score)]
        loss_causes = {c: int(self._causes.get(c, 0)) for c in LOSS_CAUSES}
        others = sorted((c for c in self._causes if c not in loss_causes), key=lambda c: self._cause_first[c])
        loss_causes.update({str(c): int(self._causes[c]) for c in others})
        sums = self._sums
        clues = sums["clues"]
        ci = wilson_interval(wins, n)
        game = self._game[1] if self._game else None
        summary = {
            "game": game,
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
            "mean_clue_count": sums["announced"] / clues if clues else None,
            "words_per_clue": sums["correct"] / clues if clues else None,
            "invalid_clues": sums["invalid_clues"],
            "errors": self._errors,
            "error_examples": [e for _, e in self._examples],
            "seconds": seconds,
            "games_per_second": (played if played is not None else n) / seconds if seconds else None,
        }
        if game in ("classic", "pictures"):
            decided = sums["decided"]
            summary["starting_team_win_rate"] = sums["first"] / decided if decided else None
        if game == "duet":
            sudden = sums["sudden"]
            summary["sudden_death_rate"] = sudden / n if n else None
            # of the games that reached it, the share won there: what the guessers' last picks are worth
            summary["sudden_death_win_rate"] = sums["sudden_won"] / sudden if sudden else None
            summary["mean_greens_left"] = sums["greens_left"] / n if n else None
        return summary

    def match_summary(self, length: int) -> dict:
        """The figures of :func:`match_summary` (see there)."""
        col = self._columns()
        order = np.lexsort((col["key"], col["match_game"]))  # by game of the match, then by key
        j_of, turns_all, won_all = col["match_game"][order], col["turns"][order].astype(float), col["won"][order]
        one_team = col["one_team"][order]
        curve = []
        for j in range(length):
            mask = j_of == j
            games, wins = int(mask.sum()), int(won_all[mask].sum())
            turns = turns_all[mask]
            curve.append({
                "game": j, "games": games, "wins": wins, "win_rate": wins / games if games else None,
                "ci95": list(wilson_interval(wins, games)), "mean_turns": _mean(turns),
                "turns_ci95": _as_list(mean_interval(turns, lowest=0.0)),
            })
        last = j_of >= max(0, length - LAST_GAMES)
        won, turns = won_all[last], turns_all[last]
        wins, n_last = int(won.sum()), int(last.sum())
        won_turns = turns[won]
        stephenson = np.where(won, turns, float(STEPHENSON_LOSS))[one_team[last]]
        return {
            "match": length,
            "matches": int((j_of == 0).sum()),
            "curve": curve,
            "last10_games": n_last,
            "last10_win_rate": wins / n_last if n_last else None,
            "last10_ci95": list(wilson_interval(wins, n_last)),
            "last10_turns_per_win": _mean(won_turns),
            "last10_turns_per_win_ci95": _as_list(mean_interval(won_turns, lowest=0.0)),
            "last10_score": _mean(stephenson),
            "last10_score_ci95": _as_list(mean_interval(stephenson, lowest=0.0)),
        }


def summarise(
    results: Sequence[GameResult], *, seconds: Optional[float] = None, played: Optional[int] = None
) -> dict:
    """Aggregate figures of ``results`` (all of one game kind and lineup).

    ``seconds`` is the wall time of the run and ``played`` how many games it actually played
    (a resumed run plays fewer than it reports); together they give games per second.
    ``mean_score`` averages the score of won games (Duet and solo score only a win).
    A stream of games that is never held whole: :class:`Tally`.
    """
    return Tally.of(results).summary(seconds=seconds, played=played)


def match_summary(results: Sequence[GameResult], length: int) -> dict:
    """The learning figures of a run of matches of ``length`` games.

    ``curve``: for each game index j of a match, the win rate over every match's game j with
    its Wilson interval, and the mean turns with their t interval; ``last10_*``: the last ten
    games of every match pooled (all of them in a shorter match): win rate, turns per win,
    and Stephenson's score (single-team games; None otherwise).
    """
    return Tally.of(results).match_summary(length)


def _as_list(pair: Optional[tuple[float, float]]) -> Optional[list[float]]:
    return None if pair is None else [pair[0], pair[1]]
