"""Matches: K games with the same agents, which learn from game to game through ``end_game``.

The unit of seeds, work, resume and replay is the match; results files are byte-identical
whatever the number of processes and however often a run was interrupted."""

from __future__ import annotations

import json
import re

import pytest
from test_sim_scripted import LearningGuesser, PoolSpymaster, scripted_factory

from spymaster_ai.sim.metrics import match_summary
from spymaster_ai.sim.play import GameResult, lineup, play_game, play_match
from spymaster_ai.sim.runner import ResultsFileError, run_games
from spymaster_ai.sim.seeds import match_game_seed


def run(tmp, name, game="kim2019", spec="learning", games=24, match=4, seed=5, **kw):
    path = tmp / name if tmp else None
    out = run_games(game, lineup(game, spec, spec), games=games, seed=seed, results_path=path,
                    factory=scripted_factory, match=match, **kw)
    return out, path


def test_a_match_carries_every_game_to_the_next_and_starts_from_nothing():
    agents = {"spymaster": PoolSpymaster(), "guesser": LearningGuesser()}
    specs = {"spymaster": "pool", "guesser": "learning"}
    first = play_match("kim2019", agents, specs, seed=3, match=1, length=3)
    guesser = agents["guesser"]
    assert guesser.matches_started == 1
    assert guesser.learned == [len(r.record["actions"]) for r in first]
    assert [r.index for r in first] == [3, 4, 5]
    assert [r.seed for r in first] == [match_game_seed(3, 1, j) for j in range(3)]
    assert [(r.extra["match"], r.extra["match_game"], r.extra["match_length"]) for r in first] == [(1, j, 3) for j in range(3)]
    again = play_match("kim2019", agents, specs, seed=3, match=1, length=3)  # the same agents, a new match
    assert guesser.matches_started == 2
    assert [r.to_json() | {"environment": None} for r in again] == [r.to_json() | {"environment": None} for r in first]


def test_what_was_learned_changes_later_games():
    """Game 2 of a match differs from the same board played by an agent that learned nothing."""
    specs = {"spymaster": "pool", "guesser": "learning"}
    differs = 0
    for m in range(6):
        in_match = play_match("kim2019", {"spymaster": PoolSpymaster(), "guesser": LearningGuesser()}, specs,
                              seed=1, match=m, length=3)[2]
        alone = play_game("kim2019", {"spymaster": PoolSpymaster(), "guesser": LearningGuesser()}, specs,
                          seed=in_match.seed, index=in_match.index)
        differs += in_match.record["actions"] != alone.record["actions"]
    assert differs >= 4


def test_a_game_alone_starts_a_match_and_feeds_nothing_back():
    guesser = LearningGuesser()
    agents = {"spymaster": PoolSpymaster(), "guesser": guesser}
    for i in range(3):
        play_game("kim2019", agents, {"spymaster": "pool", "guesser": "learning"}, seed=i, index=i)
    assert guesser.matches_started == 3 and guesser.learned == []


@pytest.mark.parametrize("game", ["kim2019", "duet"])
def test_byte_identical_files_with_1_and_2_processes(tmp_path, game):
    one, p1 = run(tmp_path, "one.jsonl", game=game, jobs=1)
    two, p2 = run(tmp_path, "two.jsonl", game=game, jobs=2, chunk_size=1)
    assert p1.read_bytes() == p2.read_bytes()
    assert [r.index for r in one.results] == list(range(24))
    assert one.summary()["curve"] == two.summary()["curve"]


def test_resume_replays_a_match_cut_short_from_its_start(tmp_path):
    full, p_full = run(tmp_path, "full.jsonl")
    part, p = run(tmp_path, "part.jsonl", indices=[*range(4, 8), *range(12, 20)])
    assert part.played == 12
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:-2]) + "\n" + lines[-2][:40])  # match 4 loses two games and tears a third
    resumed, _ = run(tmp_path, "part.jsonl", jobs=2, chunk_size=1)
    assert resumed.resumed == 8 and resumed.played == 16  # matches 1 and 3 kept; 0, 2, 4 (again), 5 played
    assert p.read_bytes() == p_full.read_bytes()
    assert resumed.summary()["last10_win_rate"] == full.summary()["last10_win_rate"]


