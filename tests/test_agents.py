"""Embedding spymaster and guesser on hand-made embeddings where the right answer is known."""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.agents.baselines import ClosestCardSpymaster as _ClosestCardSpymaster
from spymaster_ai.agents.baselines import RandomGuesser
from spymaster_ai.agents.duet_prior import partner_side_probabilities, partner_side_table
from spymaster_ai.agents.guesser import EmbeddingGuesser as _EmbeddingGuesser
from spymaster_ai.agents.partner_model import expected_outcome
from spymaster_ai.agents.spymaster import EmbeddingSpymaster as _EmbeddingSpymaster
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import ClueHistoryEntry, GuesserView, SpymasterView

AXES = ("fruit", "music", "sea", "space", "weapon", "tree", "cold", "city", "drink", "other")



# The toy embeddings have a handful of made-up words: no word-frequency floor, and no hub
# correction (it standardises each card over a large vocabulary, meaningless for five words).
def EmbeddingSpymaster(*args, **kw):
    kw.setdefault("min_zipf", None)
    kw.setdefault("hub_correction", False)
    return _EmbeddingSpymaster(*args, **kw)


def EmbeddingGuesser(*args, **kw):
    kw.setdefault("hub_correction", 0.0)
    return _EmbeddingGuesser(*args, **kw)


def ClosestCardSpymaster(*args, **kw):
    kw.setdefault("min_zipf", None)
    return _ClosestCardSpymaster(*args, **kw)


def vec(**axes: float) -> list[float]:
    return [axes.get(a, 0.0) for a in AXES]


def toy(extra: dict[str, list[float]] | None = None, vocabulary: tuple[str, ...] | None = None, name: str = "toy") -> ToyEmbedding:
    """Board words and clue words placed on named axes (cosine similarity)."""
    vectors = {
        # board words
        "apple": vec(fruit=1.0, drink=0.8),
        "orange": vec(fruit=1.0, city=0.1),
        "piano": vec(music=1.0),
        "guitar": vec(music=1.0, tree=0.1),
        "shark": vec(sea=1.0, weapon=0.2),
        "whale": vec(sea=1.0, cold=0.2),
        "moon": vec(space=1.0, cold=0.2),
        "rocket": vec(space=1.0, weapon=0.3),
        "knife": vec(weapon=1.0),
        "oak": vec(tree=1.0),
        "ice": vec(cold=1.0),
        "paris": vec(city=1.0),
        # clue words
        "fruit": vec(fruit=1.0),
        "cider": vec(drink=1.0, fruit=0.3),
        "music": vec(music=1.0),
        "ocean": vec(sea=1.0),
        "galaxy": vec(space=1.0),
        "blade": vec(weapon=1.0, sea=0.1),
        "forest": vec(tree=1.0, fruit=0.1),
        "winter": vec(cold=1.0, space=0.05),
        "town": vec(city=1.0),
    }
    vectors.update(extra or {})
    clues = vocabulary or ("fruit", "cider", "music", "ocean", "galaxy", "blade", "forest", "winter", "town")
    return ToyEmbedding(vectors, clues, name=name)


BOARD = ("apple", "orange", "piano", "guitar", "shark", "whale", "moon", "rocket", "knife", "oak", "ice", "paris")


def spy_view(own, assassins=(), opponent=(), words=BOARD, visible=None, history=(), game="classic", partner_marked=()) -> SpymasterView:
    visible = tuple(visible if visible is not None else words)
    own = tuple(w for w in own if w in visible)
    bad = set(own) | set(assassins) | set(opponent)
    return SpymasterView(
        game=game,
        me="red",
        words=tuple(words),
        visible=visible,
        own=own,
        opponent=tuple(w for w in opponent if w in visible),
        bystanders=tuple(w for w in visible if w not in bad),
        assassins=tuple(w for w in assassins if w in visible),
        history=tuple(history),
        partner_marked=tuple(partner_marked),
    )


