"""ClassicGame against RULES.md §1-2, one rule at a time, on hand-built keys.

Card words name their identity (``red3``, ``blue0``, ``bystander2``, ``assassin0``) so every
test reads as the rule it checks. Legality is replaced by a small fake checker here (the
engine's job is to apply the verdict, not to produce it); one test uses the real checker.
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields

import pytest

from spymaster_ai.rules import classic
from spymaster_ai.rules.cards import (
    CLASSIC_LAYOUT,
    KIM2019_LAYOUT,
    PICTURES_LAYOUT,
    ClassicKey,
    Identity,
    Team,
    generate_classic_key,
)
from spymaster_ai.rules.classic import ClassicGame, WrongCardError
from spymaster_ai.rules.moves import (
    AlreadyCoveredError,
    Clue,
    GameOverError,
    IllegalMove,
    InvalidClueError,
    LossCause,
    NotOnBoardError,
    Phase,
    WrongPhaseError,
)
from spymaster_ai.views import GuesserView

RED, BLUE = Team.RED, Team.BLUE
LAYOUTS = {"classic": CLASSIC_LAYOUT, "pictures": PICTURES_LAYOUT, "kim2019": KIM2019_LAYOUT}


def board(kind: str = "classic", starting: Team = RED) -> tuple[list[str], ClassicKey]:
    """Words named after their identity, and the matching key."""
    size, n_start, n_other, n_by, n_ass = LAYOUTS[kind]
    ids = (
        [Identity.of_team(starting)] * n_start
        + [Identity.of_team(starting.other)] * n_other
        + [Identity.BYSTANDER] * n_by
        + [Identity.ASSASSIN] * n_ass
    )
    seen: dict[Identity, int] = {}
    words = []
    for ident in ids:
        words.append(f"{ident.value}{seen.get(ident, 0)}")
        seen[ident] = seen.get(ident, 0) + 1
    return words, ClassicKey(tuple(ids), starting)


def game(kind: str = "classic", starting: Team = RED, **kwargs) -> ClassicGame:
    words, key = board(kind, starting)
    kwargs.setdefault("legality", "off")
    return ClassicGame(words, key, kind=kind, **kwargs)


def cards(team_or_identity: str, n: int, start: int = 0) -> list[str]:
    return [f"{team_or_identity}{i}" for i in range(start, start + n)]


class FakeChecker:
    """Stands in for legality.check_clue: illegal when the clue is a visible card or starts with 'bad'."""

    class Verdict:
        def __init__(self, legal: bool, reason: str) -> None:
            self.legal, self.reason, self.rule, self.collides_with = legal, reason, "fake", None

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, clue_word, visible_words, *, options, count, pictures):
        self.calls.append(
            {"clue": clue_word, "visible": list(visible_words), "options": options, "count": count, "pictures": pictures}
        )
        illegal = clue_word in visible_words or clue_word.startswith("bad")
        return self.Verdict(not illegal, "fake: visible card or 'bad...'" if illegal else "ok")


@pytest.fixture
def checker(monkeypatch: pytest.MonkeyPatch) -> FakeChecker:
    fake = FakeChecker()
    monkeypatch.setattr(classic, "_check_clue", fake)
    return fake


def play_turn(g: ClassicGame, guesses: list[str], count: int = 0, *, stop: bool = False, word: str = "clue"):
    g.give_clue(Clue(word, count))
    results = [g.guess(w) for w in guesses]
    if stop:
        g.stop()
    return results


def refused_unchanged(g: ClassicGame, move, error: type[IllegalMove]) -> IllegalMove:
    """Run a move that must be refused; the state must be exactly as before."""
    before = copy.deepcopy(g.state_json())
    with pytest.raises(error) as info:
        move()
    assert g.state_json() == before
    return info.value


# =========================================================================== board set-up
def test_new_game_state() -> None:
    g = game(starting=BLUE)
    assert g.phase is Phase.CLUE and g.current_team is BLUE
    assert g.clue is None and g.guesses_made == 0 and g.max_guesses is None
    assert g.winner is None and g.loss_cause is None and not g.is_over
    assert g.turns == {RED: 0, BLUE: 0} and g.covered == {}
    assert len(g.visible_words()) == 25 and g.kind == "classic"
    assert len(g.remaining(Identity.BLUE)) == 9 and len(g.remaining(Identity.RED)) == 8
    assert g.remaining(Identity.ASSASSIN) == ("assassin0",)


def test_words_are_normalised() -> None:
    words, key = board()
    words[0] = "  Ice   CREAM "
    g = ClassicGame(words, key, legality="off")
    assert g.words[0] == "ice cream"
    g.give_clue(Clue("x", 1))
    assert g.guess("ICE cream").word == "ice cream"


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda w, k: (w[:24], k), "25 cards"),
        (lambda w, k: (w[:1] * 2 + w[2:], k), "distinct"),
        (lambda w, k: ([w[1].upper()] + w[1:], k), "distinct"),
        (lambda w, k: ([" "] + w[1:], k), "empty"),
        (lambda w, k: (w, generate_classic_key(1, PICTURES_LAYOUT)), "key card has 20"),
        (lambda w, k: (w, ClassicKey(k.identities, Team.BLUE)), "key card"),
        (lambda w, k: (w, generate_classic_key(1, KIM2019_LAYOUT)), "key card"),
        (lambda w, k: (" ".join(w), k), "single string"),
    ],
)
def test_bad_boards_are_refused(mutate, message: str) -> None:
    words, key = board()
    words, key = mutate(words, key)
    with pytest.raises(ValueError, match=message):
        ClassicGame(words, key)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "duet"}, "kind must be one of"),
        ({"kind": "pictures"}, "pictures board has 20"),
        ({"legality": "lenient"}, "legality must be one of"),
        ({"pictures": [True] * 24}, "25 booleans"),
        ({"pictures": [1] * 25}, "25 booleans"),
        ({"legality_options": object()}, "legality_options"),
    ],
)
def test_bad_options_are_refused(kwargs: dict, message: str) -> None:
    words, key = board()
    with pytest.raises(ValueError, match=message):
        ClassicGame(words, key, **kwargs)


def test_kim2019_layout_needs_its_kind() -> None:
    words, key = board("kim2019")
    with pytest.raises(ValueError, match="key card"):
        ClassicGame(words, key)
    g = ClassicGame(words, key, kind="kim2019")
    assert g.kind == "kim2019" and len(g.remaining(Identity.RED)) == 8


# =========================================================================== a turn
def test_own_agent_is_covered_and_the_team_may_continue() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    r = g.guess("red0")
    assert (r.identity, r.correct, r.turn_over, r.game_over) == (Identity.RED, True, False, False)
    assert g.covered == {"red0": Identity.RED}
    assert g.phase is Phase.GUESS and g.current_team is RED and g.guesses_made == 1


def test_bystander_ends_the_turn() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    r = g.guess("bystander3")
    assert (r.identity, r.correct, r.turn_over, r.game_over) == (Identity.BYSTANDER, False, True, False)
    assert g.covered == {"bystander3": Identity.BYSTANDER}
    assert g.phase is Phase.CLUE and g.current_team is BLUE and g.clue is None


def test_opponent_agent_is_covered_for_them_and_ends_the_turn() -> None:
    g = game()
    g.give_clue(Clue("clue", 3))
    r = g.guess("blue2")
    assert (r.identity, r.correct, r.turn_over) == (Identity.BLUE, False, True)
    assert len(g.remaining(Identity.BLUE)) == 7
    assert g.current_team is BLUE and g.phase is Phase.CLUE


@pytest.mark.parametrize("starting", [RED, BLUE])
def test_assassin_ends_the_game_and_the_guessing_team_loses(starting: Team) -> None:
    g = game(starting=starting)
    g.give_clue(Clue("clue", 1))
    r = g.guess("assassin0")
    assert r.game_over and r.turn_over and not r.correct
    assert g.is_over and g.phase is Phase.OVER
    assert g.winner is starting.other and g.loser is starting and g.loss_cause is LossCause.ASSASSIN


def test_assassin_on_the_second_team_turn() -> None:
    g = game()
    play_turn(g, ["bystander0"])
    play_turn(g, ["assassin0"])
    assert g.winner is RED and g.loss_cause is LossCause.ASSASSIN


def test_at_least_one_guess_is_mandatory() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    err = refused_unchanged(g, g.stop, WrongPhaseError)
    assert "mandatory" in str(err)
    assert not g.guesser_view(RED).can_stop
    g.guess("red0")
    assert g.guesser_view(RED).can_stop
    g.stop()
    assert g.current_team is BLUE and g.phase is Phase.CLUE


def test_zero_clue_still_needs_a_guess() -> None:
    g = game()
    g.give_clue(Clue("clue", 0))
    refused_unchanged(g, g.stop, WrongPhaseError)


def test_n_plus_one_cap_ends_the_turn_after_the_extra_guess() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    assert g.max_guesses == 3
    assert not g.guess("red0").turn_over
    assert not g.guess("red1").turn_over
    assert g.phase is Phase.GUESS  # N guesses made, the bonus guess is still allowed
    r = g.guess("red2")
    assert r.correct and r.turn_over and not r.game_over
    assert g.current_team is BLUE and g.phase is Phase.CLUE
    assert len(g.remaining(Identity.RED)) == 6


def test_cap_of_one_clue_is_two_guesses() -> None:
    g = game()
    g.give_clue(Clue("clue", 1))
    g.guess("red0")
    assert g.guess("red1").turn_over


@pytest.mark.parametrize("clue", [Clue("clue", 0), Clue("clue", 0, unlimited=True), Clue("clue", 3, unlimited=True)])
def test_zero_and_unlimited_lift_the_cap(clue: Clue) -> None:
    g = game()
    g.give_clue(clue)
    assert g.max_guesses is None and g.guesser_view(RED).max_guesses is None
    for w in cards("red", 8):
        assert not g.guess(w).turn_over
    assert g.guesses_made == 8 and g.phase is Phase.GUESS
    r = g.guess("red8")
    assert r.game_over and g.winner is RED and g.loss_cause is LossCause.OPPONENT


@pytest.mark.parametrize(
    "clue, message",
    [
        (Clue("clue", -1), "negative"),
        (Clue("", 2), "needs a word"),
        (Clue("   ", 2), "needs a word"),
        (Clue("clue", True), "integer"),
        (Clue("clue", 2.0), "integer"),  # type: ignore[arg-type]
        (Clue("clue", 1, unlimited="yes"), "unlimited"),  # type: ignore[arg-type]
        ("clue", "Clue"),
    ],
)
def test_malformed_clues_are_refused(clue, message: str) -> None:
    g = game()
    err = refused_unchanged(g, lambda: g.give_clue(clue), InvalidClueError)
    assert message in str(err)


def test_clue_word_is_normalised() -> None:
    g = game()
    result = g.give_clue(Clue("  Ocean ", 2))
    assert result.clue == Clue("ocean", 2) and g.clue == Clue("ocean", 2)
    assert result.legal and result.verdict is None and not result.penalised


def test_turns_count_clues_per_team() -> None:
    g = game()
    play_turn(g, ["red0"], 1, stop=True)
    play_turn(g, ["blue0", "bystander0"], 2)
    play_turn(g, ["blue1"], 1)
    assert g.turns == {RED: 2, BLUE: 1}
    assert g.current_team is BLUE


# =========================================================================== the end
def test_win_when_all_own_agents_are_covered() -> None:
    g = game()
    play_turn(g, cards("red", 4), 0, stop=True)
    play_turn(g, ["bystander0"])
    results = play_turn(g, cards("red", 5, 4), 0)
    assert results[-1].game_over and results[-1].correct
    assert g.winner is RED and g.loss_cause is LossCause.OPPONENT
    assert g.remaining(Identity.RED) == ()


def test_win_on_the_other_teams_turn() -> None:
    g = game()
    play_turn(g, cards("red", 1) + cards("blue", 1))  # red's turn ends on a blue agent
    play_turn(g, cards("blue", 6, 1), 0, stop=True)  # blue has 1 agent left: blue6... covered up to blue6
    assert g.remaining(Identity.BLUE) == ("blue7",)
    g.give_clue(Clue("clue", 2))  # red's turn
    r = g.guess("blue7")
    assert r.game_over and not r.correct
    assert g.winner is BLUE and g.loss_cause is LossCause.OPPONENT and g.current_team is RED


ALL_MOVES = {
    "clue": lambda g: g.give_clue(Clue("clue", 1)),
    "guess": lambda g: g.guess(g.visible_words()[0]),
    "guess covered": lambda g: g.guess(next(iter(g.covered))),
    "guess unknown": lambda g: g.guess("nowhere"),
    "stop": lambda g: g.stop(),
    "penalty_cover": lambda g: g.penalty_cover(g.visible_words()[0]),
    "solo_cover": lambda g: g.solo_cover(g.visible_words()[0]),
}


@pytest.mark.parametrize("move", sorted(ALL_MOVES))
def test_every_move_after_the_end_is_refused(move: str) -> None:
    g = game()
    play_turn(g, ["assassin0"])
    err = refused_unchanged(g, lambda: ALL_MOVES[move](g), GameOverError)
    assert "over" in str(err)


# =========================================================================== refused moves
def test_guess_before_a_clue_is_refused() -> None:
    g = game()
    refused_unchanged(g, lambda: g.guess("red0"), WrongPhaseError)


def test_clue_during_guessing_is_refused() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    g.guess("red0")
    refused_unchanged(g, lambda: g.give_clue(Clue("again", 1)), WrongPhaseError)


def test_stop_before_a_clue_is_refused() -> None:
    g = game()
    refused_unchanged(g, g.stop, WrongPhaseError)


def test_word_not_on_the_board_is_refused() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    err = refused_unchanged(g, lambda: g.guess("zebra"), NotOnBoardError)
    assert "zebra" in str(err)


def test_covered_card_is_refused() -> None:
    g = game()
    g.give_clue(Clue("clue", 2))
    g.guess("red0")
    err = refused_unchanged(g, lambda: g.guess(" RED0 "), AlreadyCoveredError)
    assert "red0" in str(err)


def test_covers_outside_their_phase_are_refused() -> None:
    g = game(solo=True)
    refused_unchanged(g, lambda: g.penalty_cover("red0"), WrongPhaseError)
    refused_unchanged(g, lambda: g.solo_cover("blue0"), WrongPhaseError)


# =========================================================================== clue legality
def test_strict_refuses_an_illegal_clue_and_keeps_the_state(checker: FakeChecker) -> None:
    g = game(legality="strict")
    err = refused_unchanged(g, lambda: g.give_clue(Clue("Red0", 2)), InvalidClueError)
    assert err.verdict is not None and not err.verdict.legal
    assert "red0" in str(err) and "fake" in str(err)
    assert g.actions == [] and g.turns == {RED: 0, BLUE: 0}
    result = g.give_clue(Clue("ocean", 2))
    assert result.legal and not result.penalised and result.verdict.legal


def test_checker_sees_only_visible_cards_and_the_count(checker: FakeChecker) -> None:
    g = game(legality="strict")
    play_turn(g, ["bystander0"], 2, word="first")
    assert checker.calls[-1]["count"] == 2 and checker.calls[-1]["pictures"] is False
    assert len(checker.calls[-1]["visible"]) == 25
    g.give_clue(Clue("second", 0, unlimited=True))
    call = checker.calls[-1]
    assert call["count"] is None  # an unlimited clue says no number
    assert "bystander0" not in call["visible"] and len(call["visible"]) == 24


def test_a_covered_card_word_becomes_a_legal_clue(checker: FakeChecker) -> None:
    g = game(legality="strict")
    refused_unchanged(g, lambda: g.give_clue(Clue("bystander0", 1)), InvalidClueError)
    play_turn(g, ["bystander0"], 1)  # red covers it
    assert g.give_clue(Clue("bystander0", 1)).legal  # blue may now use it


def test_options_are_passed_through(checker: FakeChecker) -> None:
    g = game(legality="strict", legality_options={"multi_word": True})
    g.give_clue(Clue("ocean", 1))
    assert checker.calls[-1]["options"] == {"multi_word": True}
    assert g.config()["legality_options"] == {"multi_word": True}


def test_off_never_calls_the_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args, **kwargs):
        raise AssertionError("checker called with legality='off'")

    monkeypatch.setattr(classic, "_check_clue", boom)
    g = game(legality="off")
    result = g.give_clue(Clue("red0", 1))
    assert result.legal and result.verdict is None


def test_penalty_mode_ends_the_turn_and_the_opponent_covers_one_own_agent(checker: FakeChecker) -> None:
    g = game(legality="penalty")
    result = g.give_clue(Clue("bad idea", 2))
    assert not result.legal and result.penalised and not result.verdict.legal
    assert g.phase is Phase.PENALTY_COVER and g.current_team is BLUE
    assert g.turns == {RED: 1, BLUE: 0} and g.clue is None
    refused_unchanged(g, lambda: g.guess("red0"), WrongPhaseError)
    refused_unchanged(g, lambda: g.give_clue(Clue("x", 1)), WrongPhaseError)
    for wrong in ("red0", "bystander0", "assassin0"):
        err = refused_unchanged(g, lambda: g.penalty_cover(wrong), WrongCardError)
        assert "own agents" in str(err)
    refused_unchanged(g, lambda: g.penalty_cover("nowhere"), NotOnBoardError)
    g.penalty_cover("blue3")
    assert g.covered == {"blue3": Identity.BLUE}
    assert g.phase is Phase.CLUE and g.current_team is BLUE
    # the invalid clue stays in red's history with no guesses
    assert [(e.clue.word, e.guesses) for e in g.guesser_view(RED).history] == [("bad idea", ())]


def test_penalty_cover_can_win_the_game(checker: FakeChecker) -> None:
    g = game(legality="penalty")
    play_turn(g, ["bystander0"])
    play_turn(g, cards("blue", 7), 0, stop=True)  # blue: one agent left
    g.give_clue(Clue("bad", 1))  # red's invalid clue
    assert g.phase is Phase.PENALTY_COVER
    g.penalty_cover("blue7")
    assert g.is_over and g.winner is BLUE and g.loss_cause is LossCause.OPPONENT


def test_penalty_mode_legal_clue_plays_normally(checker: FakeChecker) -> None:
    g = game(legality="penalty")
    result = g.give_clue(Clue("ocean", 2))
    assert result.legal and not result.penalised and g.phase is Phase.GUESS


# =========================================================================== Pictures and mixed boards
def test_pictures_board() -> None:
    g = game("pictures", starting=BLUE)
    assert g.kind == "pictures" and all(g.pictures) and len(g.words) == 20
    assert [len(g.remaining(i)) for i in (Identity.BLUE, Identity.RED, Identity.BYSTANDER, Identity.ASSASSIN)] == [
        8,
        7,
        4,
        1,
    ]
    results = play_turn(g, cards("blue", 8), 0)
    assert results[-1].game_over and g.winner is BLUE


def test_pictures_kind_defaults_from_board_size() -> None:
    words, key = board("pictures")
    g = ClassicGame(words, key)
    assert g.kind == "pictures" and all(g.pictures)
    words, key = board("classic")
    g = ClassicGame(words, key)
    assert g.kind == "classic" and not any(g.pictures)


def test_picture_cards_are_checked_with_the_pictures_rules(checker: FakeChecker) -> None:
    g = game("pictures", legality="strict")
    g.give_clue(Clue("ocean", 1))
    assert [c["pictures"] for c in checker.calls] == [True]
    assert len(checker.calls[0]["visible"]) == 20


def test_mixed_board_clue_must_be_valid_for_words_and_pictures(checker: FakeChecker) -> None:
    flags = [i % 2 == 0 for i in range(25)]  # even positions are pictures
    g = game(legality="strict", pictures=flags)
    g.give_clue(Clue("ocean", 1))
    words_call, pictures_call = checker.calls
    assert words_call["pictures"] is False and pictures_call["pictures"] is True
    assert words_call["visible"] == [w for w, p in zip(g.words, flags) if not p]
    assert pictures_call["visible"] == [w for w, p in zip(g.words, flags) if p]
    g.guess("red0")
    g.stop()
    # "red0" (a picture card) is covered now; "red1" (a word card) is visible and refused
    checker.calls.clear()
    refused_unchanged(g, lambda: g.give_clue(Clue("red1", 1)), InvalidClueError)
    # a clue refused by the picture cards' check is refused too
    refused_unchanged(g, lambda: g.give_clue(Clue("red2", 1)), InvalidClueError)
    assert checker.calls[-1]["pictures"] is True


def test_words_on_a_pictures_grid() -> None:
    g = game("pictures", pictures=[False] * 20)
    assert g.kind == "pictures" and not any(g.pictures)


# Real nouns in key order for the real-checker tests: 9 red, 8 blue, 7 bystanders, 1 assassin.
REAL_WORDS = (
    "earthquake moon apple bridge castle engine forest garden hammer "
    "island jacket kettle ladder mirror needle orange pencil "
    "rocket saddle tiger umbrella violin window yacht "
    "zebra"
).split()


def real_game(**kwargs) -> ClassicGame:
    return ClassicGame(REAL_WORDS, board()[1], **kwargs)


def test_real_checker_when_available() -> None:
    legality = pytest.importorskip("spymaster_ai.rules.legality")
    g = real_game(legality="strict")
    err = refused_unchanged(g, lambda: g.give_clue(Clue("earth", 2)), InvalidClueError)
    assert isinstance(err.verdict, legality.Verdict) and err.verdict.collides_with == "earthquake"
    assert g.give_clue(Clue("ocean", 2)).legal
    g.guess("earthquake")
    g.stop()
    assert g.give_clue(Clue("earth", 1)).legal  # the card is covered: legal again


def test_real_checker_count_word_and_penalty() -> None:
    pytest.importorskip("spymaster_ai.rules.legality")
    g = real_game(legality="strict")
    err = refused_unchanged(g, lambda: g.give_clue(Clue("three", 3)), InvalidClueError)
    assert err.verdict.rule == "letters-or-position"
    assert g.give_clue(Clue("three", 2)).legal  # the number word is only illegal as its own count
    g = real_game(legality="penalty")
    result = g.give_clue(Clue("ice cream", 2))
    assert result.penalised and result.verdict.rule == "not-one-word"
    assert g.phase is Phase.PENALTY_COVER


def test_real_checker_on_a_mixed_board() -> None:
    pytest.importorskip("spymaster_ai.rules.legality")
    flags = [False, True] + [False] * 23  # MOON is a picture, every other card a word
    g = real_game(legality="strict", pictures=flags)
    # a word card forbids its word; a picture's caption is not a board word
    refused_unchanged(g, lambda: g.give_clue(Clue("apple", 1)), InvalidClueError)
    # a clue about the pictures' colours is invalid once a picture is on the board
    err = refused_unchanged(g, lambda: g.give_clue(Clue("red", 1)), InvalidClueError)
    assert err.verdict.rule == "picture-appearance"
    assert g.give_clue(Clue("moon", 1)).legal
    words_only = real_game(legality="strict")
    refused_unchanged(words_only, lambda: words_only.give_clue(Clue("moon", 1)), InvalidClueError)
    assert words_only.give_clue(Clue("red", 1)).legal


# =========================================================================== solo (two-player) variant
def test_solo_only_the_starting_team_plays_and_covers_after_each_turn() -> None:
    g = game(solo=True, starting=BLUE)
    play_turn(g, ["blue0", "bystander0"], 2)
    assert g.phase is Phase.SOLO_COVER and g.current_team is BLUE
    for wrong in ("blue1", "bystander1", "assassin0"):
        refused_unchanged(g, lambda: g.solo_cover(wrong), WrongCardError)
    refused_unchanged(g, lambda: g.give_clue(Clue("x", 1)), WrongPhaseError)
    g.solo_cover("red0")
    assert g.phase is Phase.CLUE and g.current_team is BLUE
    play_turn(g, ["blue1"], 1, stop=True)
    assert g.phase is Phase.SOLO_COVER
    g.solo_cover("red1")
    assert g.turns == {RED: 0, BLUE: 2}
    assert g.covered["red0"] is Identity.RED and len(g.remaining(Identity.RED)) == 6


def test_solo_loses_when_all_opponent_agents_are_covered_by_covers() -> None:
    g = game(solo=True)
    for i in range(8):
        play_turn(g, [f"bystander{i}" if i < 7 else "red0"], 1, stop=i == 7)
        assert g.phase is Phase.SOLO_COVER
        g.solo_cover(f"blue{i}")
    assert g.is_over and g.winner is BLUE and g.loss_cause is LossCause.OPPONENT
    assert g.score() is None


def test_solo_mistake_on_the_last_opponent_agent_loses() -> None:
    g = game(solo=True)
    for i in range(7):
        play_turn(g, [f"bystander{i}"], 1)
        g.solo_cover(f"blue{i}")
    g.give_clue(Clue("clue", 1))
    r = g.guess("blue7")
    assert r.game_over and g.winner is BLUE and g.loss_cause is LossCause.OPPONENT


def test_solo_loses_on_the_assassin() -> None:
    g = game(solo=True)
    play_turn(g, ["red0", "assassin0"], 2)
    assert g.winner is BLUE and g.loss_cause is LossCause.ASSASSIN and g.score() is None


def test_solo_score_is_the_opponent_agents_left() -> None:
    g = game(solo=True)
    play_turn(g, cards("red", 9), 0)
    assert g.winner is RED and g.score() == 8  # won in one turn: the best score

    g = game(solo=True)
    play_turn(g, cards("red", 3) + ["blue0"], 0)  # a mistake, then the end-of-turn cover
    g.solo_cover("blue1")
    play_turn(g, cards("red", 6, 3), 0)
    assert g.winner is RED and g.score() == 6


def test_pictures_solo_best_score_is_seven() -> None:
    g = game("pictures", solo=True)
    play_turn(g, cards("red", 8), 0)
    assert g.score() == 7


def test_score_is_none_outside_solo() -> None:
    g = game()
    play_turn(g, cards("red", 9), 0)
    assert g.winner is RED and g.score() is None


def test_solo_invalid_clue_under_penalty_costs_a_penalty_and_a_solo_cover(checker: FakeChecker) -> None:
    g = game(solo=True, legality="penalty")
    g.give_clue(Clue("bad", 1))
    assert g.phase is Phase.PENALTY_COVER and g.current_team is BLUE
    g.penalty_cover("blue0")
    assert g.phase is Phase.SOLO_COVER and g.current_team is RED
    g.solo_cover("blue1")
    assert g.phase is Phase.CLUE and g.current_team is RED and g.turns == {RED: 1, BLUE: 0}


# =========================================================================== Kim et al. 2019 protocol
def test_kim2019_single_team_without_covers() -> None:
    g = game("kim2019")
    play_turn(g, ["red0", "bystander0"], 2)
    assert g.phase is Phase.CLUE and g.current_team is RED
    refused_unchanged(g, lambda: g.solo_cover("blue0"), WrongPhaseError)
    play_turn(g, ["blue0"], 1)
    assert g.current_team is RED and g.turns == {RED: 2, BLUE: 0}
    results = play_turn(g, cards("red", 7, 1), 0)
    assert results[-1].game_over and g.winner is RED and g.turns[RED] == 3


def test_kim2019_loses_when_all_opponent_agents_are_touched() -> None:
    g = game("kim2019")
    for i in range(7):
        play_turn(g, [f"blue{i}"], 1)
    assert g.is_over and g.winner is BLUE and g.loss_cause is LossCause.OPPONENT


# =========================================================================== three-player variant
def test_three_player_plays_classic_rules_and_shows_no_key() -> None:
    g = game(three_player=True)
    assert g.three_player and g.config()["three_player"] is True
    play_turn(g, ["red0", "bystander0"], 1)
    assert g.current_team is BLUE
    for team in Team:
        view = g.guesser_view(team)
        assert set(dict(view.revealed)) == set(g.covered)
        assert view.own_side is None
    play_turn(g, cards("blue", 8), 0)
    assert g.winner is BLUE


# =========================================================================== Assassin Ending
def test_assassin_ending_all_agents_then_the_assassin_wins() -> None:
    g = game(assassin_ending=True)
    play_turn(g, cards("red", 9), 0)
    assert not g.is_over and g.phase is Phase.GUESS  # all agents covered is not a win yet
    r = g.guess("assassin0")
    assert r.game_over and g.winner is RED and g.loss_cause is LossCause.OPPONENT


def test_assassin_ending_cap_can_end_the_turn_before_the_assassin() -> None:
    g = game(assassin_ending=True)
    play_turn(g, cards("red", 3), 2)  # cap reached
    play_turn(g, ["bystander0"])
    play_turn(g, cards("red", 6, 3), 6)
    assert g.phase is Phase.GUESS  # 6 of 7 allowed guesses made, all own agents covered, not a win
    assert not g.is_over and g.remaining(Identity.RED) == ()
    g.stop()
    play_turn(g, ["bystander1"])
    play_turn(g, ["assassin0"], 1)
    assert g.winner is RED


def test_assassin_ending_early_assassin_starts_sudden_death() -> None:
    g = game(assassin_ending=True)
    g.give_clue(Clue("clue", 1))
    g.guess("red0")
    r = g.guess("assassin0")
    assert not r.game_over and not r.turn_over and not r.correct
    assert g.phase is Phase.SUDDEN_DEATH and g.current_team is RED and g.max_guesses is None
    view = g.guesser_view(RED)
    assert view.sudden_death and not view.can_stop and view.max_guesses is None
    assert not g.guesser_view(BLUE).sudden_death
    err = refused_unchanged(g, g.stop, WrongPhaseError)
    assert "sudden death" in str(err)
    refused_unchanged(g, lambda: g.give_clue(Clue("more", 2)), WrongPhaseError)
    # unlimited guesses: far beyond the N+1 = 2 cap of the clue
    for w in cards("red", 7, 1):
        assert not g.guess(w).game_over
    r = g.guess("red8")
    assert r.game_over and g.winner is RED and g.loss_cause is LossCause.OPPONENT


@pytest.mark.parametrize("wrong", ["bystander0", "blue0"])
def test_assassin_ending_sudden_death_wrong_guess_loses(wrong: str) -> None:
    g = game(assassin_ending=True)
    play_turn(g, ["assassin0", "red0"], 1)
    r = g.guess(wrong)
    assert r.game_over and not r.correct
    assert g.winner is BLUE and g.loss_cause is LossCause.MISTAKE


def test_assassin_ending_last_agent_covered_by_the_other_team_still_needs_the_assassin() -> None:
    g = game(assassin_ending=True)
    play_turn(g, cards("red", 8), 0, stop=True)
    play_turn(g, ["red8"])  # blue touches red's last agent: red has not won
    assert not g.is_over and g.remaining(Identity.RED) == ()
    assert g.phase is Phase.CLUE and g.current_team is RED
    play_turn(g, ["assassin0"], 1)
    assert g.winner is RED and g.loss_cause is LossCause.OPPONENT


def test_assassin_ending_penalty_cover_of_the_last_agent_is_not_a_win(checker: FakeChecker) -> None:
    g = game(assassin_ending=True, legality="penalty")
    play_turn(g, ["bystander0"])
    play_turn(g, cards("blue", 7), 0, stop=True)
    g.give_clue(Clue("bad", 1))
    g.penalty_cover("blue7")
    assert not g.is_over and g.phase is Phase.CLUE and g.current_team is BLUE
    # now blue has no agent to cover: red's next invalid clue skips the penalty cover
    play_turn(g, ["bystander1"])
    g.give_clue(Clue("bad", 1))
    assert g.phase is Phase.CLUE and g.current_team is BLUE
    play_turn(g, ["assassin0"], 1)
    assert g.winner is BLUE


def test_assassin_ending_solo_assassin_after_all_agents() -> None:
    g = game(solo=True, assassin_ending=True)
    play_turn(g, cards("red", 9), 0)
    assert not g.is_over
    g.guess("assassin0")
    assert g.winner is RED and g.score() == 8


# =========================================================================== views
def test_spymaster_view_lists_uncovered_cards_by_identity() -> None:
    g = game()
    play_turn(g, ["red0", "blue0"], 2)
    v = g.spymaster_view(RED)
    assert v.me == "red" and v.game == "classic"
    assert v.own == tuple(cards("red", 8, 1)) and v.opponent == tuple(cards("blue", 7, 1))
    assert v.bystanders == tuple(cards("bystander", 7)) and v.assassins == ("assassin0",)
    assert v.revealed == (("red0", "red"), ("blue0", "blue"))
    assert len(v.visible) == 23
    b = g.spymaster_view(BLUE)
    assert b.own == v.opponent and b.opponent == v.own
    assert v.extra["turns"] == {"red": 1, "blue": 0}
    assert v.extra["agents_left"] == {"red": 8, "blue": 7}
    assert v.extra["current_team"] == "blue" and v.extra["starting"] == "red"
    assert [e.clue.word for e in v.history] == ["clue"] and b.history == ()
    json.dumps(v.to_json())


def test_guesser_view_has_no_key_information() -> None:
    names = {f.name for f in fields(GuesserView)}
    assert not names & {"key", "identities", "own", "opponent", "bystanders", "assassins"}
    g = game()
    play_turn(g, ["red0", "bystander0"], 2)
    view = g.guesser_view(BLUE)
    text = json.dumps(view.to_json())
    # the only identities in the view are the public ones of covered cards
    assert text.count('"red"') == 1 and '"assassin"' not in text and text.count('"bystander"') == 1
    assert view.revealed == (("red0", "red"), ("bystander0", "bystander"))
    assert view.visible == g.visible_words()


def test_guesser_view_current_clue_only_for_the_guessing_team() -> None:
    g = game()
    g.give_clue(Clue("ocean", 2))
    g.guess("red0")
    mine, theirs = g.guesser_view(RED), g.guesser_view(BLUE)
    assert mine.clue == Clue("ocean", 2) and mine.guesses_made == 1 and mine.max_guesses == 3 and mine.can_stop
    assert mine.history == ()  # the clue being guessed is not history yet
    assert theirs.clue is None and theirs.guesses_made == 0 and not theirs.can_stop and theirs.max_guesses is None


def test_guesser_view_history_with_outcomes_from_each_team() -> None:
    g = game()
    play_turn(g, ["red0", "blue0"], 2, word="ocean")
    play_turn(g, ["blue1", "red1"], 1, word="forest")
    red = g.guesser_view(RED).history
    blue = g.guesser_view(BLUE).history
    assert [(e.giver, e.clue.word, e.guesses, e.outcomes) for e in red] == [
        ("red", "ocean", ("red0", "blue0"), ("own", "opponent"))
    ]
    assert [(e.giver, e.clue.word, e.guesses, e.outcomes) for e in blue] == [
        ("blue", "forest", ("blue1", "red1"), ("own", "opponent"))
    ]
    play_turn(g, ["bystander0"], 1, word="tree")
    assert g.guesser_view(RED).history[-1].outcomes == ("bystander",)
    g = game()
    play_turn(g, ["assassin0"], 1)
    assert g.guesser_view(RED).history[-1].outcomes == ("assassin",)


def test_views_are_snapshots() -> None:
    g = game()
    before = g.guesser_view(RED)
    play_turn(g, ["red0"], 1, stop=True)
    assert before.visible == tuple(g.words) and before.revealed == ()


# =========================================================================== records
def _played_game(**kwargs) -> ClassicGame:
    g = game(**kwargs)
    play_turn(g, ["red0", "blue0"], 2)
    play_turn(g, ["blue1"], 1, stop=True)
    play_turn(g, ["red1", "red2", "red3"], 2)
    return g


def test_config_is_json_and_round_trips() -> None:
    g = game(solo=True, assassin_ending=True, three_player=True, pictures=[i < 3 for i in range(25)])
    config = json.loads(json.dumps(g.config()))
    h = ClassicGame.from_config(config)
    assert h.config() == g.config() and h.state_json() == g.state_json()
    assert (h.solo, h.assassin_ending, h.three_player, h.pictures) == (True, True, True, g.pictures)
    assert config["key"] == g.key.to_json()


def test_actions_log_every_accepted_move() -> None:
    g = _played_game()
    assert g.actions[:4] == [
        {"type": "clue", "team": "red", "word": "clue", "count": 2, "unlimited": False, "legal": True},
        {"type": "guess", "word": "red0"},
        {"type": "guess", "word": "blue0"},
        {"type": "clue", "team": "blue", "word": "clue", "count": 1, "unlimited": False, "legal": True},
    ]
    assert g.actions[5] == {"type": "stop"}
    json.dumps(g.actions)
    g.actions.clear()  # a copy: the game's log is not exposed for mutation
    assert len(g.actions) == 10


def test_replay_reproduces_the_state() -> None:
    g = _played_game()
    h = ClassicGame.from_config(json.loads(json.dumps(g.config())))
    h.replay(json.loads(json.dumps(g.actions)))
    assert h.state_json() == g.state_json()
    assert h.actions == g.actions


def test_replay_of_finished_penalty_solo_and_sudden_death_games(checker: FakeChecker) -> None:
    g = game(solo=True, legality="penalty", assassin_ending=True)
    g.give_clue(Clue("bad", 1))
    g.penalty_cover("blue0")
    g.solo_cover("blue1")
    play_turn(g, ["red0", "assassin0"], 1)
    g.guess("bystander0")
    assert g.is_over and g.loss_cause is LossCause.MISTAKE
    h = ClassicGame.from_config(g.config())
    h.replay(g.actions)
    assert h.state_json() == g.state_json()


def test_replay_refuses_an_illegal_recorded_move() -> None:
    g = _played_game()
    actions = g.actions
    actions[2] = {"type": "guess", "word": "red0"}  # already covered at that point
    h = ClassicGame.from_config(g.config())
    with pytest.raises(AlreadyCoveredError):
        h.replay(actions)


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "clue", "team": "blue", "word": "x", "count": 1}, "blue's move|but it is red"),
        ({"type": "dance"}, "unknown move type"),
        ({"word": "red0"}, "not a move"),
    ],
)
def test_replay_refuses_malformed_actions(action: dict, message: str) -> None:
    g = game()
    with pytest.raises(ValueError, match=message):
        g.replay([action])


def test_replay_detects_a_changed_legality_verdict(checker: FakeChecker) -> None:
    g = game(legality="penalty")
    g.give_clue(Clue("ocean", 1))
    actions = g.actions
    actions[0]["legal"] = False
    h = ClassicGame.from_config(g.config())
    with pytest.raises(ValueError, match="recorded as illegal"):
        h.replay(actions)


def test_state_json_is_json() -> None:
    g = _played_game(solo=False)
    state = g.state_json()
    assert json.loads(json.dumps(state)) == state
    assert state["phase"] == "clue" and state["turns"] == {"red": 2, "blue": 1}
    assert state["covered"][:2] == [["red0", "red"], ["blue0", "blue"]]


def test_guesser_view_tells_each_team_its_agents_still_hidden() -> None:
    """Public information: the key's agent count minus the covered agents, whoever covered them."""
    g = game()
    assert (g.guesser_view(RED).own_left, g.guesser_view(BLUE).own_left) == (9, 8)
    play_turn(g, ["red0", "blue0"], 2)  # RED finds one of its own and hands BLUE one of theirs
    assert (g.guesser_view(RED).own_left, g.guesser_view(BLUE).own_left) == (8, 7)
    assert game("kim2019").guesser_view(RED).own_left == 8