def test_one_match_alone_equals_that_match_of_the_full_run(tmp_path):
    full, _ = run(None, "")
    alone, _ = run(None, "", indices=range(8, 12))
    assert [r.to_json() for r in alone.results] == [r.to_json() for r in full.results[8:12]]


def test_a_game_inside_a_match_is_refused_naming_its_match(tmp_path):
    with pytest.raises(ValueError, match=r"game 9 is game 1 of match 2.*only whole matches replay"):
        run(None, "", indices=[9])


def test_single_games_and_matches_never_share_a_results_file(tmp_path):
    run(tmp_path, "m.jsonl", games=8)
    with pytest.raises(ResultsFileError, match="matches of 4 games .this run: single games"):
        run(tmp_path, "m.jsonl", games=8, match=None)
    with pytest.raises(ResultsFileError, match="matches of 4 games .this run: matches of 2 games"):
        run(tmp_path, "m.jsonl", games=8, match=2)


def test_games_must_be_whole_matches():
    with pytest.raises(ValueError, match="multiple of match"):
        run(None, "", games=10, match=4)


def test_an_agent_that_learns_but_never_forgets_is_an_agent_error():
    out, _ = run(None, "", spec="forgetful", games=4)
    errors = [r.error for r in out.results]
    assert all(e and e["role"] == "guesser" and "no start_match" in e["message"] for e in errors[::4])


def _result(j: int, won: bool, turns: int, game: str = "kim2019") -> GameResult:
    return GameResult(
        game=game, seed=0, index=j, agents={}, won=won, loss_cause=None if won else "assassin", turns=turns, score=None,
        clues=1, announced=1, correct=1, words_per_clue=1.0, invalid_clues=0, error=None,
        extra={"match_game": j % 12, "match_length": 12}, options={}, record={},
    )


def test_match_summary_curve_and_last_ten_games():
    # two matches of 12 games: games 0-1 lost (25 turns), games 2-11 won in 4 (match 0) or 6 (match 1) turns
    results = [_result(m * 12 + j, j >= 2, (4 if m == 0 else 6) if j >= 2 else 25) for m in range(2) for j in range(12)]
    s = match_summary(results, 12)
    assert s["matches"] == 2 and len(s["curve"]) == 12
    assert s["curve"][0]["win_rate"] == 0.0 and s["curve"][0]["games"] == 2 and s["curve"][5]["win_rate"] == 1.0
    assert s["curve"][5]["mean_turns"] == 5.0
    lo, hi = s["curve"][5]["ci95"]
    assert 0.3 < lo < 1.0 and hi == pytest.approx(1.0)
    assert s["last10_games"] == 20 and s["last10_win_rate"] == 1.0
    assert s["last10_turns_per_win"] == 5.0 and s["last10_score"] == 5.0
    results[11] = _result(11, False, 25)  # the last game of match 0 lost
    s = match_summary(results, 12)
    assert s["last10_win_rate"] == 19 / 20
    assert s["last10_turns_per_win"] == pytest.approx((9 * 4 + 10 * 6) / 19)
    assert s["last10_score"] == pytest.approx((9 * 4 + 10 * 6 + 25) / 20)
    assert match_summary([_result(j, True, 3, game="duet") for j in range(12)], 12)["last10_score"] is None


# ----------------------------------------------------------------------------- the command line

LEARNER = "test_sim_scripted:LearningGuesser"
POOL = "test_sim_scripted:PoolSpymaster"


def invoke(*args):
    from typer.testing import CliRunner

    import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
    from spymaster_ai.cli.app import app

    return CliRunner().invoke(app, [str(a) for a in args])


