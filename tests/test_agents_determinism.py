"""Seeded agents give the same clues and guesses bit for bit in separate processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.models

ROOT = Path(__file__).resolve().parents[1]
FRUIT_BOARD = ("apple", "orange", "piano", "shark", "moon", "engine", "lawyer", "castle", "knife", "cloud", "pencil", "horse")


def test_same_inputs_same_clues_across_processes():
    code = (
        "import json\n"
        "from spymaster_ai.agents.registry import make_spymaster, make_guesser\n"
        "from spymaster_ai.views import SpymasterView, GuesserView\n"
        "from spymaster_ai.rules.moves import Clue\n"
        f"b = {FRUIT_BOARD!r}\n"
        "s = make_spymaster('robust:embedding=glove50,partner=glove50,vocabulary_size=4000'); s.reset(3)\n"
        "v = SpymasterView('classic','red',b,b,b[:4],b[4:8],b[8:11],b[11:])\n"
        "g = make_guesser('glove50'); g.reset(3)\n"
        "o = s.rank_clues(v, top=5)\n"
        "gv = GuesserView('classic','red',b,b,(),o[0].clue,0,o[0].count+1,False)\n"
        "print(json.dumps([x.to_json() for x in o] + [g.next_guess(gv)]))\n"
    )
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
            for _ in range(2)]
    assert outs[0] == outs[1]
    assert json.loads(outs[0])[0]["word"]
