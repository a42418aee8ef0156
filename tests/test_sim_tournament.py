"""Cross-play tournaments: every pairing on the same boards, matrix figures, Markdown."""

from __future__ import annotations

import json

import pytest
from test_sim_scripted import scripted_factory

from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import run_games
from spymaster_ai.sim.tournament import markdown_table, run_tournament


def test_kim2019_matrix_with_turns():
    t = run_tournament("kim2019", ["codebook:2", "random"], games=6, seed=3, factory=scripted_factory)
    assert set(t.cells) == {(s, g) for s in ("codebook:2", "random") for g in ("codebook:2", "random")}
    perfect = t.cell("codebook:2", "codebook:2")
    assert perfect["win_rate"] == 1.0 and perfect["mean_turns"] == 4.0 and perfect["turns_ci95"] == [4.0, 4.0]
    # every cell equals a plain run of that pairing with the same seed: same boards everywhere
    alone = run_games("kim2019", lineup("kim2019", "random", "codebook:2"), games=6, seed=3,
                      factory=scripted_factory).summary()
    assert t.cell("random", "codebook:2")["wins"] == alone["wins"]
    assert t.cell("random", "codebook:2")["mean_turns"] == alone["mean_turns"]
    md = markdown_table(t)
    matrices = md.split("**Paired differences**")[0]
    rows = [line.split(" | ")[0] for line in matrices.splitlines() if line.startswith("| `")]
    assert rows == ["| `codebook:2`", "| `random`"] * 3  # win rate, mean turns (Stephenson's score), turns per win
    assert "100.0 [" in md and "4.00 [4.00, 4.00]" in md and "turns per win" in md
    assert perfect["turns_per_win"] == 4.0 and perfect["stephenson_score"] == 4.0
    json.dumps(t.to_json())


def test_classic_pairs_play_against_the_reference_team(tmp_path):
    t = run_tournament("classic", ["codebook:9", "random"], games=4, seed=0, results_dir=tmp_path,
                       factory=scripted_factory)
    assert t.opponent == {"spymaster": "codebook:9", "guesser": "codebook:9"}
    # perfect pair against itself: whoever starts wins at once, and the start alternates
    assert t.cell("codebook:9", "codebook:9")["win_rate"] == 0.5
    assert len(list(tmp_path.glob("*.jsonl"))) == 4
    again = run_tournament("classic", ["codebook:9", "random"], games=4, seed=0, results_dir=tmp_path,
                           factory=scripted_factory)
    assert again.cells == t.cells


def test_separate_spymaster_and_guesser_lists():
    t = run_tournament("duet", spymasters=["codebook:9"], guessers=["codebook:9", "random"], games=3, seed=1,
                       factory=scripted_factory)
    assert t.spymasters == ["codebook:9"] and t.guessers == ["codebook:9", "random"]
    assert t.cell("codebook:9", "codebook:9")["mean_score"] == pytest.approx(21.0)
    with pytest.raises(ValueError, match="no opponent"):
        run_tournament("duet", ["random"], games=1, seed=1, opponent="x", factory=scripted_factory)
    with pytest.raises(ValueError, match="at least one"):
        run_tournament("duet", [], games=1, seed=1, factory=scripted_factory)


def test_a_bad_spec_anywhere_in_a_run_fails_before_the_first_model_loads(monkeypatch, tmp_path):
    """With the registry's agents, the runner and the tournament check every spec (names,
    parameters, values) before building any agent: the last guesser's slip costs no loading."""
    from spymaster_ai.agents import registry
    from spymaster_ai.agents.registry import AgentSpecError

    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    with pytest.raises(AgentSpecError, match="hub_correction must be in"):
        run_games("duet", lineup("duet", "minilm", "glove50:hub_correction=3"), games=1, seed=0)
    with pytest.raises(AgentSpecError, match="'stop_threshold' is a guesser parameter"):
        run_tournament("kim2019", ["minilm", "glove50:stop_threshold=-1"], games=1, seed=0, results_dir=tmp_path)
    assert not any(tmp_path.iterdir())  # nothing was played or written
