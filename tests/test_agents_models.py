"""Agents on the packaged models (GloVe 50d, MiniLM), on small boards, through real engines."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spymaster_ai.agents.guesser import EmbeddingGuesser
from spymaster_ai.agents.spymaster import EmbeddingSpymaster
from spymaster_ai.embeddings import load_embedding
from spymaster_ai.rules.legality import check_clue
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import GuesserView, SpymasterView

pytestmark = pytest.mark.models

ROOT = Path(__file__).resolve().parents[1]
WORDS = tuple(sorted({w.strip().lower() for w in (ROOT / "spymaster_ai" / "data" / "words_classic.txt").read_text().splitlines() if w.strip()}))
FRUIT_BOARD = ("apple", "orange", "piano", "shark", "moon", "engine", "lawyer", "castle", "knife", "cloud", "pencil", "horse")


@pytest.fixture(scope="module")
def glove():
    return load_embedding("glove50")


@pytest.fixture(scope="module")
def minilm():
    return load_embedding("minilm")


def guess_view(board, clue, **kw):
    return GuesserView("classic", "red", tuple(board), tuple(board), (), clue, 0, clue.count + 1, False, **kw)


@pytest.mark.parametrize("model", ["glove", "minilm"])
def test_fruit_ranks_apple_and_orange_first(model, request):
    emb = request.getfixturevalue(model)
    ranked = EmbeddingGuesser(emb).rank_cards(guess_view(FRUIT_BOARD, Clue("fruit", 2)))
    assert {c.word for c in ranked[:2]} == {"apple", "orange"}
    assert ranked[1].z > ranked[2].z + 0.5  # they stand out of the board, not just top it


def test_spymaster_finds_a_two_card_clue_for_fruit_cards(glove):
    view = SpymasterView("classic", "red", FRUIT_BOARD, FRUIT_BOARD, ("apple", "orange"),
                         ("piano", "shark", "moon"), tuple(w for w in FRUIT_BOARD[5:] if w != "knife"), ("knife",))
    best = EmbeddingSpymaster(glove).rank_clues(view, top=5)
    assert best[0].count == 2 and set(best[0].targets) == {"apple", "orange"}
    # the guesser on the same model finds both targets from the clue
    ranked = EmbeddingGuesser(glove).rank_cards(guess_view(FRUIT_BOARD, best[0].clue))
    assert {c.word for c in ranked[:2]} == {"apple", "orange"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), covered=st.integers(0, 12))
def test_clues_are_always_legal_and_words(glove, seed, covered):
    import random

    rng = random.Random(seed)
    board = tuple(rng.sample(WORDS, 25))
    roles = list(board)
    rng.shuffle(roles)
    hidden = set(roles[:covered])
    visible = tuple(w for w in board if w not in hidden)
    own = tuple(w for w in roles[covered:covered + 6])
    assassins = tuple(roles[covered + 6:covered + 7])
    opponent = tuple(roles[covered + 7:covered + 12])
    bystanders = tuple(w for w in visible if w not in own + assassins + opponent)
    view = SpymasterView("classic", "red", board, visible, own, opponent, bystanders, assassins)
    spy = _small_spymaster(glove)
    clue = spy.give_clue(view)
    assert check_clue(clue.word, list(visible), count=clue.count).legal
    assert len(clue.word) > 1 and clue.word.isalpha() and 1 <= clue.count <= min(4, len(own))


_SPIES: dict = {}


def _small_spymaster(emb):
    # one agent for every example: the per-board precompute is what a game pays once
    if "s" not in _SPIES:
        _SPIES["s"] = EmbeddingSpymaster(emb, vocabulary_size=3000)
    return _SPIES["s"]


@pytest.mark.parametrize("game", ["duet", "kim2019"])
def test_whole_games_through_the_engines_end_without_agent_error(glove, game):
    """Full games via the simulator: the agents see only views; no refused move, no crash."""
    from spymaster_ai.sim.play import ROLES, play_game

    agents = {r: (EmbeddingSpymaster(glove, vocabulary_size=3000) if r.endswith("spymaster") else EmbeddingGuesser(glove))
              for r in ROLES[game]}
    for seed in (1, 2):
        result = play_game(game, agents, {r: "glove50" for r in agents}, seed=seed)
        assert result.error is None, result.error
        assert result.invalid_clues == 0 and result.clues >= 1
