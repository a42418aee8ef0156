"""Issue 42 item 5: a plug-in's spec parameters are checked against its constructor's
signature and annotations before any game (one line, exit 2), and a run whose games ended
on agent errors exits 3 unless --allow-errors (bench, tournament, sweep), its summary shown."""

from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from spymaster_ai.agents.registry import AgentSpecError, resolve_spec
from spymaster_ai.cli.app import _register, app
from spymaster_ai.cli.errors import AGENT_ERRORS_EXIT

_register()
runner = CliRunner()

PLUGIN = textwrap.dedent('''
    from typing import Literal, Optional, Union
    from spymaster_ai.agents.legal_clues import is_legal
    from spymaster_ai.rules.moves import Clue

    class Typed:
        def __init__(self, mode: Literal["a", "b"] = "a", ratio: float | None = None, depth: Optional[int] = None,
                     weights: Optional[list] = None, name: str = "x", either: Union[int, bool] = 1, loose=0.5):
            self.mode = mode
        def reset(self, seed): pass
        def next_guess(self, view): return None if view.can_stop else view.visible[0]

    class Spy:
        def __init__(self, broken: bool = False):
            self.broken = broken
        def reset(self, seed): pass
        def give_clue(self, view):
            if self.broken:
                raise RuntimeError("boom")
            for word in ("animal", "music", "water", "city", "food", "space", "weapon", "tree"):
                if is_legal(Clue(word, 1), view.visible):
                    return Clue(word, 1)
''')

LATE = textwrap.dedent('''
    from __future__ import annotations

    class Late:  # annotations as text: resolved before they are checked
        def __init__(self, depth: int | None = None, mode: str = "a"):
            pass
        def reset(self, seed): pass
        def next_guess(self, view): return None
''')


@pytest.fixture
def plugin(tmp_path):
    path = tmp_path / "my_plugin.py"
    path.write_text(PLUGIN)
    (tmp_path / "late.py").write_text(LATE)
    return path


@pytest.mark.parametrize("params, message", [
    ("mode=c", "mode must be one of 'a', 'b', got 'c'"),
    ("ratio=x", "ratio must be a number or none, got 'x'"),
    ("depth=1.5", "depth must be an integer or none, got 1.5"),
    ("weights=3", "weights must be a list (which a spec cannot give"),
    ("either=x", "either must be an integer or true or false, got 'x'"),
    ("loose=x", "loose must be a number, got 'x'"),  # no annotation: its default's type
    ("extra=1", "unknown parameter 'extra' (accepted: depth, either, loose, mode, name, ratio, weights)"),
])
def test_a_plug_in_parameter_is_checked_against_the_signature_and_annotations(plugin, params, message):
    with pytest.raises(AgentSpecError) as caught:
        resolve_spec("guesser", f"{plugin}:Typed:{params}", isolate=False)
    assert message in str(caught.value)


def test_accepted_values_are_converted_as_annotated(plugin):
    got = resolve_spec("guesser", f"{plugin}:Typed:mode=b,ratio=2,depth=none,name=007,either=true", isolate=False)
    assert got["parameters"] == {"mode": "b", "ratio": 2.0, "depth": None, "weights": None, "name": "007",
                                     "either": True, "loose": 0.5}


def test_text_annotations_are_resolved_before_checking(plugin):
    late = plugin.parent / "late.py"
    with pytest.raises(AgentSpecError, match="depth must be an integer or none, got 'x'"):
        resolve_spec("guesser", f"{late}:Late:depth=x", isolate=False)
    assert resolve_spec("guesser", f"{late}:Late:depth=3", isolate=False)["parameters"] == {"depth": 3, "mode": "a"}


def test_a_bad_plug_in_parameter_exits_2_in_one_line_before_any_game(plugin, tmp_path):
    results = tmp_path / "r.jsonl"
    got = runner.invoke(app, ["bench", "kim2019", "--games", "2", "--spymaster", f"{plugin}:Spy",
                              "--guesser", f"{plugin}:Typed:ratio=fast", "--results", str(results), "--no-progress"])
    assert got.exit_code == 2 and "Traceback" not in got.output
    assert got.stderr.strip().splitlines() == [f"error: agent spec '{plugin}:Typed:ratio=fast': ratio must be a number "
                                               "or none, got 'fast'"]
    assert not results.exists()  # no game was played


def _bench(plugin, *extra):
    return runner.invoke(app, ["bench", "kim2019", "--games", "2", "--spymaster", f"{plugin}:Spy:broken=true",
                               "--guesser", "random", "--json", "--no-progress", *extra])


def test_a_bench_whose_games_ended_on_agent_errors_exits_3_with_its_summary(plugin):
    got = _bench(plugin)
    assert got.exit_code == AGENT_ERRORS_EXIT == 3
    report = json.loads(got.stdout)  # the summary is still printed
    assert report["errors"] == 2 and report["wins"] == 0
    assert "--allow-errors" in got.stderr.strip().splitlines()[-1]
    allowed = _bench(plugin, "--allow-errors")
    assert allowed.exit_code == 0 and json.loads(allowed.stdout)["errors"] == 2


def test_a_clean_bench_exits_0(plugin):
    got = runner.invoke(app, ["bench", "kim2019", "--games", "2", "--spymaster", f"{plugin}:Spy",
                              "--guesser", "random", "--json", "--no-progress"])
    assert got.exit_code == 0 and json.loads(got.stdout)["errors"] == 0


@pytest.mark.parametrize("command", ["tournament", "sweep"])
def test_tournament_and_sweep_exit_3_on_agent_errors_unless_allowed(plugin, command):
    spy = f"{plugin}:Spy"
    if command == "tournament":
        args = ["tournament", "--game", "kim2019", "--spymasters", f"{spy}:broken=true", "--guessers", "random"]
    else:
        args = ["sweep", "--game", "kim2019", "--spymaster", spy, "--guesser", "random", "--grid", "broken=true,false"]
    base = [*args, "--games", "2", "--json", "--no-progress"]
    got = runner.invoke(app, base)
    assert got.exit_code == 3, got.output
    json.loads(got.stdout)  # the summary is still printed
    assert runner.invoke(app, [*base, "--allow-errors"]).exit_code == 0


def test_the_docs_worked_example_reads_a_zero_clue_as_a_warning():
    """docs/agents.md's SimilarityGuesser: on "word: 0" it takes the card least like the word
    (never the one the warning points at) and stops once it may."""
    import sys
    from pathlib import Path

    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry, GuesserView

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from experiments.example_agent import SimilarityGuesser

    g = SimilarityGuesser(model="glove50")
    g.reset(0)
    cards = ("banana", "apple", "piano", "violin")
    zero = Clue("fruit", 0)
    view = lambda clue, made, stop, history=(): GuesserView(  # noqa: E731
        game="kim2019", me="red", words=cards, visible=cards, revealed=(), clue=clue, guesses_made=made,
        max_guesses=None if clue.is_zero else clue.count + 1, can_stop=stop, history=history)
    first = g.next_guess(view(zero, 0, False))
    assert first in ("piano", "violin")  # not a fruit
    assert g.next_guess(view(zero, 1, True)) is None
    later = (ClueHistoryEntry("red", zero, (first,), ("bystander",)),)
    again = g.next_guess(view(Clue("fruit", 0), 0, False, later))  # the warning remembered: still off the fruit
    assert again in ("piano", "violin")
