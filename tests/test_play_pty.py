"""``spymaster-ai play`` in a pseudo-terminal (pexpect), as a person at a keyboard runs it.

One game in a real subprocess with a terminal: an illegal clue, a legal one, the AI guesser's
answer, a quit; then ``play resume`` in a second process continues from the same state.
The human is the spymaster here, so only the fast GloVe guesser loads.
"""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from spymaster_ai.play import PlaySettings, new_game  # noqa: E402
from spymaster_ai.rules.legality import check_clue  # noqa: E402

pytestmark = pytest.mark.models

TIMEOUT = 120  # seconds per expected line: model loading on a busy machine


def _command() -> list[str]:
    exe = shutil.which("spymaster-ai")
    if exe:
        return [exe]
    return [sys.executable, "-c", "from spymaster_ai.cli.app import main; main()"]  # pragma: no cover


def _spawn(args: list[str], cwd) -> "pexpect.spawn":
    cmd = _command() + args
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "110", "LINES": "50", "HF_HUB_OFFLINE": "1"}
    return pexpect.spawn(cmd[0], cmd[1:], cwd=str(cwd), env=env, encoding="utf-8", timeout=TIMEOUT,
                         dimensions=(50, 110))


def test_a_game_in_a_terminal_then_resumed_in_another(tmp_path):
    seed = 41
    game, _ = new_game(PlaySettings(mode="solo", seed=seed, role="spymaster"))
    clue = next(w for w in ("saxophone", "galaxy", "tornado", "wizard") if check_clue(w, list(game.words)).legal)
    save = tmp_path / "pty.json"

    child = _spawn(["play", "solo", "--role", "spymaster", "--seed", str(seed), "--agent", "glove50",
                    "--save", str(save)], tmp_path)
    child.expect_exact("Your clue (a word and a number)> ")
    child.sendline(f"{game.words[0]} 1")
    child.expect_exact("rule 1")
    child.expect_exact("Your clue (a word and a number)> ")
    child.sendline(f"{clue} 1")
    child.expect(r"Your AI guesser touches (\S+)")
    child.expect(r"> ")  # the next prompt: a cover (the turn ended) or the next clue
    child.sendline("quit")
    child.expect_exact("Continue it with: spymaster-ai play resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(save.read_text())
    moves = len(saved["actions"])
    assert saved["actions"][0] == {"type": "clue", "team": "red", "word": clue, "count": 1, "unlimited": False, "legal": True}

    child = _spawn(["play", "resume", str(save)], tmp_path)
    child.expect_exact(f"{moves} move")
    child.expect(r"> ")
    child.sendeof()  # Ctrl-D: leave, the game is already saved
    child.expect_exact("The game is saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(save.read_text())["actions"] == saved["actions"]
