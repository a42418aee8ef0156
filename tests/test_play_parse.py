"""What the human types (cards, clues, commands), the session settings and the AI's card names.

No models: these run in well under a second.
"""

from __future__ import annotations

import pytest

from spymaster_ai.play.names import CardNames, UnknownCardName
from spymaster_ai.play.parse import InputError, command_of, match_card, parse_clue
from spymaster_ai.play.settings import PlaySettings, SettingsError, guesser_threshold
from spymaster_ai.play.setup import ai_names, new_game
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import ClueHistoryEntry, GuesserView, SpymasterView

BOARD = ("bat", "battery", "bath", "car", "carrot", "ice cream", "new york")


# ----------------------------------------------------------------------------- cards


def test_card_names_are_case_insensitive_and_take_unique_prefixes():
    allowed = set(BOARD)
    assert match_card("CARROT", BOARD, allowed) == "carrot"
    assert match_card("batt", BOARD, allowed) == "battery"
    assert match_card("  Ice-Cream ", BOARD, allowed) == "ice cream"
    assert match_card("new", BOARD, allowed) == "new york"


def test_an_exact_name_wins_over_longer_names_it_starts():
    allowed = set(BOARD)
    assert match_card("bat", BOARD, allowed) == "bat"
    assert match_card("car", BOARD, allowed) == "car"


def test_an_ambiguous_prefix_names_the_candidates():
    board = tuple(c for c in BOARD if c != "bat")
    with pytest.raises(InputError) as err:
        match_card("bat", board, set(board))
    message = str(err.value)
    assert "ambiguous" in message and "BATTERY" in message and "BATH" in message


def test_only_cards_that_may_be_chosen_make_a_prefix_ambiguous():
    # BATH is covered: "bat" can only mean BATTERY.
    board = tuple(c for c in BOARD if c != "bat")
    assert match_card("bat", board, {"battery", "car"}) == "battery"


def test_a_start_shorter_than_three_letters_plays_no_card_unless_it_is_the_whole_name():
    board = ("candle", "onion", "ox", "polar bear", "tree")
    for typed in ("c", "o", "ca", "PO", "b"):
        with pytest.raises(InputError, match="too short to name a card: type at least 3 letters"):
            match_card(typed, board, set(board))
    assert match_card("ox", board, set(board)) == "ox"  # the whole name
    assert match_card("can", board, set(board)) == "candle"
    assert match_card("bear", board, set(board)) == "polar bear"  # a whole word of the name
    with pytest.raises(InputError, match="not a card on this board"):
        match_card("zq", board, set(board))


@pytest.mark.parametrize("text", ["ocean \u0662", "ocean \u06f2", "ocean:\u06f3", "ocean \uff12"])
def test_a_count_in_other_digits_than_0_to_9_is_refused_with_what_to_type(text):
    with pytest.raises(InputError, match="digits 0-9"):
        parse_clue(text, 9)
    assert parse_clue("ocean 2", 9) == Clue("ocean", 2)


def test_a_word_not_on_the_board_gets_a_clear_message():
    with pytest.raises(InputError, match="not a card on this board"):
        match_card("zebra", BOARD, set(BOARD))
    with pytest.raises(InputError, match="type a card name"):
        match_card("   ", BOARD, set(BOARD))


def test_a_typo_suggests_the_closest_card_that_may_be_chosen_and_plays_nothing():
    board = ("diary", "dairy farm", "piano", "ice cream")
    with pytest.raises(InputError, match=r"'diray' is not a card on this board\. Did you mean DIARY\?"):
        match_card("diray", board, set(board))
    with pytest.raises(InputError, match="Did you mean PIANO"):
        match_card("PAINO", board, set(board))
    with pytest.raises(InputError, match="Did you mean ICE CREAM"):
        match_card("ice crem", board, set(board))
    # a covered card is not suggested; nothing close at all: no suggestion
    with pytest.raises(InputError) as err:
        match_card("diray", board, {"piano", "ice cream"})
    assert "Did you mean" not in str(err.value)
    with pytest.raises(InputError) as err:
        match_card("xyzzy", board, set(board))
    assert "Did you mean" not in str(err.value) and "not a card on this board" in str(err.value)


