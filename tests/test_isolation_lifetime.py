"""Isolated agents end with the run (issue 41, item 6): a worker whose simulator is SIGKILLed
exits within seconds, and the processes a plug-in starts end with its worker.

Every test is bounded in time (subprocess timeouts, polling deadlines) and kills in ``finally``
every process it started or learnt of, so a failure leaves nothing behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from spymaster_ai.agents.isolation import IsolatedGuesser

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="process groups and /proc: Linux")

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = '''
import os, subprocess, time

def _note(path, *pids):
    with open(path + ".tmp", "w") as f:
        f.write(" ".join(str(p) for p in pids))
    os.replace(path + ".tmp", path)

class Spawner:
    """Starts a child (sleep 60) at reset; notes its own pid and the child's."""
    def __init__(self, pids=""):
        self.pids = pids
    def reset(self, seed):
        child = subprocess.Popen(["sleep", "60"])
        _note(self.pids, os.getpid(), child.pid)
    def next_guess(self, view):
        return None

class Stuck(Spawner):
    """Also starts a child, then never answers its move."""
    def next_guess(self, view):
        time.sleep(600)
'''

PARENT = '''
import sys
from spymaster_ai.agents.isolation import IsolatedGuesser
from spymaster_ai.agents.registry import make_spymaster
from spymaster_ai.sim.play import play_game

import threading

built = []
if sys.argv[2] == "thread":  # built in a thread that ends at once: only the polling watch may end it
    t = threading.Thread(target=lambda: built.append(IsolatedGuesser(sys.argv[1], timeout=600)))
    t.start()
    t.join()
else:
    built.append(IsolatedGuesser(sys.argv[1], timeout=600))
guesser = built[0]
spy = make_spymaster("test_sim_scripted:PoolSpymaster", isolate=False)
play_game("kim2019", {"spymaster": spy, "guesser": guesser}, {}, seed=0, index=0)  # stuck in next_guess
'''


def _alive(pid: int) -> bool:
    """Running (a zombie nobody reaps counts as gone: PID 1 of a container may not reap)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _wait_for(path: Path, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return [int(p) for p in path.read_text().split()]
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


def _kill(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture()
def plugin(tmp_path) -> Path:
    path = tmp_path / "lifetime_agents.py"
    path.write_text(PLUGIN, encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["main", "thread"])
def test_a_worker_whose_parent_is_sigkilled_exits_with_its_child(plugin, tmp_path, where):
    pids_file = tmp_path / "pids"
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent(PARENT), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    parent = subprocess.Popen(
        [sys.executable, str(script), f"{plugin}:Stuck:pids={pids_file}", where], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    pids: list[int] = []
    try:
        pids = _wait_for(pids_file, 60)  # the worker and its child, once the game began
        time.sleep(0.5)  # the worker is now inside next_guess, stuck
        assert all(_alive(p) for p in pids)
        parent.kill()
        parent.wait(timeout=10)
        assert _wait_gone(pids, 5) == [], "the isolated worker (or its child) outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=10)
        _kill(pids)


def test_a_plugins_child_process_ends_when_the_agent_is_closed(plugin, tmp_path):
    pids_file = tmp_path / "pids"
    guesser = IsolatedGuesser(f"{plugin}:Spawner:pids={pids_file}", timeout=30)
    pids: list[int] = []
    try:
        guesser.reset(0)
        pids = _wait_for(pids_file, 10)
        assert all(_alive(p) for p in pids)
        guesser.close()
        assert _wait_gone(pids, 5) == [], "a process the plug-in started outlived a normal close"
    finally:
        guesser.close()
        _kill(pids)


def test_a_worker_whose_stdin_closes_ends_its_children_too(plugin, tmp_path):
    """The simulator gone while the agent waits between moves: EOF ends the worker and its group."""
    pids_file = tmp_path / "pids"
    guesser = IsolatedGuesser(f"{plugin}:Spawner:pids={pids_file}", timeout=30)
    pids: list[int] = []
    try:
        guesser.reset(0)
        pids = _wait_for(pids_file, 10)
        guesser._process.proc.stdin.close()  # what the worker sees when its parent dies
        assert _wait_gone(pids, 5) == []
    finally:
        guesser.close()
        _kill(pids)
