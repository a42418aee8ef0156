"""play_game: every game kind to a legal end, exact outcomes with a perfect scripted pair,
records that replay, the kim2019 loss = 25 turns, and the guards against misbehaving agents."""

from __future__ import annotations

import json

import pytest
from test_sim_scripted import CodebookSpymaster, scripted_factory

from spymaster_ai.rules.cards import Player
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.moves import LossCause
from spymaster_ai.rules.record import from_record
from spymaster_ai.sim.play import GAME_KINDS, KIM2019_LOSS_TURNS, ROLES, GameResult, PlayOptions, lineup, play_game, play_out_duet
from spymaster_ai.sim.seeds import game_seed


def play(game, spymaster, guesser=None, *, seed=0, index=0, options=None, opponent=None, agents=None):
    specs = lineup(game, spymaster, guesser or spymaster, opponent, opponent)
    agents = agents or {r: scripted_factory(r, s) for r, s in specs.items()}
    return play_game(game, agents, specs, seed=game_seed(seed, index), index=index, options=options)


def assert_replays(result: GameResult):
    game = from_record(json.loads(json.dumps(result.record)))  # checks the stored final state too
    assert game.is_over
    return game


@pytest.mark.parametrize("game", GAME_KINDS)
def test_random_play_reaches_a_legal_end(game):
    causes = set()
    for i in range(12):
        r = play(game, "random", seed=1, index=i)
        assert r.error is None
        assert r.won or r.loss_cause in {c.value for c in LossCause}
        # PoolSpymaster clues count 1. Red may give no clue at all when blue starts and
        # ends the game on its first turn (blue touches the assassin, say).
        red_started = r.extra.get("starting", "red") == "red"
        assert (r.clues >= 1 or not red_started) and r.announced == r.clues
        json.dumps(r.to_json())
        assert_replays(r)
        causes.add(r.loss_cause)
    assert causes - {None}, "random play should lose some games"


def test_kim2019_perfect_pair_turns_are_targets_over_count():
    for per_clue, turns in [(1, 8), (2, 4), (3, 3), (8, 1)]:
        r = play("kim2019", f"codebook:{per_clue}", index=per_clue)
        assert r.won and r.loss_cause is None
        assert r.turns == turns and r.extra["turns_played"] == turns
        assert r.correct == 8 and r.clues == turns


def test_kim2019_loss_counts_25_turns():
    losses = [r for r in (play("kim2019", "random", seed=2, index=i) for i in range(15)) if not r.won]
    assert losses, "random play must lose some kim2019 games"
    for r in losses:
        assert r.turns == KIM2019_LOSS_TURNS
        assert r.extra["turns_played"] < KIM2019_LOSS_TURNS
        assert r.loss_cause in ("assassin", "opponent")


def test_kim2019_opponent_never_plays():
    r = play("kim2019", "random", seed=3, index=0)
    assert {a.get("team") for a in r.record["actions"] if a["type"] == "clue"} == {"red"}


def test_solo_score_and_cover_choice():
    # 9 own cards, 3 per clue: 3 turns, a cover after each of the first two -> 8 - 2 = 6
    r = play("solo", "codebook:3")
    assert r.won and r.turns == 3 and r.score == 6
    covers = [a["word"] for a in r.record["actions"] if a["type"] == "solo_cover"]
    assert len(covers) == 2
    # the spymaster's choose_cover hook decides which opponent card is covered
    specs = lineup("solo", "codebook:3", "codebook:3")
    agents = {r_: scripted_factory(r_, s) for r_, s in specs.items()}
    agents["spymaster"] = CodebookSpymaster(3, cover="last")
    r2 = play_game("solo", agents, specs, seed=game_seed(0, 0), index=0)
    covers2 = [a["word"] for a in r2.record["actions"] if a["type"] == "solo_cover"]
    assert covers2 == agents["spymaster"].covers_chosen and covers2 != covers
    # one card per clue: 8 covers take all 8 opponent agents before the 9th own card
    lost = play("solo", "codebook:1")
    assert not lost.won and lost.loss_cause == "opponent" and lost.score is None


def test_solo_random_cover_is_seeded():
    a = play("solo", "random", seed=4, index=2)
    b = play("solo", "random", seed=4, index=2)
    assert a.record == b.record


