"""A ``clip:PATH`` agent built by name plays a whole Pictures game on real picture cards.

The model is the tiny random CLIP that tests/test_clip.py builds (mechanics, not quality):
the spymaster comes from the agent registry by spec, its model from the embedding registry's
``clip:PATH`` name, and the simulator seats it on a board of card ids.
"""

from __future__ import annotations

import pytest

pytest.importorskip("PIL")
pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

from test_clip import build_tiny_clip  # noqa: E402

from spymaster_ai.agents.guesser import EmbeddingGuesser  # noqa: E402
from spymaster_ai.agents.registry import make_spymaster  # noqa: E402
from spymaster_ai.embeddings.clip import ClipEmbedding  # noqa: E402
from spymaster_ai.embeddings.registry import load_embedding  # noqa: E402
from spymaster_ai.rules.legality import COLOUR_WORDS  # noqa: E402
from spymaster_ai.rules.moves import LossCause  # noqa: E402
from spymaster_ai.rules.record import from_record  # noqa: E402
from spymaster_ai.sim.play import PictureBoardModel, for_picture_cards, lineup, play_game  # noqa: E402


@pytest.fixture(scope="module")
def clip_name(tmp_path_factory) -> str:
    return f"clip:{build_tiny_clip(tmp_path_factory.mktemp('tiny-clip'))}"


@pytest.fixture(autouse=True)
def small_private_cache(tmp_path, monkeypatch):
    """A 300-word vocabulary in a temporary cache, never the user's."""
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SPYMASTER_AI_VOCAB_SIZE", "300")


@pytest.mark.parametrize("game", ["pictures_solo", "pictures"])
def test_clip_agents_play_a_pictures_game(clip_name, game):
    model = load_embedding(clip_name)
    assert isinstance(model, ClipEmbedding) and model.name == clip_name
    # The spymaster by spec (the CLIP model as its own partner); the guesser on the same model.
    spymaster = make_spymaster(f"robust:embedding={clip_name},partner=self,vocabulary_size=300")
    assert spymaster.embedding is model
    seated = for_picture_cards(spymaster)
    assert isinstance(seated.embedding, PictureBoardModel) and seated.embedding.model is model
    assert not set(seated.vocabulary) & COLOUR_WORDS
    spec = f"robust:embedding={clip_name},partner=self,vocabulary_size=300"
    specs = lineup(game, spec, clip_name)
    # One instance per seat, as the runner gives them.
    agents = {r: (make_spymaster(spec) if r.endswith("spymaster") else EmbeddingGuesser(model)) for r in specs}
    result = play_game(game, agents, specs, seed=1)
    assert result.error is None, result.error
    assert result.invalid_clues == 0 and result.clues >= 1
    assert result.won or result.loss_cause in {c.value for c in LossCause}
    assert from_record(result.record).is_over
