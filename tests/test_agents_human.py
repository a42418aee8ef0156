"""The agents for people: the human reader, its fit, the human guesser and spymaster."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from spymaster_ai.agents.human.features import PER_MODEL, feature_names, features_from_sims, spelled_like
from spymaster_ai.agents.human.reader import (
    PARAMS_PATH,
    ChoiceSet,
    ReaderParams,
    fit_conditional_logit,
    load_params,
    softmax,
)


# -- spelling -----------------------------------------------------------------------------------


@pytest.mark.parametrize("clue, card", [
    ("grab", "crab"),  # edit distance 1, short words
    ("pursue", "purse"),  # first four letters
    ("moonlight", "moon"),  # contains the card
    ("firefighter", "fire"),
    ("planets", "planet"),
    ("tower", "towel"),
])
def test_clues_a_person_may_read_as_the_card_by_its_letters(clue, card):
    assert spelled_like(clue, card)


@pytest.mark.parametrize("clue, card", [
    ("ocean", "wave"), ("circle", "round"), ("doctor", "nurse"), ("heart", "tank"), ("fever", "cold"),
])
def test_unrelated_spellings_are_not_flagged(clue, card):
    assert not spelled_like(clue, card)


# -- features -----------------------------------------------------------------------------------


def _random_sims(rng, n_models=2, clues=4, cards=6):
    sims = [rng.normal(size=(clues, cards)).astype(np.float32) for _ in range(n_models)]
    means = [rng.normal(size=cards).astype(np.float32) for _ in range(n_models)]
    stds = [np.abs(rng.normal(size=cards)).astype(np.float32) + 0.5 for _ in range(n_models)]
    return sims, means, stds


def test_board_z_is_standardised_over_the_visible_cards_only_and_the_lead_names_the_top_card():
    rng = np.random.default_rng(0)
    sims, means, stds = _random_sims(rng)
    visible = np.array([True, True, False, True, True, True])
    cards = ["a1", "b2", "c3", "d4", "e5", "f6"]
    x = features_from_sims(sims, means, stds, visible, ["w1", "w2", "w3", "w4"], cards)
    assert x.shape == (4, 6, 2 * len(PER_MODEL) + 3)
    z = x[:, visible, 0]
    np.testing.assert_allclose(z.mean(axis=1), 0.0, atol=1e-5)
    np.testing.assert_allclose(z.std(axis=1), 1.0, atol=1e-4)
    lead = x[:, visible, 2]
    top = np.argmax(sims[0][:, visible], axis=1)
    for i in range(4):
        assert lead[i, top[i]] > 0 and (np.delete(lead[i], top[i]) < 0).all()
    # evoke: the similarity in units of the card's own spread over the vocabulary
    np.testing.assert_allclose(x[:, :, 1], (sims[0] - means[0]) / stds[0], rtol=1e-5)


# -- the conditional logit ----------------------------------------------------------------------


def test_the_conditional_logit_recovers_the_weights_that_made_the_choices():
    rng = np.random.default_rng(1)
    true_w = np.array([2.0, -1.0, 0.0])
    sets = []
    for g in range(3000):
        x = rng.normal(size=(8, 3))
        p = softmax(x @ true_w)
        sets.append(ChoiceSet(x, int(rng.choice(8, p=p)), 1.0, g))
    mean, scale, w = fit_conditional_logit(sets, l2=0.01)
    # the fit is on standardised features: map the weights back to raw units
    np.testing.assert_allclose(w / scale, true_w, atol=0.15)


def test_the_fit_is_deterministic():
    rng = np.random.default_rng(2)
    sets = [ChoiceSet(rng.normal(size=(5, 2)), int(rng.integers(5)), 1.0, 0) for _ in range(50)]
    a = fit_conditional_logit(sets)
    b = fit_conditional_logit(sets)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


# -- the shipped parameters ---------------------------------------------------------------------


def test_the_shipped_reader_says_where_it_came_from_and_matches_todays_features():
    params = load_params()
    assert params.features == feature_names(params.models)
    prov = params.provenance
    assert "Shaikh" in prov["data"] and prov["script"].startswith("experiments/human_reader.py")
    assert prov["environment"]["python"] and prov["fitted_on"]["games"] > 50
    assert PARAMS_PATH.stat().st_size < 64_000  # small: weights, not data
    # the data itself never ships: only short row hashes to tell seen rows from new ones
    assert all(len(h) == 12 for h in prov["rows_sha256_12"])


def test_malformed_parameters_are_refused_with_a_clear_message(tmp_path):
    good = load_params().to_json()
    bad = dict(good, weights=good["weights"][:-1])
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="one value per feature"):
        load_params(path)
    path.write_text(json.dumps(dict(good, features=good["features"][::-1])))
    with pytest.raises(ValueError, match="refit"):
        load_params(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        load_params(path)
    with pytest.raises(FileNotFoundError, match="human_reader.py --write"):
        load_params(tmp_path / "missing.json")


def test_the_stop_rule_is_more_confident_in_a_clear_pick():
    params = load_params()
    clear = params.p_correct(np.array([0.9, 0.05, 0.05]), 0)
    vague = params.p_correct(np.array([0.3, 0.35, 0.35]), 0)
    assert 0.0 < vague < clear < 1.0


def test_params_round_trip_through_json():
    params = load_params()
    again = ReaderParams.from_json(json.loads(json.dumps(params.to_json())))
    np.testing.assert_allclose(again.weights, params.weights)
    assert again.stop == params.stop
    assert replace(again, stop=(1.0, 0.0, 0.0)).p_correct(np.array([1.0]), 0) == pytest.approx(1 / (1 + np.exp(-1)))


# -- the agents, on the packaged models --------------------------------------------------------


BOARD = ("crab,grab,ocean,beach,doctor,nurse,fever,moon,sun,star,bank,money,river,apple,tree,dog,cat,bone,"
         "ring,phone,tower,king,queen,castle,knight").split(",")


@pytest.fixture(scope="module")
def human_agents():
    from spymaster_ai.agents.registry import make_guesser, make_spymaster

    return make_spymaster("human"), make_guesser("human")


def _giver_view(own, assassins, bystanders):
    from spymaster_ai.views import SpymasterView

    return SpymasterView(game="duet", me="A", words=tuple(BOARD), visible=tuple(BOARD), own=tuple(own),
                         opponent=(), bystanders=tuple(bystanders), assassins=tuple(assassins))


@pytest.mark.models
def test_the_human_spymaster_never_gives_a_clue_spelled_like_a_card_and_aims_only_at_its_own(human_agents):
    spymaster, _ = human_agents
    own = ["ocean", "beach", "doctor", "nurse", "moon", "sun", "bank", "money", "knight"]
    assassins = ["crab", "tree", "phone"]
    view = _giver_view(own, assassins, [w for w in BOARD if w not in own + assassins])
    spymaster.reset(0)
    options = spymaster.rank_clues(view, top=200)
    assert options
    for o in options:
        assert not any(spelled_like(o.word, card) for card in BOARD), o.word
        assert set(o.targets) <= set(own) and 1 <= o.count <= 3 and len(o.targets) == o.count
    clue = spymaster.give_clue(view)
    assert clue.count >= 1  # never a zero clue


@pytest.mark.models
def test_the_human_guesser_reads_a_plain_clue_and_stops_at_the_count(human_agents):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import GuesserView

    _, guesser = human_agents
    guesser.reset(0)
    view = GuesserView(game="classic", me="red", words=tuple(BOARD), visible=tuple(BOARD), revealed=(),
                       clue=Clue("sky", 2), guesses_made=0, max_guesses=3, can_stop=True, own_left=8)
    first = guesser.next_guess(view)
    assert first in ("sun", "moon", "star")
    ranked = guesser.rank_cards(view)
    words = [c.word for c in ranked]
    assert sorted(words) == sorted(BOARD) and words[0] == first
    assert sum(c.similarity for c in ranked) == pytest.approx(1.0)
    past = replace(view, visible=tuple(w for w in BOARD if w not in words[:2]), guesses_made=2)
    assert guesser.next_guess(past) is None or guesser.next_guess(past) in ("sun", "moon", "star")


def test_registry_builds_the_human_agents_by_name_and_refuses_a_reader_in_the_spec():
    from spymaster_ai.agents.human import HumanGuesser, HumanSpymaster
    from spymaster_ai.agents.registry import AgentSpecError, agent_class, check_spec

    assert agent_class("spymaster", "human") is HumanSpymaster
    assert agent_class("guesser", "human:assassin_cost=3") is HumanGuesser
    with pytest.raises(AgentSpecError, match="reader"):
        check_spec("guesser", "human:reader=x")
    with pytest.raises(AgentSpecError, match="assassin_cost"):
        check_spec("guesser", "human:assassin_cost=-1")
    with pytest.raises(AgentSpecError, match="spymaster parameter"):
        check_spec("guesser", "human:follow_margin=1")


@pytest.mark.models
def test_on_picture_cards_the_human_guesser_reads_through_the_caption_models(human_agents):
    from spymaster_ai.sim.play import PictureBoardModel, for_picture_cards

    _, guesser = human_agents
    twin = for_picture_cards(guesser)
    assert twin is not guesser and twin is for_picture_cards(guesser)  # built once
    assert all(isinstance(m, PictureBoardModel) for m in twin.reader.models)
    assert not any(isinstance(m, PictureBoardModel) for m in guesser.reader.models)  # the original is untouched


@pytest.mark.models
def test_asking_about_the_clue_just_given_gives_its_targets(human_agents):
    spymaster, _ = human_agents
    own = ["ocean", "beach", "doctor", "nurse", "moon", "sun", "bank", "money", "knight"]
    view = _giver_view(own, ["crab", "tree", "phone"], [w for w in BOARD if w not in own + ["crab", "tree", "phone"]])
    spymaster.reset(0)
    for _ in range(3):  # the same view again and again: its targets get "tired" only from the next clue on
        option = spymaster.best_option(view)
        again = {o.word: o for o in spymaster.rank_clues(view, top=8)}
        assert option.word in again and again[option.word].targets == option.targets


# -- Duet sudden death --------------------------------------------------------------------------


def _sudden_death_view(side, history=()):
    from spymaster_ai.views import GuesserView

    return GuesserView(game="duet", me="B", words=tuple(BOARD), visible=tuple(BOARD), revealed=(), clue=None,
                       guesses_made=0, max_guesses=None, can_stop=False, history=tuple(history),
                       sudden_death=True, own_side=tuple(side))


def _side(green=(), black=()):
    return ["green" if w in green else "black" if w in black else "bystander" for w in BOARD]


@pytest.mark.models
def test_in_sudden_death_without_a_clue_the_key_table_picks_a_card_bystander_on_my_side(human_agents):
    _, guesser = human_agents
    side = _side(green=BOARD[:9], black=BOARD[9:12])
    chances = guesser.sudden_death_chances(_sudden_death_view(side))
    assert set(chances) == set(BOARD) and all(0.0 <= p <= 1.0 for p in chances.values())
    # RULES.md section 3: green for the partner 3 in 9 (my green), 1 in 3 (my black), 5 in 13 (my bystander)
    assert chances[BOARD[0]] == pytest.approx(3 / 9) and chances[BOARD[9]] == pytest.approx(1 / 3)
    assert chances[BOARD[20]] == pytest.approx(5 / 13)
    assert guesser.next_guess(_sudden_death_view(side)) in BOARD[12:]


@pytest.mark.models
def test_in_sudden_death_a_partners_unfinished_clue_outweighs_the_key_table(human_agents):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry

    _, guesser = human_agents
    side = _side(green=BOARD[:9], black=("moon", "sun", "star"))  # the clue's cards are black on MY side
    unfinished = ClueHistoryEntry(giver="A", clue=Clue("sky", 2), guesses=("ocean",), outcomes=("bystander",))
    chances = guesser.sudden_death_chances(_sudden_death_view(side, [unfinished]))
    assert max(chances, key=chances.get) in ("moon", "sun", "star")
    assert chances[max(chances, key=chances.get)] > 5 / 13
    assert guesser.next_guess(_sudden_death_view(side, [unfinished])) in ("moon", "sun", "star")
    # A clue met by a card it did not mean still points at the card it meant (SEEDS: 2 met by
    # SUNFLOWER and an unmeant SEAL still meant SQUIRREL); met by the cards it meant, at little.
    side = _side(green=BOARD[:9], black=("crab", "tree", "phone"))

    def after(found):
        entry = ClueHistoryEntry(giver="A", clue=Clue("finance", 2), guesses=found, outcomes=("green", "green"))
        view = replace(_sudden_death_view(side, [entry]), visible=tuple(w for w in BOARD if w not in found))
        return guesser.sudden_death_chances(view)

    by_chance = after(("bank", "castle"))
    assert max(by_chance, key=by_chance.get) == "money" and by_chance["money"] > 0.5
    as_meant = after(("bank", "money"))
    assert max(as_meant.values()) < by_chance["money"]


# -- reading the partner's refusals, and what a Duet bystander costs ----------------------------


def _duet_guess_view(side, clue, given=(), guesses_made=1):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import GuesserView

    return GuesserView(game="duet", me="B", words=tuple(BOARD), visible=tuple(BOARD), revealed=(),
                       clue=Clue(*clue), guesses_made=guesses_made, max_guesses=None, can_stop=True,
                       own_side=tuple(side), given=tuple(given))


@pytest.mark.models
def test_a_card_my_partner_passed_over_on_my_clue_is_read_as_likelier_black_on_their_side(human_agents):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry

    _, guesser = human_agents
    side = _side(green=("doctor", "nurse", "moon", "sun", "bank", "money", "river", "apple", "tree"),
                 black=("crab", "grab", "king"))
    # my clue HOSPITAL: 2 plainly meant DOCTOR and NURSE; the partner took DOCTOR and stopped
    refused = ClueHistoryEntry(giver="B", clue=Clue("hospital", 2), guesses=("doctor",), outcomes=("green",))
    view = replace(_duet_guess_view(side, ("sky", 2), [refused]), visible=tuple(w for w in BOARD if w != "doctor"))
    factors = guesser.declines(view)
    assert factors["nurse"] > 2.0 and factors.get("moon", 1.0) < 1.2  # NURSE was meant; MOON was not
    plain = replace(view, given=())
    assert guesser._partner_side(view)["nurse"][1] > 2 * guesser._partner_side(plain)["nurse"][1]
    # taking both cards asked for is no refusal of anything
    both = ClueHistoryEntry(giver="B", clue=Clue("hospital", 2), guesses=("doctor", "nurse"), outcomes=("green", "green"))
    assert guesser.declines(replace(view, given=(both,))) == {}
    # and the reading can be turned off
    from spymaster_ai.agents.human import HumanGuesser

    assert HumanGuesser(guesser.reader, read_declines=False)._partner_side(view) == guesser._partner_side(plain)


@pytest.mark.models
def test_a_duet_bystander_cost_below_wrong_cost_guesses_on_and_max_black_stops_a_risky_later_card(human_agents):
    from spymaster_ai.agents.human import HumanGuesser

    _, guesser = human_agents
    side = _side(green=BOARD[:9], black=BOARD[9:12])
    view = _duet_guess_view(side, ("hospital", 2))
    bold = HumanGuesser(guesser.reader, duet_wrong_cost=0.0)
    for card in ("nurse", "fever", "star"):
        assert bold.worth(view, card, 0.5) > guesser.worth(view, card, 0.5)
    # the black-card risk alone still says no to a long shot
    assert bold.worth(view, "fever", 0.05) < 0
    # max_black: no later card that may be black for the partner, however likely it is right
    with pytest.raises(ValueError, match="max_black"):
        HumanGuesser(guesser.reader, max_black=1.5)
    card = guesser.next_guess(view)
    black = guesser._risks(view, card, 0.5)[1] if card else 0.0
    strict = HumanGuesser(guesser.reader, max_black=0.0)
    assert strict.next_guess(view) is None or black == 0.0
    assert strict.next_guess(replace(view, guesses_made=0)) is not None  # the first guess is still made


@pytest.mark.models
def test_the_human_spymaster_does_not_aim_again_at_a_card_its_partner_refused(human_agents):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry

    spymaster, _ = human_agents
    spymaster.reset(0)
    view = _giver_view(own=("doctor", "nurse", "moon", "sun", "star", "river", "apple", "tree", "bank"),
                       assassins=("crab", "grab", "king"), bystanders=[w for w in BOARD if w not in (
                           "doctor", "nurse", "moon", "sun", "star", "river", "apple", "tree", "bank", "crab", "grab", "king")])
    first = spymaster.give_clue(view)
    option = spymaster._pending
    assert first.count >= 1 and option
    # the partner stops after none of them: every target of that clue was refused
    history = (ClueHistoryEntry(giver="A", clue=first, guesses=(), outcomes=()),)
    assert set(spymaster._declined(replace(view, history=history))) == set(option)
    spymaster.give_clue(replace(view, history=history))
    assert all(spymaster._aims[c] >= spymaster.max_aims for c in option)
    # a wrong card the reader ranks above the targets is a misreading, not a refusal
    ranked = spymaster.reader.probabilities(list(BOARD), first.word)
    worst_bad = max((w for w in BOARD if w not in option), key=lambda w: ranked[BOARD.index(w)])
    spymaster._pending, spymaster._pending_clue = option, first.word
    misread = (ClueHistoryEntry(giver="A", clue=first, guesses=(worst_bad,), outcomes=("bystander",)),)
    declined = spymaster._declined(replace(view, history=misread))
    assert all(ranked[BOARD.index(c)] > ranked[BOARD.index(worst_bad)] for c in declined)


# -- sudden death: playtest positions (2026-12-04), rebuilt around the recorded cards ---------------
# Each board keeps the recorded cards; the rest of the board and the AI's key side are rebuilt so
# that, as in the recorded game, the key table alone rates a card no clue points to highest. The
# AI's marks (its own bystander guesses) make its unknown bystanders likely green for the person.


def _recorded_position(board, green, black, marked, found, clues):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry, GuesserView

    board = board.split(",")
    green, black, marked = green.split(","), black.split(","), tuple(marked.split(","))
    covered = set(found) | set(green[:6])  # the person's clues found six of my greens too
    history = tuple(ClueHistoryEntry(giver="A", clue=Clue(word, n), guesses=tuple(got), outcomes=("green",) * len(got))
                    for word, n, got in clues)
    side = tuple("green" if w in green else "black" if w in black else "bystander" for w in board)
    return GuesserView(game="duet", me="B", words=tuple(board), visible=tuple(w for w in board if w not in covered),
                       revealed=tuple((w, "green") for w in board if w in covered), clue=None, guesses_made=0,
                       max_guesses=None, can_stop=False, history=history, sudden_death=True, own_side=side,
                       marked_by_me=marked)


RECORDED_SUDDEN_DEATHS = {
    # the AI took CHESS while GUITAR was the unfound half of the person's NOTE: 2
    "note": (("guitar,chess,piano,oar,swallow,dock,barn,glacier,club,peanut,sunflower,beetle,gate,lens,wizard,"
              "hammock,garden,lizard,bullet,bridge,pot,ocean,nest,hedgehog,wreck",
              "oar,swallow,dock,barn,glacier,club,peanut,sunflower,beetle", "guitar,gate,lens",
              "wizard,hammock,garden,lizard,bullet,bridge,pot", ("piano",), [("note", 2, ("piano",))]),
             "chess", {"guitar"}),
    # it took WIG while APRON and IRON were still open from SEWING: 3
    "sewing": (("apron,iron,wig,needle,zebra,koala,ticket,lobster,bandit,eraser,pancake,onion,letter,trumpet,"
                "whistle,geyser,oar,jaguar,quilt,crystal,paint,canoe,fog,throne,bride",
                "zebra,koala,ticket,lobster,bandit,eraser,pancake,onion,letter", "apron,iron,trumpet",
                "whistle,geyser,oar,jaguar,quilt,crystal,paint", ("needle",), [("sewing", 3, ("needle",))]),
               "wig", {"apron", "iron"}),
    # it took BICYCLE after ICE: 2 and NORTH: 2 had both pointed at SNOWFLAKE
    "ice": (("snowflake,bicycle,penguin,compass,mint,cannon,llama,cactus,lamb,medal,goblin,bench,skeleton,donkey,"
             "mammoth,crayon,skate,giraffe,trunk,tray,cellar,storm,scarf,shield,jewel",
             "mint,cannon,llama,cactus,lamb,medal,goblin,bench,skeleton", "snowflake,donkey,mammoth",
             "crayon,skate,giraffe,trunk,tray,cellar,storm", ("penguin", "compass"),
             [("ice", 2, ("penguin",)), ("north", 2, ("compass",))]),
            "bicycle", {"snowflake"}),
}


@pytest.mark.models
@pytest.mark.parametrize("case", sorted(RECORDED_SUDDEN_DEATHS))
def test_in_sudden_death_the_ai_takes_an_open_leftover_of_the_persons_clues(human_agents, case):
    _, guesser = human_agents
    position, trap, meant = RECORDED_SUDDEN_DEATHS[case]
    view = _recorded_position(*position)
    chances = guesser.sudden_death_chances(view)
    assert max(chances, key=chances.get) == trap  # the key table alone would take the recorded card
    leftovers = guesser.sudden_death_leftovers(view)
    assert set(leftovers) & meant
    if case == "sewing":  # three of the four models link WIG to SEWING: a leftover, but less plain
        assert leftovers["wig"] < max(leftovers[w] for w in meant)
    else:
        assert trap not in leftovers
    assert guesser.next_guess(view) in meant


def _played_position(words, own_side, visible, history, **more):
    """A Duet guesser view recorded from a playtest's save (the person is A, the AI B)."""
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry, GuesserView

    words = tuple(words.split(","))
    visible = tuple(visible.split(","))
    entries = tuple(ClueHistoryEntry(giver=giver, clue=Clue(word, n), guesses=tuple(got), outcomes=("green",) * len(got))
                    for giver, word, n, got in history)
    clue = more.pop("clue", None)
    return GuesserView(game="duet", me="B", words=words, visible=visible,
                       revealed=tuple((w, "green") for w in words if w not in visible),
                       clue=Clue(*clue) if clue else None, guesses_made=more.pop("guesses_made", 0), max_guesses=None,
                       can_stop=more.pop("can_stop", False), history=entries, sudden_death=clue is None,
                       own_side=tuple(own_side.split(",")), **more)


