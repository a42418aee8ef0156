"""The agents' rules for playing with partners of another model, and the variants' end games:
common base-form clues, no second form of a clue, Assassin Ending, the solo countdown and
cover choice, Duet sudden death judged by the partner's side, robust:exclude=G."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from spymaster_ai.agents.clue_space import BoardMatrices
from spymaster_ai.agents.guesser import EmbeddingGuesser
from spymaster_ai.agents.registry import AgentSpecError, _without
from spymaster_ai.agents.spymaster import DEFAULT_COSTS, DUET_EXTRA_TURN_COST, EmbeddingSpymaster, agreement_shares
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.agents.vocabulary import clue_candidates, is_base_form, is_common_word, lemmas
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import ClueHistoryEntry, GuesserView, SpymasterView

AXES = ("fruit", "music", "sea", "space", "weapon", "tree", "cold", "city")


def vec(**axes: float) -> list[float]:
    return [axes.get(a, 0.0) for a in AXES]


VECTORS = {
    "apple": vec(fruit=1.0), "orange": vec(fruit=1.0, city=0.1), "piano": vec(music=1.0),
    "guitar": vec(music=1.0, tree=0.1), "shark": vec(sea=1.0, weapon=0.2), "whale": vec(sea=1.0, cold=0.2),
    "moon": vec(space=1.0, cold=0.2), "rocket": vec(space=1.0, weapon=0.3), "knife": vec(weapon=1.0),
    "oak": vec(tree=1.0), "ice": vec(cold=1.0), "paris": vec(city=1.0),
    "fruit": vec(fruit=1.0), "fruits": vec(fruit=1.0, music=0.05), "music": vec(music=1.0), "ocean": vec(sea=1.0),
    "galaxy": vec(space=1.0), "blade": vec(weapon=1.0, sea=0.1), "forest": vec(tree=1.0), "winter": vec(cold=1.0),
    "town": vec(city=1.0),
}
CLUES = ("fruit", "fruits", "music", "ocean", "galaxy", "blade", "forest", "winter", "town")
BOARD = ("apple", "orange", "piano", "guitar", "shark", "whale", "moon", "rocket", "knife", "oak", "ice", "paris")


def toy(name: str = "toy") -> ToyEmbedding:
    return ToyEmbedding(VECTORS, CLUES, name=name)


def spymaster(**kw) -> EmbeddingSpymaster:
    kw.setdefault("min_zipf", None)  # the toy clue words are not all common English
    kw.setdefault("hub_correction", False)
    kw.setdefault("prefer_common", 0.0)
    return EmbeddingSpymaster(toy(), **kw)


def classic_view(own, opponent=(), assassins=(), visible=BOARD, history=(), **extra) -> SpymasterView:
    bad = set(own) | set(opponent) | set(assassins)
    return SpymasterView(
        game="classic", me="red", words=BOARD, visible=tuple(visible), own=tuple(own), opponent=tuple(opponent),
        bystanders=tuple(w for w in visible if w not in bad), assassins=tuple(assassins), history=tuple(history),
        extra=dict(extra),
    )


# -- vocabulary ---------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["nicholson", "paris", "highways", "captained", "prototypes", "kam", "games", "qualifications", "studies"])
def test_names_inflections_and_junk_are_not_base_forms(word):
    assert not is_base_form(word)


@pytest.mark.parametrize("word", ["highway", "captain", "prototype", "fruit", "ocean", "run"])
def test_base_forms_of_content_words_are_kept(word):
    assert is_base_form(word)


def test_zipf_floor_drops_rare_words():
    assert is_common_word("ocean") and not is_common_word("complexion")
    assert is_common_word("complexion", min_zipf=3.0)


def test_clue_candidates_filter_and_unfiltered():
    class Vocab(ToyEmbedding):
        def clue_vocabulary(self):
            return ("ocean", "oceans", "paris", "complexion", "fruit")

    model = Vocab(VECTORS | {w: vec(sea=1.0) for w in ("oceans", "complexion")}, CLUES)
    assert clue_candidates([model]) == ("ocean", "fruit")
    assert "oceans" in clue_candidates([model], min_zipf=None)


def test_clue_candidates_need_partners_that_read_a_word_not_know_it():
    class Vocab(ToyEmbedding):
        def clue_vocabulary(self):
            return ("ocean", "fruit", "music")

    class Knows(ToyEmbedding):  # a researcher's model: only the protocol, no reads()
        def knows(self, word):
            return word != "music"

    class Reads(Knows):  # knows fewer words than it reads (WordLlama: one token vs any)
        def reads(self, word):
            return True

    own = Vocab(VECTORS, CLUES)
    assert clue_candidates([own, Knows(VECTORS, CLUES)]) == ("ocean", "fruit")
    assert clue_candidates([own, Reads(VECTORS, CLUES)]) == ("ocean", "fruit", "music")
    assert clue_candidates([own, Reads(VECTORS, CLUES), Knows(VECTORS, CLUES)]) == ("ocean", "fruit")


def test_another_form_of_an_earlier_clue_is_banned():
    assert "fruit" in lemmas("fruits")
    hist = (ClueHistoryEntry("red", Clue("fruits", 2), ("apple",), ("own",)),)
    view = classic_view(own=("apple", "orange", "piano", "guitar"), history=hist)
    words = {o.word for o in spymaster().rank_clues(view, top=9)}
    assert "fruit" not in words and "fruits" not in words and "music" in words


# -- classic end games --------------------------------------------------------------------------


def test_assassin_ending_clues_the_assassin_once_every_agent_is_covered():
    visible = tuple(w for w in BOARD if w not in ("apple", "orange"))
    view = classic_view(own=(), opponent=("piano", "guitar"), assassins=("shark",), visible=visible, assassin_ending=True)
    best = spymaster().rank_clues(view, top=1)[0]
    assert best.targets == ("shark",) and best.word == "ocean" and best.count == 1
    plain = dataclasses.replace(view, extra={"assassin_ending": False})
    with pytest.raises(ValueError, match="no own card left"):
        spymaster().rank_clues(plain)


def test_assassin_ending_sudden_death_guesser_never_stops():
    hist = (ClueHistoryEntry("red", Clue("music", 2), ("piano",), ("own",)),)
    view = GuesserView(
        game="classic", me="red", words=BOARD, visible=tuple(w for w in BOARD if w != "piano"), revealed=(),
        clue=Clue("ocean", 1), guesses_made=1, max_guesses=None, can_stop=False, history=hist, sudden_death=True,
    )
    g = EmbeddingGuesser(toy(), hub_correction=0.0, sudden_death_threshold=99.0)
    assert g.next_guess(view) in ("guitar", "shark", "whale")  # the best cards of the game's clues


# -- solo ---------------------------------------------------------------------------------------


def test_solo_countdown_raises_the_count():
    own = ("apple", "orange", "piano", "guitar", "oak")
    relaxed = classic_view(own=own, opponent=("shark", "whale", "moon", "rocket", "ice"), assassins=("knife",),
                           solo=True, turns={"red": 0})
    late = classic_view(own=own, opponent=("shark",), assassins=("knife",), solo=True, turns={"red": 6},
                        visible=tuple(w for w in BOARD if w not in ("whale", "moon", "rocket", "ice")))
    sm = spymaster(risk=0.2)
    assert sm.rank_clues(relaxed)[0].count <= 2
    assert sm.rank_clues(late)[0].count >= 3  # one turn left for five cards: aim at more
    assert spymaster(risk=0.2, countdown=False).rank_clues(late)[0].count <= 2


def duet_view(own, tokens_left, greens_left, turns_played, assassins=("knife",)) -> SpymasterView:
    bad = set(own) | set(assassins)
    return SpymasterView(
        game="duet", me="A", words=BOARD, visible=BOARD, own=tuple(own), opponent=(),
        bystanders=tuple(w for w in BOARD if w not in bad), assassins=tuple(assassins), history=(),
        tokens_left=tokens_left, extra={"greens_left": greens_left, "turns_played": turns_played},
    )


def test_duet_countdown_raises_the_count_when_the_tokens_run_short():
    own = ("apple", "orange", "piano", "guitar", "oak")
    sm = spymaster(risk=0.2)
    # 9 tokens for 15 greens, nothing played yet: no pressure
    assert sm._ambition(duet_view(own, 9, 15, 0), len(own)) == (1, 1.0)
    # 2 tokens for 6 greens after 7 turns that found 9 (pace 9/7): 3 a turn, a miss weighs less
    assert sm._ambition(duet_view(own, 2, 6, 7), len(own)) == (3, pytest.approx((9 / 7) / 3))
    late = duet_view(own, 2, 6, 7)
    assert sm.rank_clues(late)[0].count >= 3
    assert spymaster(risk=0.2, countdown=False).rank_clues(late)[0].count <= 2


def test_a_duet_bystander_costs_nothing_while_a_bystander_face_token_is_left():
    """RULES.md §3: a bystander's mark is the turn's own token (bystander face); a mission that
    has spent those pays two marked-face tokens (one more turn), or loses with fewer left."""
    own = ("apple", "orange", "piano", "guitar", "oak")
    sm = spymaster()
    board = sm._matrices(duet_view(own, 9, 15, 0))
    paris = board.column["paris"]

    def bystander_cost(agent, **tokens):
        view = duet_view(own, 5, 10, 4)
        view = dataclasses.replace(view, extra={**view.extra, **tokens})
        return float(agent._card_costs(view, board, own)[paris])

    assert bystander_cost(sm) == 0.0  # the standard game: every token is bystander-face
    assert bystander_cost(sm, bystander_tokens_left=1, marked_tokens_left=4) == 0.0
    assert bystander_cost(sm, bystander_tokens_left=0, marked_tokens_left=4) == DUET_EXTRA_TURN_COST
    assert bystander_cost(sm, bystander_tokens_left=0, marked_tokens_left=1) == DEFAULT_COSTS["duet"]["assassin"]
    assert bystander_cost(spymaster(bystander_cost=0.5)) == 0.5  # an explicit cost always holds
    classic = classic_view(own=own, assassins=("knife",))
    assert float(sm._card_costs(classic, sm._matrices(classic), own)[paris]) == DEFAULT_COSTS["classic"]["bystander"]


def test_choose_cover_takes_the_opponent_card_closest_to_our_targets():
    view = classic_view(own=("shark", "apple"), opponent=("whale", "paris", "oak"), assassins=("knife",), solo=True)
    assert spymaster().choose_cover(view, ("oak", "paris", "whale")) == "whale"


def test_choose_cover_of_own_agents_drops_the_hardest_one():
    view = classic_view(own=("apple", "orange", "ice"), opponent=("whale",), assassins=("knife",))
    assert spymaster().choose_cover(view, ("apple", "orange", "ice")) == "ice"


# -- Duet sudden death ------------------------------------------------------------------------------


def duet_sd_view(own_side, history=()) -> GuesserView:
    return GuesserView(
        game="duet", me="A", words=BOARD, visible=BOARD, revealed=(), clue=None, guesses_made=0, max_guesses=None,
        can_stop=False, history=tuple(history), sudden_death=True, own_side=tuple(own_side),
    )


def test_duet_sudden_death_is_judged_by_the_partners_side():
    g = EmbeddingGuesser(toy(), hub_correction=0.0)
    # my side: knife black, everything else bystander; ocean (2, one found) still points at the sea
    side = ["bystander"] * len(BOARD)
    side[BOARD.index("knife")] = "black"
    hist = (ClueHistoryEntry("B", Clue("ocean", 2), ("paris",), ("bystander",)),)
    probs = g.sudden_death_probabilities(duet_sd_view(side, hist))
    assert probs["shark"] > probs["apple"] > 0.0
    assert g.next_guess(duet_sd_view(side, hist)) in ("shark", "whale")
    # my own green is no better than its table odds: P(green on the partner's side | green on mine) = 3/9
    side2 = list(side)
    side2[BOARD.index("apple")] = "green"
    p2 = g.sudden_death_probabilities(duet_sd_view(side2))
    assert p2["apple"] == pytest.approx(3 / 9)
    assert p2["apple"] < p2["oak"]  # a bystander on my side is green for the partner 5 in 13


def duet_turn_view(own_side, tokens_left, turns_played, greens_found=(), guesses_made=1, clue=Clue("fruit", 1)) -> GuesserView:
    """A Duet guesser past the count of ``clue`` (its ``guesses_made`` guesses were green)."""
    found = tuple(greens_found)
    visible = tuple(w for w in BOARD if w not in found)
    return GuesserView(
        game="duet", me="A", words=BOARD, visible=visible, revealed=tuple((w, "green") for w in found), clue=clue,
        guesses_made=guesses_made, max_guesses=None, can_stop=True, own_side=tuple(own_side),
        tokens_left=tokens_left, turns_played=turns_played,
    )


def test_duet_guesser_guesses_past_the_count_only_when_behind_the_clock():
    """A bystander costs a Duet turn nothing that stopping would not, so past the count the
    guesser goes on when the clock needs greens more than it fears a black."""
    g = EmbeddingGuesser(toy(), hub_correction=0.0)
    side = ["bystander"] * len(BOARD)
    side[BOARD.index("knife")] = "black"
    # behind: 8 turns played found only 4 greens (apple among them this turn); 2 tokens for 11
    behind = duet_turn_view(side, tokens_left=2, turns_played=8, greens_found=("apple", "paris", "moon", "oak"))
    # ahead: 2 turns found 11 greens, 7 tokens for the last 4
    ahead_found = ("apple", "orange", "piano", "guitar", "shark", "whale", "moon", "rocket", "oak", "ice", "paris")
    ahead = duet_turn_view(side, tokens_left=7, turns_played=2, greens_found=ahead_found)
    assert g._clock_ratio(behind) < 1.0 < g._clock_ratio(ahead)
    word = g.next_guess(behind)
    assert word is not None and word != "knife"  # my black is black for the partner 1 in 3: never first
    odds = g.duet_odds(behind)
    assert odds[word][0] / odds[word][1] >= max(odds[w][0] / odds[w][1] for w in odds) - 1e-12
    assert g.next_guess(ahead) is None
    assert EmbeddingGuesser(toy(), hub_correction=0.0, duet_extra_ratio=0.0).next_guess(behind) is None
    # the table odds: a bystander on my side is green for the partner 5 in 13, black 1 in 13
    fresh = duet_turn_view(side, tokens_left=9, turns_played=0, clue=Clue("town", 1), guesses_made=0)
    assert g.duet_odds(fresh)["oak"] == (pytest.approx(5 / 13), pytest.approx(1 / 13))
    with pytest.raises(ValueError, match="duet_extra_ratio"):
        EmbeddingGuesser(toy(), duet_extra_ratio=-1.0)


def test_duet_extra_guesses_weigh_the_clue_by_extra_slope_and_sudden_death_keeps_its_own():
    """The odds the clock rule guesses on (``duet_odds``) raise a card's green log odds by
    ``extra_slope`` times its z-score; ``sudden_death_probabilities`` by ``sudden_death_slope``
    alone. A bolder slope makes a guesser behind the clock guess on where 1.0 would stop."""
    side = ["bystander"] * len(BOARD)
    side[BOARD.index("knife")] = "black"
    behind = duet_turn_view(side, tokens_left=2, turns_played=8, greens_found=("apple", "paris", "moon", "oak"))
    flat = EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=0.0).duet_odds(behind)
    assert all(odds == (pytest.approx(5 / 13), pytest.approx(1 / 13)) for w, odds in flat.items() if w != "knife")
    one = EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=1.0)
    two = EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=2.0)
    assert two.extra_slope == EmbeddingGuesser(toy()).extra_slope  # 2.0 is the default
    odds1, odds2 = one.duet_odds(behind), two.duet_odds(behind)
    z = one._z(behind, "fruit")
    assert z["orange"] > 0 and odds2["orange"][0] > odds1["orange"][0] > 5 / 13
    assert odds2["orange"][1] < odds1["orange"][1] < 1 / 13
    # sudden death reads the partner's open clues with sudden_death_slope, whatever extra_slope is
    hist = (ClueHistoryEntry("B", Clue("ocean", 2), ("paris",), ("bystander",)),)
    sd = duet_sd_view(side, hist)
    assert EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=0.0).sudden_death_probabilities(sd) == pytest.approx(
        EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=5.0).sudden_death_probabilities(sd))
    # a price between the two slopes' best odds: slope 2 guesses on, slope 1 stops
    ratio1 = max(g / b for g, b in odds1.values())
    ratio2 = max(g / b for g, b in odds2.values())
    assert ratio2 > ratio1
    extra = (ratio1 * ratio2) ** 0.5 / one._clock_ratio(behind)
    assert EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=1.0, duet_extra_ratio=extra).next_guess(behind) is None
    assert EmbeddingGuesser(toy(), hub_correction=0.0, extra_slope=2.0, duet_extra_ratio=extra).next_guess(behind) == "orange"
    with pytest.raises(ValueError, match="extra_slope"):
        EmbeddingGuesser(toy(), extra_slope=-1.0)


def test_duet_guesser_view_tells_the_turns_played():
    from spymaster_ai.rules.duet import DuetGame
    from spymaster_ai.rules.cards import generate_duet_key
    import random

    words = tuple(f"w{i}" for i in range(25))
    game = DuetGame(words, generate_duet_key(random.Random(1)), tokens=9)
    assert game.guesser_view("B").turns_played == 0 and game.guesser_view("B").tokens_left == 9


def test_adapt_weighs_the_partner_models_by_the_guesses_they_predicted():
    """Two partner models that read the clue "forest" differently (one as trees, one as music):
    after the partner guessed OAK for it, the tree reader gets the weight; no history, equal."""
    trees = toy("trees")
    music_vectors = dict(VECTORS, forest=vec(music=1.0))
    music = ToyEmbedding(music_vectors, CLUES, name="music")
    sm = spymaster(partner=[trees, music], adapt=1.0)
    view = classic_view(own=("apple", "orange", "piano"), assassins=("knife",))
    np.testing.assert_allclose(sm.partner_weights(view), [0.5, 0.5])
    seen = dataclasses.replace(
        view, visible=tuple(w for w in BOARD if w != "oak"),
        history=(ClueHistoryEntry("red", Clue("forest", 1), ("oak",), ("bystander",)),),
    )
    w = sm.partner_weights(seen)
    assert w[0] > 0.9 and w.sum() == pytest.approx(1.0)
    assert spymaster(partner=[trees, music]).partner_weights(seen).tolist() == [0.5, 0.5]  # adapt 0: off
    # off, the ranking is the plain mean over the models, as before the option existed
    mean_pick = spymaster(partner=[trees, music]).rank_clues(seen)[0]
    assert spymaster(partner=[trees, music], adapt=0.0).rank_clues(seen)[0] == mean_pick
    with pytest.raises(ValueError, match="adapt"):
        spymaster(adapt=-1.0)


# -- robust:exclude ---------------------------------------------------------------------------------


def test_exclude_builds_a_partner_without_the_held_out_model():
    own, partner = _without("robust:exclude=glove50", "glove50", None, None)
    assert "glove50" not in partner.split("+") and own != "glove50" and len(partner.split("+")) == 3
    with pytest.raises(AgentSpecError, match="excluded"):
        _without("s", "minilm", None, "minilm+glove50")
    with pytest.raises(AgentSpecError, match="excluded"):
        _without("s", "minilm", "minilm", "glove50")


@pytest.mark.parametrize("exclude", ["nosuchmodel", "glove", "minilm+nosuchmodel"])
def test_exclude_refuses_a_name_that_excludes_nothing(exclude):
    """A typo would run the full pool under the label of an ablation."""
    with pytest.raises(AgentSpecError, match="no known model"):
        _without(f"robust:exclude={exclude}", exclude, None, None)


def test_exclude_matches_model_names_in_any_case():
    own, partner = _without("robust:exclude=GloVe50", "GloVe50", None, None)
    assert "glove50" not in partner.split("+") and own != "glove50"
    with pytest.raises(AgentSpecError, match="excluded"):
        _without("s", "MiniLM", None, "minilm+glove50")


def test_hub_correction_standardises_each_card_over_the_vocabulary():
    board = BoardMatrices(BOARD, BOARD, CLUES, [toy()], hub_correction=True)
    s = board.sim(0)
    np.testing.assert_allclose(s.mean(axis=1), 0.0, atol=1e-5)
    np.testing.assert_allclose(s.std(axis=1), 1.0, atol=1e-4)


def test_backward_strength_is_the_count_th_own_cards_standardised_similarity():
    """How strongly the own cards evoke each clue: each card's similarity standardised over
    the whole clue vocabulary, the count-th largest over the own cards, mean over partners."""
    sm = spymaster(backward_strength=1.0, partner=[toy("a"), toy("b")])
    view = classic_view(own=("piano", "guitar", "ice"), assassins=("knife",))
    sm.rank_clues(view)
    board, short = sm._board, sm._short
    own_cols = np.array(sorted(board.column[w] for w in view.own))
    got = sm._backward(short, own_cols, cap=3)
    sims = np.asarray(toy().similarity(list(sm.vocabulary), [BOARD[c] for c in own_cols]))  # (vocab, own)
    z = (sims - sims.mean(axis=0)) / sims.std(axis=0)
    want = np.clip(-np.sort(-z, axis=1), 0.0, 5.0)[short.columns]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    music = list(sm.vocabulary[c] for c in short.columns).index("music")
    # "music" is what PIANO and GUITAR call to mind, not ICE: strong for 1 and 2 targets, none for 3
    assert got[music, 0] > 1.0 and got[music, 1] > 1.0 and got[music, 2] == 0.0
    with pytest.raises(ValueError, match="backward_strength"):
        spymaster(backward_strength=-0.1)


def test_assassin_backward_lowers_each_clue_by_how_strongly_the_assassin_evokes_it():
    view = classic_view(own=("piano", "guitar", "shark"), assassins=("ice",), opponent=("moon",))
    plain = spymaster(partner=[toy("a"), toy("b")])
    wary = spymaster(partner=[toy("a"), toy("b")], assassin_backward=2.0)
    before = {o.word: o for o in plain.rank_clues(view, top=50)}
    after = {o.word: o for o in wary.rank_clues(view, top=50)}
    sims = np.asarray(toy().similarity(list(wary.vocabulary), ["ice"]))[:, 0]
    evoked = np.clip((sims - sims.mean()) / sims.std(), 0.0, 5.0)
    for i, word in enumerate(wary.vocabulary):
        if word in before:
            assert after[word].score == pytest.approx(before[word].score - 2.0 * evoked[i], abs=1e-4)
            assert after[word].count == before[word].count  # the same penalty for every count
    assert evoked[list(wary.vocabulary).index("winter")] > 1.0  # ICE calls "winter" to mind
    with pytest.raises(ValueError, match="assassin_backward"):
        spymaster(assassin_backward=-1.0)


def test_duet_has_its_own_backward_weights_and_the_registry_turns_them_off_there(monkeypatch):
    """Duet's clock needs tempo: ``duet_backward_strength``/``duet_assassin_backward`` replace the
    two backward terms in Duet only; ``None`` keeps them; the registry sets both to 0 for Duet."""
    from spymaster_ai.agents.registry import ASSASSIN_BACKWARD, BACKWARD_STRENGTH

    terms = dict(backward_strength=0.5, assassin_backward=2.0)
    plain, both, duet_off = spymaster(), spymaster(**terms), spymaster(**terms, duet_backward_strength=0.0, duet_assassin_backward=0.0)
    duet = duet_view(own=("piano", "guitar", "apple"), tokens_left=8, greens_left=14, turns_played=1, assassins=("knife", "ice"))
    classic = classic_view(own=("piano", "guitar", "apple"), assassins=("ice",))

    def scores(sm, view):
        return {o.word: (o.score, o.count) for o in sm.rank_clues(view, top=50)}

    assert scores(duet_off, duet) == scores(plain, duet)  # Duet: both terms off
    assert scores(duet_off, classic) == scores(both, classic) != scores(plain, classic)  # elsewhere: on
    assert scores(both, duet) != scores(plain, duet)  # None keeps them in Duet too
    only_assassin = spymaster(**terms, duet_assassin_backward=0.0)
    assert only_assassin._backward_weights("duet") == (0.5, 0.0) and only_assassin._backward_weights("kim2019") == (0.5, 2.0)
    with pytest.raises(ValueError, match="duet_assassin_backward"):
        spymaster(duet_assassin_backward=-1.0)

    from spymaster_ai.agents import registry

    monkeypatch.setattr(registry, "_embedding", lambda name: toy(name))
    monkeypatch.setattr(registry, "_check_names", lambda spec, names: None)  # toy models, made-up names
    robust = registry.make_spymaster("robust:embedding=a,partner=b+c")
    assert robust._backward_weights("duet") == (0.0, 0.0)
    assert robust._backward_weights("kim2019") == (BACKWARD_STRENGTH, ASSASSIN_BACKWARD)
    assert BACKWARD_STRENGTH > 0 and ASSASSIN_BACKWARD > 0  # Kim and classic keep them
    single = registry.make_spymaster("a")
    assert single._backward_weights("duet") == (0.0, 0.0)
    assert single._backward_weights("classic") == (BACKWARD_STRENGTH, ASSASSIN_BACKWARD)


def test_leave_one_out_script_never_gives_the_robust_spymaster_the_held_out_model_or_its_twins():
    """experiments/leave_one_out.py builds the robust specs; the registry must resolve each to a
    pool without G (and, for the strict column, without G's declared near-twins)."""
    import importlib.util
    from pathlib import Path

    from spymaster_ai.agents.registry import LEAVE_ONE_OUT_POOL, parse_spec

    path = Path(__file__).resolve().parents[1] / "experiments" / "leave_one_out.py"
    loader = importlib.util.spec_from_file_location("leave_one_out", path)
    loo = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(loo)

    assert loo.robust_without("minilm", list(LEAVE_ONE_OUT_POOL)) == "robust:exclude=minilm"
    five = [*LEAVE_ONE_OUT_POOL, "mpnet"]
    related = [{"minilm", "mpnet"}]
    for g in five:
        for held_out in (g, loo.family_of(g, related)):
            spec = loo.robust_without(held_out, five, "risk=0.4")
            _, params = parse_spec(spec)
            own, partner = _without(spec, params["exclude"], params.get("embedding"), params.get("partner"))
            banned = set(held_out.split("+"))
            assert g in banned and own not in banned and not banned & set(partner.split("+"))
            assert set(partner.split("+")) == set(five) - banned and float(params["risk"]) == 0.4
    assert loo.family_of("mpnet", related) == "minilm+mpnet" and loo.family_of("glove50", related) == "glove50"
    # The reference column is the one robust spymaster that does see G: every pool model, and
    # G itself where the pool lacks it.
    name, params = parse_spec(loo.robust_with_all(five, "mpnet", "risk=0.4"))
    assert name == "robust" and "exclude" not in params
    assert params["partner"].split("+") == five and float(params["risk"]) == 0.4
    _, params = parse_spec(loo.robust_with_all(list(LEAVE_ONE_OUT_POOL), "mpnet"))
    assert params["partner"].split("+") == five


def test_transfer_study_ranks_the_assassin_under_the_spymasters_own_models(tmp_path, monkeypatch):
    """Part D of experiments/studies/transfer_study.py: for each clue's first guess, the assassin's rank
    under the models named in the robust spymaster's spec (not G's), and whether it was hit."""
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "experiments" / "studies" / "transfer_study.py"
    loader = importlib.util.spec_from_file_location("transfer_study", path)
    study = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(study)
    loaded = []
    monkeypatch.setattr(study, "_embedding", lambda name: loaded.append(name) or toy(name))

    identities = ["red" if w in ("apple", "orange") else "assassin" if w == "knife" else "bystander" for w in BOARD]
    def game(*actions):
        return {"agents": {"spymaster": "robust:exclude=g,partner=toy", "guesser": "g"},
                "record": {"config": {"words": list(BOARD), "key": {"identities": identities}}, "actions": list(actions)}}
    clue = lambda word: {"type": "clue", "word": word, "count": 1}
    guess = lambda word: {"type": "guess", "word": word}
    games = [game(clue("fruit"), guess("apple"), guess("shark"), clue("blade"), guess("knife")),
             game(clue("ocean"), guess("whale"))]
    folder = tmp_path / "kim2019" / "g"
    folder.mkdir(parents=True)
    (folder / "robust_exclude=g_partner=toy__g__0.jsonl").write_text("\n".join(json.dumps(x) for x in games))

    assert study.spymaster_pool("robust:exclude=g,partner=a+b") == ["a", "b"]
    assert study.spymaster_pool("robust:exclude=minilm+glove50") == ["wordllama", "e5small"]  # the packaged pool, less the family
    pool, stats = study.assassin_rank_table(tmp_path, ["g"])["g"]
    assert pool == ["toy"] and loaded == ["toy"]
    assert sum(v[0] for v in stats.values()) == 3  # one first guess per clue; "shark" was a second guess
    assert stats[1].tolist() == [1, 1]  # BLADE: KNIFE is the closest card, and was hit
    assert sum(v[1] for v in stats.values()) == 1 and stats[1][0] == 1  # FRUIT and OCEAN rank it lower


def test_duet_clock_prices_a_black_card_by_how_far_the_pair_is_from_the_clock():
    from spymaster_ai.agents.duet_clock import black_cost_in_greens

    # on pace (2 greens a turn, 7 turns for 5 greens): a black would throw away a near-certain win
    ahead = black_cost_in_greens(greens_left=5, tokens_left=8, turns_played=1, found_this_turn=0)
    # far behind (1 green a turn so far, 3 turns for 10): a black costs little
    behind = black_cost_in_greens(greens_left=10, tokens_left=4, turns_played=5)
    assert behind < 1.0 < ahead
    assert black_cost_in_greens(greens_left=1, tokens_left=1, turns_played=8) == 0.0  # last turn: only a green wins
    assert black_cost_in_greens(greens_left=3, tokens_left=1, turns_played=8) == 0.0  # nothing left to lose


def test_duet_guesser_behind_the_clock_does_not_stop_within_the_count_for_a_vague_clue():
    """Within the count a vague clue would make the guesser stop; in Duet, behind the clock,
    the odds of the key table still make one more guess worth it."""
    g = EmbeddingGuesser(toy(), hub_correction=0.0, stop_threshold=10.0)  # the clue alone never suffices
    side = ["bystander"] * len(BOARD)
    behind = duet_turn_view(side, tokens_left=2, turns_played=8, greens_found=("apple", "paris", "moon", "oak"),
                            clue=Clue("fruit", 2), guesses_made=1)
    assert g.next_guess(behind) is not None
    assert EmbeddingGuesser(toy(), hub_correction=0.0, stop_threshold=10.0, duet_extra_ratio=0.0).next_guess(behind) is None


def _calibration_study(monkeypatch):
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "experiments"
    monkeypatch.syspath_prepend(str(folder))  # the study reuses leave_one_out's helpers
    loader = importlib.util.spec_from_file_location("calibration_study", folder / "studies" / "calibration_study.py")
    study = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(study)
    return study


def test_calibration_study_logs_the_prediction_behind_each_clue_and_what_the_guesser_did(monkeypatch):
    """experiments/studies/calibration_study.py: the recorder gives the clue its spymaster gives, with
    that clue's predicted finds; a game record's guesses are scored as finds up to the count and
    before the first wrong card, a first guess, and a fatal card on or past the count."""
    study = _calibration_study(monkeypatch)
    inner = spymaster()
    recorder = study.RecordingSpymaster(inner)
    view = classic_view(own=("apple", "orange"), assassins=("knife",))
    clue = recorder.give_clue(view)
    assert clue == spymaster().give_clue(view)
    best = inner.rank_clues(view, top=1)[0]
    assert recorder.log == [{"word": best.word, "count": best.count, "predicted": best.expected_found, "own_left": 2, "tokens_left": None}]

    identities = ["red" if w in ("apple", "orange", "piano") else "assassin" if w == "knife" else "bystander" for w in BOARD]
    record = {"config": {"words": list(BOARD), "key": {"identities": identities}}, "actions": [
        {"type": "clue", "word": "fruit", "count": 2}, {"type": "guess", "word": "apple"}, {"type": "guess", "word": "shark"},
        {"type": "clue", "word": "music", "count": 1}, {"type": "guess", "word": "piano"}, {"type": "guess", "word": "knife"},
        {"type": "clue", "word": "town", "count": 1}, {"type": "guess", "word": "paris"}, {"type": "stop"},
    ]}
    log = [{"word": w, "count": c, "predicted": 0.5, "own_left": n, "tokens_left": None} for w, c, n in (("fruit", 2, 3), ("music", 1, 2), ("town", 1, 1))]
    rows = study.clue_rows("kim2019", log, study.clue_outcomes("kim2019", record))
    assert [(r["found"], r["first_right"], r["fatal"], r["fatal_past_count"]) for r in rows] == [
        (1, True, False, False), (1, True, True, True), (0, False, False, False)]
    with pytest.raises(ValueError, match="does not match"):
        study.clue_rows("kim2019", log[:2], study.clue_outcomes("kim2019", record))

    side_a = ["green" if w in ("apple", "orange") else "black" if w == "knife" else "bystander" for w in BOARD]
    duet = {"config": {"words": list(BOARD), "key": {"side_a": side_a, "side_b": ["bystander"] * len(BOARD)}}, "actions": [
        {"type": "clue", "giver": "A", "word": "fruit", "count": 2}, {"type": "guess", "word": "apple"}, {"type": "guess", "word": "knife"},
        {"type": "clue", "giver": "B", "word": "fruit", "count": 1}, {"type": "guess", "word": "orange"},
    ]}
    out = study.clue_outcomes("duet", duet)
    assert [o["guesses"] for o in out] == [["green", "black"], ["bystander"]]  # each clue on its giver's side


def test_classic_guesser_in_the_endgame_adds_up_the_clues_given_since_its_last_find():
    """With one agent left, every clue since the last find points at it: their evidence adds
    up, and an older open clue (BLADE, whose second target was never found) no longer pulls
    the guess towards its own region. With more agents left, or endgame_cards=0, the usual
    memory of open clues decides."""
    history = (ClueHistoryEntry("red", Clue("blade", 2), ("knife", "apple"), ("own", "bystander")),
               ClueHistoryEntry("red", Clue("winter", 1), ("ice",), ("bystander",)))
    covered = {"knife": "red", "apple": "bystander", "ice": "bystander"}

    def view(own_left: int, guesses_made: int = 0) -> GuesserView:
        return GuesserView(game="kim2019", me="red", words=BOARD, visible=tuple(w for w in BOARD if w not in covered),
                           revealed=tuple(covered.items()), clue=Clue("ocean", 1), guesses_made=guesses_made,
                           max_guesses=2, can_stop=guesses_made > 0, history=history, own_left=own_left)

    endgame = EmbeddingGuesser(toy(), hub_correction=0.0)
    plain = EmbeddingGuesser(toy(), hub_correction=0.0, endgame_cards=0)
    # OCEAN alone ties SHARK and WHALE; WINTER (since the last find) breaks the tie for WHALE
    assert endgame.next_guess(view(1)) == "whale" and endgame.rank_cards(view(1))[0].word == "whale"
    assert plain.next_guess(view(1)) == "shark"  # BLADE's memory favours SHARK
    assert endgame.next_guess(view(3)) == "shark"  # three agents left: not the endgame
    with pytest.raises(ValueError, match="endgame_cards"):
        EmbeddingGuesser(toy(), endgame_cards=-1)


# -- zero-clue warnings ------------------------------------------------------------------------------


def test_guesser_keeps_away_from_what_an_earlier_zero_clue_pointed_at():
    """"blade: 0" said that none of ours is a weapon. Turns later, OCEAN ties SHARK (a weapon
    too) and WHALE; the warning, remembered for the rest of the game, breaks the tie for WHALE.
    With ``zero_weight`` 0 only the zero clue's own turn used it."""
    history = (ClueHistoryEntry("red", Clue("blade", 0), ("apple",), ("bystander",)),
               ClueHistoryEntry("red", Clue("winter", 1), ("ice",), ("own",)))
    covered = {"apple": "bystander", "ice": "red"}
    view = GuesserView(game="classic", me="red", words=BOARD, visible=tuple(w for w in BOARD if w not in covered),
                       revealed=tuple(covered.items()), clue=Clue("ocean", 1), guesses_made=0, max_guesses=2,
                       can_stop=False, history=history)
    warned = EmbeddingGuesser(toy(), hub_correction=0.0)
    plain = EmbeddingGuesser(toy(), hub_correction=0.0, zero_weight=0.0)
    assert plain.next_guess(view) == "shark"  # the tie, broken alphabetically
    assert warned.next_guess(view) == "whale" and warned.rank_cards(view)[0].word == "whale"
    shark = {c.word: c for c in warned.rank_cards(view)}["shark"]
    assert shark.score < shark.z  # the warning lowers the score, not the clue's own z
    # a clue with a count is no warning
    counted = dataclasses.replace(view, history=(ClueHistoryEntry("red", Clue("blade", 1), ("apple",), ("bystander",)),) + history[1:])
    assert warned.rank_cards(counted) == plain.rank_cards(counted)
    with pytest.raises(ValueError, match="zero_weight"):
        EmbeddingGuesser(toy(), zero_weight=-1.0)


def test_spymaster_warns_once_with_a_zero_clue_at_the_assassin_near_the_end():
    """With ``warn_cards`` own cards or fewer left, the spymaster first says a word that points
    at the assassin and not at its own cards, with count 0; once, and never in Duet. After it,
    its partner model expects the guesser to keep away from the assassin."""
    sm = spymaster(partner=[toy("a"), toy("b")], warn_cards=1)
    view = classic_view(own=("whale",), assassins=("shark",))
    option = sm.best_option(view)
    assert (option.clue, option.targets, option.closest_bad) == (Clue("blade", 0), (), "shark")
    assert sm.give_clue(view) == Clue("blade", 0)
    # two own cards left: above warn_cards, a clue as usual
    assert sm.give_clue(classic_view(own=("whale", "apple"), assassins=("shark",))).count > 0
    assert spymaster(partner=[toy("a"), toy("b")]).give_clue(view).count == 1  # off by default
    # once: after the warning, a clue for the card; the partner model now keeps off the assassin
    warned = dataclasses.replace(view, visible=tuple(w for w in BOARD if w != "apple"),
                                 bystanders=tuple(w for w in view.bystanders if w != "apple"),
                                 history=(ClueHistoryEntry("red", Clue("blade", 0), ("apple",), ("bystander",)),))
    after = sm.best_option(warned)
    assert after.count == 1 and after.targets == ("whale",)
    unwarned = spymaster(partner=[toy("a"), toy("b")]).rank_clues(dataclasses.replace(warned, history=()), top=20)
    same = next(o for o in unwarned if o.word == after.word)
    assert after.expected_cost < same.expected_cost
    assert sm.warning(dataclasses.replace(view, game="duet")) is None  # the clocks of Duet and solo
    assert sm.warning(dataclasses.replace(view, extra={"solo": True})) is None
    for bad in ({"warn_cards": -1}, {"zero_weight": -1.0}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            spymaster(**bad)


def test_memory_expects_the_partner_to_be_drawn_to_what_an_unfinished_clue_points_at():
    """The embedding guesser adds an unfinished clue's evidence within the count
    (``history_weight``); with ``memory_weight`` the partner model does the same."""
    own = ("apple", "orange", "piano", "guitar")
    base = classic_view(own=own, assassins=("knife",))
    # OCEAN: 2 found nothing (OAK was a bystander): SHARK and WHALE still tempt the partner
    ocean = ClueHistoryEntry("red", Clue("ocean", 2), ("oak",), ("bystander",))
    seen = dataclasses.replace(base, visible=tuple(w for w in BOARD if w != "oak"), history=(ocean,))

    def fruit(sm, view):
        return next(o for o in sm.rank_clues(view, top=50) if o.word == "fruit")

    plain, remembering = spymaster(), spymaster(memory_weight=1.0)
    assert fruit(remembering, base) == fruit(plain, base)  # no unfinished clue: nothing to remember
    with_memory, without = fruit(remembering, seen), fruit(plain, seen)
    assert with_memory.expected_cost > without.expected_cost
    assert with_memory.score < without.score
    # a finished clue is forgotten, as the guesser forgets it
    done = dataclasses.replace(seen, history=(ClueHistoryEntry("red", Clue("ocean", 1), ("shark",), ("own",)),))
    assert fruit(remembering, done) == fruit(plain, done)
    # Duet has its own weight (None: the same); the registry turns it off there
    duet = dataclasses.replace(
        duet_view(own=own, tokens_left=8, greens_left=14, turns_played=1),
        history=(ClueHistoryEntry("A", Clue("ocean", 2), ("oak",), ("bystander",)),),
    )
    assert fruit(spymaster(memory_weight=1.0, duet_memory_weight=0.0), duet) == fruit(plain, duet)
    assert fruit(spymaster(memory_weight=1.0), duet) != fruit(plain, duet)
    with pytest.raises(ValueError, match="memory_weight"):
        spymaster(memory_weight=-1.0)
    with pytest.raises(ValueError, match="duet_memory_weight"):
        spymaster(duet_memory_weight=-0.5)


# -- weighing the partner models ----------------------------------------------------------------


def _forest_readers():
    """Two partner models that read FOREST as trees, and one that reads it as music."""
    music = ToyEmbedding(dict(VECTORS, forest=vec(music=1.0)), CLUES, name="music")
    return toy("trees"), toy("trees2"), music


def test_a_partner_prior_decides_whose_reading_the_clue_is_chosen_by():
    """OAK and APPLE are ours and PIANO the assassin: FOREST is the clue for OAK to a tree
    reader and a clue for the assassin to a music reader. The plain mean gives the music reader
    a third of the say, so FOREST loses to FRUIT; weights that all but silence it keep FOREST."""
    trees, trees2, music = _forest_readers()
    view = classic_view(own=("oak", "apple"), assassins=("piano",))
    alike = spymaster(partner=[trees, trees2]).rank_clues(view)[0]
    mean = spymaster(partner=[trees, trees2, music]).rank_clues(view)[0]
    assert alike.word == "forest" and mean.word == "fruit"
    weighted = spymaster(partner=[trees, trees2, music], partner_prior="1+1+0.0001").rank_clues(view)[0]
    assert weighted.word == "forest"
    # equal weights are the plain mean, score for score
    equal = spymaster(partner=[trees, trees2, music], partner_prior=[2.0, 2.0, 2.0]).rank_clues(view, top=5)
    assert [(o.word, o.count) for o in equal] == [(o.word, o.count) for o in spymaster(partner=[trees, trees2, music]).rank_clues(view, top=5)]
    for bad in ("1+1", "1+1+0", "1+-1+1"):
        with pytest.raises(ValueError, match="partner_prior"):
            spymaster(partner=[trees, trees2, music], partner_prior=bad)


def test_agreement_shares_rank_the_model_that_reads_the_board_unlike_the_others_last():
    # three models, two cards, four clues: models 0 and 1 agree on every clue, model 2 on two
    sims = np.array([
        [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]],
        [[0.9, 0.1, 0.8, 0.2], [0.1, 0.9, 0.2, 0.8]],
        [[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]],
    ], dtype=np.float32)
    shares = agreement_shares(sims, n_clues=4)
    np.testing.assert_allclose(shares, [(1.0 + 0.5) / 2, (1.0 + 0.5) / 2, 0.5])
    # only the clearest clues count: clues 0 and 3 have the widest margin under the mean reading
    np.testing.assert_allclose(agreement_shares(sims[:, :, [0, 3]], 2), [1.0, 1.0, 1.0])


def test_agreement_weight_trusts_the_partner_models_that_read_the_board_alike():
    """The same board: the music reader disagrees with the other two on FOREST only, and with a
    large ``agreement_weight`` its say shrinks until FOREST is the clue again; 0 is the mean."""
    trees, trees2, music = _forest_readers()
    view = classic_view(own=("oak", "apple"), assassins=("piano",))
    assert spymaster(partner=[trees, trees2, music], agreement_weight=200.0).rank_clues(view)[0].word == "forest"
    assert spymaster(partner=[trees, trees2, music], agreement_weight=0.0).rank_clues(view)[0].word == "fruit"
    with pytest.raises(ValueError, match="agreement_weight"):
        spymaster(agreement_weight=-1.0)


def test_a_spec_names_the_partner_prior_and_the_agreement_weight():
    from spymaster_ai.agents.registry import make_spymaster

    assert make_spymaster("robust:partner=glove50+minilm,partner_prior=1+2,agreement_weight=20", load=False) is EmbeddingSpymaster
    with pytest.raises(AgentSpecError, match="partner_prior"):
        make_spymaster("robust:partner=glove50+minilm,partner_prior=0+1", load=False)
    with pytest.raises(AgentSpecError, match="agreement_weight"):
        make_spymaster("robust:partner=glove50+minilm,agreement_weight=-1", load=False)
    built = make_spymaster("robust:partner=glove50+minilm,partner_prior=1+3")
    np.testing.assert_allclose(built._prior_weights, [0.25, 0.75])
    with pytest.raises(AgentSpecError, match=r"one positive weight per partner model \(2\)"):
        make_spymaster("robust:partner=glove50+minilm,partner_prior=1+2+3")
