"""Issue 41: a run keeps running tallies, not its games. The tally gives the list summary to
the last digit (the old list-based code is kept here as the reference), fed in any order;
a run and its resume hold no game, and resume reads its file line by line."""

from __future__ import annotations

import json
import random
import tracemalloc
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_sim_scripted import scripted_factory

from spymaster_ai.sim import runner
from spymaster_ai.sim.metrics import LOSS_CAUSES, STEPHENSON_LOSS, Tally, _as_list, _mean, mean_interval, wilson_interval
from spymaster_ai.sim.play import GameResult, lineup
from spymaster_ai.sim.runner import dump_result_line, run_games


def reference_summary(results):
    """summarise as it was before issue 41 (a3cad2a): every figure from the list of games."""
    n = len(results)
    wins = sum(1 for r in results if r.won)
    causes = Counter(r.loss_cause for r in results if not r.won)
    loss_causes = {c: int(causes.get(c, 0)) for c in LOSS_CAUSES}
    loss_causes.update({str(c): int(k) for c, k in causes.items() if c not in loss_causes})
    turns = [r.turns for r in results]
    won_turns = [r.turns for r in results if r.won]
    one_team = ("kim2019", "solo", "pictures_solo")
    stephenson = [float(r.turns if r.won else STEPHENSON_LOSS) for r in results if r.game in one_team]
    scores = [r.score for r in results if r.won and r.score is not None]
    clues = sum(r.clues for r in results)
    errors = [r.error for r in results if r.error]
    examples = []
    for e in errors:
        if e not in examples and len(examples) < 3:
            examples.append(e)
    ci = wilson_interval(wins, n)
    s = {
        "game": results[0].game if results else None, "games": n, "wins": wins, "losses": n - wins,
        "win_rate": wins / n if n else None, "ci95": [ci[0], ci[1]], "loss_causes": loss_causes,
        "mean_turns": _mean(turns), "turns_ci95": _as_list(mean_interval(turns, lowest=0.0)),
        "turns_per_win": _mean(won_turns), "turns_per_win_ci95": _as_list(mean_interval(won_turns, lowest=0.0)),
        "stephenson_score": _mean(stephenson), "stephenson_score_ci95": _as_list(mean_interval(stephenson, lowest=0.0)),
        "mean_score": _mean(scores), "score_ci95": _as_list(mean_interval(scores, lowest=0.0)),
        "mean_clues": clues / n if n else None,
        "mean_clue_count": sum(r.announced for r in results) / clues if clues else None,
        "words_per_clue": sum(r.correct for r in results) / clues if clues else None,
        "invalid_clues": sum(r.invalid_clues for r in results), "errors": len(errors), "error_examples": examples,
        "seconds": None, "games_per_second": None,
    }
    if s["game"] in ("classic", "pictures"):
        decided = [r for r in results if r.extra.get("winner")]
        first = sum(1 for r in decided if r.extra["winner"] == r.extra["starting"])
        s["starting_team_win_rate"] = first / len(decided) if decided else None
    if s["game"] == "duet":
        sudden = [r for r in results if r.extra.get("sudden_death")]
        s["sudden_death_rate"] = len(sudden) / n if n else None
        s["sudden_death_win_rate"] = sum(1 for r in sudden if r.won) / len(sudden) if sudden else None
        s["mean_greens_left"] = _mean([r.extra.get("greens_left", 0) for r in results])
    return s


def reference_match_summary(results, length):
    by_game = [[] for _ in range(length)]
    for r in results:
        by_game[r.extra["match_game"]].append(r)
    curve = []
    for j, games in enumerate(by_game):
        wins = sum(1 for r in games if r.won)
        turns = [r.turns for r in games]
        curve.append({"game": j, "games": len(games), "wins": wins, "win_rate": wins / len(games) if games else None,
                      "ci95": list(wilson_interval(wins, len(games))), "mean_turns": _mean(turns),
                      "turns_ci95": _as_list(mean_interval(turns, lowest=0.0))})
    last = [r for games in by_game[-10:] for r in games]
    wins = sum(1 for r in last if r.won)
    won_turns = [r.turns for r in last if r.won]
    stephenson = [float(r.turns if r.won else STEPHENSON_LOSS) for r in last if r.game in ("kim2019", "solo", "pictures_solo")]
    return {"match": length, "matches": len(by_game[0]), "curve": curve, "last10_games": len(last),
            "last10_win_rate": wins / len(last) if last else None, "last10_ci95": list(wilson_interval(wins, len(last))),
            "last10_turns_per_win": _mean(won_turns),
            "last10_turns_per_win_ci95": _as_list(mean_interval(won_turns, lowest=0.0)),
            "last10_score": _mean(stephenson), "last10_score_ci95": _as_list(mean_interval(stephenson, lowest=0.0))}


ERRORS = [None, None, None, {"role": "guesser", "message": "boom"}, {"role": "spymaster", "message": "bad"},
          {"role": "guesser", "message": "x"}, {"role": "guesser", "message": "y"}, {"role": "a", "message": "z"}]