def guess_view(clue, guesses_made=0, words=BOARD, visible=None, history=(), can_stop=None, **kw) -> GuesserView:
    visible = tuple(visible if visible is not None else words)
    return GuesserView(
        game=kw.pop("game", "classic"),
        me="red",
        words=tuple(words),
        visible=visible,
        revealed=(),
        clue=clue,
        guesses_made=guesses_made,
        max_guesses=None if clue is None else clue.count + 1,
        can_stop=guesses_made >= 1 if can_stop is None else can_stop,
        history=tuple(history),
        **kw,
    )


# -- the partner model ------------------------------------------------------------------------


def test_first_guess_probability_is_the_exact_softmax_share():
    rng = np.random.default_rng(3)
    sim = rng.normal(size=(5, 7)).astype(np.float32)
    guessable = np.array([1, 1, 1, 1, 1, 1, 0], dtype=bool)
    own = np.array([1, 1, 0, 0, 0, 0, 1], dtype=bool)
    cost = np.array([0, 0, 1, 2, 3, 0.5, 9], dtype=np.float32)
    out = expected_outcome(sim.T.copy(), guessable, own, own.astype(np.float32), cost, max_count=3, temperature=0.7)
    s = sim[:, guessable]
    z = (s - s.mean(1, keepdims=True)) / s.std(1, keepdims=True)
    p = np.exp(z / 0.7)
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(out.found[:, 0], p[:, :2].sum(1), rtol=1e-5)
    np.testing.assert_allclose(out.cost[:, 0], p[:, 2:] @ cost[:6][2:], rtol=1e-5)
    # more guesses can only add finds and risk
    assert np.all(np.diff(out.found, axis=1) >= -1e-6)
    assert np.all(np.diff(out.cost, axis=1) >= -1e-6)


def test_a_dominant_own_card_is_found_and_the_second_guess_is_the_other():
    # one clue row: two own cards far above everything else
    sim = np.array([[5.0, 4.9, 0.0, 0.1, -0.1, 0.0]], dtype=np.float32)
    own = np.array([1, 1, 0, 0, 0, 0], dtype=bool)
    out = expected_outcome(sim.T.copy(), np.ones(6, bool), own, own.astype(np.float32), np.ones(6, np.float32), 2, temperature=0.3)
    assert out.found[0, 1] > 1.9 and out.cost[0, 1] < 0.05


def test_a_clue_whose_other_cards_are_e_minus_100_below_its_best_stays_finite():
    # A peaked model (WordNet: most pairs share no concept): once the best card is taken, the
    # mass left is a subnormal float32. The next guess is the wrong card, for certain.
    sim = np.array([[1.0, 0.0, 0.0]], dtype=np.float32)
    own = np.array([1, 1, 0], dtype=bool)
    cost = np.array([0, 0, 5], dtype=np.float32)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        out = expected_outcome(sim.T.copy(), np.ones(3, bool), own, own.astype(np.float32), cost,
                               max_count=3, temperature=1.0, spread=0.01)
    assert np.isfinite(out.found).all() and np.isfinite(out.cost).all()
    np.testing.assert_allclose(out.found[0], [1.0, 1.0, 1.0], rtol=1e-6)
    np.testing.assert_allclose(out.cost[0], [0.0, 5.0, 5.0], rtol=1e-6, atol=1e-6)


# -- the spymaster ------------------------------------------------------------------------------


def test_spymaster_avoids_a_clue_close_to_the_assassin():
    emb = toy()
    # "fruit" fits APPLE best but ORANGE (the assassin) just as well; "cider" fits APPLE alone.
    view = spy_view(own=("apple",), assassins=("orange",))
    clue = EmbeddingSpymaster(emb, prefer_common=0.0).give_clue(view)
    assert clue.word == "cider"
    # without the assassin there, "fruit" is fine again (APPLE and ORANGE both own)
    clue2 = EmbeddingSpymaster(emb, prefer_common=0.0).give_clue(spy_view(own=("apple", "orange")))
    assert clue2 == Clue("fruit", 2)