def test_duet_perfect_pair_exact_score():
    # A clues its 9 greens at once, B its 6 left: 2 turns, 7 tokens left -> 3 * 7 = 21
    r = play("duet", "codebook:9")
    assert r.won and r.turns == 2 and r.score == 21
    assert r.extra == {"tokens_left": 7, "sudden_death": False, "greens_left": 0, "mission": None}
    assert r.correct == 15 and r.clues == 2
    givers = [a["giver"] for a in r.record["actions"] if a["type"] == "clue"]
    assert givers == ["A", "B"]


def test_duet_givers_alternate_from_a():
    r = play("duet", "codebook:2", index=5)
    givers = [a["giver"] for a in r.record["actions"] if a["type"] == "clue"]
    assert givers[0] == "A"
    assert all(x != y for x, y in zip(givers, givers[1:]) if x and y) or r.won


def test_duet_players_are_separate_instances_and_guessers_see_only_their_side():
    seen: dict[str, set] = {"A": set(), "B": set()}

    class Spy:
        def reset(self, seed):
            pass

        def give_clue(self, view):
            return CodebookSpymaster(2).give_clue(view)

    class Watcher:
        def __init__(self, me):
            self.me = me

        def reset(self, seed):
            pass

        def next_guess(self, view):
            assert view.me == self.me
            assert not hasattr(view, "own") and not hasattr(view, "assassins")
            seen[self.me].add(view.own_side)
            from test_sim_scripted import CodebookGuesser

            return CodebookGuesser().next_guess(view)

    specs = lineup("duet", "spy", "watch")
    agents = {"a_spymaster": Spy(), "b_spymaster": Spy(), "a_guesser": Watcher("A"), "b_guesser": Watcher("B")}
    r = play_game("duet", agents, specs, seed=game_seed(0, 1), index=1)
    key = from_record(r.record).key
    assert seen["A"] == {tuple(c.value for c in key.side(Player.A))}
    assert seen["B"] == {tuple(c.value for c in key.side(Player.B))}


def test_duet_sudden_death_starts_with_the_player_with_more_words_to_find():
    checked = 0
    for i in range(30):
        r = play("duet", "random", seed=5, index=i)
        actions = r.record["actions"]
        first = next((k for k, a in enumerate(actions) if a["type"] in ("sd_guess", "sd_pass")), None)
        if first is None:
            continue
        game = DuetGame.from_config(r.record["config"])
        game.replay(actions[:first])
        to_find = {p: len(game.words_left_for(p.other)) for p in Player}
        expected = Player.A if to_find[Player.A] >= to_find[Player.B] else Player.B
        assert actions[first]["player"] == expected.value
        assert r.extra["sudden_death"]
        checked += 1
    assert checked >= 3


def test_duet_mission_and_tokens():
    r = play("duet", "random", index=3, options=PlayOptions(mission="Singapore"))
    cfg = r.record["config"]
    assert r.extra["mission"] == "singapore"
    assert r.turns <= 6 and json.dumps(cfg)
    r11 = play("duet", "codebook:1", options=PlayOptions(tokens=11))
    assert r11.turns <= 11
    with pytest.raises(ValueError, match="unknown Duet mission"):
        PlayOptions(mission="atlantis")
    with pytest.raises(ValueError):
        PlayOptions(tokens=9, mission="moscow")


def test_classic_starting_team_alternates_with_game_index():
    even = play("classic", "codebook:9", index=0)
    odd = play("classic", "codebook:9", index=1)
    assert even.extra["starting"] == "red" and even.won and even.turns == 1
    assert odd.extra["starting"] == "blue" and not odd.won and odd.loss_cause == "opponent"
    assert odd.extra["winner"] == "blue"


def test_classic_records_which_spec_played_which_team():
    r = play("classic", "codebook:9", opponent="random", index=1)
    assert r.agents == {"red_spymaster": "codebook:9", "red_guesser": "codebook:9",
                        "blue_spymaster": "random", "blue_guesser": "random"}
    assert r.record["meta"]["agents"] == r.agents


def test_pictures_board_has_20_cards_8_7_4_1():
    r = play("pictures", "random", index=0)
    cfg = r.record["config"]
    assert len(cfg["words"]) == 20
    ids = cfg["key"]["identities"]
    start = cfg["key"]["starting"]
    other = "blue" if start == "red" else "red"
    assert (ids.count(start), ids.count(other), ids.count("bystander"), ids.count("assassin")) == (8, 7, 4, 1)


