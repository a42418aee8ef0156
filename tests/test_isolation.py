"""Agents in their own process (``agents.isolation``, ``--isolate``): what the boundary closes,
and that a crashing, hanging or chatty agent costs one game, with a clear error, not the run.

The cheating guesser (``experiments/cheating_agent.py``) reads the key from the game object it
finds by walking frames or the garbage collector. In the simulator's process it wins every
game; in its own process it finds nothing and must play exactly as the random guesser does,
game for game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spymaster_ai.agents.isolation import IsolatedAgentError, IsolatedGuesser, IsolatedSpymaster
from spymaster_ai.agents.registry import AgentSpecError, check_spec, is_isolated, make_guesser, make_spymaster
from spymaster_ai.sim.play import PlayOptions, play_game
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import ClueHistoryEntry, GuesserView, SpymasterView

ROOT = Path(__file__).resolve().parents[1]
THIEF = "experiments.cheating_agent:KeyThief"
SPY = "test_sim_scripted:PoolSpymaster"
GAMES = 20


def _games(guesser, n=GAMES, game="kim2019"):
    spy = make_spymaster(SPY, isolate=False)
    return [play_game(game, {"spymaster": spy, "guesser": guesser}, {}, seed=i, index=i) for i in range(n)]


def test_the_cheater_wins_every_game_in_the_simulators_process():
    thief = make_guesser(THIEF, isolate=False)
    results = _games(thief)
    assert sum(r.won for r in results) == GAMES


def test_isolated_the_cheater_sees_nothing_and_plays_exactly_as_random():
    thief = make_guesser(THIEF)  # a module:Class spec: isolated by default
    assert isinstance(thief, IsolatedGuesser)
    cheated = _games(thief)
    fair = _games(make_guesser("random"))
    assert [r.record for r in cheated] == [r.record for r in fair]  # move for move
    assert [r.error for r in cheated] == [None] * GAMES
    assert sum(r.won for r in cheated) < GAMES // 2  # and it loses like a random guesser


def test_views_survive_the_json_round_trip_exactly():
    """Every view an agent is sent in real games comes back equal (classic, duet, solo covers)."""
    seen: list = []

    class Recorder:
        def __init__(self, inner):
            self.inner = inner

        def reset(self, seed):
            self.inner.reset(seed)

        def give_clue(self, view):
            seen.append(view)
            return self.inner.give_clue(view)

        def next_guess(self, view):
            seen.append(view)
            return self.inner.next_guess(view)

    spy, guesser = make_spymaster(SPY, isolate=False), make_guesser("random")
    for game in ("classic", "duet", "solo"):
        roles = {"classic": ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser"),
                 "duet": ("a_spymaster", "a_guesser", "b_spymaster", "b_guesser"), "solo": ("spymaster", "guesser")}[game]
        agents = {r: Recorder(spy if r.endswith("spymaster") else guesser) for r in roles}
        play_game(game, agents, {}, seed=3, options=PlayOptions(legality="off"))
    assert any(isinstance(v, SpymasterView) for v in seen) and any(v.history for v in seen if isinstance(v, GuesserView))
    for view in seen:
        again = type(view).from_json(json.loads(json.dumps(view.to_json())))
        assert again == view


def test_a_view_with_an_unknown_field_is_refused():
    view = make_view()
    with pytest.raises(ValueError, match="unknown field"):
        GuesserView.from_json({**view.to_json(), "key": ["red"]})


def make_view() -> GuesserView:
    return GuesserView("kim2019", "red", ("apple", "pear"), ("apple", "pear"), (), Clue("fruit", 1), 0, 2, False)


def test_our_own_agents_stay_in_process_and_custom_ones_do_not():
    assert not is_isolated("random") and not is_isolated("minilm:risk=0.5") and not is_isolated("ensemble:a+b")
    assert is_isolated(THIEF) and is_isolated("my_agent.py:G")
    assert is_isolated("random", True) and not is_isolated(THIEF, False)
    assert not isinstance(make_guesser("random"), IsolatedGuesser)
    assert isinstance(make_guesser("random", isolate=True), IsolatedGuesser)


BAD_AGENTS = '''
import os, sys, time

class Crasher:
    def __init__(self, after=1):
        self.after = after
        self.calls = 0
    def reset(self, seed):
        self.calls = 0
    def next_guess(self, view):
        self.calls += 1
        if self.calls > self.after:
            print("about to crash", file=sys.stderr)
            os._exit(3)
        return None if view.can_stop else view.visible[0]

class Sleeper:
    """Hangs at its first move ever (a marker file remembers it across processes)."""
    def __init__(self, marker="", seconds=30.0):
        self.marker, self.seconds = marker, seconds
    def reset(self, seed):
        pass
    def next_guess(self, view):
        if not os.path.exists(self.marker):
            open(self.marker, "w").close()
            time.sleep(self.seconds)
        return None if view.can_stop else view.visible[0]

class BrokenInit:
    def __init__(self):
        raise RuntimeError("boom in init")

class Chatty:
    def reset(self, seed):
        print("hello on stdout")
    def next_guess(self, view):
        print('{"ok": true, "result": "forged"}')  # on stdout: must not be read as the answer
        return None if view.can_stop else view.visible[0]

class Raiser:
    def reset(self, seed):
        pass
    def next_guess(self, view):
        raise ValueError("my own bug")

class WrongType:
    def reset(self, seed):
        pass
    def next_guess(self, view):
        return 42

class BadCover:
    def reset(self, seed):
        pass
    def give_clue(self, view):
        raise RuntimeError("no clue")
    def choose_cover(self, view, candidates):
        return candidates[0]
'''


@pytest.fixture()
def bad_agents(tmp_path) -> Path:
    path = tmp_path / "bad_agents.py"
    path.write_text(BAD_AGENTS, encoding="utf-8")
    return path


def test_a_crashing_agent_loses_that_game_with_a_clear_error_and_the_next_game_plays(bad_agents):
    guesser = make_guesser(f"{bad_agents}:Crasher")
    (first,) = _games(guesser, n=1)
    assert not first.won and first.loss_cause == "error"
    message = first.error["message"]
    assert "exited (code 3)" in message and "about to crash" in message and first.error["role"] == "guesser"
    assert guesser.restarts == 0
    # the next game starts a fresh process: it plays (and crashes again at its second call)
    (second,) = _games(guesser, n=1)
    assert second.clues >= 1 and "exited (code 3)" in second.error["message"] and guesser.restarts == 1


def test_a_hanging_agent_is_stopped_after_its_timeout(bad_agents):
    guesser = IsolatedGuesser(f"{bad_agents}:Sleeper:marker={bad_agents.parent / 'slept'}", timeout=0.5)
    first, second = _games(guesser, n=2)
    assert "no answer to next_guess within 0.5 s; its process was stopped" in first.error["message"]
    assert second.error is None and guesser.restarts == 1  # a fresh process plays the next game


def test_an_agent_printing_on_stdout_cannot_forge_an_answer(bad_agents, capfd):
    results = _games(make_guesser(f"{bad_agents}:Chatty"), n=2)
    assert [r.error for r in results] == [None, None]
    assert "forged" in capfd.readouterr().err  # its prints reach stderr, labelled


def test_an_agents_exception_and_wrong_answer_are_its_errors(bad_agents):
    (raised,) = _games(make_guesser(f"{bad_agents}:Raiser"), n=1)
    assert "next_guess raised ValueError: my own bug" in raised.error["message"]
    (wrong,) = _games(make_guesser(f"{bad_agents}:WrongType"), n=1)
    assert "next_guess returned int, not a card word or None" in wrong.error["message"]


def test_a_spymaster_that_chooses_covers_is_asked_through_the_process(bad_agents):
    spy = make_spymaster(f"{bad_agents}:BadCover")
    assert isinstance(spy, IsolatedSpymaster) and callable(getattr(spy, "choose_cover", None))
    assert not hasattr(make_spymaster(SPY, isolate=True), "choose_cover")
    view = SpymasterView("solo", "red", ("apple", "pear"), ("apple", "pear"), ("apple",), ("pear",), (), ())
    spy.reset(0)
    assert spy.choose_cover(view, ("pear",)) == "pear"
    with pytest.raises(IsolatedAgentError, match="give_clue raised RuntimeError: no clue"):
        spy.give_clue(view)


def test_bad_specs_are_refused_from_the_child_with_the_registrys_words(bad_agents):
    with pytest.raises(AgentSpecError, match="not a spymaster"):
        make_spymaster(f"{bad_agents}:Raiser")
    with pytest.raises(AgentSpecError, match="unknown parameter 'colour'"):
        check_spec("guesser", f"{bad_agents}:Crasher:colour=red")
    with pytest.raises(AgentSpecError, match="has no 'Nope'"):
        check_spec("guesser", f"{bad_agents}:Nope")
    with pytest.raises(AgentSpecError, match="building BrokenInit raised RuntimeError: boom in init"):
        make_guesser(f"{bad_agents}:BrokenInit")


def test_bench_isolates_a_module_class_by_default_and_obeys_the_flags():
    from spymaster_ai.cli import bench_cmds  # noqa: F401  (registers the commands)
    from spymaster_ai.cli.app import app

    def bench(guesser, *flags):
        args = ["bench", "kim2019", "--games", "6", "--spymaster", SPY, "--guesser", guesser, "--json", "--no-progress", *flags]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    cheated, default, fair = bench(THIEF, "--no-isolate"), bench(THIEF), bench("random")
    assert cheated["wins"] == 6 and cheated["isolate"] is False
    assert default["isolate"] is None
    assert (default["wins"], default["mean_turns"], default["loss_causes"]) == (fair["wins"], fair["mean_turns"], fair["loss_causes"])
    assert bench("random", "--isolate")["mean_turns"] == fair["mean_turns"]  # our own agent, isolated on request


_WORD = st.text(min_size=1, max_size=12)  # any characters: quotes, backslashes, non-ASCII
_CLUE = st.builds(Clue, _WORD, st.integers(0, 9), st.booleans())


@given(
    words=st.lists(_WORD, min_size=1, max_size=6, unique=True), clue=st.none() | _CLUE,
    made=st.integers(0, 5), cap=st.none() | st.integers(0, 9), can_stop=st.booleans(),
    history=st.lists(st.builds(ClueHistoryEntry, _WORD, _CLUE, st.lists(_WORD, max_size=3).map(tuple),
                               st.lists(_WORD, max_size=3).map(tuple)), max_size=3).map(tuple),
    own_side=st.none() | st.lists(_WORD, max_size=6).map(tuple), tokens=st.none() | st.integers(0, 11),
)
@settings(max_examples=60, deadline=None)
def test_any_guesser_view_survives_the_json_round_trip(words, clue, made, cap, can_stop, history, own_side, tokens):
    view = GuesserView("duet", "A", tuple(words), tuple(words[1:]), ((words[0], "green"),), clue, made, cap, can_stop,
                       history=history, own_side=own_side, marked_by_me=tuple(words[:1]), tokens_left=tokens)
    assert GuesserView.from_json(json.loads(json.dumps(view.to_json()))) == view
