"""Codenames Duet engine: every rule of RULES.md §3 on a hand-built key.

The key is written out by hand so each card's two identities are in its name: ``gy2`` is
green on side A and bystander on side B, ``kg`` black on A and green on B, and so on.
"""

from __future__ import annotations

import json
import sys
import types
from types import SimpleNamespace

import pytest

from spymaster_ai.rules import duet
from spymaster_ai.rules.cards import DUET_TABLE, DuetIdentity, DuetKey, Player
from spymaster_ai.rules.duet import MISSIONS, DuetGame, NotYourTurnError
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

A, B = Player.A, Player.B
G, K, Y = DuetIdentity.GREEN, DuetIdentity.BLACK, DuetIdentity.BYSTANDER

# (side A, side B) -> card names; the counts are exactly the RULES.md table.
GROUPS = {
    (G, G): ["gg0", "gg1", "gg2"],
    (G, K): ["gk"],
    (G, Y): [f"gy{i}" for i in range(5)],
    (K, G): ["kg"],
    (K, K): ["kk"],
    (K, Y): ["ky"],
    (Y, G): [f"yg{i}" for i in range(5)],
    (Y, K): ["yk"],
    (Y, Y): [f"yy{i}" for i in range(7)],
}
WORDS = [w for names in GROUPS.values() for w in names]
SIDE_A = [a for (a, _), names in GROUPS.items() for _ in names]
SIDE_B = [b for (_, b), names in GROUPS.items() for _ in names]
KEY = DuetKey(tuple(SIDE_A), tuple(SIDE_B))
A_GREENS = GROUPS[G, G] + GROUPS[G, K] + GROUPS[G, Y]  # what B must find from A's clues
B_GREENS = GROUPS[G, G] + GROUPS[K, G] + GROUPS[Y, G]  # what A must find from B's clues


class FakeVerdict(SimpleNamespace):
    pass


@pytest.fixture(autouse=True)
def checker(monkeypatch):
    """A stand-in legality checker: a visible board word or a word starting with 'bad' is illegal."""
    calls: list[tuple] = []

    def fake(word, visible, options, count):
        calls.append((word, tuple(visible), options, count))
        if word in visible:
            return FakeVerdict(legal=False, rule="visible-word", collides_with=word, reason=f"{word} is on the board")
        if word.startswith("bad"):
            return FakeVerdict(legal=False, rule="fake", collides_with=None, reason="fake rule")
        return FakeVerdict(legal=True, rule=None, collides_with=None, reason="legal")

    monkeypatch.setattr(duet, "check_clue_legality", fake)
    return calls


def new(**kw) -> DuetGame:
    return DuetGame(WORDS, KEY, **kw)


def clue(game: DuetGame, giver: Player, word: str = "hint", count: int = 1, unlimited: bool = False):
    return game.give_clue(giver, Clue(word, count, unlimited))


def assert_refused(game: DuetGame, error: type[IllegalMove], move) -> None:
    before, n_actions = json.dumps(game.state_json(), sort_keys=True), len(game.actions)
    with pytest.raises(error):
        move()
    assert json.dumps(game.state_json(), sort_keys=True) == before
    assert len(game.actions) == n_actions


def test_hand_built_key_matches_the_table():
    KEY.validate()
    assert KEY.table() == DUET_TABLE
    assert len(set(A_GREENS) | set(B_GREENS)) == 15


# ---------------------------------------------------------------- setup
def test_board_validation():
    with pytest.raises(ValueError, match="25 cards"):
        DuetGame(WORDS[:24], KEY)
    with pytest.raises(ValueError, match="distinct"):
        DuetGame(WORDS[:24] + [WORDS[0]], KEY)
    bad_key = DuetKey(tuple(SIDE_A), tuple(SIDE_A))
    with pytest.raises(ValueError, match="table"):
        DuetGame(WORDS, bad_key)
    with pytest.raises(ValueError, match="tokens"):
        new(tokens=0)
    with pytest.raises(ValueError, match="mistakes"):
        new(tokens=5, mistakes=6)
    with pytest.raises(ValueError, match="legality"):
        new(legality="lenient")


