"""``spymaster-ai check-clue``: exit codes, text and JSON output, bad usage, and the real console script."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from spymaster_ai.cli import app as app_module

app_module._register()
app = app_module.app
runner = CliRunner()

OTHERS = """piano tiger violin octopus blanket lamp kettle zebra canoe helmet anchor
wizard pencil tunnel saddle rocket walrus magnet cactus""".split()
BOARD = ["earthquake", "horseshoe", "break", "theater", "night", "row"] + OTHERS  # 25 words
PICTURES_BOARD = BOARD[:20]


def run(*args: str):
    return runner.invoke(app, ["check-clue", *args])


def board(words: list[str] = BOARD) -> str:
    return ",".join(words)


@pytest.mark.parametrize(
    ("clue", "card", "rule"),
    [
        ("earth", "earthquake", "compound-part"),
        ("quake", "earthquake", "compound-part"),
        ("horse", "horseshoe", "compound-part"),
        ("unhorsed", "horseshoe", "compound-part"),
        ("snowshoe", "horseshoe", "compound-part"),
        ("broken", "break", "word-form"),
        ("breakage", "break", "word-form"),
        ("theatre", "theater", "word-form"),
        ("NIGHT", "night", "visible-word"),
    ],
)
def test_illegal_clue_exits_1_with_rule_and_card(clue: str, card: str, rule: str) -> None:
    result = run(clue, "--board", board())
    assert result.exit_code == 1, result.output
    assert f"[{rule}]" in result.output
    assert f"collides with: {card.upper()}" in result.output


@pytest.mark.parametrize("clue", ["ear", "hearth", "knight", "sparrow", "moon"])
def test_legal_clue_exits_0(clue: str) -> None:
    result = run(clue, "--board", board())
    assert result.exit_code == 0, result.output
    assert result.output.startswith("legal:")


def test_covered_word_is_legal_again() -> None:
    assert run("earth", "--board", board()).exit_code == 1
    result = run("earth", "--board", board(), "--covered", "EARTHQUAKE")
    assert result.exit_code == 0, result.output


def test_json_is_one_object_with_the_verdict() -> None:
    result = run("earth", "--board", board(), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["legal"] is False and data["rule"] == "compound-part"
    assert data["collides_with"] == "earthquake" and data["clue"] == "earth"
    assert "EARTHQUAKE" in data["reason"]
    ok = json.loads(run("ear", "--board", board(), "--json").output)
    assert ok["legal"] is True and ok["rule"] is None and ok["collides_with"] is None


def test_multi_word_count_and_pictures_options() -> None:
    assert run("ice cream", "--board", board()).exit_code == 1
    assert run("ice cream", "--board", board(), "--multi-word").exit_code == 0
    assert run("three", "--board", board(), "--count", "3").exit_code == 1
    assert run("three", "--board", board(), "--count", "2").exit_code == 0
    assert run("red", "--board", board(PICTURES_BOARD), "--pictures").exit_code == 1
    assert run("red", "--board", board(PICTURES_BOARD)).exit_code == 0
    assert run("knight", "--board", board(PICTURES_BOARD), "--pictures").exit_code == 0


def test_the_colour_refusal_is_an_option() -> None:
    assert run("red", "--board", board(PICTURES_BOARD), "--pictures", "--allow-colours").exit_code == 0
    assert run("red", "--board", board(), "--forbid-colours").exit_code == 1


def test_place_names_and_the_proper_names_option() -> None:
    assert run("New York", "--board", board()).exit_code == 0  # fa: place names are one word
    assert run("James Bond", "--board", board()).exit_code == 1
    assert run("James Bond", "--board", board(), "--proper-names").exit_code == 0
    assert run("ice cream", "--board", board(), "--proper-names").exit_code == 1


def test_letters_and_numbers_about_meaning_and_the_count_itself() -> None:
    # RULES.md §4.5: "B: 2" (vi Duet) is a clue; a number is refused only as the count itself
    assert run("B", "--board", board(), "--count", "2").exit_code == 0
    assert run("7", "--board", board(), "--count", "2").exit_code == 0
    result = run("3", "--board", board(), "--count", "3")
    assert result.exit_code == 1 and "[letters-or-position]" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--board", "a,b,c"], "needs 25 (or 20"),
        (["--board", board(BOARD[:24] + ["piano"])], "repeated words: piano"),
        (["--board", board(), "--covered", "zebra,unicorn"], "not on the board: unicorn"),
        (["--board", board(), "--count", "-1"], "--count must be 0 or more"),
    ],
)
def test_bad_usage_exits_2_with_one_line(args: list[str], message: str) -> None:
    result = run("earth", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("error:")
    assert "Traceback" not in result.output
    data = json.loads(run("earth", *args, "--json").output)
    assert message in data["error"]


def test_the_installed_console_script() -> None:
    exe = shutil.which("spymaster-ai")
    assert exe, "the spymaster-ai console script is not installed (pip install -e .)"
    cases = [("earth", 1, "EARTHQUAKE"), ("ear", 0, None), ("theatre", 1, "THEATER"), ("sparrow", 0, None)]
    for clue, code, card in cases:
        proc = subprocess.run(
            [exe, "check-clue", clue, "--board", board(), "--json"], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == code, proc.stderr
        data = json.loads(proc.stdout)
        assert data["legal"] is (code == 0)
        assert (data["collides_with"] or "").upper() == (card or "")
    proc = subprocess.run([exe, "check-clue", "x", "--board", "a,b"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr


def test_a_board_with_an_empty_field_is_refused_not_shortened():
    from typer.testing import CliRunner

    from spymaster_ai.cli.app import app

    result = CliRunner().invoke(app, ["check-clue", "fruit", "--board", "apple,,pear"])
    assert result.exit_code == 2
    assert "empty card" in result.output


@pytest.mark.parametrize("module", ["spymaster_ai", "spymaster_ai.cli.app"])
def test_python_dash_m_runs_the_same_command_line(module):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", module, "check-clue", "--help"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Usage" in out.stdout and "check-clue" in out.stdout