def test_bench_match_reports_the_curve_and_the_last_ten_games(tmp_path):
    res = invoke("bench", "kim2019", "--games", 24, "--match", 12, "--spymaster", POOL, "--guesser", LEARNER,
                 "--results", tmp_path / "r.jsonl", "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["match"] == 12 and data["matches"] == 2 and len(data["curve"]) == 12
    assert {"last10_win_rate", "last10_turns_per_win", "last10_score", "turns_per_win", "stephenson_score"} <= set(data)
    assert data["stephenson_score"] == data["mean_turns"]  # kim2019 already counts a loss as 25 turns
    one = invoke("bench", "kim2019", "--games", 24, "--match", 12, "--spymaster", POOL, "--guesser", LEARNER,
                 "--only-match", 1, "--json")
    assert one.exit_code == 0, one.stderr
    lines = (tmp_path / "r.jsonl").read_text().splitlines()[12:]
    assert json.loads(one.stdout)["wins"] == sum(json.loads(line)["won"] for line in lines)


@pytest.mark.parametrize("args, message", [
    (["--only-game", 13], "game 13 is game 1 of match 1.*--only-match 1"),
    (["--only-match", 1], None),
    (["--games", 10], "whole number of matches"),
])
def test_bench_match_bad_input_says_what_to_do(args, message):
    base = ["bench", "kim2019", "--games", 24, "--match", 12, "--spymaster", POOL, "--guesser", LEARNER]
    res = invoke(*base, *args)
    if message is None:
        assert res.exit_code == 0, res.stderr
        return
    assert res.exit_code == 2
    assert re.search(message, res.stderr)


def test_only_match_needs_match():
    res = invoke("bench", "kim2019", "--games", 4, "--spymaster", POOL, "--guesser", LEARNER, "--only-match", 0)
    assert res.exit_code == 2 and "--only-match needs --match" in res.stderr


def test_tournament_of_matches_keeps_the_learning_figures_per_cell(tmp_path):
    res = invoke("tournament", "--game", "kim2019", "--spymasters", POOL, "--guessers", f"{LEARNER},test_sim_scripted:RandomGuesser",
                 "--games", 8, "--match", 4, "--json", "--markdown", tmp_path / "t.md")
    assert res.exit_code == 0, res.stderr
    cell = json.loads(res.stdout)["matrix"][POOL][LEARNER]
    assert cell["match"] == 4 and len(cell["curve"]) == 4 and cell["last10_games"] == 8
    table = (tmp_path / "t.md").read_text()
    assert "turns per win" in table and "last 10 games of each match: win rate" in table


# ----------------------------------------------------------------------------- learning from a record


def test_clue_turns_reads_each_clue_with_its_guesses_from_the_givers_side():
    from test_sim_scripted import CodebookGuesser, CodebookSpymaster

    from spymaster_ai.rules.record import clue_turns

    agents = {"spymaster": CodebookSpymaster(2), "guesser": CodebookGuesser()}
    result = play_game("kim2019", agents, {"spymaster": "codebook:2", "guesser": "codebook"}, seed=4)
    turns = clue_turns(result.record)
    assert [t.count for t in turns] == [2, 2, 2, 2] and all(t.giver == "red" for t in turns)
    assert all(t.hits == (True, True) and t.guesses == t.own[:2] for t in turns)
    assert [len(t.choices) for t in turns] == [25, 23, 21, 19] and [len(t.own) for t in turns] == [8, 6, 4, 2]


def test_the_example_learner_guesses_as_many_as_its_partner_clues_yield():
    from test_sim_scripted import CodebookGuesser, CodebookSpymaster

    from experiments.example_agent import CountingGuesser

    agents = {"spymaster": CodebookSpymaster(2), "guesser": CodebookGuesser()}
    record = play_game("kim2019", agents, {"spymaster": "codebook:2", "guesser": "codebook"}, seed=4).record
    learner = CountingGuesser()
    learner.start_match(0)
    assert learner.limit == 1
    learner.end_game(record)
    learner.reset(1)
    assert learner.limit == 2  # every clue of that partner found two cards
    learner.start_match(1)
    assert learner.limit == 1
