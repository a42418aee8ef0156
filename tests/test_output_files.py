"""Output files (issue 41, "Nothing lost"): only regular files are read or replaced, a link is
written through to its target, and summary paths are proved writable before the first game.

No test here writes to a real device: /dev/null and /dev/zero are only shown to be refused by
the checks that run before any read or write (importing spymaster_ai.files first means code
without those checks fails at collection, never reaching them).
"""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
import spymaster_ai.cli.play_cmds  # noqa: F401
import spymaster_ai.cli.sweep_cmds  # noqa: F401
from spymaster_ai.cli.app import app
from spymaster_ai.cli.errors import BadInput, check_output_file
from spymaster_ai.files import UnsafeFileError, atomic_writer, check_readable, check_writable, write_target
from spymaster_ai.play import PlaySettings, Session, new_game, read_saved, save_session
from spymaster_ai.play.store import SaveFileError, SaveWriteError
from spymaster_ai.sim.runner import ResultsFileError, read_result_lines, run_games

RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"
CODEBOOK_SPY = "test_sim_scripted:CodebookSpymaster"
CODEBOOK_GUESS = "test_sim_scripted:CodebookGuesser"
BENCH = ["bench", "duet", "--games", 2, "--seed", 1, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS]

runner = CliRunner()


def invoke(*args, **kw):
    return runner.invoke(app, [str(a) for a in args], **kw)


@pytest.fixture
def no_hang():
    """A blocked open (a named pipe read by old code) fails the test instead of hanging it."""

    def stop(signum, frame):  # pragma: no cover - only on a regression
        raise TimeoutError("blocked on a special file")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


def a_device(tmp_path: Path) -> Path:
    """A character device like /dev/null, made in tmp_path so replacing it would harm nothing."""
    path = tmp_path / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    return path


def unwritable_folder(tmp_path: Path) -> Path:
    """A folder nobody can write in: /proc for root (root ignores permission bits), else 0o500."""
    if os.geteuid() == 0:
        return Path("/proc")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


# ----------------------------------------------------------------------------- the helpers


def test_dev_null_and_dev_zero_are_refused_before_any_read_or_write():
    for path in ("/dev/null", "/dev/zero", "/dev/full"):
        with pytest.raises(UnsafeFileError, match="character device"):
            write_target(path)
        with pytest.raises(UnsafeFileError, match="character device"):
            check_readable(path)
        with pytest.raises(BadInput, match="--results: .*character device"):
            check_output_file(Path(path), "--results")
        with pytest.raises(ResultsFileError, match="character device"):
            read_result_lines(Path(path))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_atomic_writer_writes_through_a_link_and_keeps_the_mode(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_writer(link) as handle:
        handle.write("new\n")
    assert link.is_symlink() and target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]  # no temporary left


def test_a_device_node_is_never_replaced(tmp_path):
    node = a_device(tmp_path)
    with pytest.raises(UnsafeFileError, match="character device"):
        with atomic_writer(node) as handle:
            handle.write("x")
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_check_writable_refuses_an_unwritable_folder_and_leaves_no_probe(tmp_path):
    folder = unwritable_folder(tmp_path)
    with pytest.raises(UnsafeFileError, match="cannot be written"):
        check_writable(folder / "sub" / "summary.json")
    check_writable(tmp_path / "new" / "summary.json")
    assert list(tmp_path.glob("**/*.probe")) == [] and not (tmp_path / "new").exists()


# ----------------------------------------------------------------------------- --results


def test_a_fifo_at_results_is_refused_at_once(tmp_path, no_hang):
    pipe = fifo(tmp_path)
    res = invoke(*BENCH, "--results", pipe)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "--results" in lines[0] and "named pipe" in lines[0]
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    with pytest.raises(ResultsFileError, match="named pipe"):  # the library refuses it too
        run_games("kim2019", {"spymaster": CODEBOOK_SPY, "guesser": CODEBOOK_GUESS}, games=1, seed=1, results_path=pipe)
    res = invoke("bench", "replay", pipe, "--index", 0)
    assert res.exit_code == 2 and "named pipe" in res.stderr


