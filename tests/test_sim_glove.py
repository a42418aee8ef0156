"""Real agents in the simulator: every game kind with the packaged GloVe agents, strict
legality, records that replay, and byte-identical results in worker processes."""

from __future__ import annotations

import pytest

from spymaster_ai.rules.moves import LossCause
from spymaster_ai.rules.record import from_record
from spymaster_ai.sim.play import GAME_KINDS, lineup, play_game
from spymaster_ai.sim.runner import _agents_for, registry_factory, run_games
from spymaster_ai.sim.seeds import game_seed

pytestmark = pytest.mark.models

# A smaller clue vocabulary keeps the per-board precompute short; the agents are the same.
SPYMASTER = "glove50:vocabulary_size=3000"
GUESSER = "glove50"


@pytest.mark.parametrize("game", GAME_KINDS)
def test_glove_agents_play_every_game_kind_to_a_legal_end(game):
    specs = lineup(game, SPYMASTER, GUESSER)
    agents = _agents_for(specs, registry_factory)
    for index in range(2):
        r = play_game(game, agents, specs, seed=game_seed(0, index), index=index)
        assert r.error is None, r.error
        assert r.invalid_clues == 0  # strict legality: the agents never emit an illegal clue
        assert r.won or r.loss_cause in {c.value for c in LossCause}
        assert r.clues >= 1 and r.correct >= 1
        assert from_record(r.record).is_over


def test_glove_runs_identical_in_and_out_of_process(tmp_path):
    specs = lineup("duet", SPYMASTER, GUESSER)
    here = run_games("duet", specs, games=4, seed=21, results_path=tmp_path / "one.jsonl")
    # one chunk: all four games in one worker process (a fresh interpreter with its own model load)
    there = run_games("duet", specs, games=4, seed=21, jobs=2, chunk_size=4, results_path=tmp_path / "two.jsonl")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert here.summary()["wins"] == there.summary()["wins"]
