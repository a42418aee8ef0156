"""Who the AI players of a session are: the person's partner, and the opposing team's level."""

from __future__ import annotations

import pytest

from spymaster_ai.agents.registry import check_spec
from spymaster_ai.play.session import ai_roles
from spymaster_ai.play.settings import DEFAULT_AGENT, LEVELS, PlaySettings, SettingsError


def test_the_default_partner_is_the_agent_built_for_people():
    settings = PlaySettings(mode="duet", seed=1)
    assert DEFAULT_AGENT == "human"
    assert [settings.spec_for(r).split(":")[0] for r in ai_roles(settings)] == ["human", "human"]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_opposing_team_plays_at_its_level_and_the_partner_does_not(level):
    settings = PlaySettings(mode="classic", seed=1, role="guesser", team="red", level=level)
    spymaster, guesser = LEVELS[level]
    assert settings.spec_for("blue_spymaster") == spymaster
    assert settings.spec_for("blue_guesser") == guesser
    assert settings.spec_for("red_spymaster") == settings.ai_spymaster_spec()  # my partner
    check_spec("spymaster", spymaster)
    check_spec("guesser", guesser)


def test_a_blue_player_faces_a_red_team_at_the_level():
    settings = PlaySettings(mode="classic", seed=1, role="spymaster", team="blue", level="hard")
    assert settings.spec_for("red_spymaster") == LEVELS["hard"][0]
    assert settings.spec_for("blue_guesser") == settings.ai_guesser_spec()


def test_an_unknown_level_is_refused_in_one_line():
    with pytest.raises(SettingsError, match="--level must be one of easy, normal, hard"):
        PlaySettings(mode="classic", seed=1, level="brutal")


def test_risk_sets_the_human_guessers_caution():
    assert PlaySettings(mode="duet", seed=1, risk=0.5).ai_guesser_spec() == "human:assassin_cost=6.0"
    assert PlaySettings(mode="duet", seed=1, risk=0.0).ai_guesser_spec() == "human:assassin_cost=12.0"
    assert PlaySettings(mode="duet", seed=1, agent="minilm").ai_guesser_spec().startswith("minilm:stop_threshold=")


def test_no_clue_is_shown_as_current_once_a_duet_game_is_over():
    from spymaster_ai.play.screen import duet_screen
    from spymaster_ai.play.setup import new_game
    from spymaster_ai.rules.duet import Player
    from spymaster_ai.rules.moves import Clue

    game, labels = new_game(PlaySettings(mode="duet", seed=3))
    giver = game.current_player if hasattr(game, "current_player") else Player.A
    game.give_clue(giver, Clue("zebra", 1))
    receiver_view = game.spymaster_view(giver)
    game.guess(receiver_view.assassins[0])  # the giver's black card: the game is lost
    assert game.is_over
    screen = duet_screen(game, labels, title="t", clues=(), turn="over")
    assert screen.current is None


def test_why_names_covered_targets_only_and_the_reading_of_the_persons_clue():
    from spymaster_ai.play.explain import NOTHING_YET, why_text

    text = why_text([("The AI", "ocean: 2", ("wave", "beach"))], [("sky: 1", [("sun", 0.6), ("moon", 0.3)])],
                    covered={"wave"}, label=str.upper)
    assert "OCEAN: 2 aimed at WAVE (and 1 not found yet)" in text and "BEACH" not in text
    assert "your SKY: 1: how the AI read it, its likeliest cards: SUN 60%, MOON 30%" in text
    assert "ARMY: 2: its 2 targets are not found yet" in why_text([("The AI", "army: 2", ("a", "b"))], [], set(), str.upper)
    assert why_text([], [], set(), str.upper) == NOTHING_YET