def test_spymaster_chooses_count_two_when_two_targets_are_tight():
    emb = toy()
    spy = EmbeddingSpymaster(emb, prefer_common=0.0)
    options = spy.rank_clues(spy_view(own=("piano", "guitar", "oak"), assassins=("knife",)), top=3)
    assert (options[0].word, options[0].count) == ("music", 2)
    assert set(options[0].targets) == {"piano", "guitar"}
    assert options[0].closest_bad is not None and options[0].closest_bad_similarity < 0.2
    assert [o.score for o in options] == sorted((o.score for o in options), reverse=True)


def test_risk_raises_the_count():
    emb = toy()
    # "ocean" points at SHARK and WHALE, but "blade" (and so the partner) sees KNIFE near SHARK
    view = spy_view(own=("shark", "whale", "ice"), opponent=("knife", "moon"))
    counts = [EmbeddingSpymaster(emb, risk=r, prefer_common=0.0, max_count=3).rank_clues(view)[0].count for r in (0.0, 1.0)]
    assert counts[0] <= counts[1]
    assert counts[1] == 3  # risk 1 ignores every cost: the largest count always wins


def test_partner_model_changes_the_clue():
    # The spymaster's own model puts "zap" right on ROCKET (and "galaxy" near PARIS); the
    # partner model reads "zap" as a weapon, i.e. KNIFE, the assassin. A mirror spymaster says
    # "zap"; one that predicts its partner with the other model says "galaxy".
    mine = toy({"zap": vec(space=1.0), "galaxy": vec(space=0.6, city=0.8)}, vocabulary=("zap", "galaxy"))
    theirs = toy({"zap": vec(weapon=1.0)}, vocabulary=("zap", "galaxy"), name="other")
    view = spy_view(own=("rocket",), assassins=("knife",))
    mirror = EmbeddingSpymaster(mine, prefer_common=0.0).rank_clues(view, top=2)
    robust = EmbeddingSpymaster(mine, partner=theirs, prefer_common=0.0).rank_clues(view, top=2)
    assert mirror[0].word == "zap"
    assert robust[0].word == "galaxy"
    zap_mirror = next(o for o in mirror if o.word == "zap")
    zap_robust = next(o for o in robust if o.word == "zap")
    assert zap_robust.expected_cost > 10 * zap_mirror.expected_cost
    assert zap_robust.targets == zap_mirror.targets == ("rocket",)  # targets: the own model's


def test_partner_ensemble_is_averaged():
    mine = toy({"zap": vec(space=1.0)}, vocabulary=("zap", "galaxy"))
    theirs = toy({"zap": vec(weapon=1.0)}, vocabulary=("zap", "galaxy"), name="other")
    view = spy_view(own=("rocket",), assassins=("knife",))
    one = {o.word: o for o in EmbeddingSpymaster(mine, partner=theirs, prefer_common=0.0).rank_clues(view, top=2)}
    own = {o.word: o for o in EmbeddingSpymaster(mine, prefer_common=0.0).rank_clues(view, top=2)}
    both = {o.word: o for o in EmbeddingSpymaster(mine, partner=[mine, theirs], prefer_common=0.0).rank_clues(view, top=2)}
    for w in ("zap", "galaxy"):
        assert both[w].expected_found == pytest.approx((one[w].expected_found + own[w].expected_found) / 2, rel=1e-5)
    worst = {o.word: o for o in EmbeddingSpymaster(mine, partner=[mine, theirs], partner_mode="min", prefer_common=0.0).rank_clues(view, top=2)}
    assert worst["zap"].score <= both["zap"].score


def test_a_word_unrelated_to_every_card_is_not_a_sharp_clue():
    # "blur" is almost orthogonal to the whole board, a hair closer to PIANO and GUITAR. A
    # plain per-clue z-score blows that hair up to look as sharp as "music"; standardising by
    # the model's own similarity scale leaves it the flat, useless clue it is.
    emb = toy({"blur": vec(other=1.0, music=0.06, sea=0.01)}, vocabulary=("music", "blur"))
    view = spy_view(own=("piano", "guitar"), assassins=("knife",), opponent=("moon", "rocket", "shark"))
    by_model = {o.word: o for o in EmbeddingSpymaster(emb, prefer_common=0.0).rank_clues(view, top=2)}
    by_board = {o.word: o for o in EmbeddingSpymaster(emb, prefer_common=0.0, standardise="board").rank_clues(view, top=2)}
    assert by_model["music"].expected_found > 1.5 and by_model["blur"].expected_found < 0.5
    assert by_board["blur"].expected_found > 1.0  # the failure the default avoids