# English playtest of 2026-12-05 round 4 (docs/playtests/2026-12-05/en4.md), seed 9898: in sudden
# death the AI took LENS (a bystander) while FOUNTAIN, the open half of STONE: 2, was green.
# DARK: 2 had found SHADOW and DUNGEON, its two likeliest cards, yet still "meant" 0.6 of LENS.
PLAYED_9898 = dict(
    words="hero,temple,wagon,vase,waffle,circus,date,shadow,trophy,bread,butterfly,lens,stamp,wig,bee,shovel,"
          "fountain,quarry,yeti,fleet,wallet,shell,sparrow,bear,dungeon",
    own_side="green,green,bystander,black,bystander,bystander,bystander,green,green,green,green,bystander,green,"
             "black,bystander,green,bystander,bystander,green,black,bystander,bystander,bystander,bystander,bystander",
    visible="wagon,vase,waffle,circus,date,bread,lens,bee,fountain,yeti,fleet,wallet,shell,bear",
    history=[("A", "dark", 2, ("shadow", "dungeon")), ("A", "wings", 2, ("sparrow", "butterfly")),
             ("A", "stone", 2, ("quarry",)), ("A", "hair", 2, ("wig",))])
# Seed 9900: after BATTERY the AI took YACHT while RIDDLE and LIBRARY (HOGWARTS: 3) were open.
PLAYED_9900 = dict(
    words="radio,canal,trumpet,time machine,rubber duck,parrot,glacier,river,kitchen,rope,north pole,candle,honey,"
          "riddle,farm,pocket,bucket,battery,library,lens,yacht,canoe,wheel,wizard,rabbit",
    own_side="black,green,green,green,bystander,bystander,bystander,green,bystander,green,bystander,black,"
             "bystander,bystander,bystander,green,bystander,bystander,bystander,green,bystander,green,green,"
             "bystander,black",
    visible="radio,rubber duck,parrot,glacier,kitchen,north pole,honey,riddle,farm,bucket,library,yacht,rabbit",
    history=[("A", "blackout", 2, ("time machine",)), ("A", "mechanic", 2, ("wheel",)),
             ("A", "hogwarts", 3, ("wizard",)), ("A", "torch", 2, ("candle",))])


