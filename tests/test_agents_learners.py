"""Spymasters for a known partner (mirror, ``bold=true``) and learners of an unknown one over a
match: the exact play-out of a mirror's guesses, partner weights carried from game to game, the
memory of clue words, the bandit over expert spymasters."""

from __future__ import annotations

import numpy as np
import pytest
from test_agents_partners import BOARD, CLUES, VECTORS, classic_view, toy, vec

from spymaster_ai.agents.learners import BanditSpymaster, LearningSpymaster, fit_reader, game_reward, guess_loglik
from spymaster_ai.agents.partner_model import mirror_outcome
from spymaster_ai.agents.registry import AgentSpecError, bandit_arms, check_spec, make_spymaster
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.rules.moves import Clue
from spymaster_ai.rules.record import ClueTurn


def test_mirror_outcome_plays_the_guesses_out_in_order_of_z():
    # cards: own A, own B, assassin C, bystander D; candidate 0 ranks A, B, C; candidate 1 ranks A, C, B
    z = np.array([[2.0, 2.0], [1.5, 0.8], [1.0, 1.2], [-1.0, -1.0]], dtype=np.float32)
    own = np.array([True, True, False, False])
    cost = np.array([0.0, 0.0, 10.0, 0.25], dtype=np.float32)
    out = mirror_outcome(z, np.ones(4, bool), own, own.astype(np.float32), cost, 3)
    np.testing.assert_allclose(out.found, [[1, 2, 2], [1, 1, 1]])
    np.testing.assert_allclose(out.cost, [[0, 0, 10], [0, 10, 10]])
    # the guesser stops below the threshold: candidate 0's B (1.5) is not taken at 1.6
    stopped = mirror_outcome(z, np.ones(4, bool), own, own.astype(np.float32), cost, 3, stop_threshold=1.6)
    np.testing.assert_allclose(stopped.found, [[1, 1, 1], [1, 1, 1]])
    np.testing.assert_allclose(stopped.cost, [[0, 0, 0], [0, 0, 0]])
    # a margin makes a wrong card count as ranked higher: candidate 0's assassin (1.0 + 0.6) now comes before B
    wary = mirror_outcome(z, np.ones(4, bool), own, own.astype(np.float32), cost, 3, margin=0.6)
    np.testing.assert_allclose(wary.found[0], [1, 1, 1])
    np.testing.assert_allclose(wary.cost[0], [0, 10, 10])
    # a card the guesser may not take is never taken
    gone = mirror_outcome(z, np.array([True, False, True, True]), own, own.astype(np.float32), cost, 2)
    np.testing.assert_allclose(gone.cost[0], [0, 10])


def test_bold_is_the_mirror_setting_for_a_single_model_spymaster_only():
    check_spec("spymaster", "glove50:bold=true")
    for spec in ("robust:bold=true", "glove50:bold=true,partner=minilm", "glove50:bold=maybe"):
        with pytest.raises(AgentSpecError, match="bold"):
            check_spec("spymaster", spec)
    sm = make_spymaster("glove50:bold=true,max_count=5")
    assert sm.mirror and sm.max_count == 5 and sm.warn_cards == 0 and sm.backward_strength == 0


def test_a_bold_spymaster_with_its_mirror_guesser_sees_every_clue_taken_whole():
    from spymaster_ai.sim import lineup, run_games

    run = run_games("kim2019", lineup("kim2019", "glove50:bold=true", "glove50"), games=2, seed=3)
    s = run.summary()
    assert s["wins"] == 2
    assert s["words_per_clue"] == pytest.approx(s["mean_clue_count"]) and s["mean_clue_count"] > 2


# -- learning the partner across games ----------------------------------------------------------

MUSIC = ToyEmbedding(dict(VECTORS, forest=vec(music=1.0)), CLUES, name="music")
KEY = {"apple": "red", "orange": "red", "piano": "red", "knife": "assassin", "oak": "bystander"}


def record(*turns: tuple[str, int, tuple[str, ...]], winner=None) -> dict:
    """A classic record of red's clues (word, count, guesses) on BOARD."""
    actions = []
    for word, count, guesses in turns:
        actions.append({"type": "clue", "team": "red", "word": word, "count": count})
        actions += [{"type": "guess", "word": g} for g in guesses] + [{"type": "stop"}]
    identities = [KEY.get(w, "bystander") for w in BOARD]
    return {"engine": "classic", "config": {"words": list(BOARD), "key": {"identities": identities}}, "actions": actions,
            "final_state": {"winner": winner}}


def learner(**kw) -> LearningSpymaster:
    kw.setdefault("min_zipf", None)
    kw.setdefault("hub_correction", False)
    kw.setdefault("prefer_common", 0.0)
    return LearningSpymaster(toy("trees"), partner=[toy("trees"), MUSIC], **kw)


def test_guess_loglik_favours_the_model_that_reads_like_the_partner():
    turn = ClueTurn("red", "forest", 1, BOARD, ("apple",), ("oak",), (False,))
    ll = guess_loglik([toy("trees"), MUSIC], [turn], BOARD, 0.75)
    assert ll[0] > ll[1] + 1.0