def test_spymaster_never_clues_a_visible_word_or_a_covered_one_again():
    words = BOARD + ("music",)
    emb = toy()
    spy = EmbeddingSpymaster(emb, prefer_common=0.0)
    view = spy_view(own=("piano", "guitar"), words=words)
    assert spy.give_clue(view).word != "music"  # MUSIC is a card on the board
    # once MUSIC is covered it is a legal clue again, and the best one
    covered = spy_view(own=("piano", "guitar"), words=words, visible=BOARD)
    assert spy.give_clue(covered) == Clue("music", 2)


def test_history_memory_skips_earlier_clues_and_pending_targets():
    emb = toy()
    spy = EmbeddingSpymaster(emb, prefer_common=0.0)
    view = spy_view(own=("piano", "guitar", "shark", "whale"), assassins=("knife",), opponent=("moon", "rocket"))
    first = spy.give_clue(view)
    assert first.word in ("music", "ocean") and first.count == 2
    # "music: 2" found only PIANO: GUITAR is still pending for the partner, so the next clue
    # goes for the sea cards, and "music" itself is never repeated.
    hist = (ClueHistoryEntry("red", Clue("music", 2), ("piano", "shark"), ("own", "opponent")),)
    left = spy_view(own=("guitar", "whale"), visible=[w for w in BOARD if w not in ("piano", "shark")], history=hist,
                    assassins=("knife",), opponent=("moon", "rocket"))
    nxt = spy.give_clue(left)
    assert nxt.word != "music"
    assert spy.rank_clues(left)[0].targets[0] == "whale"
    # without memory of the pending card the guitar would be worth as much as the whale
    fresh = spy_view(own=("guitar", "whale"), visible=left.visible, assassins=("knife",), opponent=("moon", "rocket"))
    ranked = {o.word: o.score for o in EmbeddingSpymaster(emb, prefer_common=0.0).rank_clues(fresh, top=9)}
    assert ranked["music"] == pytest.approx(ranked["ocean"], abs=0.05)


def test_duet_partner_marked_cards_are_not_feared():
    emb = toy()
    # ORANGE is a bystander near "fruit" (given a cost here: by default a Duet bystander costs
    # nothing beyond the turn); once the partner has marked it, it will not guess it again
    # -- here we only test the guessable set -- so "fruit" ...
    view = spy_view(own=("apple",), assassins=(), game="duet")
    marked = spy_view(own=("apple",), game="duet", partner_marked=("orange",))
    a = {o.word: o for o in EmbeddingSpymaster(emb, prefer_common=0.0, bystander_cost=0.5).rank_clues(view, top=9)}
    b = {o.word: o for o in EmbeddingSpymaster(emb, prefer_common=0.0, bystander_cost=0.5).rank_clues(marked, top=9)}
    assert b["fruit"].expected_cost < a["fruit"].expected_cost
    assert b["fruit"].expected_found > a["fruit"].expected_found


def test_spymaster_is_deterministic_and_reset_is_harmless():
    emb = toy()
    view = spy_view(own=("apple", "piano", "guitar", "moon"), assassins=("knife",), opponent=("shark",))
    a = EmbeddingSpymaster(emb).rank_clues(view, top=5)
    spy = EmbeddingSpymaster(emb)
    spy.reset(1)
    b = spy.rank_clues(view, top=5)
    spy.reset(2)
    assert a == b == spy.rank_clues(view, top=5)


def test_spymaster_parameter_errors_are_specific():
    emb = toy()
    for kw, msg in [({"risk": 1.5}, "risk"), ({"max_count": 0}, "max_count"), ({"temperature": 0}, "temperature"),
                    ({"partner_mode": "max"}, "partner_mode"), ({"assassin_cost": -1}, "assassin_cost"), ({"partner": []}, "partner"),
                    ({"standardise": "row"}, "standardise"), ({"shortlist": 0}, "shortlist")]:
        with pytest.raises(ValueError, match=msg):
            EmbeddingSpymaster(emb, **kw)
    with pytest.raises(ValueError, match="no own card"):
        EmbeddingSpymaster(emb).give_clue(spy_view(own=()))