@pytest.mark.models
@pytest.mark.parametrize("played, trap, open_cards", [(PLAYED_9898, "lens", {"fountain"}),
                                                      (PLAYED_9900, "yacht", {"riddle", "library"})])
def test_in_sudden_death_a_clue_met_by_its_likeliest_cards_means_no_more(human_agents, played, trap, open_cards):
    from copy import copy

    _, guesser = human_agents
    view = _played_position(**played)
    assert guesser.next_guess(view) in open_cards
    before = copy(guesser)
    before.met_by_rank = False  # a found card used up min(1, n p) of its clue's count
    assert before.next_guess(view) == trap


# English playtest round 11 (docs/playtests/2026-12-06/en17.md), seed 10008: the person's SCUBA: 2
# meant LAGOON and BUBBLE; the AI's first pick was CAVE (34%), black on its own side and on the
# person's, over LAGOON (23%), a bystander of its own. The game was lost on it.
PLAYED_10008 = dict(
    words="canvas,mermaid,moth,frost,glove,fox,orbit,boxer,pitcher,sponge,wasp,prince,circus,frog,scout,rock,lagoon,"
          "bank,quarry,bubble,monitor,falcon,cave,hammer,bandit",
    own_side="bystander,green,green,bystander,bystander,bystander,green,green,black,green,bystander,bystander,green,"
             "bystander,bystander,green,bystander,green,green,bystander,black,bystander,black,bystander,bystander",
    visible="canvas,mermaid,moth,glove,boxer,pitcher,sponge,wasp,prince,circus,frog,lagoon,bubble,monitor,falcon,cave,"
            "hammer,bandit",
    history=[("B", "concert", 2, ("rock",)), ("A", "cub", 2, ("scout",)), ("B", "deposit", 2, ("bank", "quarry")),
             ("A", "arctic", 2, ("frost", "fox")), ("B", "space", 1, ("orbit",)), ("A", "scuba", 2, ())])


