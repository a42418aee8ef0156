"""experiments/studies/sudden_death_replay.py: sudden death replayed from records reproduces them.

The games are real Duet games played by the runner with scripted agents: a code-book
spymaster spells three of its cards into each clue and the guesser takes only the first, so
every game reaches sudden death (11 timer tokens), where the guesser takes the cards earlier
clues spelled and nobody found: some of those games are won, most lost. They are laid out as
a leave-one-out results folder. Replayed from its first sudden-death move with the recorded
guesser, every game must end as recorded; a guesser that passes in sudden death wins none.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Optional

import pytest
from test_sim_scripted import CodebookSpymaster, decode

from spymaster_ai.sim.play import PlayOptions, lineup
from spymaster_ai.sim.runner import run_games
from spymaster_ai.views import GuesserView

STUDIES = Path(__file__).resolve().parents[1] / "experiments" / "studies"


class HalfCodebookGuesser:
    """Takes the first card a code-book clue spells, then stops; in sudden death (unless it
    ``passes``) a card an earlier clue spelled that is still there, latest clue first, else the
    first card it may take."""

    def __init__(self, passes: bool = False) -> None:
        self.passes = passes

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        free = [w for w in view.visible if w not in set(view.marked_by_me)]
        if view.sudden_death:
            if self.passes:
                return None
            spelled = [view.words[i] for entry in reversed(view.history) for i in decode(entry.clue.word)]
        elif view.guesses_made >= 1:
            return None
        else:
            spelled = [view.words[i] for i in decode(view.clue.word)]
        return next((w for w in spelled if w in free), free[0])


def factory(role: str, spec: str):
    if role.endswith("spymaster"):
        return CodebookSpymaster(per_clue=3)
    return HalfCodebookGuesser(passes=spec == "passer")


@pytest.fixture(scope="module")
def study():
    sys.path.insert(0, str(STUDIES))
    names = ("sudden_death_replay", "duet_anatomy")
    try:
        loader = importlib.util.spec_from_file_location(names[0], STUDIES / "sudden_death_replay.py")
        module = importlib.util.module_from_spec(loader)
        sys.modules[names[0]] = module  # its dataclasses resolve annotations through it
        loader.loader.exec_module(module)
        yield module
    finally:
        for name in names:
            sys.modules.pop(name, None)
        sys.path.remove(str(STUDIES))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("loo")
    folder = root / "duet" / "g"
    folder.mkdir(parents=True)
    run_games("duet", lineup("duet", "codebook", "half"), games=40, seed=3, options=PlayOptions(tokens=11),
              results_path=folder / "robust_exclude=g_partner=a__g__1.jsonl", factory=factory)
    return root


def test_replaying_with_the_recorded_guesser_gives_every_recorded_outcome(study, results):
    path = results / "duet" / "g" / "robust_exclude=g_partner=a__g__1.jsonl"
    lines = [json.loads(t) for t in path.read_text().splitlines()]
    reached = [line for line in lines if line["extra"]["sudden_death"]]
    entries = list(study.sudden_death_entries(path))
    assert [e.index for e in entries] == [line["index"] for line in reached] and len(entries) >= 5
    assert 0 < sum(line["won"] for line in reached) < len(reached)  # both endings are there to reproduce
    for entry, line in zip(entries, reached):
        game = entry.game()
        assert game.phase.name == "SUDDEN_DEATH" and game.greens_left() > 0
        assert entry.actions == line["record"]["actions"][: len(entry.actions)]

    cells = study.study(results, "{G}", "robust", lambda name: factory("a_guesser", name))
    (name, cell), = cells.values()
    assert cell.entries == len(reached) and cell.as_recorded == cell.entries
    assert cell.recorded == cell.replayed == sum(line["won"] for line in reached)
    assert sum(n for n, _ in cell.by_left.values()) == cell.entries


def test_a_guesser_that_passes_wins_no_sudden_death(study, results):
    cells = study.study(results, "passer", "robust", lambda name: factory("a_guesser", name))
    (_, cell), = cells.values()
    assert cell.entries > 0 and cell.replayed == 0 and cell.faults == 0
    text = study.report(cells, "passer", "robust", results)
    assert "| `g` |" in text and f"| 0 / {cell.entries} (0%) |" in text and "Library versions:" in text


def test_a_folder_without_duet_cells_is_refused(study, tmp_path):
    with pytest.raises(SystemExit, match="no Duet cells"):
        study.study(tmp_path, "{G}", "robust", lambda name: None)