def test_closest_card_spymaster_clues_one_card():
    emb = toy()
    clue = ClosestCardSpymaster(emb).give_clue(spy_view(own=("oak", "moon"), assassins=("apple",)))
    assert clue.count == 1 and clue.word in ("forest", "galaxy")


# -- the guesser ---------------------------------------------------------------------------------


def test_guesser_ranks_and_stops():
    emb = toy()
    g = EmbeddingGuesser(emb)
    v = guess_view(Clue("music", 2))
    ranked = g.rank_cards(v)
    assert {c.word for c in ranked[:2]} == {"piano", "guitar"}
    first = g.next_guess(v)
    second = g.next_guess(guess_view(Clue("music", 2), 1, visible=[w for w in BOARD if w != first]))
    assert {first, second} == {"piano", "guitar"}
    # the count is reached and no earlier clue is open: stop (no bonus guess)
    rest = [w for w in BOARD if w not in (first, second)]
    assert g.next_guess(guess_view(Clue("music", 2), 2, visible=rest)) is None


def test_guesser_stops_early_when_nothing_stands_out():
    emb = toy()
    # "music: 3" but only two music cards: after them nothing stands out
    rest = [w for w in BOARD if w not in ("piano", "guitar")]
    g = EmbeddingGuesser(emb, stop_threshold=1.0)
    assert g.next_guess(guess_view(Clue("music", 3), 2, visible=rest)) is None
    # but the first guess is mandatory
    assert g.next_guess(guess_view(Clue("music", 3), 0, visible=rest, can_stop=False)) is not None


def test_guesser_bonus_guess_only_for_a_confident_leftover():
    emb = toy()
    hist = (ClueHistoryEntry("red", Clue("ocean", 2), ("shark",), ("own",)),)  # WHALE left over
    rest = [w for w in BOARD if w not in ("shark", "piano", "guitar")]
    g = EmbeddingGuesser(emb)
    assert g.next_guess(guess_view(Clue("music", 2), 2, visible=rest, history=hist)) == "whale"
    assert EmbeddingGuesser(emb, use_history=False).next_guess(guess_view(Clue("music", 2), 2, visible=rest, history=hist)) is None
    done = (ClueHistoryEntry("red", Clue("ocean", 1), ("shark",), ("own",)),)  # nothing left over
    assert g.next_guess(guess_view(Clue("music", 2), 2, visible=rest, history=done)) is None


def test_the_kim_protocol_has_its_own_bonus_threshold():
    """No opponent plays in the Kim protocol, so a bonus guess there has its own threshold;
    classic keeps ``bonus_threshold``."""
    emb = toy()
    hist = (ClueHistoryEntry("red", Clue("ocean", 2), ("shark",), ("own",)),)  # WHALE left over
    rest = [w for w in BOARD if w not in ("shark", "piano", "guitar")]

    def bonus(guesser, game):
        return guesser.next_guess(guess_view(Clue("music", 2), 2, visible=rest, history=hist, game=game))

    strict_classic = EmbeddingGuesser(emb, bonus_threshold=100.0)
    assert bonus(strict_classic, "classic") is None and bonus(strict_classic, "kim2019") == "whale"
    strict_kim = EmbeddingGuesser(emb, kim_bonus_threshold=100.0)
    assert bonus(strict_kim, "kim2019") is None and bonus(strict_kim, "classic") == "whale"
    assert EmbeddingGuesser(emb).kim_bonus_threshold < EmbeddingGuesser(emb).bonus_threshold


