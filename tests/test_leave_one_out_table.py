"""experiments/leave_one_out.py: the three-model subset row pools the chosen guessers' robust
cells (wins over games, Wilson interval), and the tables rebuild from saved cells."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "leave_one_out.py"


@pytest.fixture(scope="module")
def loo():
    loader = importlib.util.spec_from_file_location("leave_one_out", SCRIPT)
    module = importlib.util.module_from_spec(loader)
    sys.modules["leave_one_out"] = module
    try:
        loader.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("leave_one_out", None)


def cell(wins: int, games: int = 100, turns: float = 10.0) -> dict:
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci95": [0.0, 1.0], "mean_turns": turns,
            "turns_ci95": [turns - 1, turns + 1], "loss_causes": {"assassin": games - wins}}


def figures(rates: dict[str, int]) -> dict:
    models = list(rates)
    return {g: {"mirror": cell(100), "cross": {s: cell(1) for s in models if s != g}, "robust": cell(w), "robust_spec": f"robust:exclude={g}",
                "robust_family_held_out": cell(w), "robust_family_spec": f"robust:exclude={g}"} for g, w in rates.items()}


def test_the_subset_row_pools_only_the_chosen_guessers(loo):
    cells = figures({"a": 10, "b": 30, "c": 50, "d": 99})
    row = loo.subset_row(cells, ["a", "b", "c"], turns=True)
    assert "30.0% [" in row and "(300 games)" in row and "mean turns 10.00" in row and "18%" in row
    assert "`d`" not in row


def test_the_tables_keep_every_guesser_and_add_the_subset_row(loo):
    rates = {"a": 10, "b": 30, "c": 50, "d": 99}
    args = argparse.Namespace(seed=0)
    lines = loo.render({"duet": figures(rates)}, args, list(rates), ["duet"], list(rates), [], ["a", "b", "c"])
    text = "\n".join(lines)
    for g in rates:
        assert f"| `{g}` |" in text
    assert "mean over G: 47.2% wins" in text and "Three-model subset" in text
    assert "Three-model subset" not in "\n".join(loo.render({"duet": figures(rates)}, args, list(rates), ["duet"], list(rates), [], []))