def test_words_are_normalised():
    game = DuetGame([w.upper() + " " for w in WORDS], KEY, legality="off")
    assert game.words == tuple(WORDS)
    clue(game, A)
    assert game.guess("  GY0 ").word == "gy0"


@pytest.mark.parametrize("tokens", [9, 10, 11, 1, 4])
def test_token_counts(tokens):
    game = new(tokens=tokens)
    assert game.tokens_left == tokens
    assert game.bystander_tokens_left == tokens and game.marked_tokens_left == 0
    assert game.phase is Phase.CLUE and game.winner is None and not game.is_over


def test_missions_are_the_published_ones():
    assert MISSIONS == {
        "prague": (9, 9), "moscow": (8, 8), "bangkok": (7, 7),
        "singapore": (6, 6), "cairo": (9, 5), "berlin": (11, 11),
    }
    cairo = DuetGame.mission(WORDS, KEY, "Cairo")
    assert (cairo.tokens_left, cairo.bystander_tokens_left, cairo.marked_tokens_left) == (9, 5, 4)
    assert cairo.config()["mission"] == "cairo"
    with pytest.raises(ValueError, match="unknown Duet mission"):
        DuetGame.mission(WORDS, KEY, "atlantis")
    with pytest.raises(ValueError, match="sets its own"):
        DuetGame.mission(WORDS, KEY, "cairo", tokens=3)


# ---------------------------------------------------------------- clues and givers
def test_either_player_gives_the_first_clue_then_they_alternate():
    game = new()
    assert game.allowed_givers() == (A, B)
    clue(game, B)
    assert game.giver is B and game.guesser is A and game.allowed_givers() == ()
    game.guess("yg0")
    game.stop()
    assert game.allowed_givers() == (A,)
    assert_refused(game, NotYourTurnError, lambda: clue(game, B))
    clue(game, A)
    game.guess("gy0")
    game.stop()
    assert game.allowed_givers() == (B,)


def test_clue_refused_during_guessing_and_guess_refused_before_clue():
    game = new()
    assert_refused(game, WrongPhaseError, lambda: game.guess("gy0"))
    assert_refused(game, WrongPhaseError, game.stop)
    clue(game, A)
    assert_refused(game, WrongPhaseError, lambda: clue(game, B))
    assert_refused(game, WrongPhaseError, lambda: game.sudden_death_guess(A, "kg"))
    assert_refused(game, WrongPhaseError, lambda: game.sudden_death_pass(A))


