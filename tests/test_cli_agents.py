"""``spymaster-ai clue`` and ``spymaster-ai guess`` through typer's CliRunner.

The toy agents below are loaded by the CLI through the registry's file-path spec
(``tests/test_cli_agents.py:ToySpymaster``), so these tests need no model files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from spymaster_ai.agents.guesser import EmbeddingGuesser
from spymaster_ai.agents.spymaster import EmbeddingSpymaster
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.cli import agent_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import _register, app

HERE = Path(__file__).resolve()
BOARD = "apple,orange,piano,guitar,shark,knife,oak"


def _toy(cls: type = ToyEmbedding, name: str = "toy") -> ToyEmbedding:
    axes = ("fruit", "music", "sea", "weapon", "tree")

    def v(**kw: float) -> list[float]:
        return [kw.get(a, 0.0) for a in axes]

    vectors = {
        "apple": v(fruit=1, tree=0.2), "orange": v(fruit=1), "piano": v(music=1), "guitar": v(music=1, tree=0.1),
        "shark": v(sea=1, weapon=0.2), "knife": v(weapon=1), "oak": v(tree=1),
        "fruit": v(fruit=1), "music": v(music=1), "ocean": v(sea=1), "blade": v(weapon=1), "forest": v(tree=1),
    }
    return cls(vectors, ("fruit", "music", "ocean", "blade", "forest"), name=name)


class ToySpymaster(EmbeddingSpymaster):
    def __init__(self, **kw):
        super().__init__(_toy(), prefer_common=0.0, **kw)


class ToyGuesser(EmbeddingGuesser):
    def __init__(self, **kw):
        super().__init__(_toy(), **kw)


class AnyTextToy(ToyEmbedding):
    """Embeds any word, as a sentence encoder reads any text: a word it does not know gets a
    stand-in vector, and it never calls a word unreadable."""

    def vectors(self, words):
        stand_in = np.full(5, 5 ** -0.5, dtype=np.float32)
        return np.asarray([super(AnyTextToy, self).vectors([w])[0] if self.knows(w) else stand_in for w in words])


class StandInToy(AnyTextToy):
    """Like GloVe: a word it knows no part of gets a stand-in vector, and it says so."""

    def unreadable(self, word: str) -> bool:
        return not self.knows(word)


class AnyTextGuesser(EmbeddingGuesser):
    def __init__(self, **kw):
        super().__init__(_toy(AnyTextToy, "anytext"), **kw)


class StandInGuesser(EmbeddingGuesser):
    def __init__(self, **kw):
        super().__init__(_toy(StandInToy, "anytext"), **kw)


SPY = f"{HERE}:ToySpymaster"
GUESSER = f"{HERE}:ToyGuesser"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_clue_json_lists_top_clues_with_targets_and_closest_bad_card():
    r = run("clue", "--board", BOARD, "--team", "piano,guitar,shark", "--assassin", "knife",
            "--opponent", "apple", "--agent", SPY, "--top", "3", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    first = out["clues"][0]
    assert (first["word"], first["count"], sorted(first["targets"])) == ("music", 2, ["guitar", "piano"])
    assert first["closest_bad"] in ("apple", "orange", "knife", "oak")
    assert len(out["clues"]) == 3
    assert [c["score"] for c in out["clues"]] == sorted((c["score"] for c in out["clues"]), reverse=True)
    assert "ocean" in [c["word"] for c in out["clues"]]


def test_clue_table_output():
    r = run("clue", "--board", BOARD, "--team", "piano,guitar", "--assassin", "knife", "--agent", SPY)
    assert r.exit_code == 0, r.output
    assert "music" in r.stdout and "closest bad card" in r.stdout


def test_clue_bystander_option_leaves_unlisted_cards_covered():
    # with --bystander, APPLE/ORANGE/OAK are listed nowhere: covered, so "fruit" is no risk
    r = run("clue", "--board", BOARD, "--team", "piano", "--assassin", "knife", "--bystander", "shark",
            "--agent", SPY, "--top", "5", "--json")
    assert r.exit_code == 0, r.output
    bad = {c["closest_bad"] for c in json.loads(r.stdout)["clues"]}
    assert bad <= {"shark", "knife"}


def test_guess_json_ranks_and_stops():
    r = run("guess", "--board", BOARD, "--clue", "Music", "--count", "2", "--agent", GUESSER, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert {c["card"] for c in out["ranked"][:2]} == {"piano", "guitar"}
    assert sorted(out["guesses"]) == ["guitar", "piano"] and out["stops_after"] == 2
    assert out["clue"] == {"word": "music", "count": 2, "unlimited": False}
    assert out["warnings"] == []  # a legal clue the model knows
    r2 = run("guess", "--board", BOARD, "--clue", "music", "--count", "2", "--agent", GUESSER)
    assert r2.exit_code == 0 and "stops after 2" in r2.stdout


def test_guess_with_a_researcher_guesser_without_ranking():
    spec = f"{HERE.parents[1] / 'experiments' / 'example_agent.py'}:LetterOverlapGuesser:limit=1"
    r = run("guess", "--board", BOARD, "--clue", "music", "--count", "1", "--agent", spec, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ranked"] == [] and len(out["guesses"]) == 1


def test_guess_warns_about_an_illegal_clue_and_still_ranks():
    r = run("guess", "--board", BOARD, "--clue", "pianos", "--count", "1", "--agent", f"{HERE}:AnyTextGuesser")
    assert r.exit_code == 0, r.output
    (warning,) = r.stderr.strip().splitlines()
    assert warning.startswith("warning: the clue is illegal on this board (word-form)")
    assert "PIANO" in warning and "rule 2" in warning
    assert "stops after" in r.stdout
    r = run("guess", "--board", BOARD, "--clue", "Piano", "--count", "1", "--agent", GUESSER, "--json")
    out = json.loads(r.stdout)
    assert out["ranked"] and [w for w in out["warnings"] if "(visible-word)" in w and "PIANO" in w]


@pytest.mark.parametrize("guesser, message", [
    ("AnyTextGuesser", "'qzxwvq' is in no English word list (wordfreq frequency 0): anytext can read it only "
                       "from its spelling"),
    ("StandInGuesser", "anytext knows no part of 'qzxwvq': it has only a stand-in vector for such a clue, "
                       "so the ranking for it is noise"),
])
def test_guess_warns_about_a_clue_the_model_does_not_know_and_still_ranks(guesser, message):
    r = run("guess", "--board", BOARD, "--clue", "qzxwvq", "--count", "1", "--agent", f"{HERE}:{guesser}")
    assert r.exit_code == 0, r.output
    (warning,) = r.stderr.strip().splitlines()
    assert warning.startswith(f"warning: {message}")
    assert "stops after" in r.stdout
    r = run("guess", "--board", BOARD, "--clue", "music", "--count", "1", "--agent", f"{HERE}:{guesser}", "--json")
    assert json.loads(r.stdout)["warnings"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["clue", "--board", "a,b,a", "--team", "a", "--assassin", "b"], "'a' appears twice"),
        (["clue", "--board", BOARD, "--team", "piano,zebra", "--assassin", "knife"], "'zebra' is not on the board"),
        (["clue", "--board", BOARD, "--team", "piano", "--assassin", "piano"], "both team and assassin"),
        (["clue", "--board", BOARD, "--team", "piano", "--assassin", "knife", "--game", "chess"], "classic or duet"),
        (["clue", "--board", BOARD, "--team", "piano", "--assassin", "knife", "--agent", "random"], "is a guesser"),
        (["clue", "--board", BOARD, "--team", "piano", "--assassin", "knife", "--agent", "minilm:bogus=1"], "unknown parameter 'bogus'"),
        (["clue", "--board", "x,,y", "--team", "x", "--assassin", "y"], "empty word"),
        (["guess", "--board", "a,b,b", "--clue", "x", "--count", "1"], "'b' appears twice"),
        (["guess", "--board", BOARD, "--clue", " ", "--count", "1", "--agent", GUESSER], "--clue: empty"),
        (["guess", "--board", BOARD, "--clue", "x", "--count", "1", "--agent", "nosuch.module:G"], "cannot import"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    err = r.stderr.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1 and message in err, err


def test_a_clue_the_model_cannot_embed_is_one_line_exit_2():
    r = run("guess", "--board", BOARD, "--clue", "zzzz", "--count", "1", "--agent", GUESSER)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip().startswith("error:") and "cannot embed 'zzzz'" in r.stderr and "Traceback" not in r.output


@pytest.mark.models
def test_a_card_the_model_knows_nothing_of_is_flagged_in_clue_and_guess():
    board = "zzqxword,actor,airport,alarm,anchor,angel,apple,arm,army,bank,bark,bear,ice cream"
    r = run("clue", "--board", board, "--team", "zzqxword,actor,ice cream", "--assassin", "alarm",
            "--agent", "glove50:vocabulary_size=3000", "--top", "1", "--json")
    assert r.exit_code == 0, r.output
    (warning,) = json.loads(r.stdout)["warnings"]
    assert "'zzqxword'" in warning and "glove50" in warning and "ice cream" not in warning
    assert "aims at it only when no other card is left" in warning
    assert "zzqxword" not in json.loads(r.stdout)["clues"][0]["targets"]
    r = run("guess", "--board", board, "--clue", "movie", "--count", "1", "--agent", "glove50")
    assert r.exit_code == 0 and "knows no part of 'zzqxword'" in r.stderr and "board's average" in r.stderr
    r = run("guess", "--board", "actor,airport,ice cream", "--clue", "movie", "--count", "1", "--agent", "glove50",
            "--json")
    assert json.loads(r.stdout)["warnings"] == []


@pytest.mark.models
@pytest.mark.parametrize("clue, message", [
    ("qzxwvq", "glove50 knows no part of 'qzxwvq'"),
    ("\N{RED APPLE}", "the clue is illegal on this board (not-a-word)"),
])
def test_guess_with_glove_warns_about_a_clue_it_cannot_read(clue, message):
    r = run("guess", "--board", BOARD, "--clue", clue, "--count", "1", "--agent", "glove50")
    assert r.exit_code == 0, r.output
    assert message in r.stderr and "stops after" in r.stdout


def _command_paths() -> list[list[str]]:
    _register()

    def walk(command, path):
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


def _option_rows(path: list[str]) -> dict[str, str]:
    """Each option of ``path --help`` -> the rest of its row (metavar, then help)."""
    r = run(*path, "--help")
    assert r.exit_code == 0, r.output
    rows = {}
    for line in r.stdout.splitlines():
        m = re.match(r"^│\s+(?:\*\s+)?(--[\w-]+)\s+(?:-\w\s+)?(.*)$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_help_shows_real_metavars_not_type_placeholders():
    placeholder = re.compile(r"<(bool|str|int|float|path|list)")
    paths = _command_paths()
    assert ["play", "classic"] in paths and ["bench", "duet"] in paths
    for path in paths:
        rows = _option_rows(path)
        assert "--help" in rows, path
        for option, row in rows.items():
            assert not placeholder.search(row), f"{' '.join(path)} {option}: {row}"
    flags = _option_rows(["play", "classic"])
    assert flags["--no-save"].startswith("Do not save") and flags["--help"].startswith("Show this message")
    expected = {
        ("guess",): {"--board": "CARDS", "--clue": "WORD", "--count": "N", "--agent": "SPEC", "--game": "classic|duet"},
        ("clue",): {"--team": "CARDS", "--agent": "SPEC", "--top": "N"},
        ("play", "classic"): {"--seed": "N", "--save": "FILE", "--spymaster-spec": "SPEC", "--role": "spymaster|guesser"},
        ("play", "resume"): {"--png": "FILE"},
        ("pictures", "board"): {"--seed": "N", "--index": "N", "--png": "FILE"},
    }
    for path, metavars in expected.items():
        rows = _option_rows(list(path))
        for option, metavar in metavars.items():
            assert rows[option].split()[0] == metavar, (path, option, rows[option])


@pytest.mark.parametrize(
    "agent, message",
    [
        ("glove50:min_zipf=100", "agent spec 'glove50:min_zipf=100': min_zipf must be in [0, 8]"),  # before any model loads
        (f"{SPY}:min_zipf=100", "min_zipf must be in [0, 8]"),
        (f"{SPY}:min_zipf=7.9", "no clue-shaped word is read by every model at min_zipf=7.9"),  # no word that common
        ("glove50:assassin_cost=nan", "agent spec 'glove50:assassin_cost=nan': assassin_cost must be a finite number"),
        ("human:min_evoke=inf", "min_evoke must be a finite number"),
    ],
)
def test_clue_with_a_spec_that_leaves_no_clue_word_is_one_line_exit_2(monkeypatch, agent, message):
    """issue 41: ``clue --agent glove50:min_zipf=100`` was a ValueError traceback, and
    ``assassin_cost=nan`` an empty table with exit 0."""
    from spymaster_ai.agents import registry

    monkeypatch.setattr(registry, "_embedding", lambda name: pytest.fail(f"loaded {name!r}"))
    r = run("clue", "--board", BOARD, "--team", "piano,guitar", "--assassin", "knife", "--agent", agent)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    err = r.stderr.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1 and message in err, err