def test_a_typo_of_a_caption_word_suggests_the_picture_by_its_caption():
    cards = ("pic:rocket_cat", "pic:dog")
    labels = {"pic:rocket_cat": "rocket + cat", "pic:dog": "sleeping dog"}
    with pytest.raises(InputError, match="Did you mean ROCKET \\+ CAT"):
        match_card("rockte", cards, set(cards), labels)


def test_a_card_that_may_not_be_chosen_says_why():
    with pytest.raises(InputError, match="CARROT is already covered"):
        match_card("carrot", BOARD, {"car"}, why_not={"carrot": "is already covered"})


def test_picture_captions_match_by_any_word():
    cards = ("pic:rocket+cat", "pic:caterpillar", "pic:dog")
    labels = {"pic:rocket+cat": "rocket + cat", "pic:caterpillar": "caterpillar", "pic:dog": "dog"}
    allowed = set(cards)
    assert match_card("rocket", cards, allowed, labels) == "pic:rocket+cat"
    assert match_card("cat", cards, allowed, labels) == "pic:rocket+cat"  # a whole word beats a prefix
    assert match_card("cater", cards, allowed, labels) == "pic:caterpillar"
    assert match_card("Rocket + Cat", cards, allowed, labels) == "pic:rocket+cat"
    with pytest.raises(InputError, match="ambiguous"):
        match_card("roc", cards + ("pic:rockery",), allowed | {"pic:rockery"}, {**labels, "pic:rockery": "rockery"})


# ----------------------------------------------------------------------------- clues


@pytest.mark.parametrize(
    "text, clue",
    [
        ("ocean 2", Clue("ocean", 2)),
        ("Ocean: 2", Clue("Ocean", 2)),
        ("ocean,3", Clue("ocean", 3)),
        ("ocean:0", Clue("ocean", 0)),
        ("  ocean   1 ", Clue("ocean", 1)),
        ("ocean unlimited", Clue("ocean", 0, True)),
        ("ocean inf", Clue("ocean", 0, True)),
        ("new york 2", Clue("new york", 2)),
    ],
)
def test_clues_are_read_in_the_usual_spellings(text, clue):
    assert parse_clue(text, 25) == clue


@pytest.mark.parametrize("text", ["ocean", "2", "ocean two", "ocean2", ""])
def test_a_clue_without_a_number_is_refused_with_an_example(text):
    with pytest.raises(InputError, match="a word and a number|needs a word"):
        parse_clue(text, 25)


def test_a_clue_number_above_the_cards_left_is_refused():
    with pytest.raises(InputError, match="at most 9"):
        parse_clue("ocean 10", 9)


def test_commands_are_whole_lines_in_any_case():
    assert command_of("STOP") == "stop"
    assert command_of(" pass ") == "stop"
    assert command_of("Quit") == "quit"
    assert command_of("help") == "help"
    assert command_of("board") == "board"
    assert command_of("stop 2") is None  # a clue "stop: 2", not the command
    assert command_of("ocean") is None


# ----------------------------------------------------------------------------- settings


