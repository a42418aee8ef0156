"""Agent specs: parsing, built-in names, a researcher's own class, clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spymaster_ai.agents import registry
from spymaster_ai.agents.base import Guesser, Spymaster
from spymaster_ai.agents.baselines import RandomGuesser
from spymaster_ai.agents.registry import AgentSpecError, make_guesser, make_spymaster, parse_spec
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import GuesserView, SpymasterView

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _repo_root_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))


@pytest.mark.parametrize(
    "spec, name, params",
    [
        ("minilm", "minilm", {}),
        ("minilm:risk=0.7", "minilm", {"risk": 0.7}),
        ("robust:partner=glove50+mpnet,risk=0.6", "robust", {"partner": "glove50+mpnet", "risk": 0.6}),
        ("closest:embedding=glove50", "closest", {"embedding": "glove50"}),
        ("ensemble:glove50+minilm:max_count=3", "ensemble:glove50+minilm", {"max_count": 3}),
        ("robust:partner=consensus:glove50+mpnet", "robust", {"partner": "consensus:glove50+mpnet"}),
        ("pkg.mod:Cls:a=1,b=true,c=none,d=x y,e=-2.5", "pkg.mod:Cls", {"a": 1, "b": True, "c": None, "d": "x y", "e": -2.5}),
        (" random ", "random", {}),
    ],
)
def test_parse_spec(spec, name, params):
    got_name, got = parse_spec(spec)
    assert got_name == name and got == params
    assert all(type(got[k]) is type(v) for k, v in params.items())


@pytest.mark.parametrize("spec", ["", "   ", ":risk=1", "minilm:risk=1,risk=2", "minilm:2x=1", "minilm:risk=1,0.5"])
def test_parse_spec_errors(spec):
    with pytest.raises(AgentSpecError):
        parse_spec(spec)


def test_random_guesser_by_name():
    g = make_guesser("random")
    assert isinstance(g, RandomGuesser) and isinstance(g, Guesser)
    with pytest.raises(AgentSpecError, match="unknown parameter 'risk'"):
        make_guesser("random:risk=1")
    with pytest.raises(AgentSpecError, match="must be an integer"):
        make_guesser("random:seed=1.5")


def test_role_mismatch_is_named():
    with pytest.raises(AgentSpecError, match="'random' is a guesser"):
        make_spymaster("random")
    with pytest.raises(AgentSpecError, match="'robust' is a spymaster"):
        make_guesser("robust")


def test_custom_classes_by_module_path_and_file():
    spy = make_spymaster("experiments.example_agent:WordListSpymaster:words=ocean+forest", isolate=False)
    assert isinstance(spy, Spymaster) and spy.words == ["ocean", "forest"]
    view = SpymasterView("classic", "red", ("ocean", "tree"), ("ocean", "tree"), ("tree",), (), ("ocean",), ())
    assert spy.give_clue(view) == Clue("forest", 1)  # OCEAN is on the board
    g = make_guesser(f"{ROOT / 'experiments' / 'example_agent.py'}:LetterOverlapGuesser:limit=2", isolate=False)
    assert isinstance(g, Guesser) and g.limit == 2
    gv = GuesserView("classic", "red", ("ocean", "tree"), ("ocean", "tree"), (), Clue("forest", 1), 0, 2, False)
    g.reset(0)
    assert g.next_guess(gv) in ("ocean", "tree")


def test_custom_class_errors_are_clear():
    with pytest.raises(AgentSpecError, match="cannot import"):
        make_spymaster("no_such_package_xyz.mod:Agent")
    with pytest.raises(AgentSpecError, match="has no 'Nope'"):
        make_spymaster("experiments.example_agent:Nope")
    with pytest.raises(AgentSpecError, match="not a spymaster"):
        make_spymaster("experiments.example_agent:LetterOverlapGuesser")
    with pytest.raises(AgentSpecError, match="unknown parameter 'colour'"):
        make_guesser("experiments.example_agent:LetterOverlapGuesser:colour=red")
    with pytest.raises(AgentSpecError, match="limit must be at least 1"):
        make_guesser("experiments.example_agent:LetterOverlapGuesser:limit=0")
    with pytest.raises(AgentSpecError, match="cannot import minilm"):
        make_spymaster("minilm:risk")  # a forgotten "=": read as module:Class, and refused
    with pytest.raises(AgentSpecError, match="no file"):
        make_guesser("missing/agent.py:G")


def test_a_custom_agent_whose_constructor_fails_is_one_clear_error(tmp_path):
    module = tmp_path / "my_agents.py"
    module.write_text(
        "class Broken:\n"
        "    def __init__(self):\n"
        "        raise RuntimeError('boom in init')\n"
        "def nothing():\n"
        "    return None\n"
    )
    with pytest.raises(AgentSpecError, match="building Broken raised RuntimeError: boom in init"):
        make_guesser(f"{module}:Broken")
    with pytest.raises(AgentSpecError, match="nothing gave a NoneType, which is not a guesser"):
        make_guesser(f"{module}:nothing")


def test_embedding_names_go_through_the_loader(monkeypatch):
    from spymaster_ai.agents.guesser import EmbeddingGuesser
    from spymaster_ai.agents.spymaster import EmbeddingSpymaster
    from spymaster_ai.agents.toy import ToyEmbedding

    loaded = []
    models = {n: ToyEmbedding({"a": [1, 0], "b": [0, 1]}, name=n) for n in ("minilm", "glove50", "mpnet")}

    def fake(name):
        loaded.append(name)
        if name not in models:
            raise AgentSpecError(f"unknown embedding {name!r}")
        return models[name]

    monkeypatch.setattr(registry, "_embedding", fake)
    s = make_spymaster("glove50:risk=1,max_count=2")
    assert isinstance(s, EmbeddingSpymaster) and s.embedding is models["glove50"]
    assert s.partners == [models["glove50"]] and s.risk == 1.0 and isinstance(s.risk, float) and s.max_count == 2
    r = make_spymaster("robust:partner=glove50+mpnet,risk=0.6")
    assert r.embedding is models["minilm"] and r.partners == [models["glove50"], models["mpnet"]]
    d = make_spymaster("robust")
    assert d.partners == [models["glove50"], models["minilm"]]  # several models, excluding none
    # every registry spymaster plays for partners of unknown models: it favours two-way
    # associations and shuns the assassin's own associations by default, robust or one model
    for agent in (d, s):
        assert agent.backward_strength == registry.BACKWARD_STRENGTH > 0
        assert agent.assassin_backward == registry.ASSASSIN_BACKWARD > 0
        assert agent._backward_weights("duet") == (0.0, 0.0)  # not against Duet's clock
        assert agent.warn_cards == registry.WARN_CARDS >= 9  # a zero-clue warning on the first turn

    # the robust spymaster expects its partner to remember its unfinished clues, as the registry
    # guesser does, except in Duet; a single-model one predicts from the current clue alone
    assert d.memory_weight == registry.MEMORY_WEIGHT == 1.0 and d.duet_memory_weight == 0.0
    assert s.memory_weight == 0.0
    assert make_spymaster("robust:backward_strength=0").backward_strength == 0.0
    assert make_spymaster("robust:warn_cards=0").warn_cards == 0
    assert make_spymaster("robust:assassin_backward=0").assassin_backward == 0.0
    mirror = make_spymaster("glove50:backward_strength=0,assassin_backward=0,warn_cards=0")  # the Kim et al. mirror setting
    assert mirror.backward_strength == 0.0 and mirror.assassin_backward == 0.0 and mirror.warn_cards == 0
    m = make_spymaster("minilm:partner=self")
    assert m.partners == [models["minilm"]]
    g = make_guesser("glove50:stop_threshold=1,duet_prior=false")
    assert isinstance(g, EmbeddingGuesser) and g.stop_threshold == 1.0 and g.duet_prior is False
    for spec, msg in [
        ("minilm:risk=high", "risk must be a number"),
        ("minilm:risk=2", "risk must be in"),
        ("minilm:max_count=2.5", "max_count must be an integer"),
        ("minilm:duet_prior=1", "'duet_prior' is a guesser parameter, and this spec is used as a spymaster"),
        ("minilm:duet_prio=1", "unknown parameter 'duet_prio'"),
        ("minilm:embedding=glove50", "implied by the name"),
        ("nosuchmodel", "unknown embedding 'nosuchmodel'"),
        ("robust:partner=glove50+", "empty model name"),
    ]:
        with pytest.raises(AgentSpecError, match=msg):
            make_spymaster(spec)
    with pytest.raises(AgentSpecError, match="must be true or false"):
        make_guesser("minilm:use_history=yes")
    # One spec in both roles (a tournament's --agents): the slip is named, not just "unknown".
    with pytest.raises(AgentSpecError, match="'risk' is a spymaster parameter, and this spec is used as a guesser"):
        make_guesser("minilm:risk=0.3")


def test_agent_names_cover_the_builtins():
    assert {"robust", "closest", "random", "minilm", "glove50"} <= set(registry.AGENT_NAMES)
    assert registry.describe("robust:risk=1").startswith("spymaster")


@pytest.mark.parametrize(
    "spec, bad",
    [
        ("robust:partner=glov50", "glov50"),
        ("robust:partner=minilm+glov50", "glov50"),
        ("robust:embedding=minnilm", "minnilm"),
        ("robust:partner=ensemble:minilm+glov50", "glov50"),
        ("glove50:partner=glov50", "glov50"),
    ],
)
def test_an_unknown_model_name_fails_before_any_model_loads(monkeypatch, spec, bad):
    # a robust spymaster loads its own model first (seconds); a typo in a partner's name must
    # not wait for it, and the message names the spec
    def no_loading(name):
        raise AssertionError(f"loaded {name!r} before checking every name")

    monkeypatch.setattr(registry, "_embedding", no_loading)
    with pytest.raises(AgentSpecError, match=re.escape(f"agent spec '{spec}': unknown embedding '{bad}'")):
        make_spymaster(spec)


@pytest.mark.parametrize(
    "role, spec, message",
    [
        ("spymaster", "robust:exclude=glove50,risk=2", "risk must be in"),
        ("spymaster", "minilm:max_count=0", "max_count must be at least 1"),
        ("spymaster", "closest:embedding=glov50", "unknown embedding 'glov50'"),
        ("spymaster", "glov50", "unknown embedding 'glov50'"),
        ("guesser", "glove50:hub_correction=3", "hub_correction must be in"),
        ("guesser", "minilm:risk=0.3", "'risk' is a spymaster parameter"),
        ("guesser", "glov50", "unknown embedding 'glov50'"),
        ("guesser", "random:seed=x", "must be an integer"),
    ],
)
def test_check_spec_refuses_what_building_would_without_loading_a_model(monkeypatch, role, spec, message):
    """A value out of range fails in the agent's own constructor: check_spec runs it with a
    stand-in model, so a run refuses its last agent's typo before loading the first's model."""
    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    with pytest.raises(AgentSpecError, match=re.escape(message)):
        registry.check_spec(role, spec)
    with pytest.raises(AgentSpecError, match=re.escape(message)):
        (make_spymaster if role == "spymaster" else make_guesser)(spec)


def test_check_spec_passes_good_specs_without_loading_and_knows_its_roles(monkeypatch):
    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    for role, spec in [("spymaster", "robust:exclude=glove50,risk=0.3"), ("spymaster", "closest"),
                       ("guesser", "glove50:stop_threshold=1"), ("guesser", "random"),
                       ("spymaster", "spymaster_ai.agents.baselines:ClosestCardSpymaster")]:
        resolved = registry.check_spec(role, spec)  # what the agent will be built with (issue 42)
        assert resolved["class"].rsplit(".", 1)[-1] in ("EmbeddingSpymaster", "ClosestCardSpymaster",
                                                        "EmbeddingGuesser", "RandomGuesser")
    with pytest.raises(ValueError, match="role must be"):
        registry.check_spec("captain", "minilm")


def test_agent_class_names_the_class_a_spec_builds_without_loading(monkeypatch):
    from spymaster_ai.agents.baselines import ClosestCardSpymaster, RandomGuesser
    from spymaster_ai.agents.guesser import EmbeddingGuesser
    from spymaster_ai.agents.spymaster import EmbeddingSpymaster

    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    assert registry.agent_class("spymaster", "robust:exclude=glove50") is EmbeddingSpymaster
    assert registry.agent_class("spymaster", "glove50:risk=0.3") is EmbeddingSpymaster
    assert registry.agent_class("spymaster", "closest") is ClosestCardSpymaster
    assert registry.agent_class("guesser", "minilm") is EmbeddingGuesser
    assert registry.agent_class("guesser", "random") is RandomGuesser
    assert registry.agent_class("guesser", "spymaster_ai.agents.baselines:RandomGuesser") is RandomGuesser
    with pytest.raises(AgentSpecError, match="'robust' is a spymaster, not a guesser"):
        registry.agent_class("guesser", "robust")
    with pytest.raises(AgentSpecError, match="risk must be in"):
        registry.agent_class("spymaster", "minilm:risk=2")


def test_an_embedding_path_names_an_embedding_agent_not_a_class():
    from spymaster_ai.agents.registry import AgentSpecError, check_spec, parse_spec

    assert parse_spec("vectors:/models/x.txt:risk=0.3") == ("vectors:/models/x.txt", {"risk": 0.3})
    check_spec("guesser", "vectors:/models/x.txt")  # no "cannot import vectors"
    check_spec("spymaster", "captions:minilm")
    with pytest.raises(AgentSpecError, match="needs a path"):
        check_spec("guesser", "vectors:")


def test_a_trailing_colon_is_a_spec_without_parameters():
    from spymaster_ai.agents.registry import check_spec, parse_spec

    assert parse_spec("glove50:") == ("glove50", {})
    check_spec("guesser", "glove50:")


@pytest.mark.parametrize(
    "role, spec, key",
    [
        ("spymaster", "glove50:assassin_cost=nan", "assassin_cost"),
        ("spymaster", "robust:risk=inf", "risk"),
        ("guesser", "glove50:black_weight=nan", "black_weight"),
        ("guesser", "minilm:prior_weight=inf", "prior_weight"),
        ("guesser", "glove50:stop_threshold=-inf", "stop_threshold"),
        ("spymaster", "human:min_evoke=nan", "min_evoke"),
        ("guesser", "human:assassin_cost=1e999", "assassin_cost"),  # overflows to inf
        ("spymaster", "bandit:exploration=nan", "exploration"),
        ("guesser", "experiments.example_agent:LetterOverlapGuesser:limit=nan", "limit"),
    ],
)
def test_nan_and_inf_are_refused_for_every_parameter(monkeypatch, role, spec, key):
    """issue 41 item 9: a nan or infinite value changed results silently (a nan weight lost
    games, a nan cost made every clue an agent error); the spec parser refuses it by name."""
    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    with pytest.raises(AgentSpecError, match=re.escape(f"{key} must be a finite number")):
        registry.check_spec(role, spec, isolate=False)
    with pytest.raises(AgentSpecError, match=re.escape(f"{key} must be a finite number")):
        parse_spec(spec)


def test_a_plugin_parameter_of_the_wrong_type_is_refused_before_play(tmp_path):
    """issue 41 item 9: a researcher's parameters are checked by name and by type (its
    default's, or its annotation's) against its __init__ before the first game, in the child
    process that checks an isolated spec, without building it."""
    module = tmp_path / "typed_agents.py"
    module.write_text(
        "from typing import Optional\n"
        "class G:\n"
        "    built = 0\n"
        "    def __init__(self, limit: int = 1, weight: 'Optional[float]' = None, name: str = 'g') -> None:\n"
        "        type(self).built += 1\n"
        "        self.limit, self.weight, self.name = limit, weight, name\n"
        "    def reset(self, seed): pass\n"
        "    def next_guess(self, view): return None\n"
    )
    for spec, message in [
        (f"{module}:G:limit=x", "limit must be an integer, got 'x'"),
        (f"{module}:G:limit=1.5", "limit must be an integer"),
        (f"{module}:G:weight=heavy", "weight must be a number or none, got 'heavy'"),
        (f"{module}:G:extra=x", "unknown parameter 'extra' (accepted: limit, name, weight)"),
    ]:
        with pytest.raises(AgentSpecError, match=re.escape(message)):
            registry.check_spec("guesser", spec)  # isolated: checked in a child process
        with pytest.raises(AgentSpecError, match=re.escape(message)):
            registry.agent_class("guesser", spec)
    g = make_guesser(f"{module}:G:limit=2,weight=1,name=7", isolate=False)
    assert (g.limit, g.weight, g.name) == (2, 1.0, "7") and type(g.weight) is float