@pytest.mark.models
def test_in_duet_the_first_pick_reads_my_side_of_the_key_as_a_person_does(human_agents):
    from copy import copy

    _, guesser = human_agents
    view = _played_position(**PLAYED_10008, clue=("scuba", 2))
    p = dict(zip(view.words, guesser.probabilities(view)))
    assert p["cave"] > p["lagoon"] == max(v for w, v in p.items() if w != "cave")  # the reading alone: CAVE
    keyed = copy(guesser)
    keyed.first_by_value = True
    assert keyed.next_guess(view) == "lagoon"
    plain = copy(guesser)
    plain.first_by_value = False  # the likeliest card, whatever my side says of it
    assert plain.next_guess(view) == "cave"


def _lost_position(words, own_side, covered, history, found_by_me=(), marked=()):
    """A Duet sudden-death view for the AI (B) rebuilt from a playtest report: the board and the
    AI's key side of ``play duet --seed S``, the cards covered, and the person's clues with
    what the AI took for each (a second outcome word: ``bystander``)."""
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry, GuesserView

    words, covered = tuple(words.split(",")), set(covered.split(","))
    entries = tuple(ClueHistoryEntry(giver="A", clue=Clue(word, n), guesses=tuple(got),
                                     outcomes=("green",) * (len(got) - bool(wrong)) + (("bystander",) if wrong else ()))
                    for word, n, got, wrong in history)
    return GuesserView(game="duet", me="B", words=words, visible=tuple(w for w in words if w not in covered),
                       revealed=tuple((w, "green") for w in words if w in covered), clue=None, guesses_made=0,
                       max_guesses=None, can_stop=False, history=entries, sudden_death=True,
                       own_side=tuple(own_side.split(",")), found_by_me=tuple(found_by_me), marked_by_me=tuple(marked))


