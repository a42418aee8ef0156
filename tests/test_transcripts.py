"""The transcripts in docs/transcripts replay move for move with today's AI.

Why: the README there says that piping a game's ``.input`` into the command it names gives
the ``.txt`` exactly. An agent change that alters the AI's play breaks that promise silently;
this test makes it fail instead, so the change comes with a new session or a pinned option.
The commands are read from the README itself, so the documented line is the tested one.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spymaster_ai.cli import play_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app

pytestmark = pytest.mark.models

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "docs" / "transcripts"
_COMMAND = re.compile(r"^COLUMNS=(\d+) spymaster-ai (play .*) < (\S+\.input)$")


def documented_replays() -> dict[str, tuple[int, list[str]]]:
    """Each ``.input`` file's replay command in the README: (columns, arguments). Where the
    README gives two for one game (the recorded agents pinned by an option), the last wins."""
    out: dict[str, tuple[int, list[str]]] = {}
    for line in (TRANSCRIPTS / "README.md").read_text(encoding="utf-8").splitlines():
        match = _COMMAND.match(line.strip())
        if match:
            out[match.group(3)] = (int(match.group(1)), shlex.split(match.group(2)))
    return out


def test_the_readme_names_a_replay_for_every_transcript():
    inputs = sorted(p.name for p in TRANSCRIPTS.glob("*.input"))
    assert inputs and sorted(documented_replays()) == inputs
    for name in inputs:
        assert (TRANSCRIPTS / name).with_suffix(".txt").is_file()


@pytest.mark.parametrize("input_name", sorted(documented_replays()))
def test_a_transcript_replays_exactly(input_name, tmp_path, monkeypatch):
    columns, args = documented_replays()[input_name]
    monkeypatch.chdir(tmp_path)  # the save file the command names lands here
    typed = (TRANSCRIPTS / input_name).read_text(encoding="utf-8")
    result = CliRunner().invoke(app, args, input=typed, env={"COLUMNS": str(columns)})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    expected = (TRANSCRIPTS / input_name).with_suffix(".txt").read_text(encoding="utf-8")
    # stdout alone, as the README's redirect writes the .txt: on an empty model cache the
    # progress of encoding the vocabulary goes to stderr, which ``output`` interleaves
    assert result.stdout.splitlines() == expected.splitlines()