def test_a_device_at_results_is_refused_and_left_a_device(tmp_path):
    node = a_device(tmp_path)
    res = invoke(*BENCH, "--results", node)
    assert res.exit_code == 2 and "character device" in res.stderr
    with pytest.raises(ResultsFileError, match="character device"):
        run_games("kim2019", {"spymaster": CODEBOOK_SPY, "guesser": CODEBOOK_GUESS}, games=1, seed=1, results_path=node)
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_link_at_results_updates_its_target_and_stays_a_link(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    target = runs / "0412.jsonl"
    link = tmp_path / "latest.jsonl"
    link.symlink_to(target)  # dangling until the first run
    first = invoke(*BENCH, "--results", link, "--json")
    assert first.exit_code == 0, first.output
    assert link.is_symlink() and len(target.read_text().splitlines()) == 2
    again = invoke(*BENCH[:3], 3, *BENCH[4:], "--results", link, "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["resumed"] == 2 and json.loads(again.stdout)["played"] == 1
    assert link.is_symlink() and len(target.read_text().splitlines()) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.jsonl", "runs"]
    assert [p.name for p in runs.iterdir()] == ["0412.jsonl"]  # no lock or temporary file left


# ----------------------------------------------------------------------------- play --save


class _Idle:
    def reset(self, seed: int) -> None:
        pass


def a_session() -> Session:
    settings = PlaySettings(mode="solo", seed=38, agent="glove50")
    game, labels = new_game(settings)
    return Session(settings, game, {"spymaster": _Idle(), "guesser": _Idle()}, labels)


def test_a_link_at_save_updates_its_target(tmp_path):
    target = tmp_path / "games" / "real.json"
    target.parent.mkdir()
    link = tmp_path / "game.json"
    link.symlink_to(target)
    save_session(a_session(), link)
    assert link.is_symlink() and target.is_file()
    assert read_saved(link).settings.seed == 38


def test_a_fifo_or_device_at_save_is_refused_before_any_read_or_write(tmp_path, no_hang):
    pipe = fifo(tmp_path)
    res = invoke("play", "solo", "--seed", 38, "--save", pipe, "--agent", "glove50", "--no-color", input="quit\n")
    assert res.exit_code == 2, res.output
    assert "--save" in res.stderr and "named pipe" in res.stderr and "Traceback" not in res.stderr
    with pytest.raises(SaveWriteError, match="named pipe"):
        save_session(a_session(), pipe)
    with pytest.raises(SaveFileError, match="named pipe"):
        read_saved(pipe)
    res = invoke("play", "resume", pipe, "--no-color", input="quit\n")
    assert res.exit_code == 2 and "named pipe" in res.stderr
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    res = invoke("play", "solo", "--seed", 38, "--save", "/dev/null", "--agent", "glove50", "--no-color")
    assert res.exit_code == 2 and "character device" in res.stderr


# ----------------------------------------------------------------------------- summary outputs


@pytest.mark.parametrize("command,option,name", [
    ("bench", "--out", "summary.json"),
    ("tournament", "--out", "t.json"),
    ("tournament", "--markdown", "t.md"),
    ("sweep", "--out", "s.json"),
    ("sweep", "--plot", "r.png"),
    ("sweep", "--results-dir", "cells"),
])
def test_an_unwritable_summary_path_is_refused_before_the_first_game(tmp_path, command, option, name):
    bad = unwritable_folder(tmp_path) / name
    played = tmp_path / "played"
    if command == "bench":
        args = [*BENCH, "--results", played / "r.jsonl"]
    elif command == "tournament":
        args = ["tournament", "--game", "duet", "--games", 1, "--spymasters", RANDOM_SPY, "--guessers", RANDOM_GUESS,
                "--results-dir", played]
    else:
        args = ["sweep", "--game", "kim2019", "--spymaster", CODEBOOK_SPY, "--guesser", CODEBOOK_GUESS,
                "--grid", "per_clue=1,2", "--games", 1] + ([] if option == "--results-dir" else ["--results-dir", played])
    res = invoke(*args, option, bad)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "cannot be written" in lines[0], lines
    assert not played.exists()  # refused before the first game


def test_a_summary_that_cannot_be_written_at_the_end_goes_to_stdout(tmp_path, monkeypatch):
    import spymaster_ai.cli.errors as errors

    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(errors, "write_atomically", full)
    out = tmp_path / "summary.json"
    res = invoke(*BENCH, "--out", out)
    assert res.exit_code == 1, res.output
    assert "--out: cannot write" in res.stderr and "No space left on device" in res.stderr
    assert "follows on stdout" in res.stderr
    summary = json.loads(res.stdout[res.stdout.index("{\n"):])
    assert summary["games"] == 2 and not out.exists()
    res = invoke(*BENCH, "--out", out, "--json")
    assert res.exit_code == 1 and json.loads(res.stdout)["games"] == 2
    md = tmp_path / "t.md"
    res = invoke("tournament", "--game", "duet", "--games", 1, "--spymasters", RANDOM_SPY, "--guessers", RANDOM_GUESS,
                 "--markdown", md)
    assert res.exit_code == 1 and "--markdown: cannot write" in res.stderr and "| " in res.stdout


def test_a_refused_path_names_a_link_only_when_it_is_one(tmp_path, monkeypatch, no_hang):
    """`play resume fifo` said "(through the link to /abs/fifo)" for a relative path that was
    no link (issue 41's probe): the message names a link only for a symbolic link."""
    pipe = fifo(tmp_path)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnsafeFileError) as plain:
        check_readable(Path(pipe.name))
    assert "named pipe" in str(plain.value) and "link" not in str(plain.value)
    link = tmp_path / "via"
    link.symlink_to(pipe)
    with pytest.raises(UnsafeFileError, match=rf"through the link to {pipe}"):
        check_readable(link)
