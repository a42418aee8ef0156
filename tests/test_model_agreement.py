"""experiments/studies/model_agreement.py: its shares count what they say, on board z-scores built by hand."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

STUDY = Path(__file__).resolve().parents[1] / "experiments" / "studies" / "model_agreement.py"


@pytest.fixture(scope="module")
def study():
    loader = importlib.util.spec_from_file_location("model_agreement", STUDY)
    module = importlib.util.module_from_spec(loader)
    sys.modules["model_agreement"] = module
    try:
        loader.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("model_agreement", None)


def one_hot(picks: list[int], cards: int = 4) -> np.ndarray:
    """(clues, cards) z-scores whose argmax per clue is ``picks``."""
    z = np.zeros((len(picks), cards))
    z[np.arange(len(picks)), picks] = 3.0
    return z


OWN = np.array([True, True, False, False])


def test_widest_margin_orders_clues_by_own_minus_wrong(study):
    z = np.array([[1.0, 0.0, 0.5, 0.0],   # margin 0.5
                  [2.0, 0.0, 0.0, 0.0],   # margin 2.0
                  [0.0, 0.0, 1.0, 0.0]])  # margin -1.0
    assert study.widest_margin(z, OWN, 2).tolist() == [1, 0]


def test_identical_models_agree_on_everything(study):
    z = one_hot([0, 1, 2, 0])
    agreement = study.Agreement(["a", "b", "c"])
    agreement.add_board(np.stack([z, z, z]), OWN, top=4)
    off_diagonal = agreement.pairwise[~np.eye(3, dtype=bool)]
    assert off_diagonal.tolist() == [1.0] * 6
    assert agreement.consensus.tolist() == [1.0, 1.0, 1.0]
    assert agreement.unanimous_share.tolist() == [1.0, 1.0, 1.0]
    assert agreement.unanimous_agreement.tolist() == [1.0, 1.0, 1.0]


def test_an_outsider_is_not_forecast_by_the_others_even_when_they_agree(study):
    alike = one_hot([0, 1, 0, 1])
    outsider = one_hot([2, 3, 2, 3])  # always a wrong card where the others take an own one
    agreement = study.Agreement(["a", "b", "g"])
    agreement.add_board(np.stack([alike, alike, outsider]), OWN, top=4)
    assert agreement.pairwise[0, 1] == 1.0
    assert agreement.pairwise[0, 2] == 0.0 and agreement.pairwise[2, 1] == 0.0
    assert agreement.consensus[2] == 0.0
    assert agreement.best_single[2] == 0.0
    assert agreement.unanimous_share[2] == 1.0  # a and b always agree ...
    assert agreement.unanimous_agreement[2] == 0.0  # ... and g never takes their card


def test_half_agreement_over_two_boards(study):
    a = one_hot([0, 1])
    agreement = study.Agreement(["a", "b"])
    agreement.add_board(np.stack([a, one_hot([0, 1])]), OWN, top=2)
    agreement.add_board(np.stack([a, one_hot([1, 0])]), OWN, top=2)
    assert agreement.pair_clues == 4
    assert agreement.pairwise[0, 1] == pytest.approx(0.5)
    assert agreement.consensus.tolist() == pytest.approx([0.5, 0.5])


def test_correlations_read_a_leave_one_out_summary(study):
    agreement = study.Agreement(["a", "b", "c"])
    agreement.pair_same = np.array([[0, 1, 2], [1, 0, 3], [2, 3, 0]], dtype=float)
    agreement.pair_clues = 4
    agreement.consensus_same = np.array([1.0, 2.0, 3.0])
    agreement.held_out_clues = np.array([4.0, 4.0, 4.0])
    cells = {g: {"cross": {s: {"win_rate": agreement.pairwise[i, j]} for j, s in enumerate("abc") if s != g},
                 "robust": {"win_rate": -agreement.consensus[i]}} for i, g in enumerate("abc")}
    lines = study.correlations(agreement, {"duet": cells})
    rows = [line for line in lines if line.startswith("| duet")]
    assert rows == ["| duet | single-model cross-play pairs | 6 | 1.00 |", "| duet | robust spymaster, G held out | 3 | -1.00 |"]
    assert study.correlations(agreement, {}) == []