def test_guesser_adds_unfinished_earlier_clues_within_the_count():
    emb = toy({"polar": vec(cold=1.0, sea=0.6)}, vocabulary=("polar", "ocean", "music"))
    hist = (ClueHistoryEntry("red", Clue("ocean", 2), ("shark",), ("own",)),)  # WHALE still to find
    visible = [w for w in BOARD if w != "shark"]
    v = guess_view(Clue("polar", 1), visible=visible, history=hist)
    # "polar" alone points at ICE; with "ocean" still open, WHALE fits both clues
    assert EmbeddingGuesser(emb, history_weight=0.0).next_guess(v) == "ice"
    assert EmbeddingGuesser(emb).next_guess(v) == "whale"
    assert EmbeddingGuesser(emb).rank_cards(v)[0].word == "whale"
    done = (ClueHistoryEntry("red", Clue("ocean", 1), ("shark",), ("own",)),)  # finished: nothing to remember
    assert EmbeddingGuesser(emb).next_guess(guess_view(Clue("polar", 1), visible=visible, history=done)) == "ice"
    with pytest.raises(ValueError, match="history_weight"):
        EmbeddingGuesser(emb, history_weight=-1.0)


def test_guesser_never_guesses_its_own_marks():
    emb = toy()
    g = EmbeddingGuesser(emb)
    v = guess_view(Clue("music", 1), game="duet", marked_by_me=("piano",))
    assert g.next_guess(v) == "guitar"
    assert "piano" not in {c.word for c in g.rank_cards(v)}


def test_duet_prior_table_and_steering():
    t = partner_side_table()
    assert t[0].tolist() == pytest.approx([3 / 9, 1 / 9, 5 / 9])
    assert t[1].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert t[2].tolist() == pytest.approx([5 / 13, 1 / 13, 7 / 13])
    emb = toy()
    words = BOARD + tuple(f"w{i}" for i in range(25 - len(BOARD)))
    emb = toy({w: vec(city=0.2, cold=0.1 * i) for i, w in enumerate(words[len(BOARD):], 1)})
    # PIANO and GUITAR equally close to "music"; PIANO is black on my side
    side = ["bystander"] * 25
    side[words.index("piano")] = "black"
    v = guess_view(Clue("music", 1), words=words, game="duet", own_side=tuple(side))
    probs = partner_side_probabilities(v)
    assert probs["piano"] == pytest.approx((1 / 3, 1 / 3))
    assert probs["guitar"] == pytest.approx((5 / 13, 1 / 13))
    assert EmbeddingGuesser(emb).next_guess(v) == "guitar"
    side2 = list(side)
    side2[words.index("piano")], side2[words.index("guitar")] = "bystander", "black"
    v2 = guess_view(Clue("music", 1), words=words, game="duet", own_side=tuple(side2))
    assert EmbeddingGuesser(emb).next_guess(v2) == "piano"


def test_duet_prior_learns_from_my_guesses():
    words = BOARD + tuple(f"w{i}" for i in range(25 - len(BOARD)))
    side = ["green"] * 9 + ["black"] * 3 + ["bystander"] * 13
    # I guessed APPLE and ORANGE (green on my side) for an earlier clue: both green on the
    # partner's side, so 1 of the 3 green-green pairs is left among my 7 other green cards.
    hist = (ClueHistoryEntry("B", Clue("fruit", 2), ("apple", "orange"), ("green", "green")),)
    visible = [w for w in words if w not in ("apple", "orange")]
    v = guess_view(Clue("music", 1), words=words, visible=visible, history=hist, game="duet", own_side=tuple(side))
    pg, pb = partner_side_probabilities(v)["piano"]
    assert pg == pytest.approx(1 / 7) and pb == pytest.approx(1 / 7)


def test_duet_sudden_death_uses_leftover_clues_and_can_pass():
    emb = toy()
    hist = (ClueHistoryEntry("B", Clue("ocean", 2), ("shark",), ("green",)),)
    rest = [w for w in BOARD if w != "shark"]
    v = guess_view(None, visible=rest, history=hist, sudden_death=True, can_stop=True, game="duet")
    assert EmbeddingGuesser(emb, duet_prior=False).next_guess(v) == "whale"
    # nothing reaches a 99.9% chance of being green on the partner's side: pass
    assert EmbeddingGuesser(emb, sudden_death_min_prob=0.999).next_guess(v) is None

