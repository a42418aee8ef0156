"""Scoring the fitted human reader honestly: cross-fitting on the rows it was fitted on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spymaster_ai.agents.human.reader import load_params
from spymaster_ai.eval.human_data import load_human_data
from spymaster_ai.eval.reader_fit import (
    CrossFittedReader,
    FitSettings,
    build_choice_sets,
    extraction_reader,
    game_ids,
    load_judged_guesses,
    row_hashes,
    seen_rows,
)

FIXTURES = Path(__file__).parent / "fixtures" / "human_duet"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "human-duet"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="the human Duet split is not beside the checkout")


def test_rows_the_reader_never_saw_are_recognised_as_new():
    dataset = load_human_data(FIXTURES)
    assert row_hashes(dataset) and seen_rows(dataset, load_params()) == 0


@needs_shared
def test_the_shipped_reader_was_fitted_on_every_row_of_the_validation_split():
    dataset = load_human_data(SHARED)
    hashes = row_hashes(dataset)
    assert seen_rows(dataset, load_params()) == len(hashes)
    part = load_human_data(SHARED, limit=50)
    assert 0 < seen_rows(part, load_params()) <= 100


@needs_shared
@pytest.mark.models
def test_each_game_is_read_by_weights_fitted_without_it():
    dataset = load_human_data(SHARED, limit=150)
    shipped = load_params()
    crossed = CrossFittedReader(dataset, shipped, FitSettings(**shipped.provenance["settings"]))
    guess_games, _ = game_ids(dataset)
    seen_folds = set()
    for turn, game in zip(dataset.guesses, guess_games):
        params = crossed.params_for(turn.remaining)
        fold = crossed._fold_of.get(int(game))
        if fold is None:
            continue
        assert params is crossed._fold_params[fold]
        seen_folds.add(fold)
        assert not np.allclose(params.weights, shipped.weights)
    assert len(seen_folds) == crossed.folds
    # a board the data does not hold is read with the shipped weights
    assert crossed.params_for(["nowhere", "nothing"]) is crossed.params


@needs_shared
@pytest.mark.models
def test_eval_human_cross_fits_the_human_guesser_on_seen_rows_and_not_on_new_ones():
    from spymaster_ai.eval.adapter import make_adapter
    from spymaster_ai.eval.human_eval import evaluate_human

    seen = evaluate_human(load_human_data(SHARED, limit=120), make_adapter("human"), metrics=["guessing"])
    assert seen.reader.startswith("cross-fitted") and seen.guessing.top1.n > 50
    new = evaluate_human(load_human_data(FIXTURES), make_adapter("human"), metrics=["guessing"])
    assert new.reader.startswith("as shipped")
    plain = evaluate_human(load_human_data(FIXTURES), make_adapter("minilm"), metrics=["guessing"])
    assert plain.reader is None


@needs_shared
def test_judged_guesses_are_read_with_their_verdicts():
    judged = load_judged_guesses(SHARED)
    assert len(judged) > 500
    assert all(j.guess in j.remaining for j in judged)
    assert 0.5 < np.mean([j.correct for j in judged]) < 0.95


@needs_shared
@pytest.mark.models
def test_choice_sets_hold_the_persons_first_guess_among_the_cards_then_visible():
    dataset = load_human_data(SHARED, limit=30)
    reader = extraction_reader(load_params().models)
    sets, n_guess, first = build_choice_sets(dataset, reader, FitSettings(intended=0.0))
    assert len(sets) == n_guess == len(first)
    for turn in dataset.guesses:
        if turn.row in first:
            s = sets[first[turn.row]]
            assert s.x.shape[0] == len(turn.remaining) and 0 <= s.chosen < len(turn.remaining)