# English playtest round 9 (docs/playtests/2026-12-06/en13.md): sudden deaths lost on a card no
# clue of the person's meant while its leftover was open. The reader does not see the person's
# link (JUDGE and KITCHEN for SCALE, DESERT for MUMMY, FRENCH for SNAIL, DOOR for CELLAR), so
# no rule over its reading finds the leftover: known failures, kept as the next stop's target.
LOST_IN_ROUND_9 = {
    "9990 judge, kitchen: scale": (dict(
        words="wig,treasure,scale,reef,cushion,clock,bat,mango,pound,lagoon,anvil,pencil,bamboo,ice age,match,shield,"
              "parrot,dragon,coral,basket,snake,lid,boxer,portrait,jar",
        own_side="bystander,bystander,bystander,green,black,green,green,black,green,bystander,green,green,bystander,"
                 "bystander,bystander,black,bystander,green,bystander,bystander,bystander,green,bystander,green,bystander",
        covered="portrait,pencil,pound,clock,lid,reef,anvil,parrot,dragon,bat,wig,mango,jar",
        history=[("wings", 3, ("parrot", "dragon", "bat"), False), ("judge", 2, ("wig", "match"), True),
                 ("chutney", 2, ("mango",), False), ("kitchen", 2, ("jar", "basket"), True)],
        marked=("match", "basket")), {"scale"}),
    "9991 desert: mummy": (dict(
        words="acorn,badger,blizzard,jungle,juggler,bread,coral,hammer,ribbon,chalk,barrel,ring,drum,coin,island,"
              "theater,pearl,record,gate,pizza,iceberg,letter,loch ness,cushion,mummy",
        own_side="green,bystander,black,green,green,green,bystander,bystander,black,bystander,bystander,green,"
                 "bystander,bystander,green,bystander,black,bystander,green,green,bystander,green,bystander,bystander,"
                 "bystander",
        covered="bread,pizza,juggler,ring,gate,acorn,letter,jungle,coin,island,barrel,record,hammer",
        history=[("monkey", 2, ("jungle", "badger"), True), ("treasure", 2, ("coin",), False),
                 ("desert", 2, ("island", "coral"), True), ("gun", 2, ("barrel", "drum"), True),
                 ("break", 2, ("record", "iceberg"), True)],
        found_by_me=("hammer",), marked=("badger", "coral", "drum", "iceberg")), {"mummy"}),
    "9992 french, door: snail, cellar": (dict(
        words="magnet,dock,fossil,bolt,rope,monster,cellar,office,kettle,attic,temple,rice,vase,frog,tooth fairy,"
              "ice cream,cave,lid,shell,tiger,bat,jelly,snail,parrot,peanut butter",
        own_side="bystander,black,bystander,bystander,green,black,bystander,green,green,black,green,bystander,"
                 "bystander,bystander,green,green,bystander,bystander,green,bystander,green,bystander,bystander,"
                 "bystander,green",
        covered="ice cream,peanut butter,bat,rope,office,temple,frog,tooth fairy,monster,fossil,bolt",
        history=[("french", 2, ("frog",), False), ("imaginary", 2, ("tooth fairy",), False),
                 ("frankenstein", 2, ("monster", "fossil"), False), ("door", 2, ("attic",), True)],
        found_by_me=("bolt",), marked=("attic",)), {"snail", "cellar"}),
}


