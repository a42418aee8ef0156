"""Paired comparisons on the same boards (issue 42 item 4): the statistics on made-up runs
(hypothesis), pairing by seed, and the section a tournament and a sweep carry."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sim_scripted import scripted_factory
from typer.testing import CliRunner

import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
import spymaster_ai.cli.sweep_cmds  # noqa: F401
from spymaster_ai.cli.app import app
from spymaster_ai.sim.paired import PairingError, cell_pairs, paired_difference
from spymaster_ai.sim.sweep import run_sweep, sweep_figure
from spymaster_ai.sim.tournament import markdown_table, run_tournament

RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"

# A run: per game a seed (its board), won and turns.
runs = st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.integers(1, 25), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.integers(1, 25), min_size=n, max_size=n),
))


def _run(won, turns, seeds=None):
    return {"seed": np.arange(len(won)) if seeds is None else np.asarray(seeds), "won": np.asarray(won),
            "turns": np.asarray(turns)}


@settings(max_examples=40, deadline=None)
@given(runs)
def test_a_run_against_itself_differs_by_nothing(data):
    won, turns, _, _ = data
    d = paired_difference(_run(won, turns), _run(won, turns), resamples=200)
    assert d["win_rate_diff"] == 0 and d["win_rate_diff_ci95"] == [0, 0]
    assert d["discordant"] == {"a_only": 0, "b_only": 0} and d["mcnemar_p"] == 1.0
    assert d["turns_diff"] == 0 and d["turns_diff_ci95"] == [0, 0]


@settings(max_examples=40, deadline=None)
@given(runs)
def test_swapping_the_runs_negates_the_difference(data):
    won_a, turns_a, won_b, turns_b = data
    a, b = _run(won_a, turns_a), _run(won_b, turns_b)
    ab, ba = paired_difference(a, b, resamples=300), paired_difference(b, a, resamples=300)
    assert ba["win_rate_diff"] == pytest.approx(-ab["win_rate_diff"])
    assert ba["turns_diff"] == pytest.approx(-ab["turns_diff"])
    assert ba["win_rate_diff_ci95"] == pytest.approx([-ab["win_rate_diff_ci95"][1], -ab["win_rate_diff_ci95"][0]])
    assert ba["turns_diff_ci95"] == pytest.approx([-ab["turns_diff_ci95"][1], -ab["turns_diff_ci95"][0]])
    assert ba["discordant"] == {"a_only": ab["discordant"]["b_only"], "b_only": ab["discordant"]["a_only"]}
    assert ba["mcnemar_p"] == pytest.approx(ab["mcnemar_p"])


@settings(max_examples=40, deadline=None)
@given(runs)
def test_the_bootstrap_interval_holds_the_observed_difference(data):
    won_a, turns_a, won_b, turns_b = data
    d = paired_difference(_run(won_a, turns_a), _run(won_b, turns_b), resamples=500)
    for value, (lo, hi) in ((d["win_rate_diff"], d["win_rate_diff_ci95"]), (d["turns_diff"], d["turns_diff_ci95"])):
        assert lo - 1e-12 <= value <= hi + 1e-12
    assert d["win_rate_diff"] == pytest.approx(np.mean(won_a) - np.mean(won_b))  # all games paired
    assert d["turns_diff"] == pytest.approx(np.mean(turns_a) - np.mean(turns_b))


def test_mcnemar_is_the_exact_binomial_test_of_the_discordant_games():
    # A wins 6 boards B loses and none the other way: p = 2 * 0.5**6 (two-sided, exact)
    a = _run([True] * 6 + [True, False] * 5, [5] * 16)
    b = _run([False] * 6 + [True, False] * 5, [5] * 16)
    d = paired_difference(a, b)
    assert d["discordant"] == {"a_only": 6, "b_only": 0} and d["mcnemar_p"] == pytest.approx(2 * 0.5 ** 6)
    assert d["win_rate_diff"] == pytest.approx(6 / 16) and d["win_rate_diff_ci95"][0] > 0


def test_games_pair_by_board_not_by_position_and_mismatched_boards_are_refused():
    a = _run([True, False, True], [3, 9, 4], seeds=[10, 11, 12])
    b = _run([True, True, False, True], [8, 3, 3, 3], seeds=[12, 13, 10, 99])  # boards 10 and 12 in common
    d = paired_difference(a, b)
    assert d["games"] == 2 and d["unpaired"] == {"a": 1, "b": 2}
    assert d["discordant"] == {"a_only": 1, "b_only": 0}  # board 10: A won, B lost; board 12: both won
    assert d["turns_diff"] == pytest.approx(((3 - 3) + (4 - 8)) / 2)
    assert d["both_won"] == 1 and d["turns_both_won_diff"] == pytest.approx(4 - 8)
    with pytest.raises(PairingError, match="share no board"):
        paired_difference(a, _run([True], [3], seeds=[7]))
    with pytest.raises(PairingError, match="a board \\(seed\\) twice"):
        paired_difference(a, _run([True, True], [3, 3], seeds=[10, 10]))


def test_matches_are_resampled_whole():
    rng = np.random.default_rng(0)
    won_a, won_b = rng.random(40) < 0.6, rng.random(40) < 0.4
    a, b = _run(won_a, np.full(40, 5)), _run(won_b, np.full(40, 5))
    by_game = paired_difference(a, b)
    by_match = paired_difference(a, b, groups=np.arange(40) // 10)
    assert by_match["win_rate_diff"] == by_game["win_rate_diff"]  # the same figure, another interval
    assert by_match["win_rate_diff_ci95"] != by_game["win_rate_diff_ci95"]


def test_cell_pairs_share_a_spymaster_or_a_guesser_unless_all_are_asked():
    shared = cell_pairs(["s1", "s2"], ["g1", "g2"])
    assert len(shared) == 4 and (("s1", "g1"), ("s2", "g2")) not in shared
    assert len(cell_pairs(["s1", "s2"], ["g1", "g2"], "all")) == 6
    with pytest.raises(ValueError, match="shared' or 'all"):
        cell_pairs(["s"], ["g"], "some")


# ----------------------------------------------------------------------------- tournaments


def test_cells_of_a_tournament_meet_the_same_boards_and_carry_paired_differences(tmp_path):
    t = run_tournament("duet", spymasters=["codebook:9"], guessers=["codebook:9", "random"], games=8, seed=2,
                       results_dir=tmp_path, factory=scripted_factory)
    # same seeds -> same boards: game i of one cell's file holds the cards of game i of the other's
    boards = []
    for path in sorted(tmp_path.glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        boards.append([(r["seed"], r["record"]["config"]) for r in sorted(lines, key=lambda r: r["index"])])
    assert len(boards) == 2 and boards[0] == boards[1]
    (comparison,) = t.paired["comparisons"]
    a, b = t.cell("codebook:9", "codebook:9"), t.cell("codebook:9", "random")
    assert comparison["a"] == {"spymaster": "codebook:9", "guesser": "codebook:9"} and comparison["games"] == 8
    assert comparison["win_rate_diff"] == pytest.approx(a["win_rate"] - b["win_rate"])
    assert comparison["turns_diff"] == pytest.approx(a["mean_turns"] - b["mean_turns"])
    assert json.loads(json.dumps(t.to_json()))["paired"] == t.paired
    md = markdown_table(t)
    assert "**Paired differences**" in md and "McNemar" in md and "multiple comparisons" in md
    # a resumed tournament (one cell cut short) gives the same paired figures to the last digit
    cell = sorted(tmp_path.glob("*.jsonl"))[0]
    cell.write_text("".join(cell.read_text().splitlines(keepends=True)[:3]))
    again = run_tournament("duet", spymasters=["codebook:9"], guessers=["codebook:9", "random"], games=8, seed=2,
                           results_dir=tmp_path, factory=scripted_factory)
    assert again.paired == t.paired


@pytest.mark.models
def test_a_small_real_tournament_prints_paired_differences_in_80_columns(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "80")
    res = CliRunner().invoke(app, ["tournament", "--game", "duet", "--spymasters", "glove50,glove50:risk=1",
                                   "--guessers", "glove50,random", "--games", "4", "--seed", "0",
                                   "--out", str(tmp_path / "t.json"), "--markdown", str(tmp_path / "t.md")])
    assert res.exit_code == 0, res.output
    assert "paired differences A − B" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    report = json.loads((tmp_path / "t.json").read_text())
    assert len(report["paired"]["comparisons"]) == 4 and report["paired"]["pairs"] == "shared"
    assert "**Paired differences**" in (tmp_path / "t.md").read_text()


# ----------------------------------------------------------------------------- sweeps


def test_every_sweep_point_is_compared_with_the_baseline_and_plotted_with_turns():
    pytest.importorskip("matplotlib")
    sweep = run_sweep("duet", spymaster=RANDOM_SPY, guesser=RANDOM_GUESS, grid=["sudden_death_guesses=0,2,3"],
                      games=10, seed=5)
    paired = sweep.to_json()["paired"]
    assert paired["baseline"] == {"sudden_death_guesses": "0"}
    assert [c["values"] for c in paired["comparisons"]] == [{"sudden_death_guesses": v} for v in ("2", "3")]
    base = sweep.points[0].figures
    for c, point in zip(paired["comparisons"], sweep.points[1:]):
        assert c["win_rate_diff"] == pytest.approx(point.figures["win_rate"] - base["win_rate"])
        assert c["turns_diff"] == pytest.approx(point.figures["mean_turns"] - base["mean_turns"])
    fig = sweep_figure(sweep)
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert len(fig.axes) == 2 and labels[0].startswith("win rate") and labels[1].startswith("mean turns")


def test_the_sweep_table_keeps_loss_causes_whole_in_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    res = CliRunner().invoke(app, ["sweep", "--game", "duet", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS,
                                   "--grid", "sudden_death_guesses=0,2", "--games", "12", "--seed", "1"])
    assert res.exit_code == 0, res.output
    table = res.stdout.split("\n{")[0]  # the JSON follows the tables
    assert max(len(line) for line in table.splitlines()) <= 80
    causes = re.findall(r"(assassin|timeout|mistake)(\S*)(?: (\d+))?", table)
    assert causes and all(rest == "" and count for _, rest, count in causes)  # "assassin 4", never "assass…" or a bare word
    assert "…" not in table
    assert "each point − the baseline" in table