def test_random_guesser_is_seeded():
    v = guess_view(Clue("music", 3))
    def run(seed):
        g = RandomGuesser()
        g.reset(seed)
        return [g.next_guess(v) for _ in range(20)]
    assert run(5) == run(5)
    assert run(5) != run(6)
    assert all(w in BOARD for w in run(5))
    assert RandomGuesser().next_guess(guess_view(Clue("music", 1), 1)) is None


class _HalfBlind(ToyEmbedding):
    """A toy that knows no part of ZORB: its vector is a stand-in, as GloVe's for an invented word."""

    def unreadable(self, word: str) -> bool:
        return word.lower() == "zorb"


def _half_blind() -> _HalfBlind:
    base = toy({"zorb": vec(music=1.0, other=0.2)})  # the stand-in happens to sit by "music"
    return _HalfBlind({w: base.vectors([w])[0] for w in base._index}, base.clue_vocabulary())


def test_spymaster_never_aims_at_a_card_its_model_cannot_read_while_others_are_left():
    board = BOARD + ("zorb",)
    spy = EmbeddingSpymaster(_half_blind(), prefer_common=0.0)
    best = spy.rank_clues(spy_view(own=("piano", "guitar", "zorb"), assassins=("knife",), words=board), top=1)[0]
    assert (best.word, best.count, set(best.targets)) == ("music", 2, {"piano", "guitar"})
    # the same board with a model that can read ZORB: it is a third target
    readable = toy({"zorb": vec(music=1.0, other=0.2)})
    best = EmbeddingSpymaster(readable, prefer_common=0.0).rank_clues(
        spy_view(own=("piano", "guitar", "zorb"), assassins=("knife",), words=board), top=1)[0]
    assert (best.word, best.count) == ("music", 3) and "zorb" in best.targets
    # once it is the only card left to clue, it is clued
    last = spy.rank_clues(spy_view(own=("zorb",), assassins=("knife",), words=board,
                                   visible=[w for w in board if w not in ("piano", "guitar")]), top=1)[0]
    assert last.targets == ("zorb",)


def test_guesser_scores_a_card_its_model_cannot_read_as_the_board_average():
    board = BOARD + ("zorb",)
    ranked = EmbeddingGuesser(_half_blind()).rank_cards(guess_view(Clue("music", 2), words=board))
    z = {c.word: c.z for c in ranked}
    assert [c.word for c in ranked[:2]] == ["guitar", "piano"] or [c.word for c in ranked[:2]] == ["piano", "guitar"]
    assert abs(z["zorb"]) < 0.5 < z["piano"]
    readable = EmbeddingGuesser(toy({"zorb": vec(music=1.0, other=0.2)})).rank_cards(guess_view(Clue("music", 2), words=board))
    assert {c.word for c in readable[:3]} == {"piano", "guitar", "zorb"}


def test_spymasters_of_one_process_share_a_boards_matrices_only_when_built_from_the_same():
    from spymaster_ai.agents import clue_space

    emb, other = toy(), toy(name="other")
    a, b = EmbeddingSpymaster(emb, prefer_common=0.0), EmbeddingSpymaster(emb, prefer_common=0.0)
    view = spy_view(own=("piano", "guitar", "oak"), assassins=("knife",))
    first = a.rank_clues(view, top=3)
    assert b.rank_clues(view, top=3) == first
    assert b._board is a._board  # Duet's two players: one spec, two instances, one board
    assert not any(m.flags.writeable for m in a._board.sims + a._board.sims_sq)  # so neither can change it
    c = EmbeddingSpymaster(emb, partner=other, prefer_common=0.0)
    c.rank_clues(view, top=3)
    assert c._board is not a._board
    # built afresh (nothing shared), the same clues
    clue_space._SHARED.clear()
    fresh = EmbeddingSpymaster(emb, prefer_common=0.0)
    assert fresh.rank_clues(view, top=3) == first and fresh._board is not a._board
    # the legality mask follows each caller's visible set: a covered card's word is legal again
    covered = spy_view(own=("guitar", "oak"), assassins=("knife",), visible=[w for w in BOARD if w != "piano"])
    assert a.rank_clues(covered, top=50) == fresh.rank_clues(covered, top=50)
    assert a.rank_clues(view, top=3) == first