def test_settings_refuse_bad_values_before_anything_loads():
    with pytest.raises(SettingsError, match="--risk"):
        PlaySettings(mode="solo", seed=1, risk=1.5)
    with pytest.raises(SettingsError, match="--role"):
        PlaySettings(mode="solo", seed=1, role="captain")
    with pytest.raises(SettingsError, match="unknown mission"):
        PlaySettings(mode="duet", seed=1, mission="atlantis")
    with pytest.raises(SettingsError, match="a mission fixes"):
        PlaySettings(mode="duet", seed=1, mission="cairo", tokens=9)
    with pytest.raises(SettingsError, match="--mistakes"):
        PlaySettings(mode="duet", seed=1, tokens=5, mistakes=7)
    with pytest.raises(SettingsError, match="duet only"):
        PlaySettings(mode="classic", seed=1, tokens=9)
    with pytest.raises(SettingsError, match="--team does not apply"):
        PlaySettings(mode="solo", seed=1, team="blue")
    with pytest.raises(SettingsError, match="--spymaster-spec"):
        PlaySettings(mode="solo", seed=1, agent="glove50:risk=0.2")
    with pytest.raises(SettingsError, match="--seed"):
        PlaySettings(mode="solo", seed=-1)


def test_settings_round_trip_through_json():
    s = PlaySettings(mode="duet", seed=7, mission="Cairo", agent="glove50", risk=0.3, first="human", penalty=True)
    assert s.mission == "cairo"
    assert PlaySettings.from_json(s.to_json()) == s
    with pytest.raises(SettingsError, match="unknown session settings"):
        PlaySettings.from_json({**s.to_json(), "cheat": True})


def test_risk_sets_both_ai_roles():
    s = PlaySettings(mode="solo", seed=1, agent="glove50", risk=0.8)
    assert s.ai_spymaster_spec() == "glove50:risk=0.8"
    assert s.ai_guesser_spec() == f"glove50:stop_threshold={guesser_threshold(0.8)!r}"
    assert guesser_threshold(0.5) == 0.5  # the guesser's own default
    assert guesser_threshold(1.0) < guesser_threshold(0.5) < guesser_threshold(0.0)
    custom = PlaySettings(mode="solo", seed=1, spymaster_spec="robust:risk=0.2", guesser_spec="random")
    assert (custom.ai_spymaster_spec(), custom.ai_guesser_spec()) == ("robust:risk=0.2", "random")


def test_who_holds_the_key():
    assert PlaySettings(mode="solo", seed=1, role="spymaster").human_holds_key
    assert not PlaySettings(mode="solo", seed=1, role="guesser").human_holds_key
    assert not PlaySettings(mode="duet", seed=1).human_holds_key  # one side only


# ----------------------------------------------------------------------------- dealing


def test_a_seed_deals_the_same_board_and_key_in_every_mode():
    for mode, extra in (("solo", {}), ("classic", {}), ("duet", {}), ("pictures", {"cards": "words"})):
        s = PlaySettings(mode=mode, seed=11, **extra)
        g1, _ = new_game(s)
        g2, _ = new_game(s)
        assert g1.config() == g2.config()
    assert new_game(PlaySettings(mode="solo", seed=11))[0].words != new_game(PlaySettings(mode="solo", seed=12))[0].words


def test_solo_deals_as_the_simulator_so_a_seed_names_one_board():
    from spymaster_ai.rules.cards import CLASSIC_LAYOUT, Team, deal_words, generate_classic_key
    from spymaster_ai.rules.wordlists import load_words
    import random

    rng = random.Random(5)
    words = deal_words(load_words("classic"), CLASSIC_LAYOUT[0], rng)
    key = generate_classic_key(rng, CLASSIC_LAYOUT, starting=Team.RED)
    game, _ = new_game(PlaySettings(mode="solo", seed=5))
    assert game.words == words and game.key == key and game.solo


def test_duet_missions_and_token_settings_reach_the_engine():
    g, _ = new_game(PlaySettings(mode="duet", seed=3, mission="cairo"))
    assert (g.tokens, g.bystander_tokens_left, g.marked_tokens_left) == (9, 5, 4)
    g, _ = new_game(PlaySettings(mode="duet", seed=3, tokens=10, mistakes=6))
    assert (g.tokens, g.bystander_tokens_left) == (10, 6)
    g, _ = new_game(PlaySettings(mode="duet", seed=3, penalty=True))
    assert g.config()["legality"] == "penalty"