def test_same_seed_same_game_and_different_index_different_board():
    a, b = play("duet", "random", seed=8, index=4), play("duet", "random", seed=8, index=4)
    assert a.to_json() == b.to_json()
    c = play("duet", "random", seed=8, index=5)
    assert a.record["config"]["words"] != c.record["config"]["words"]


@pytest.mark.parametrize(
    "game,spec,role,message",
    [
        ("duet", "offboard", "b_guesser", "not a card"),  # A gives first, B guesses
        ("classic", "offboard", "red_guesser", "NotOnBoard"),
        ("solo", "stop", "guesser", "STOP"),
        ("kim2019", "crash", "spymaster", "RuntimeError: boom"),
        ("duet", "string", "a_spymaster", "not a Clue"),
    ],
)
def test_misbehaving_agent_is_reported_with_its_spec(game, spec, role, message):
    r = play(game, spec)
    assert r.error is not None and r.error["role"] == role and r.error["agent"] == spec
    assert message in r.error["message"]
    assert not r.won and r.loss_cause == "error"
    assert not from_record(r.record).is_over  # the record replays the game up to the fault
    if game == "kim2019":
        assert r.turns == KIM2019_LOSS_TURNS


def test_blue_error_forfeits_to_red():
    r = play("classic", "random", opponent="crash", index=1)  # blue starts and crashes at once
    assert r.won and r.loss_cause is None
    assert r.error["role"] == "blue_spymaster" and r.extra["winner"] == "red"


def test_clue_cap_ends_a_game_that_would_go_on():
    r = play("duet", "codebook:1", options=PlayOptions(max_clues=3))
    assert r.error is not None and r.error["role"] is None and "clue cap" in r.error["message"]
    assert r.clues == 3 and not r.won


def test_illegal_clue_under_strict_legality_is_the_spymasters_error():
    r = play("kim2019", "boardword")
    assert r.error is not None and r.error["role"] == "spymaster" and "illegal" in r.error["message"]
    assert r.invalid_clues == 1 and r.clues == 0


def test_illegal_clue_under_penalty_legality_is_counted_not_fatal():
    r = play("classic", "boardword", options=PlayOptions(legality="penalty"), index=0)
    assert r.error is None
    assert r.invalid_clues >= 1
    assert any(a["type"] == "penalty_cover" for a in r.record["actions"])
    assert_replays(r)


def test_roles_cover_every_game():
    assert set(ROLES) == set(GAME_KINDS)
    for game in GAME_KINDS:
        assert set(lineup(game)) == set(ROLES[game])
    with pytest.raises(ValueError):
        lineup("duet", "a", "b", opponent_spymaster="c")
    with pytest.raises(ValueError, match="needs agents"):
        play_game("solo", {}, {}, seed=1)


def test_clue_cap_in_classic_is_a_loss_without_a_winner():
    r = play("classic", "codebook:1", options=PlayOptions(max_clues=2))
    assert r.error["role"] is None and not r.won and r.loss_cause == "error"
    assert r.extra["winner"] is None and r.extra["clues"] == {"red": 1, "blue": 1}


@pytest.mark.parametrize("spec", ["codebook:2", "random"])
def test_play_out_duet_from_the_start_plays_the_game_play_game_plays(spec):
    specs = lineup("duet", spec, spec)
    agents = {r: scripted_factory(r, s) for r, s in specs.items()}
    result = play_game("duet", agents, specs, seed=21)
    game = DuetGame.from_config(result.record["config"])
    assert play_out_duet(game, agents, seed=21) is None
    assert list(game.actions) == result.record["actions"] and (game.winner is True) == result.won


def test_play_out_duet_reports_a_fault_and_needs_every_role():
    specs = lineup("duet", "pool", "stop")
    agents = {r: scripted_factory(r, s) for r, s in specs.items()}
    game = DuetGame.from_config(play_game("duet", agents, specs, seed=4).record["config"])
    fault = play_out_duet(game, agents, seed=4)
    assert fault is not None and fault.startswith("b_guesser: ") and "mandatory" in fault
    with pytest.raises(ValueError, match="needs agents for a_guesser"):
        play_out_duet(game, {r: a for r, a in agents.items() if r != "a_guesser"}, seed=4)