def test_the_learner_carries_partner_weights_across_games_and_forgets_at_a_new_match():
    sm = learner()
    view = classic_view(own=("apple", "orange", "piano"), assassins=("knife",))
    sm.start_match(1)
    sm.give_clue(view)  # learns which side it plays
    np.testing.assert_allclose(sm.partner_weights(view), [0.5, 0.5])
    sm.end_game(record(("forest", 1, ("oak",))))
    sm.reset(2)
    assert sm.learned_weights()[0] > 0.8 and sm.partner_weights(view)[0] > 0.8  # a new game, no history yet
    sm.start_match(3)
    np.testing.assert_allclose(sm.partner_weights(view), [0.5, 0.5])
    off = learner(carry=0.0)
    off.give_clue(view)
    off.end_game(record(("forest", 1, ("oak",))))
    np.testing.assert_allclose(off.partner_weights(view), [0.5, 0.5])


def test_the_learner_remembers_the_clue_words_this_partner_read_as_intended():
    sm = learner(word_memory=0.5)
    view = classic_view(own=("apple", "orange", "piano"), assassins=("knife",))
    sm.give_clue(view)
    sm.end_game(record(("fruit", 2, ("apple", "orange")), ("music", 1, ("oak",))))
    cols = np.array([sm._vocab_index["fruit"], sm._vocab_index["music"], sm._vocab_index["ocean"]])
    bonus = sm._clue_bonus(cols)
    assert bonus[0] == pytest.approx(0.25) and bonus[1] == pytest.approx(-0.5) and bonus[2] == 0.0
    sm.start_match(0)
    assert sm._clue_bonus(cols) is None


def synthetic_choices(w: np.ndarray, n: int, cards: int = 20, seed: int = 0) -> list[np.ndarray]:
    """Guesses made by a softmax reader with logits X @ w, each X with the chosen card first."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        X = rng.normal(size=(cards, len(w)))
        p = np.exp(X @ w - (X @ w).max())
        c = rng.choice(cards, p=p / p.sum())
        out.append(np.vstack([X[c], np.delete(X, c, axis=0)]))
    return out


def test_the_fitted_reader_recovers_the_partners_weights_from_its_guesses():
    true = np.array([1.5, 0.0, 0.5])
    prior = np.full(3, 0.4)
    w = fit_reader(synthetic_choices(true, 1500), prior, precision=1.0)
    np.testing.assert_allclose(w, true, atol=0.2)
    # A few guesses barely move a strong prior.
    few = fit_reader(synthetic_choices(true, 3, seed=1), prior, precision=100.0)
    assert np.abs(few - prior).max() < 0.1


def test_the_learner_fits_its_reader_from_the_guesses_it_saw_and_forgets_at_a_new_match():
    sm = learner(fit=1.0, carry=0.0, word_memory=0.0)
    view = classic_view(own=("apple", "orange", "piano"), assassins=("knife",))
    sm.start_match(1)
    assert sm._reader_weights() is None  # nothing seen: the partner models alone
    sm.give_clue(view)
    # This partner read "forest" as the trees model does (oak), not as the music model.
    sm.end_game(record(("forest", 1, ("oak",))))
    share, w_trees, w_music = sm._reader_weights()
    assert 0 < share < 1 and w_trees > w_music
    for _ in range(5):  # more games, more guesses: the fit counts more and reads more like trees
        sm.end_game(record(("forest", 1, ("oak",))))
    later, trees_later, music_later = sm._reader_weights()
    assert later > share and trees_later - music_later > w_trees - w_music
    sm.start_match(2)
    assert sm._reader_weights() is None
    off = learner(fit=0.0)
    off.give_clue(view)
    off.end_game(record(("forest", 1, ("oak",))))
    assert off._reader_weights() is None


class Arm:
    def __init__(self, word: str) -> None:
        self.word, self.resets = word, 0

    def reset(self, seed: int) -> None:
        self.resets += 1

    def give_clue(self, view) -> Clue:
        return Clue(self.word, 1)


def test_game_reward_is_one_minus_stephensons_score_over_25():
    assert game_reward(record(("fruit", 2, ("apple", "orange")), ("music", 1, ("piano",)), winner="red"), "red") == pytest.approx(1 - 2 / 25)
    assert game_reward(record(("fruit", 1, ("knife",))), "red") == 0.0


def test_the_bandit_tries_every_arm_then_plays_the_best_and_forgets_at_a_new_match():
    arms = [Arm("fruit"), Arm("music")]
    bandit = BanditSpymaster(arms, ["a", "b"], exploration=0.1)
    view = classic_view(own=("apple", "orange", "piano"))
    won_fast = record(("fruit", 3, ("apple", "orange", "piano")), winner="red")
    lost = record(("music", 1, ("knife",)))
    picks = []
    for _ in range(6):
        bandit.reset(0)
        picks.append(bandit.current)
        clue = bandit.give_clue(view)
        bandit.end_game(won_fast if clue.word == "fruit" else lost)
    assert picks == [0, 1, 0, 0, 0, 0]
    bandit.start_match(1)
    bandit.reset(0)
    assert bandit.current == 0 and bandit.pulls.sum() == 0


def test_the_bandits_arms_never_use_the_held_out_model():
    arms = bandit_arms("glove50")
    assert arms == ["minilm", "wordllama", "e5small", "robust:exclude=glove50"]
    check_spec("spymaster", "bandit:exclude=glove50,exploration=0.2")
    with pytest.raises(AgentSpecError, match="exploration"):
        check_spec("spymaster", "bandit:exploration=-1")
