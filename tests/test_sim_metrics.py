"""Metrics: the Wilson interval against published values, t intervals, and the run summary."""

from __future__ import annotations

import math

import pytest

from spymaster_ai.sim.metrics import LOSS_CAUSES, mean_interval, summarise, wilson_interval
from spymaster_ai.sim.play import GameResult

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (Wilson score interval without continuity correction).
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0000),
]


@pytest.mark.parametrize("k,n,lo,hi", NEWCOMBE)
def test_wilson_matches_published_values(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_matches_the_closed_form():
    z = 1.959963984540054
    for k, n in [(0, 1), (3, 7), (50, 100), (999, 1000)]:
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        lo, hi = wilson_interval(k, n)
        assert lo == pytest.approx(max(0.0, centre - half), abs=1e-12)
        assert hi == pytest.approx(min(1.0, centre + half), abs=1e-12)


def test_wilson_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)
    with pytest.raises(ValueError):
        wilson_interval(-1, 4)
    lo, hi = wilson_interval(10, 10)
    assert 0.6 < lo < 1.0 and hi == pytest.approx(1.0)


def test_mean_interval():
    lo, hi = mean_interval([1, 2, 3, 4, 5])
    # mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764451
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)
    assert (lo, hi) == pytest.approx((3 - half, 3 + half))
    assert mean_interval([4.0]) is None
    assert mean_interval([2, 2, 2]) == (2.0, 2.0)
    lo, hi = mean_interval([1, 40])  # two games: the t interval reaches far below 0
    assert lo < 0 and mean_interval([1, 40], lowest=0.0) == (0.0, hi)


def _result(index, won, cause=None, turns=5, score=None, clues=4, announced=8, correct=6, error=None, extra=None):
    return GameResult(
        game="duet", seed=index, index=index, agents={"a_spymaster": "x"}, won=won, loss_cause=cause, turns=turns,
        score=score, clues=clues, announced=announced, correct=correct,
        words_per_clue=correct / clues if clues else None, invalid_clues=1 if index == 0 else 0, error=error,
        extra=extra or {"sudden_death": index % 2 == 0, "greens_left": 0 if won else 3}, options={}, record={},
    )


def test_summary_counts_and_means():
    results = [
        _result(0, True, score=12, turns=6),
        _result(1, True, score=8, turns=8),
        _result(2, False, "assassin", turns=3, clues=2, announced=5, correct=1),
        _result(3, False, "timeout", turns=9),
        _result(4, False, "error", turns=1, clues=0, announced=0, correct=0,
                error={"role": "a_guesser", "agent": "x", "message": "boom"}),
    ]
    s = summarise(results, seconds=2.0, played=4)
    assert (s["games"], s["wins"], s["losses"]) == (5, 2, 3)
    assert s["win_rate"] == pytest.approx(0.4)
    assert s["ci95"] == pytest.approx(list(wilson_interval(2, 5)))
    assert s["loss_causes"]["assassin"] == 1 and s["loss_causes"]["timeout"] == 1 and s["loss_causes"]["error"] == 1
    assert set(LOSS_CAUSES) <= set(s["loss_causes"])
    assert s["mean_turns"] == pytest.approx((6 + 8 + 3 + 9 + 1) / 5)
    assert s["mean_score"] == pytest.approx(10.0)  # over won games only
    assert s["mean_clues"] == pytest.approx((4 + 4 + 2 + 4 + 0) / 5)
    assert s["mean_clue_count"] == pytest.approx((8 + 8 + 5 + 8) / 14)
    assert s["words_per_clue"] == pytest.approx((6 + 6 + 1 + 6) / 14)
    assert s["invalid_clues"] == 1
    assert s["errors"] == 1 and s["error_examples"][0]["message"] == "boom"
    assert s["games_per_second"] == pytest.approx(2.0)  # 4 played in 2 s; the fifth was resumed
    assert s["sudden_death_rate"] == pytest.approx(3 / 5)
    assert s["sudden_death_win_rate"] == pytest.approx(1 / 3)  # games 0, 2, 4 reached it; game 0 was won


def test_summary_of_classic_reports_first_move_advantage():
    extra = lambda start, win: {"starting": start, "winner": win}  # noqa: E731
    results = [
        GameResult("classic", i, i, {}, w == "red", None if w == "red" else "opponent", 7, None, 3, 6, 5, 5 / 3, 0,
                   None, extra(s, w), {}, {})
        for i, (s, w) in enumerate([("red", "red"), ("blue", "blue"), ("red", "blue"), ("blue", "blue")])
    ]
    s = summarise(results)
    assert s["win_rate"] == pytest.approx(0.25)
    assert s["starting_team_win_rate"] == pytest.approx(0.75)
