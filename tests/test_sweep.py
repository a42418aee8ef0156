"""Parameter sweeps: grid parsing, specs extended per point, parameters routed to the role
that takes them, figures equal to a plain run of each point, table/JSON/plot, bad input (exit 2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
import spymaster_ai.cli.sweep_cmds  # noqa: F401
from spymaster_ai.agents.registry import parse_spec
from spymaster_ai.cli.app import app
from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import run_games
from spymaster_ai.sim.sweep import GridError, extend_spec, grid_points, parse_grid, route_parameters, run_sweep

CODEBOOK_SPY = "test_sim_scripted:CodebookSpymaster"
CODEBOOK_GUESS = "test_sim_scripted:CodebookGuesser"
RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"
ANY_GUESS = "test_sweep:KeywordsGuesser"

cli = CliRunner()


def invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


class KeywordsGuesser:
    """A guesser that takes any keyword (``**options``): gets only parameters no agent names."""

    def __init__(self, **options):
        self.options = options

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view):
        return None if view.can_stop else view.visible[0]


# ----------------------------------------------------------------------------- grids and specs


def test_parse_grid_keeps_order_and_text():
    grid = parse_grid(["risk=0.2,0.5,0.8", " stop_threshold = 0.3 , 0.6"])
    assert grid == {"risk": ("0.2", "0.5", "0.8"), "stop_threshold": ("0.3", "0.6")}
    assert list(grid) == ["risk", "stop_threshold"]


@pytest.mark.parametrize(
    "items,message",
    [
        ([], "at least one --grid"),
        (["risk"], "no '='"),
        (["=0.2,0.5"], "not a parameter name"),
        (["2risk=0.2"], "not a parameter name"),
        (["risk="], "empty value"),
        (["risk=0.2,,0.5"], "empty value"),
        (["risk=0.2,0.5,0.2"], "'0.2' given twice"),
        (["risk=0.2", "risk=0.5"], "given twice"),
    ],
)
def test_bad_grids_are_refused(items, message):
    with pytest.raises(GridError, match=message):
        parse_grid(items)


def test_grid_points_are_the_cartesian_product_first_parameter_slowest():
    points = grid_points({"a": ("1", "2"), "b": ("x", "y", "z")})
    assert points == [{"a": a, "b": b} for a in ("1", "2") for b in ("x", "y", "z")]


@pytest.mark.parametrize(
    "spec,extended,name",
    [
        ("minilm", "minilm:risk=0.2", "minilm"),
        ("minilm:max_count=3", "minilm:max_count=3,risk=0.2", "minilm"),
        ("ensemble:glove50+minilm", "ensemble:glove50+minilm:risk=0.2", "ensemble:glove50+minilm"),
        (CODEBOOK_SPY, CODEBOOK_SPY + ":risk=0.2", CODEBOOK_SPY),
    ],
)
def test_extend_spec_appends_parameters_the_registry_reads_back(spec, extended, name):
    assert extend_spec(spec, {"risk": "0.2"}) == extended
    assert parse_spec(extended)[0] == name and parse_spec(extended)[1]["risk"] == 0.2
    assert extend_spec(spec, {}) == spec


def test_a_parameter_fixed_in_the_spec_cannot_be_swept():
    with pytest.raises(GridError, match="fixed in the agent spec"):
        extend_spec("minilm:risk=0.3", {"risk": "0.5"})


def test_parameters_go_to_the_role_whose_class_takes_them():
    routes = route_parameters(["per_clue", "sudden_death_guesses"], {"spymaster": CODEBOOK_SPY, "guesser": RANDOM_GUESS})
    assert routes == {"per_clue": ("spymaster",), "sudden_death_guesses": ("guesser",)}
    # a class taking **kwargs gets what no class names, and nothing another class names
    routes = route_parameters(["per_clue", "colour"], {"spymaster": CODEBOOK_SPY, "guesser": ANY_GUESS})
    assert routes == {"per_clue": ("spymaster",), "colour": ("guesser",)}
    with pytest.raises(GridError, match=r"no agent takes the parameter 'colour' .*takes cover, per_clue.*takes sudden_death"):
        route_parameters(["colour"], {"spymaster": CODEBOOK_SPY, "guesser": RANDOM_GUESS})


# ----------------------------------------------------------------------------- runs


def test_each_point_equals_a_plain_run_of_its_specs():
    sweep = run_sweep("duet", spymaster=RANDOM_SPY, guesser=RANDOM_GUESS, grid=["sudden_death_guesses=0,2"],
                      games=12, seed=6)
    assert [p.values for p in sweep.points] == [{"sudden_death_guesses": "0"}, {"sudden_death_guesses": "2"}]
    for point in sweep.points:
        guesser = f"{RANDOM_GUESS}:sudden_death_guesses={point.values['sudden_death_guesses']}"
        assert point.specs == {"spymaster": RANDOM_SPY, "guesser": guesser}
        plain = run_games("duet", lineup("duet", RANDOM_SPY, guesser), games=12, seed=6).summary()
        figures = {k: v for k, v in point.figures.items() if k != "parameters"}
        assert {k: plain[k] for k in figures} == figures
        assert point.figures["parameters"] == plain["provenance"]["parameters"]  # the point's resolved agents


def test_classic_sweeps_play_the_swept_pair_against_the_base_specs():
    sweep = run_sweep("classic", spymaster=CODEBOOK_SPY, guesser=CODEBOOK_GUESS, grid={"per_clue": [1, 9]},
                      games=4, seed=1)
    data = sweep.to_json()
    assert data["opponent"] == {"spymaster": CODEBOOK_SPY, "guesser": CODEBOOK_GUESS}
    per_clue_9 = data["points"][1]
    assert per_clue_9["params"] == {"per_clue": 9} and per_clue_9["win_rate"] == 1.0  # all 9 cards on the first clue


def test_cli_sweep_json_out_table_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out, plot = tmp_path / "sweep.json", tmp_path / "fig" / "sweep.png"
    args = ["sweep", "--game", "kim2019", "--spymaster", CODEBOOK_SPY, "--guesser", CODEBOOK_GUESS,
            "--grid", "per_clue=1,2,3", "--games", 3, "--seed", 4]
    res = invoke(*args, "--json", "--out", out, "--plot", plot)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert json.loads(out.read_text())["points"] == report["points"]
    assert report["grid"] == {"per_clue": ["1", "2", "3"]} and report["routes"] == {"per_clue": ["spymaster"]}
    assert [p["specs"]["spymaster"] for p in report["points"]] == [f"{CODEBOOK_SPY}:per_clue={k}" for k in (1, 2, 3)]
    # the perfect pair covers its 8 cards in ceil(8 / per_clue) turns, every game
    assert [(p["win_rate"], p["mean_turns"]) for p in report["points"]] == [(1.0, 8.0), (1.0, 4.0), (1.0, 3.0)]
    assert report["version"] and report["backend"] == "local" and report["plot"] == str(plot)

    from matplotlib.image import imread

    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width = imread(plot).shape[:2]
    assert width > 300 and height > 300

    table = invoke(*args)
    assert table.exit_code == 0, table.output
    assert "per_clue" in table.stdout and "win rate" in table.stdout and "100.0%" in table.stdout


def test_cli_sweep_two_parameters_plot_and_resume(tmp_path):
    pytest.importorskip("matplotlib")
    folder, plot = tmp_path / "points", tmp_path / "two.png"
    args = ["sweep", "--game", "duet", "--spymaster", CODEBOOK_SPY, "--guesser", RANDOM_GUESS,
            "--grid", "per_clue=1,2", "--grid", "sudden_death_guesses=0,1", "--games", 4,
            "--results-dir", folder, "--json"]
    first = invoke(*args, "--plot", plot)
    assert first.exit_code == 0, first.output
    assert len(list(folder.glob("*.jsonl"))) == 4 and plot.stat().st_size > 0
    again = invoke(*args)
    assert again.exit_code == 0, again.output
    drop = ("seconds",)
    strip = lambda r: [{k: v for k, v in p.items() if k not in drop} for p in json.loads(r.stdout)["points"]]  # noqa: E731
    assert strip(again) == strip(first)
    assert json.loads(again.stdout)["paired"] == json.loads(first.stdout)["paired"]  # resumed: the same paired figures
    assert [p["values"] for p in json.loads(first.stdout)["points"]] == [
        {"per_clue": a, "sudden_death_guesses": b} for a in ("1", "2") for b in ("0", "1")
    ]


@pytest.mark.parametrize(
    "extra,message",
    [
        ([], "at least one --grid"),
        (["--grid", "per_clue"], "no '='"),
        (["--grid", "per_clue=1,,2"], "empty value"),
        (["--grid", "per_clue=1", "--grid", "per_clue=2"], "given twice"),
        (["--grid", "colour=red,blue"], "no agent takes the parameter 'colour'"),
        (["--guesser", "random", "--grid", "seed=1,abc"], "seed must be an integer"),
        (["--spymaster", f"{CODEBOOK_SPY}:per_clue=2", "--grid", "per_clue=1,3"], "fixed in the agent spec"),
        (["--game", "chess", "--grid", "per_clue=1"], "unknown game"),
        (["--grid", "per_clue=1", "--plot", "sweep.txt"], "should end in .png, .pdf or .svg"),
        (["--grid", "per_clue=1", "--plot", "."], "is a folder"),
        (["--grid", "per_clue=1", "--out", "."], "is a folder"),
    ],
)
def test_cli_sweep_bad_input_exits_2(extra, message):
    base = ["sweep", "--spymaster", CODEBOOK_SPY, "--guesser", RANDOM_GUESS, "--games", 2]
    res = invoke(*base, *extra)
    assert res.exit_code == 2, res.output
    assert message in res.stderr
    assert "Traceback" not in res.output


@pytest.mark.models
def test_real_agents_risk_to_the_spymaster_stop_threshold_to_the_guesser():
    res = invoke("sweep", "--spymaster", "glove50:vocabulary_size=3000", "--guesser", "glove50",
                 "--grid", "risk=0.2,0.8", "--grid", "stop_threshold=0.3", "--games", 1, "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["routes"] == {"risk": ["spymaster"], "stop_threshold": ["guesser"]}
    assert [p["specs"] for p in report["points"]] == [
        {"spymaster": f"glove50:vocabulary_size=3000,risk={r}", "guesser": "glove50:stop_threshold=0.3"}
        for r in ("0.2", "0.8")
    ]
    assert all(p["errors"] == 0 and p["games"] == 1 for p in report["points"])


def test_registry_specs_route_and_fail_before_any_model_loads(monkeypatch):
    """A sweep over built-in agents reads their classes from the registry, so a bad base spec,
    an unknown parameter or a bad grid value fails in milliseconds, not after loading models."""
    from spymaster_ai.agents import registry

    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    routes = route_parameters(["risk", "stop_threshold", "hub_correction"], {"spymaster": "minilm", "guesser": "glove50"})
    assert routes == {"risk": ("spymaster",), "stop_threshold": ("guesser",), "hub_correction": ("spymaster", "guesser")}
    with pytest.raises(GridError, match="no agent takes the parameter 'rsk'"):
        run_sweep("duet", "minilm", grid=["rsk=0.5"], games=2, seed=0)
    with pytest.raises(registry.AgentSpecError, match="'robust' is a spymaster, not a guesser"):
        run_sweep("duet", "robust", grid=["risk=0.5"], games=2, seed=0)
    with pytest.raises(registry.AgentSpecError, match=r"'minilm:risk=2'.*risk must be in"):
        run_sweep("duet", "minilm", grid=["risk=0.5,2"], games=2, seed=0)