@pytest.mark.models
@pytest.mark.xfail(strict=True, reason="the reader misses the person's link (issue 39, round 9)")
@pytest.mark.parametrize("case", sorted(LOST_IN_ROUND_9))
def test_in_sudden_death_the_ai_finds_the_leftover_a_person_meant(human_agents, case):
    _, guesser = human_agents
    position, meant = LOST_IN_ROUND_9[case]
    assert guesser.next_guess(_lost_position(**position)) in meant


@pytest.mark.models
def test_in_duet_a_later_card_is_judged_by_its_chance_not_by_how_strongly_it_calls_the_clue_to_mind(human_agents):
    """Seed 9900: HOGWARTS: 3 and WIZARD taken; RIDDLE (meant) is read at 22%, its link at
    0.8 standard deviations: under ``min_evoke`` 1.0, and the AI stopped."""
    from copy import copy

    _, guesser = human_agents
    played = {**PLAYED_9900, "history": PLAYED_9900["history"][:3],
              "visible": "radio,trumpet,rubber duck,parrot,glacier,kitchen,north pole,candle,honey,riddle,farm,bucket,"
                         "battery,library,lens,yacht,rabbit"}
    view = _played_position(**played, clue=("hogwarts", 3), guesses_made=1, can_stop=True, tokens_left=4, turns_played=5)
    assert guesser.next_guess(view) == "riddle"
    before = copy(guesser)
    before.duet_min_evoke = 1.0
    assert before.next_guess(view) is None