@st.composite
def games(draw, kind=None):
    kind = kind or draw(st.sampled_from(["duet", "classic", "kim2019", "solo"]))
    n = draw(st.integers(0, 60))
    match = draw(st.sampled_from([None, 3, 12]))
    out = []
    for i in range(n):
        won = draw(st.booleans())
        extra = {"greens_left": draw(st.integers(0, 15)), "sudden_death": draw(st.booleans()),
                 "winner": draw(st.sampled_from([None, "red", "blue"])), "starting": draw(st.sampled_from(["red", "blue"]))}
        if match:
            extra["match_game"] = i % match
        out.append(GameResult(
            kind, i, i, {}, won, None if won else draw(st.sampled_from([*LOSS_CAUSES, None, "odd"])),
            draw(st.integers(1, 25)), draw(st.sampled_from([None, 0, 3, 7, 11.5])), draw(st.integers(0, 12)),
            draw(st.integers(0, 30)), draw(st.integers(0, 30)), None, draw(st.integers(0, 2)),
            draw(st.sampled_from(ERRORS)), extra, {}, {},
            provenance={"code": {"commit": draw(st.sampled_from(["a", "b"]))}},
        ))
    return out, match


@settings(max_examples=120, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_the_tally_of_games_in_any_order_is_the_list_summary(case, rnd):
    results, match = case
    shuffled = list(results)
    rnd.shuffle(shuffled)
    tally = Tally()
    for r in shuffled:  # as a run's games come back: in any order, keyed by index
        tally.add(r, r.index)
    assert json.dumps(tally.summary()) == json.dumps(reference_summary(results))
    if match and len(results) >= match:
        whole = results[: len(results) // match * match]
        t = Tally()
        for r in sorted(whole, key=lambda r: rnd.random()):
            t.add(r, r.index)
        assert json.dumps(t.match_summary(match)) == json.dumps(reference_match_summary(whole, match))


def test_a_thousand_turns_give_the_t_interval_of_the_list_to_the_last_digit():
    """numpy sums the squared deviations pairwise: in another order the interval moves in its
    last digits (about a third of the time), so the tally puts its columns back in key order."""
    rng = random.Random(3)
    results = [GameResult("kim2019", i, i, {}, rng.random() < 0.6, None, rng.randint(1, 25), None, 1, 1, 1, None,
                          0, None, {}, {}, {}) for i in range(1000)]
    tally = Tally()
    for r in sorted(results, key=lambda r: -r.index):
        tally.add(r, r.index)
    assert tally.summary()["turns_ci95"] == reference_summary(results)["turns_ci95"]
    assert tally.summary()["stephenson_score_ci95"] == reference_summary(results)["stephenson_score_ci95"]


def run(path, games=30, keep=None, **kw):
    extra = {} if keep is None else {"keep_results": keep}
    return run_games("duet", lineup("duet", "random", "random"), games=games, seed=11, results_path=path,
                     factory=scripted_factory, **extra, **kw)


def test_a_run_without_its_games_gives_the_same_summary_and_file(tmp_path):
    kept = run(tmp_path / "a.jsonl")
    streamed = run(tmp_path / "b.jsonl", keep=False, jobs=2, chunk_size=4)
    assert streamed.results is None and streamed.played == 30 and streamed.resumed == 0
    a, b = kept.summary(), streamed.summary()
    for s in (a, b):
        s.pop("seconds"), s.pop("games_per_second")
    assert a == b
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def _resume_peak(path, games):
    tracemalloc.start()
    try:
        out = run(path, games=games, keep=False)
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_resume_streams_the_file_and_keeps_no_game(tmp_path):
    """A resumed run reads its file line by line and holds none of its games: resuming 400
    games (1.8 MB) peaks within a few dozen bytes a game of resuming 100 (the file held whole,
    or its games, would add megabytes)."""
    path = tmp_path / "r.jsonl"
    full = run(path, games=400, keep=False)
    text = path.read_bytes()
    lines = text.splitlines(keepends=True)
    small = tmp_path / "small.jsonl"
    small.write_bytes(b"".join(lines[:100]))
    shuffled = lines[:]
    random.Random(1).shuffle(shuffled)
    path.write_bytes(b"".join(shuffled) + lines[5][:40])  # unsorted, with a torn last line
    _resume_peak(small, 100)  # what a resume imports, imported before memory is traced
    _, peak_small = _resume_peak(small, 100)
    again, peak = _resume_peak(path, 400)
    assert again.played == 0 and again.resumed == 400
    assert path.read_bytes() == text  # sorted, deduplicated, the torn line dropped
    a, b = full.summary(), again.summary()
    for s in (a, b):
        s.pop("seconds"), s.pop("games_per_second"), s.pop("provenance")
    assert a == b
    # bytes: 300 more games at under 1 KB each (index, offset and figures: about 100 bytes, doubled
    # by growing arrays); a game held costs over 10 KB, the file's text 4.5 KB a game
    assert peak - peak_small < 300 * 1000


def test_a_run_keeps_no_finished_game(tmp_path, monkeypatch):
    """With keep_results=False nothing holds a GameResult once it is tallied and written."""
    import gc
    import weakref

    alive = []
    real = GameResult.from_json.__func__

    def tracked(cls, data):
        r = real(cls, data)
        alive.append(weakref.ref(r))
        return r

    monkeypatch.setattr(GameResult, "from_json", classmethod(tracked))
    out = run(tmp_path / "r.jsonl", games=40, keep=False)
    gc.collect()
    assert len(alive) >= 40 and sum(ref() is not None for ref in alive) == 0
    assert out.summary()["games"] == 40


def test_the_python_api_still_keeps_the_games_by_default(tmp_path):
    out = run(tmp_path / "r.jsonl", games=12)
    assert [r.index for r in out.results] == list(range(12))
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert lines == [dump_result_line(r) for r in out.results]
