"""The reader adapted to one person: it learns their choices and keeps the shipped weights' sense."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from spymaster_ai.agents.human.adapt import ReaderAdaptation
from spymaster_ai.agents.human.reader import ChoiceSet, load_params, softmax


def _choices(rng, params, weights, n, cards=(8, 20)):
    """Choice sets of a simulated person who reads with ``weights`` (the shipped feature scale)."""
    out = []
    for _ in range(n):
        k = int(rng.integers(*cards))
        x = params.mean + params.scale * rng.normal(size=(k, len(weights)))
        p = softmax(((x - params.mean) / params.scale) @ weights)
        out.append(ChoiceSet(x, int(rng.choice(k, p=p))))
    return out


def _log_lik(params, sets):
    return float(np.mean([np.log(softmax(params.logits(s.x))[s.chosen]) for s in sets]))


def test_a_persons_guesses_move_the_reader_toward_their_choices_on_held_back_ones():
    base = load_params()
    rng = np.random.default_rng(0)
    person = base.weights + rng.normal(scale=0.6, size=len(base.weights))  # reads their own way
    learned, held_back = _choices(rng, base, person, 150), _choices(rng, base, person, 400)
    adaptation = ReaderAdaptation(base)
    adaptation.observe_all(learned)
    assert adaptation.choices == 150
    before, after = _log_lik(base, held_back), _log_lik(adaptation.params, held_back)
    truth = _log_lik(base.__class__(**{**base.__dict__, "weights": person}), held_back)
    # the adapted reader recovers a real share of the gap to the person's own weights
    assert after - before > 0.3 * (truth - before) > 0
    # and the first card it expects is the person's more often
    hits = lambda p: np.mean([np.argmax(p.logits(s.x)) == s.chosen for s in held_back])  # noqa: E731
    assert hits(adaptation.params) > hits(base)


def test_a_person_who_reads_as_the_shipped_reader_leaves_it_nearly_unchanged():
    base = load_params()
    rng = np.random.default_rng(1)
    adaptation = ReaderAdaptation(base)
    adaptation.observe_all(_choices(rng, base, base.weights, 150))
    assert np.linalg.norm(adaptation.offset) < 0.5 * np.linalg.norm(base.weights)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 6))
def test_a_handful_of_guesses_cannot_wreck_the_shipped_weights(seed, n):
    """Any few choices, however odd, move the weights by little: at the optimum each choice's
    pull, a difference of two cards' standardised features, is held by the prior precision."""
    base = load_params()
    rng = np.random.default_rng(seed)
    adaptation = ReaderAdaptation(base)
    sets = _choices(rng, base, -5 * base.weights, n)
    adaptation.observe_all(sets)
    assert np.all(np.isfinite(adaptation.offset))
    pull = sum(np.linalg.norm((s.x - s.x[s.chosen]) / base.scale, axis=1).max() for s in sets)
    assert np.linalg.norm(adaptation.offset) <= 1.01 * pull / 10.0
    assert np.all(np.linalg.eigvalsh(adaptation.precision) >= 10.0 - 1e-9)


def test_bad_shapes_are_refused_with_a_clear_error():
    base = load_params()
    with pytest.raises(ValueError, match="offsets"):
        ReaderAdaptation(base, offset=np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        ReaderAdaptation(base, offset=np.full(len(base.weights), np.nan))
