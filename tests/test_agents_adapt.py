"""The reader adapted to one person: it learns their choices and keeps the shipped weights' sense."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from spymaster_ai.agents.human.adapt import CLUE_WEIGHT, PRIOR, PersonalReader, PersonLearner, ReaderAdaptation
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
    assert np.linalg.norm(adaptation.offset) <= 1.01 * pull / PRIOR
    assert np.all(np.linalg.eigvalsh(adaptation.precision) >= PRIOR - 1e-9)


def test_bad_shapes_are_refused_with_a_clear_error():
    base = load_params()
    with pytest.raises(ValueError, match="offsets"):
        ReaderAdaptation(base, offset=np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        ReaderAdaptation(base, offset=np.full(len(base.weights), np.nan))


# -- from the person's clues --------------------------------------------------------------------


def test_an_ai_pick_that_was_the_persons_card_pulls_the_reading_toward_it_and_a_miss_away():
    base = load_params()
    rng = np.random.default_rng(3)
    x = base.mean + base.scale * rng.normal(size=(12, len(base.weights)))
    p = lambda a: softmax(a.params.logits(x))[4]  # noqa: E731
    hit, miss = ReaderAdaptation(base), ReaderAdaptation(base)
    hit.observe_outcome(ChoiceSet(x, 4, weight=0.5), True, targets=2)
    miss.observe_outcome(ChoiceSet(x, 4, weight=0.5), False, targets=2)
    assert p(hit) > p(ReaderAdaptation(base)) > p(miss)
    assert hit.clue_picks == miss.clue_picks == 1 and hit.choices == 0
    assert np.all(np.linalg.eigvalsh(hit.precision) >= PRIOR - 1e-9)
    unchanged = ReaderAdaptation(base)
    unchanged.observe_outcome(ChoiceSet(x, 4), True, targets=0)  # past the count: says nothing of this clue
    assert not np.any(unchanged.offset) and unchanged.clue_picks == 0


@pytest.fixture(scope="module")
def toy_world():
    """A reader over three toy models (random vectors: features with the real shapes, at once)
    and three boards of classic cards."""
    from wordfreq import top_n_list

    from spymaster_ai.agents.human.reader import HumanReader
    from spymaster_ai.agents.toy import ToyEmbedding
    from spymaster_ai.rules.wordlists import load_words

    cards = sorted({w.lower() for w in load_words("classic")})
    clues = [w for w in top_n_list("en", 4000) if w.isalpha() and len(w) >= 4 and w not in set(cards)][:1500]
    params = load_params()
    models = {}
    for k, name in enumerate(params.models):
        rng = np.random.default_rng(k)
        models[name] = ToyEmbedding({w: rng.normal(size=12) for w in cards + clues}, vocabulary=clues, name=name)
    boards = [tuple(np.random.default_rng(9 + i).choice(cards, 25, replace=False)) for i in range(3)]
    return HumanReader(params, models), cards, clues, boards


def _clue_only_session(reader, person, boards, clue_weight, n=120):
    """A person who only gives clues (the `human` spymaster reading with their weights); the AI
    takes the card its learner reads first, and the game shows whether it was the person's."""
    from spymaster_ai.agents.human import HumanSpymaster
    from spymaster_ai.views import GuesserView, SpymasterView

    speaker = HumanSpymaster(person)
    learner = PersonLearner(reader, clue_weight=clue_weight)
    rng = np.random.default_rng(1)
    for b in range(n):
        words = boards[b * len(boards) // n]  # board after board: its matrices are built once
        order = [words[i] for i in rng.permutation(len(words))]
        greens, black = set(order[:9]), set(order[9:12])
        view = SpymasterView(game="duet", me="A", words=words, visible=words,
                             own=tuple(w for w in words if w in greens), opponent=(),
                             bystanders=tuple(w for w in words if w not in greens | black),
                             assassins=tuple(w for w in words if w in black))
        speaker.reset(b)
        clue = speaker.give_clue(view)
        visible, made = list(words), 0
        while made < clue.count:
            seen = GuesserView(game="duet", me="B", words=words, visible=tuple(visible), revealed=(), clue=clue,
                               guesses_made=made, max_guesses=None, can_stop=made > 0)
            p = learner.reader.probabilities(list(words), clue.word, np.isin(words, visible))
            card = words[int(np.argmax(p))]
            learner.observe_clue_pick(seen, card, card in greens)
            made += 1
            if card not in greens:
                break
            visible.remove(card)
    return learner


def test_a_person_who_only_gives_clues_moves_the_reader_toward_how_they_read(toy_world):
    """The person's own guesses, held back, are likelier under what the AI learned from the
    outcomes of their clues alone; with clue learning off (weight 0) nothing is learned."""
    reader, cards, clues, boards = toy_world
    base = reader.params
    truth = np.random.default_rng(0).normal(scale=0.6, size=len(base.weights))
    person = PersonalReader(reader, ReaderAdaptation(base, offset=truth))
    rng = np.random.default_rng(2)
    held_back = []
    for _ in range(300):
        words = list(rng.choice(cards, 25, replace=False))
        x = reader.features(words, [clues[int(rng.integers(len(clues)))]])[0]
        p = softmax(person.params.logits(x))
        held_back.append(ChoiceSet(x, int(rng.choice(25, p=p))))
    learner = _clue_only_session(reader, person, boards, CLUE_WEIGHT)
    a = learner.adaptation
    assert a.clues == 120 and a.clue_picks >= 120 and a.choices == 0
    before, after, best = (_log_lik(w, held_back) for w in (base, a.params, person.params))
    # how much of the way it gets depends on which 120 clues the speaker happens to give in this
    # random-vector world (0.09 to 0.63 of the way across the speaker's min_evoke 1.25-2.0), so
    # the test asks for a clear gain in the truth's direction, not a share of the way
    assert after - before > 0.05 * (best - before) > 0
    assert np.dot(a.offset, truth) > 0.25 * np.linalg.norm(a.offset) * np.linalg.norm(truth)
    off = _clue_only_session(reader, person, boards[:1], 0.0, n=5)
    assert off.adaptation.clue_picks == 0 and not np.any(off.adaptation.offset)
