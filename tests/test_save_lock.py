"""One live session per play save file (issue 41 item 1): the simulator's results-file lock
(:func:`spymaster_ai.files.hold_file`) held by ``play``; a second session is refused at start,
and a lock left by a dead process blocks nothing."""

from __future__ import annotations

import os
import subprocess
import sys

from typer.testing import CliRunner

from spymaster_ai.cli import play_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app
from spymaster_ai.files import lock_path
from spymaster_ai.play import SaveFileError, hold_save


def test_a_second_holder_of_a_save_is_refused_naming_the_file(tmp_path):
    save = tmp_path / "dual.json"
    with hold_save(save):
        try:
            with hold_save(save):
                raise AssertionError("two sessions held one save file")
        except SaveFileError as exc:
            assert str(exc).startswith(f"{save} is in use by another play session (process {os.getpid()})")
    with hold_save(save):  # free once the first session ended
        pass
    assert not lock_path(save).exists()


def test_a_stale_lock_from_a_killed_session_does_not_block(tmp_path):
    save = tmp_path / "dual.json"
    code = ("import os, signal, sys; from spymaster_ai.play import hold_save\n"
            "with hold_save(sys.argv[1]):\n    os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(save)], capture_output=True)
    assert proc.returncode == -9
    assert lock_path(save).exists()  # its lock file stays behind, with the dead process's id
    with hold_save(save):
        assert lock_path(save).read_text().strip() == str(os.getpid())


def _refused(result, save) -> None:
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{save} is in use by another play session" in lines[0]


def test_play_resume_of_a_save_another_session_holds_is_refused(tmp_path):
    save = tmp_path / "dual.json"
    save.write_text("{}")
    before = save.read_bytes()
    with hold_save(save):  # the other terminal's session
        result = CliRunner().invoke(app, ["play", "resume", str(save), "--no-color"], input="quit\n")
    _refused(result, save)
    assert save.read_bytes() == before


def test_a_new_game_saved_onto_a_held_file_is_refused_even_with_force(tmp_path):
    save = tmp_path / "dual.json"
    save.write_text("{}")
    with hold_save(save):
        result = CliRunner().invoke(app, ["play", "duet", "--save", str(save), "--force", "--no-color"], input="quit\n")
    _refused(result, save)
    assert save.read_text() == "{}"
