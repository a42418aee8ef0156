"""``spymaster-ai eval human`` end to end on the fixtures, with toy agents loaded by spec."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spymaster_ai.cli.app import _register, app

FIXTURES = Path(__file__).parent / "fixtures" / "human_duet"
TOY = FIXTURES / "toy_agents.py"
AGENTS = ["--guesser", f"{TOY}:ToyGuesser", "--spymaster", f"{TOY}:ToySpymaster"]

_register()
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["eval", "human", *args])


@pytest.fixture(scope="module")
def report() -> dict:
    result = run("--data", str(FIXTURES), *AGENTS, "--json", "--seed", "3", "--depth", "20")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_holds_every_metric_with_sample_size_and_interval(report):
    assert report["command"] == "eval human"
    assert report["seed"] == 3 and report["depth"] == 20 and report["limit"] is None
    assert report["guess_method"] == "rank_cards"
    assert report["rows"]["guess"] == {"read": 10, "parsed": 10, "malformed": 0}
    assert report["malformed_rows"] == [] and report["skipped"] == {} and report["calibration"] is None
    figures = {
        "guessing": ["top1", "mrr"],
        "clue_giving": ["mrr", "top10", "top100"],
        "understanding": ["agent_hit_rate", "human_hit_rate", "gap"],
        "target_choice": ["jaccard", "exact", "agent_count", "human_count"],
    }
    for section, names in figures.items():
        for name in names:
            est = report[section][name]
            assert set(est) == {"value", "ci95", "n", "games"}, (section, name)
            assert est["n"] > 0 and len(est["ci95"]) == 2
    assert report["guessing"]["top1"]["value"] == pytest.approx(6 / 8)
    assert report["guessing"]["unscorable"] == {"clue-unknown": 1, "no-human-guess": 1}
    assert report["clue_giving"]["unscorable"] == {"illegal-clue": 1, "outside-vocabulary": 1}
    assert report["understanding"]["join"] == {"matched": 8, "ambiguous": 1, "unmatched": 1}


def test_json_is_the_same_for_the_same_seed(report):
    again = json.loads(run("--data", str(FIXTURES), *AGENTS, "--json", "--seed", "3", "--depth", "20").stdout)
    drop = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert drop(again) == drop(report)


def test_table_output_and_limit_and_calibration():
    result = run("--data", str(FIXTURES), *AGENTS, "--limit", "8", "--calibrate", "--metrics", "guessing,understanding")
    assert result.exit_code == 0, result.output
    assert "guess top-1 agreement" in result.stdout and "held-out: calibrated top-1" in result.stdout
    assert "clue MRR" not in result.stdout
    out = json.loads(run("--data", str(FIXTURES), *AGENTS, "--limit", "8", "--calibrate", "--json",
                         "--metrics", "guessing").stdout)
    assert out["limit"] == 8 and out["rows"]["guess"]["read"] == 8
    assert out["calibration"]["split"]["fit_turns"] + out["calibration"]["split"]["test_turns"] == 8


def test_malformed_rows_are_counted_and_listed_and_strict_refuses(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("*.py", "*.json", "__pycache__"))
    path = folder / "generate_guess_task_val.csv"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace("['lion'", "['lion'['", 1)  # row 2: a broken list
    path.write_text("\n".join(lines) + "\n")
    out = json.loads(run("--data", str(folder), *AGENTS, "--json", "--metrics", "guessing").stdout)
    assert out["rows"]["guess"] == {"read": 10, "parsed": 9, "malformed": 1}
    assert out["malformed_rows"][0]["file"] == "generate_guess_task_val.csv"
    assert out["malformed_rows"][0]["row"] == 2
    strict = run("--data", str(folder), *AGENTS, "--strict", "--metrics", "guessing")
    assert strict.exit_code == 2
    assert "generate_guess_task_val.csv, row 2" in strict.output


@pytest.mark.parametrize("args, message", [
    (["--data", "/nonexistent/folder"], "no such folder"),
    (["--data", str(FIXTURES), "--metrics", "guesing"], "unknown metric"),
    (["--data", str(FIXTURES), "--depth", "0"], "--depth"),
    (["--data", str(FIXTURES), "--limit", "0"], "--limit"),
    (["--data", str(FIXTURES), "--agent", "no_such_agent_model"], "no_such_agent_model"),
])
def test_bad_usage_exits_2_with_one_json_error(args, message):
    result = run(*args, "--json")
    assert result.exit_code == 2
    assert message in json.loads(result.stdout)["error"]