@pytest.mark.models
def test_in_sudden_death_a_card_i_found_green_on_both_sides_uses_up_the_clue_that_meant_it(human_agents):
    """PET: 2 found DOG; in sudden death I found CAT, green on my side too. Before the view
    said who found it, such a card was left out of the count (the partner might have found
    it as one of mine), and PET still "meant" half of BONE (a German playtest lost on SKELETT
    after finding EICHE: 3's EICHHÖRNCHEN and WURZEL)."""
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry, GuesserView

    _, guesser = human_agents
    side = _side(green=("doctor", "nurse", "moon", "sun", "bank", "money", "river", "apple", "cat"),
                 black=("crab", "king", "queen"))
    covered = {"dog", "doctor", "nurse", "moon", "sun", "cat"}
    view = GuesserView(game="duet", me="B", words=BOARD, visible=tuple(w for w in BOARD if w not in covered),
                       revealed=tuple((w, "green") for w in BOARD if w in covered), clue=None, guesses_made=0,
                       max_guesses=None, can_stop=False, sudden_death=True, own_side=tuple(side),
                       history=(ClueHistoryEntry(giver="A", clue=Clue("pet", 2), guesses=("dog",), outcomes=("green",)),))
    _, unknown = guesser._sudden_death_reading(view)
    assert unknown["bone"] > 0.3
    _, meant = guesser._sudden_death_reading(replace(view, found_by_me=("cat",)))
    assert max(meant.values()) < 0.05


@pytest.mark.models
def test_a_card_the_reader_shares_a_clue_with_but_that_does_not_call_it_to_mind_is_no_leftover(human_agents):
    # among the few cards left the reader's shares spread over cards with no link at all
    _, guesser = human_agents
    view = _recorded_position(
        "snowflake,bicycle,penguin,compass,blizzard,squirrel,wig,pillow,soap,lamb,wool,star,pearl,fleet,peanut,"
        "wallet,diary,zombie,crystal,snail,radar,wheel,lobby,python,flask",
        "blizzard,squirrel,wig,pillow,soap,lamb,wool,star,pearl", "snowflake,fleet,peanut",
        "wallet,diary,zombie,crystal,snail,radar,wheel", ("penguin", "compass"),
        [("ice", 2, ("penguin",)), ("north", 2, ("compass",))])
    _, meant = guesser._sudden_death_reading(view)
    unlinked = [w for w, m in meant.items() if m >= guesser.leftover_min and guesser.evoke(view, w, "ice") < 1.0
                and guesser.evoke(view, w, "north") < 1.0]
    assert unlinked  # the reader gives them a share a clue could mean
    assert not set(unlinked) & set(guesser.sudden_death_leftovers(view))

# -- association evidence (issue 39) --------------------------------------------------------------


def test_the_thesaurus_links_go_both_ways_and_keep_only_what_people_said():
    from spymaster_ai.agents.human.spymaster import eat_links

    links = eat_links(0.02)
    assert "walrus" in links["seal"] and "seal" in links["walrus"]  # 5 of about 100 people
    assert "turtle" not in links.get("fairy", ())
    assert "captain" in eat_links(0.01)["army"]  # one person of 96 said CAPTAIN for ARMY
    assert len(eat_links(0.01)["army"]) > len(links["army"])


def test_inflected_verb_forms_are_told_from_adjectives_and_nouns():
    from spymaster_ai.agents.human.spymaster import verb_form

    assert verb_form("placed") and verb_form("wanted")
    assert not any(verb_form(w) for w in ("tired", "armed", "used", "building", "wedding", "ring", "bed", "place"))


@pytest.mark.models
def test_with_assoc_strength_every_later_target_is_linked_to_the_clue_in_the_thesaurus(human_agents):
    from spymaster_ai.agents.human.spymaster import _forms, eat_links, verb_form
    from spymaster_ai.agents.registry import make_spymaster

    own = ["ocean", "beach", "doctor", "nurse", "moon", "sun", "bank", "money", "knight"]
    assassins = ["crab", "tree", "phone"]
    view = _giver_view(own, assassins, [w for w in BOARD if w not in own + assassins])
    links = eat_links(0.02)

    def linked(clue, card):
        return any(r in links.get(f, ()) for f in _forms(clue) for r in _forms(card))

    def unlinked_later(options):
        return [o for o in options if o.count >= 2 and not all(linked(o.word, t) for t in o.targets[1:])]

    plain, _ = human_agents
    plain.reset(0)
    plain_options = plain.rank_clues(view, top=300)
    assert unlinked_later(plain_options)  # without the test, such targets are counted
    mask = plain._verb_mask()  # no_verb_forms is the default: PLACED is in the vocabulary, never a clue
    assert "placed" in plain.vocabulary and mask[plain.vocabulary.index("placed")]
    assert not mask[plain.vocabulary.index("place")] and not any(verb_form(o.word) for o in plain_options)
    strict = make_spymaster("human:assoc_strength=0.02,no_verb_forms=true")
    strict.reset(0)
    options = strict.rank_clues(view, top=300)
    assert any(o.count >= 2 for o in options) and not unlinked_later(options)
    assert not any(verb_form(o.word) for o in options)


@pytest.mark.models
def test_a_clue_it_cannot_read_takes_the_card_its_key_makes_safest_then_stops(human_agents):
    _, guesser = human_agents
    # the first card in board order is black on my side: a third of such cards are black on
    # the partner's; one bystander on mine in 13 is black on theirs and 5 are green
    first = BOARD[0]
    greens = tuple(w for w in BOARD[1:] if w != BOARD[-1])[:9]
    side = _side(green=greens, black=(first, BOARD[-1]))
    unread = "qzxvbnmkk"
    assert not guesser.reads(unread)
    view = _duet_guess_view(side, (unread, 2), guesses_made=0)
    pick = guesser.next_guess(view)
    assert side[BOARD.index(pick)] == "bystander"  # not BOARD[0], a uniform reading's board-order pick
    assert guesser.next_guess(replace(view, guesses_made=1)) is None  # nothing more to read into it