def test_picture_boards_hold_deck_cards_with_captions():
    game, labels = new_game(PlaySettings(mode="pictures", seed=2))
    assert len(game.words) == 20 and all(w.startswith("pic:") for w in game.words)
    assert set(labels) == set(game.words) and all(labels.values())
    assert all(game.pictures)
    words, no_labels = new_game(PlaySettings(mode="pictures", seed=2, cards="words"))
    assert no_labels == {} and not any(words.pictures) and len(words.words) == 20


# ----------------------------------------------------------------------------- AI card names


def test_ai_names_turn_captions_into_plain_words_and_stay_unique():
    cards = ("pic:rocket+cat", "pic:dog", "oak")
    labels = {"pic:rocket+cat": "rocket + cat", "pic:dog": "dog"}
    assert ai_names(cards, labels) == {"pic:rocket+cat": "rocket cat", "pic:dog": "dog", "oak": "oak"}
    clash = ai_names(("pic:a", "pic:b"), {"pic:a": "dog", "pic:b": "dog"})
    assert len(set(clash.values())) == 2


def test_views_reach_the_agent_under_their_names_and_keep_what_they_hide():
    names = CardNames({"pic:rocket+cat": "rocket cat", "pic:dog": "dog", "pic:sun": "sun"})
    gv = GuesserView(
        game="pictures", me="red", words=("pic:rocket+cat", "pic:dog", "pic:sun"), visible=("pic:dog", "pic:sun"),
        revealed=(("pic:rocket+cat", "red"),), clue=Clue("space", 2), guesses_made=1, max_guesses=3, can_stop=True,
        history=(ClueHistoryEntry("red", Clue("pet", 1), ("pic:rocket+cat",), ("own",)),),
    )
    seen = names.guesser_view(gv)
    assert seen.words == ("rocket cat", "dog", "sun") and seen.visible == ("dog", "sun")
    assert seen.revealed == (("rocket cat", "red"),) and seen.history[0].guesses == ("rocket cat",)
    assert (seen.clue, seen.guesses_made, seen.can_stop) == (gv.clue, 1, True)
    assert not hasattr(seen, "own")  # still a guesser's view: no key field to map
    sv = SpymasterView(
        game="pictures", me="red", words=gv.words, visible=gv.visible, own=("pic:dog",), opponent=("pic:sun",),
        bystanders=(), assassins=(), revealed=gv.revealed,
    )
    seen = names.spymaster_view(sv)
    assert (seen.own, seen.opponent) == (("dog",), ("sun",))
    assert names.card("rocket cat") == "pic:rocket+cat"
    with pytest.raises(UnknownCardName):
        names.card("pic:dog")  # an agent must answer with the name it was shown
    plain = CardNames({"oak": "oak"})
    assert plain.guesser_view(gv) is gv and plain.card("oak") == "oak"


def test_a_word_that_merely_shares_letters_with_a_card_is_no_typo():
    from spymaster_ai.play.parse import InputError, match_card

    cards = ["polar bear", "diary", "lantern"]
    with pytest.raises(InputError) as exc:
        match_card("clear", cards, set(cards))
    assert "Did you mean" not in str(exc.value)
    with pytest.raises(InputError, match="Did you mean DIARY"):
        match_card("dairy", cards, set(cards))


def test_a_sharp_s_card_is_named_as_it_is_shown_and_as_it_is_written():
    # FUßBALL is shown upper-cased as FUSSBALL: that spelling, its start and fußball all name it
    # (a German playtest was told "'FUSSBALL' is not a card. Did you mean FUSSBALL?").
    cards = ["fußball", "straße", "fuchs"]
    for typed in ("FUSSBALL", "fussball", "Fußball", "fußb", "FUSSB"):
        assert match_card(typed, cards, cards) == "fußball"
    assert match_card("STRASSE", cards, cards) == "straße"
    with pytest.raises(InputError, match="too short"):
        match_card("fu", cards, cards)