def test_bad_clue_counts_and_words_refused_even_with_legality_off():
    game = new(legality="off")
    assert_refused(game, InvalidClueError, lambda: clue(game, A, count=-1))
    assert_refused(game, InvalidClueError, lambda: clue(game, A, word="   "))
    assert_refused(game, InvalidClueError, lambda: game.give_clue(A, Clue("x", 1.5)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'A' or 'B'"):
        clue(game, "C")  # type: ignore[arg-type]


def test_zero_clue_is_allowed_but_needs_a_guess():
    game = new()
    result = clue(game, A, count=0)
    assert result.legal and game.clue == Clue("hint", 0)
    assert_refused(game, WrongPhaseError, game.stop)
    assert game.guess("gy0").correct
    game.stop()
    assert game.tokens_left == 8


def test_unlimited_clue_is_accepted():
    game = new()
    clue(game, A, count=0, unlimited=True)
    assert game.clue.unlimited


# ---------------------------------------------------------------- guesses
def test_guess_is_judged_by_the_givers_side():
    game = new()
    clue(game, A)  # B guesses with A's side
    r = game.guess("gy0")  # green on A, bystander on B
    assert (r.identity, r.correct, r.turn_over) == (G, True, False)
    r = game.guess("yg0")  # bystander on A, green on B
    assert (r.identity, r.correct, r.turn_over) == (Y, False, True)

    game = new()
    clue(game, B)  # A guesses with B's side
    r = game.guess("yg0")
    assert (r.identity, r.correct) == (G, True)
    r = game.guess("gy0")
    assert (r.identity, r.correct, r.turn_over) == (Y, False, True)


def test_no_n_plus_one_cap():
    game = new()
    clue(game, A, count=1)
    for word in GROUPS[G, Y]:
        assert game.guess(word).correct
    assert game.phase is Phase.GUESS and game.correct_this_turn == 5 and game.guesses_made == 5
    assert game.guesser_view(B).max_guesses is None


def test_green_guess_covers_the_card():
    game = new()
    clue(game, A)
    game.guess("gg0")
    assert "gg0" not in game.visible_words()
    assert "gg0" not in game.words_left_for(A) and "gg0" not in game.words_left_for(B)
    assert not game.can_guess(A, "gg0") and not game.can_guess(B, "gg0")
    assert_refused(game, AlreadyCoveredError, lambda: game.guess("gg0"))
    assert_refused(game, NotOnBoardError, lambda: game.guess("zebra"))


@pytest.mark.parametrize("word", ["kg", "kk", "ky"])
def test_black_on_the_givers_side_loses_at_once(word):
    game = new()
    clue(game, A)
    game.guess("gy0")
    r = game.guess(word)  # kg is green on the guesser's own side: still the assassin
    assert (r.identity, r.correct, r.turn_over, r.game_over) == (K, False, True, True)
    assert game.is_over and game.winner is False and game.loss_cause is LossCause.ASSASSIN
    assert game.score() is None
    assert (word, "black") in game.guesser_view(A).revealed


def test_bystander_guess_marks_uses_a_token_and_ends_the_turn():
    game = new()
    clue(game, A)
    r = game.guess("yy0")
    assert (r.identity, r.correct, r.turn_over, r.game_over) == (Y, False, True, False)
    assert game.tokens_left == 8 and game.turns_played == 1 and game.phase is Phase.CLUE
    assert "yy0" in game.visible_words()  # one direction only: still visible
    assert game.marked_by(B) == ("yy0",) and game.marked_by(A) == ()
    assert not game.can_guess(B, "yy0") and game.can_guess(A, "yy0")


def test_a_player_may_not_guess_a_card_it_marked():
    game = new()
    clue(game, A)
    game.guess("yg0")  # B marks yg0 (bystander on A)
    clue(game, B)
    game.guess("yg1")
    game.stop()
    clue(game, A)
    assert_refused(game, AlreadyCoveredError, lambda: game.guess("yg0"))
    assert "yg0" not in game.guesser_view(B).visible
    assert game.guesser_view(B).marked_by_me == ("yg0",)


def test_other_player_finds_a_green_behind_a_mark():
    game = new()
    clue(game, A)
    game.guess("yg0")  # bystander for A, marked by B
    clue(game, B)
    r = game.guess("yg0")  # green on B: covered with an agent
    assert r.correct and "yg0" not in game.visible_words()
    assert game.state_json()["covered"]["yg0"] == "agent"
    assert ("yg0", "green") in game.spymaster_view(A).revealed


def test_strict_refuses_a_clue_naming_a_one_direction_marked_card(checker):
    game = new()
    clue(game, A)
    game.guess("yy0")  # marked by B only: still visible
    assert_refused(game, InvalidClueError, lambda: clue(game, B, word="yy0"))
    assert "yy0" in checker[-1][1]
    clue(game, B)
    r = game.guess("yy0")  # bystander on B too: second mark, covered
    assert (r.identity, r.turn_over) == (Y, True)
    assert "yy0" not in game.visible_words()
    assert game.state_json()["covered"]["yy0"] == "marks"
    assert ("yy0", "bystander") in game.guesser_view(A).revealed
    result = clue(game, A, word="yy0")  # covered: legal again
    assert result.legal and "yy0" not in checker[-1][1]


def test_other_player_hits_an_assassin_behind_a_mark():
    game = new()
    clue(game, A)
    game.guess("yk")  # bystander on A: marked by B
    assert game.phase is Phase.CLUE
    clue(game, B)
    r = game.guess("yk")  # black on B
    assert r.identity is K and game.loss_cause is LossCause.ASSASSIN


def test_stop_only_after_a_correct_guess_and_takes_a_token():
    game = new()
    clue(game, A)
    assert_refused(game, WrongPhaseError, game.stop)
    assert not game.guesser_view(B).can_stop
    game.guess("gy0")
    assert game.guesser_view(B).can_stop and not game.guesser_view(A).can_stop
    game.stop()
    assert game.tokens_left == 8 and game.turns_played == 1 and game.voluntary_stops == 1
    assert game.phase is Phase.CLUE and game.clue is None and game.giver is None


def test_every_turn_consumes_exactly_one_token():
    game = new()
    plays = [(A, ["gy0"], True), (B, ["yg0", "gy1"], False), (A, ["yy0"], False), (B, ["kg"], True)]
    for turn, (giver, words, stop) in enumerate(plays, start=1):
        clue(game, giver)
        for w in words:
            game.guess(w)
        if stop:
            game.stop()
        assert game.tokens_left == 9 - turn and game.turns_played == turn


def test_covering_the_givers_last_green_ends_the_turn_with_a_token():
    game = new()
    clue(game, A)
    results = [game.guess(w) for w in A_GREENS]
    assert [r.turn_over for r in results] == [False] * 8 + [True]
    assert not results[-1].game_over
    assert game.words_left_for(A) == ()
    assert game.tokens_left == 8 and game.turns_played == 1 and game.voluntary_stops == 0
    assert game.phase is Phase.CLUE


def test_no_words_left_handover():
    game = new()
    clue(game, A)
    for w in A_GREENS:
        game.guess(w)
    # A has no words left: B gives every clue from now on
    for _ in range(3):
        assert game.allowed_givers() == (B,)
        assert_refused(game, NotYourTurnError, lambda: clue(game, A))
        clue(game, B)
        game.guess(game.words_left_for(B)[0])
        game.stop()
    assert game.spymaster_view(B).extra["partner_has_words"] is False


def test_greens_found_from_the_other_direction_count_for_the_handover():
    # Shared greens covered while A guessed B's clue are gone from A's side too.
    game = new()
    clue(game, B)
    for w in ["gg0", "gg1", "gg2", "kg"] + GROUPS[Y, G][:4]:
        game.guess(w)
    game.stop()
    assert game.allowed_givers() == (A,)
    clue(game, A)
    for w in A_GREENS[3:]:  # the shared greens are covered already
        game.guess(w)
    assert game.words_left_for(A) == ()
    assert game.allowed_givers() == (B,)


def play_to_a_win(game: DuetGame, stops: bool = False) -> None:
    """A covers nothing wrong: B finds A's 9 greens, then A finds B's 6 others."""
    clue(game, A)
    for i, w in enumerate(A_GREENS):
        game.guess(w)
        if stops and i == 0:
            game.stop()
            clue(game, B)
            game.guess("kg")
            game.stop()
            clue(game, A)
    clue(game, B)
    for w in game.words_left_for(B):
        r = game.guess(w)
    assert r.game_over


def test_win_when_all_fifteen_greens_are_covered_and_the_last_turn_takes_a_token():
    game = new()
    play_to_a_win(game)
    assert game.winner is True and game.is_over and game.loss_cause is None
    assert game.visible_words() == tuple(w for w in WORDS if w not in set(A_GREENS) | set(B_GREENS))
    assert game.tokens_left == 7 and game.turns_played == 2
    assert game.score() == 3 * 7


def test_score_counts_voluntary_stops_but_not_automatic_ends():
    game = new()
    play_to_a_win(game, stops=True)
    # stop, stop, automatic end (A's last green), winning turn: 4 tokens used, 2 voluntary
    assert game.tokens_left == 5 and game.voluntary_stops == 2
    assert game.score() == 3 * 5 + 2


def test_every_move_after_the_end_raises_game_over():
    game = new()
    play_to_a_win(game)
    for move in (
        lambda: clue(game, A),
        lambda: clue(game, B),
        lambda: game.guess("yy0"),
        game.stop,
        lambda: game.sudden_death_guess(A, "yy0"),
        lambda: game.sudden_death_pass(B),
    ):
        assert_refused(game, GameOverError, move)
    assert game.allowed_givers() == () and game.sudden_death_players() == ()


# ---------------------------------------------------------------- sudden death
def sudden_death_game(**kw) -> DuetGame:
    game = new(tokens=1, **kw)
    clue(game, A)
    game.guess("gy0")
    game.guess("yy0")  # bystander: the last token
    assert game.phase is Phase.SUDDEN_DEATH
    return game


def test_using_the_last_token_starts_sudden_death():
    game = sudden_death_game()
    assert game.tokens_left == 0 and game.turns_played == 1 and not game.is_over
    assert game.sudden_death_players() == (A, B)
    assert game.allowed_givers() == ()
    assert_refused(game, WrongPhaseError, lambda: clue(game, A))
    assert_refused(game, WrongPhaseError, lambda: game.guess("gy1"))
    assert_refused(game, WrongPhaseError, game.stop)
    assert game.guesser_view(A).sudden_death and game.guesser_view(A).tokens_left == 0


def test_stopping_on_the_last_token_also_starts_sudden_death():
    game = new(tokens=1)
    clue(game, A)
    game.guess("gy0")
    game.stop()
    assert game.phase is Phase.SUDDEN_DEATH


def test_sudden_death_guesses_are_judged_by_the_other_side():
    game = sudden_death_game()
    r = game.sudden_death_guess(A, "kg")  # black on A's own side, green on B's: found
    assert (r.identity, r.correct, r.game_over) == (G, True, False)
    r = game.sudden_death_guess(B, "gk")  # black on B, green on A
    assert (r.identity, r.correct) == (G, True)
    assert "kg" not in game.visible_words() and "gk" not in game.visible_words()


def test_a_guesser_view_names_the_cards_that_player_found_in_sudden_death():
    game = sudden_death_game()
    assert game.guesser_view(A).found_by_me == () == game.guesser_view(B).found_by_me
    game.sudden_death_guess(A, "kg")
    game.sudden_death_guess(B, "gk")
    assert game.guesser_view(A).found_by_me == ("kg",) and game.guesser_view(B).found_by_me == ("gk",)


def test_sudden_death_guess_by_a_player_that_marked_the_card_is_refused():
    game = sudden_death_game()
    assert_refused(game, AlreadyCoveredError, lambda: game.sudden_death_guess(B, "yy0"))
    assert_refused(game, NotOnBoardError, lambda: game.sudden_death_guess(B, "zebra"))


def test_sudden_death_bystander_loses():
    game = sudden_death_game()
    r = game.sudden_death_guess(B, "yy1")
    assert (r.identity, r.correct, r.game_over) == (Y, False, True)
    assert game.winner is False and game.loss_cause is LossCause.MISTAKE


def test_sudden_death_assassin_loses():
    game = sudden_death_game()
    game.sudden_death_guess(A, "yk")  # black on B's side
    assert game.winner is False and game.loss_cause is LossCause.ASSASSIN


def test_sudden_death_win_and_score():
    game = sudden_death_game()
    for w in game.words_left_for(A):
        r = game.sudden_death_guess(B, w)
    assert r.turn_over and not r.game_over  # B has no words left to find
    assert game.sudden_death_players() == (A,)
    assert_refused(game, NotYourTurnError, lambda: game.sudden_death_guess(B, "kg"))
    for w in game.words_left_for(B):
        r = game.sudden_death_guess(A, w)
    assert r.game_over and game.winner is True
    assert game.score() == 3 * 0 + 0 - 1


def test_a_sudden_death_pass_that_leaves_words_no_one_can_find_loses_at_once():
    # A finds B's greens; once A passes, B's greens that are not green on A's side too are
    # out of reach: the game is lost then, not after the partner's further guesses (a
    # playtest: the person passed and the AI went on to touch an assassin)
    game = sudden_death_game()
    assert not set(game.words_left_for(B)) <= set(game.words_left_for(A))
    game.sudden_death_pass(A)
    assert game.is_over and game.winner is False and game.loss_cause is LossCause.TIMEOUT
    assert_refused(game, GameOverError, lambda: game.sudden_death_guess(B, "gy1"))


def test_a_pass_with_only_shared_greens_left_leaves_the_game_to_the_partner():
    # every green left on B's side is green on A's side too: B can still find them all
    game = sudden_death_game()
    for w in [w for w in game.words_left_for(B) if w not in game.words_left_for(A)]:
        game.sudden_death_guess(A, w)
    assert not game.is_over and game.win_still_possible()
    game.sudden_death_pass(A)
    assert game.sudden_death_players() == (B,) and not game.is_over
    assert_refused(game, NotYourTurnError, lambda: game.sudden_death_guess(A, "kg"))
    assert_refused(game, NotYourTurnError, lambda: game.sudden_death_pass(A))
    for w in game.words_left_for(A)[:-1]:
        assert not game.sudden_death_guess(B, w).game_over
    r = game.sudden_death_guess(B, game.words_left_for(A)[-1])
    assert r.correct and r.game_over and game.winner is True


# ---------------------------------------------------------------- legality modes
def test_strict_refuses_an_illegal_clue_with_its_verdict(checker):
    game = new()
    with pytest.raises(InvalidClueError) as info:
        clue(game, A, word="badword")
    assert info.value.verdict.rule == "fake" and "fake rule" in str(info.value)
    assert_refused(game, InvalidClueError, lambda: clue(game, A, word="gy0"))
    word, visible, options, count = checker[-1]
    assert word == "gy0" and visible == tuple(WORDS) and count == 1


def test_checker_is_not_called_with_legality_off(monkeypatch):
    def explode(*args):
        raise AssertionError("checker called")

    monkeypatch.setattr(duet, "check_clue_legality", explode)
    game = new(legality="off")
    result = clue(game, A, word="gy0")
    assert result.legal and result.verdict is None and not result.penalised


def test_penalty_discards_a_token_and_play_continues_on_the_clue():
    game = new(legality="penalty")
    result = clue(game, A, word="badword", count=2)
    assert (result.legal, result.penalised) == (False, True) and result.verdict.rule == "fake"
    assert game.tokens_left == 8 and game.phase is Phase.GUESS and game.clue.word == "badword"
    game.guess("gy0")
    game.stop()
    assert game.tokens_left == 7 and game.turns_played == 1
    assert game.actions[0]["penalised"] is True


def test_penalty_in_a_mission_discards_a_marked_face_token():
    game = DuetGame.mission(WORDS, KEY, "cairo", legality="penalty")
    clue(game, A, word="badword")
    assert (game.bystander_tokens_left, game.marked_tokens_left) == (5, 3)


def test_penalty_on_the_last_token_starts_sudden_death_without_the_clue():
    game = new(tokens=2, legality="penalty")
    clue(game, A)
    game.guess("gy0")
    game.stop()
    result = clue(game, B, word="badword")
    assert result.penalised and game.tokens_left == 0
    assert game.phase is Phase.SUDDEN_DEATH and game.clue is None and game.guesser is None
    assert_refused(game, WrongPhaseError, lambda: game.guess("kg"))
    assert game.sudden_death_players() == (A, B)


def test_hook_passes_the_count_to_the_legality_module(monkeypatch):
    monkeypatch.undo()  # the real hook, against stand-in legality modules
    seen = []
    with_count = types.ModuleType("spymaster_ai.rules.legality")
    with_count.check_clue = lambda clue, visible, options=None, count=None: seen.append(count) or FakeVerdict(legal=True)
    monkeypatch.setitem(sys.modules, "spymaster_ai.rules.legality", with_count)
    clue(new(), A, count=3)
    clue(new(), A, count=0, unlimited=True)
    assert seen == [3, None]


# ---------------------------------------------------------------- missions (tokens-mistakes)
def bystander_turn(game: DuetGame, giver: Player, word: str):
    clue(game, giver)
    return game.guess(word)


def test_mission_bystander_guesses_use_bystander_tokens_then_two_marked():
    game = DuetGame.mission(WORDS, KEY, "cairo")  # 9 tokens, 5 bystander-face
    bystanders_on_a = GROUPS[Y, Y] + GROUPS[Y, G]
    for n, w in enumerate(bystanders_on_a[:5], start=1):
        giver = A if n % 2 else B
        bystander_turn(game, giver, w if giver is A else GROUPS[G, Y][n - 1])
        assert (game.bystander_tokens_left, game.marked_tokens_left) == (5 - n, 4)
    bystander_turn(game, B, "gy4")  # sixth mistake: two marked-face tokens
    assert (game.bystander_tokens_left, game.marked_tokens_left) == (0, 2)
    assert game.turns_played == 6 and game.phase is Phase.CLUE


def test_mission_stop_takes_a_marked_face_token_first():
    game = DuetGame.mission(WORDS, KEY, "cairo")
    clue(game, A)
    game.guess("gy0")
    game.stop()
    assert (game.bystander_tokens_left, game.marked_tokens_left) == (5, 3)


def test_stop_takes_a_bystander_face_token_when_no_marked_one_is_left():
    game = new()  # standard game: every token bystander-face
    clue(game, A)
    game.guess("gy0")
    game.stop()
    assert (game.bystander_tokens_left, game.marked_tokens_left) == (8, 0)


def test_mission_mistake_that_cannot_be_paid_loses_at_once():
    game = new(tokens=3, mistakes=0)
    bystander_turn(game, A, "yy0")  # costs two marked-face tokens
    assert game.tokens_left == 1 and game.phase is Phase.CLUE
    r = bystander_turn(game, B, "gy0")  # needs two, one left
    assert r.game_over and game.winner is False and game.loss_cause is LossCause.MISTAKE
    assert game.tokens_left == 1 and game.marked_by(A) == ()


def test_mission_mistake_on_the_last_two_tokens_leads_to_sudden_death():
    game = new(tokens=2, mistakes=0)
    bystander_turn(game, A, "yy0")
    assert game.tokens_left == 0 and game.phase is Phase.SUDDEN_DEATH


# ---------------------------------------------------------------- views
def other_b_side_key() -> DuetKey:
    """Same side A, different side B: swap the B identities of yy0 (Y/Y) and yg0 (Y/G)."""
    side_b = list(SIDE_B)
    i, j = WORDS.index("yy0"), WORDS.index("yg0")
    side_b[i], side_b[j] = side_b[j], side_b[i]
    key = DuetKey(tuple(SIDE_A), tuple(side_b))
    key.validate()
    return key


def test_views_carry_no_partner_side():
    g1, g2 = new(), DuetGame(WORDS, other_b_side_key())
    for game in (g1, g2):
        clue(game, B)  # A guesses with B's side: moves avoid the two swapped cards
        game.guess("kg")
        game.stop()
        clue(game, A)
    assert g1.spymaster_view(A) == g2.spymaster_view(A)
    assert g1.guesser_view(A) == g2.guesser_view(A)
    assert g1.spymaster_view(B) != g2.spymaster_view(B)
    assert "side_b" not in json.dumps(g1.guesser_view(A).to_json())


def test_spymaster_view_holds_the_givers_side_only():
    game = new()
    clue(game, A)
    game.guess("gg0")
    game.guess("yg0")  # bystander on A: marked by B
    view = game.spymaster_view(A)
    assert view.game == "duet" and view.me == "A"
    assert set(view.own) == set(A_GREENS) - {"gg0"}
    assert set(view.assassins) == {"kg", "kk", "ky"}
    assert set(view.bystanders) == set(GROUPS[Y, G] + GROUPS[Y, K] + GROUPS[Y, Y])
    assert view.opponent == () and view.partner_marked == ("yg0",)
    assert view.tokens_left == 8
    assert [(h.giver, h.clue.word, h.guesses, h.outcomes) for h in view.history] == [
        ("A", "hint", ("gg0", "yg0"), ("green", "bystander"))
    ]
    assert game.spymaster_view(B).history == ()


def test_guesser_view_shows_the_clue_only_to_the_guesser():
    game = new()
    clue(game, A, count=2)
    vb, va = game.guesser_view(B), game.guesser_view(A)
    assert vb.clue == Clue("hint", 2) and va.clue is None
    assert vb.own_side == tuple(c.value for c in SIDE_B)
    assert vb.max_guesses is None and not vb.can_stop and vb.guesses_made == 0
    game.guess("gy0")
    vb = game.guesser_view(B)
    assert vb.guesses_made == 1 and vb.can_stop and "gy0" not in vb.visible


# ---------------------------------------------------------------- records
def eventful_game() -> DuetGame:
    game = DuetGame.mission(WORDS, KEY, "cairo", legality="penalty")
    clue(game, A, word="badword", count=2)  # penalty
    game.guess("gy0")
    game.guess("yy0")  # mark by B
    clue(game, B, count=0)
    game.guess("kg")
    game.stop()
    clue(game, A, unlimited=True)
    game.guess("yy1")
    return game


def test_replay_reproduces_the_state():
    game = eventful_game()
    config = json.loads(json.dumps(game.config()))
    actions = json.loads(json.dumps(game.actions))
    again = DuetGame.from_config(config)
    again.replay(actions)
    assert again.state_json() == game.state_json()
    assert json.loads(json.dumps(game.state_json())) == game.state_json()


def test_replay_of_a_finished_sudden_death_game():
    game = sudden_death_game()
    game.sudden_death_guess(A, "kg")
    game.sudden_death_guess(B, "yy1")
    again = DuetGame.from_config(game.config())
    again.replay(game.actions)
    assert again.state_json() == game.state_json()
    assert again.loss_cause is LossCause.MISTAKE


def test_a_record_with_moves_after_a_hopeless_pass_replays_under_the_rule_it_was_played_by():
    # before 2026-12-04 a pass ended nothing while the partner could guess; such records
    # (saved games, results files) must still replay to the same end
    game = sudden_death_game()
    game.sudden_death_guess(A, "kg")
    old = [*game.actions, {"type": "sd_pass", "player": "A"}, {"type": "sd_guess", "player": "B", "word": "yy1"}]
    again = DuetGame.from_config(game.config())
    again.replay(old)
    assert again.is_over and again.loss_cause is LossCause.MISTAKE
    now = DuetGame.from_config(game.config())
    now.replay(old[:-1])  # the same pass in a record of today's rule ends the game
    assert now.is_over and now.loss_cause is LossCause.TIMEOUT


def test_replay_refuses_illegal_or_inconsistent_moves():
    game = eventful_game()
    bad = DuetGame.from_config(game.config())
    with pytest.raises(IllegalMove):
        bad.replay([{"type": "guess", "word": "gy0"}])
    with pytest.raises(ValueError, match="unknown Duet action"):
        DuetGame.from_config(game.config()).replay([{"type": "dance"}])
    flipped = [dict(a) for a in game.actions]
    flipped[0]["penalised"] = False
    with pytest.raises(ValueError, match="penalised"):
        DuetGame.from_config(game.config()).replay(flipped)


def test_from_config_refuses_a_mission_that_does_not_match():
    config = DuetGame.mission(WORDS, KEY, "cairo").config()
    config["tokens"] = 8
    with pytest.raises(ValueError, match="mission"):
        DuetGame.from_config(config)


def test_game_record_round_trip():
    pytest.importorskip("spymaster_ai.rules.classic")
    from spymaster_ai.rules.record import from_record, to_record

    game = eventful_game()
    record = json.loads(json.dumps(to_record(game)))
    assert from_record(record).state_json() == game.state_json()


# ---------------------------------------------------------------- with the real checker
REAL_WORDS = [
    "apple", "bank", "castle", "dragon", "engine", "forest", "glass", "harbor", "island", "jacket",
    "kettle", "lemon", "mirror", "needle", "orange", "pillow", "queen", "river", "saddle", "tiger",
    "umbrella", "violin", "window", "yacht", "zipper",
]  # in KEY order: apple, bank, castle green on both sides ... saddle = yy0 (bystander on both)


def test_strict_legality_with_the_real_checker(monkeypatch):
    pytest.importorskip("spymaster_ai.rules.legality")
    monkeypatch.undo()
    game = DuetGame(REAL_WORDS, KEY)
    assert_refused(game, InvalidClueError, lambda: clue(game, A, word="apple"))
    assert_refused(game, InvalidClueError, lambda: clue(game, A, word="apples"))
    saddle = REAL_WORDS[WORDS.index("yy0")]
    assert saddle == "saddle"
    clue(game, A, word="fruit", count=2)
    game.guess(saddle)  # marked by B only: still visible, still illegal
    assert_refused(game, InvalidClueError, lambda: clue(game, B, word="saddles"))
    clue(game, B, word="horse")
    game.guess(saddle)  # second mark: covered
    assert clue(game, A, word="saddle").legal