@pytest.mark.models
def test_past_the_count_only_an_earlier_clues_leftover_is_guessed(human_agents, monkeypatch):
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import ClueHistoryEntry

    _, guesser = human_agents
    side = _side(green=("doctor", "nurse", "moon", "sun", "bank", "money", "river", "apple", "tree"),
                 black=("crab", "king", "queen"))
    # HOSPITAL: 2 found DOCTOR and NURSE; nothing earlier is open, so a third card is a blind one
    done = ClueHistoryEntry(giver="A", clue=Clue("hospital", 2), guesses=("doctor", "nurse"),
                            outcomes=("green", "green"))
    view = replace(_duet_guess_view(side, ("hospital", 2), guesses_made=2), history=(done,),
                   visible=tuple(w for w in BOARD if w not in ("doctor", "nurse")))
    monkeypatch.setattr(type(guesser), "_earlier_meant", lambda self, view, best: 1.0)  # the rule before
    blind = guesser.next_guess(view)
    monkeypatch.undo()
    assert guesser.next_guess(view) is None
    # an earlier clue's open leftover may still be taken past the count
    sky = ClueHistoryEntry(giver="A", clue=Clue("sky", 2), guesses=("sun",), outcomes=("green",))
    later = replace(view, history=(sky, done), visible=tuple(w for w in view.visible if w != "sun"))
    meant = {w: guesser._earlier_meant(later, BOARD.index(w)) for w in later.visible}
    assert max(meant, key=meant.get) in ("moon", "star") and meant["moon"] > 10 * meant["bank"]
    assert blind is not None  # the rule before took a third card no clue still asked for


@pytest.mark.models
def test_in_sudden_death_a_card_a_clue_still_means_comes_before_the_key_table(human_agents):
    from copy import copy

    _, guesser = human_agents
    position, trap, meant_cards = RECORDED_SUDDEN_DEATHS["ice"]
    view = _recorded_position(*position)
    strict = copy(guesser)
    strict.leftover_evoke = 100.0  # no card calls a clue to mind plainly enough: no open leftover
    assert not strict.sudden_death_leftovers(view)
    _, meant = strict._sudden_death_reading(view)
    clued = {w for w, m in meant.items() if m >= strict.leftover_min}
    assert clued and trap not in clued
    assert strict.next_guess(view) in clued  # SNOWFLAKE: two clues meant it
    strict.clued_first = False
    assert strict.next_guess(view) == trap  # the key table alone: BICYCLE, as the playtest lost


@pytest.mark.models
def test_in_duet_a_later_card_the_clue_barely_meant_is_not_taken(human_agents):
    from copy import copy

    _, guesser = human_agents
    side = _side(green=("doctor", "nurse", "moon", "sun", "bank", "money", "river", "apple", "tree"),
                 black=("crab", "king", "queen"))
    # MILE: 2 and RIVER taken: the reader's next card, OCEAN, is meant at about a fifth
    view = replace(_duet_guess_view(side, ("mile", 2), guesses_made=1), visible=tuple(w for w in BOARD if w != "river"))
    loose = copy(guesser)
    loose.duet_meant = False
    assert loose.next_guess(view) == "ocean"  # the stop rule alone reads ~0.76 for any top card
    assert guesser.next_guess(view) is None  # a careful person stops: the clue barely meant it


@pytest.mark.models
def test_in_duet_a_later_card_the_clue_meant_is_taken_for_it_may_be_green_unmeant(human_agents):
    """PRICE: 2 and MONEY taken: BANK, read at about half, is taken. Read as the chance of
    green, the cap stopped here (en3: the AI stopped after one right card on 5 of 8 clues)."""
    from copy import copy

    _, guesser = human_agents
    side = _side(green=("doctor", "nurse", "moon", "sun", "bank", "money", "river", "apple", "tree"),
                 black=("crab", "king", "queen"))
    view = replace(_duet_guess_view(side, ("price", 2), guesses_made=1), visible=tuple(w for w in BOARD if w != "money"))
    assert guesser.next_guess(view) == "bank"
    before = copy(guesser)
    before.unmeant_green = False
    assert before.next_guess(view) is None
    right, black, other = guesser._meant_or_unclued(view, "bank", 0.5)
    assert right == pytest.approx(0.5 + 0.5 * 3 / 9) and black == pytest.approx(0.5 * 1 / 9)  # RULES.md section 3
    assert right + black + other == pytest.approx(1.0)


@pytest.mark.models
def test_with_duet_clock_a_black_card_costs_what_the_clock_makes_it_cost(human_agents):
    """CHUTNEY: 2 of round 9 (seed 9990), MANGO taken: with tokens to spare a black card costs
    ``assassin_cost`` and the AI stops; two tokens from the end, 10 greens of 15 found, the game
    is nearly lost anyway, a black card costs little and it takes its likeliest card (off by
    default: see ``HumanGuesser``)."""
    from copy import copy

    from spymaster_ai.rules.moves import Clue

    guesser = copy(human_agents[1])
    guesser.duet_clock = True
    position = dict(LOST_IN_ROUND_9["9990 judge, kitchen: scale"][0], covered="portrait,pencil,pound,clock,lid,parrot,"
                    "dragon,bat,wig,mango", marked=("match",))
    position["history"] = position["history"][:2]
    view = replace(_lost_position(**position), sudden_death=False, clue=Clue("chutney", 2), guesses_made=1,
                   can_stop=True, tokens_left=8, turns_played=1)
    assert guesser._black_cost(view) == guesser.assassin_cost
    assert guesser.next_guess(view) is None
    late = replace(view, tokens_left=2, turns_played=7)
    assert guesser._black_cost(late) < 1.0
    assert guesser.next_guess(late) is not None
    blind = copy(guesser)
    blind.duet_clock = False
    assert blind._black_cost(late) == guesser.assassin_cost and blind.next_guess(late) is None
    assert guesser._black_cost(replace(late, sudden_death=True, clue=None)) == guesser.assassin_cost
