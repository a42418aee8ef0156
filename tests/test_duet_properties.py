"""Property tests for the Duet engine: random legal move sequences on random keys.

Hypothesis draws the key, the token setting, the legality mode and a walk seed; the walk
then plays random legal moves (givers among ``allowed_givers()``, clues, guesses biased by
a drawn skill, stops, sudden-death guesses and passes). After every move the test checks
the engine against what it observed itself: its own model of the token bank (which face
each event takes), the cards covered and marked, turn order, and the end conditions.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spymaster_ai.rules import duet
from spymaster_ai.rules.cards import DuetIdentity, Player, generate_duet_key
from spymaster_ai.rules.duet import MISSIONS, DuetGame, NotYourTurnError
from spymaster_ai.rules.moves import Clue, GameOverError, IllegalMove, LossCause, Phase

G, K, Y = DuetIdentity.GREEN, DuetIdentity.BLACK, DuetIdentity.BYSTANDER
WORDS = [f"card{i:02d}" for i in range(25)]


def fake_check(word, visible, options, count):
    """Clue words starting with 'bad' are illegal; everything else is legal."""
    legal = not word.startswith("bad")
    return SimpleNamespace(legal=legal, rule=None if legal else "fake", collides_with=None, reason="fake")


class Bank:
    """The test's own model of the timer-token bank (RULES.md §3 missions)."""

    def __init__(self, tokens: int, mistakes: int | None):
        self.bystander = tokens if mistakes is None else mistakes
        self.marked = tokens - self.bystander

    @property
    def left(self) -> int:
        return self.bystander + self.marked

    def turn(self) -> None:  # stop, automatic end, winning turn, penalty: marked face first
        if self.marked:
            self.marked -= 1
        else:
            self.bystander -= 1

    def mistake(self) -> bool:  # False: cannot be paid
        if self.bystander:
            self.bystander -= 1
        elif self.marked >= 2:
            self.marked -= 2
        else:
            return False
        return True


def check_invariants(game: DuetGame, bank: Bank, marks: set, turns: int, stops: int) -> None:
    key = game.key
    side = {p: key.side(p) for p in Player}
    state = game.state_json()
    covered = state["covered"]
    visible = game.visible_words()

    # the bank
    assert (game.bystander_tokens_left, game.marked_tokens_left) == (bank.bystander, bank.marked)
    assert game.tokens_left == bank.left >= 0 and game.bystander_tokens_left >= 0 and game.marked_tokens_left >= 0
    assert game.turns_played == turns and game.voluntary_stops == stops

    # cards: covered + visible = 25; agents are greens, mark-covered cards bystanders on both sides
    assert len(visible) + len(covered) == 25 and set(visible).isdisjoint(covered)
    for word, how in covered.items():
        i = WORDS.index(word)
        if how == "agent":
            assert G in (side[Player.A][i], side[Player.B][i])
        else:
            assert how == "marks" and side[Player.A][i] is Y and side[Player.B][i] is Y
            assert (word, Player.A) in marks and (word, Player.B) in marks
    assert {tuple(m) for m in state["marks"]} == {(w, p.value) for w, p in marks}
    for word, p in marks:  # a mark by guesser p: bystander on the partner's side
        assert side[p.other][WORDS.index(word)] is Y
        if (word, p.other) in marks:  # marked from both directions: covered
            assert covered.get(word) == "marks"
        elif word in covered:  # one mark, then found green from the other direction
            assert covered[word] == "agent" and side[p][WORDS.index(word)] is G
        assert not game.can_guess(p, word)
    greens = {w for p in Player for w, c in zip(WORDS, side[p]) if c is G}
    assert len(greens) == 15
    agents = {w for w, how in covered.items() if how == "agent"}
    assert game.greens_left() == 15 - len(agents)
    for p in Player:
        assert set(game.words_left_for(p)) == {w for w, c in zip(WORDS, side[p]) if c is G} - agents

    # phases and end conditions
    if game.phase in (Phase.CLUE, Phase.GUESS):
        assert game.tokens_left >= 1 and game.greens_left() > 0 and game.winner is None
    if game.phase is Phase.GUESS:
        assert game.clue is not None and game.guesser is game.giver.other
        assert game.words_left_for(game.giver)
    if game.phase is Phase.SUDDEN_DEATH:
        assert game.tokens_left == 0 and game.greens_left() > 0 and game.sudden_death_players()
    if game.is_over:
        assert game.winner in (True, False)
        assert (game.winner is True) == (game.greens_left() == 0)
        assert (game.loss_cause is None) == game.winner
        if game.winner:
            assert game.score() == 3 * game.tokens_left + stops - (1 if game.needed_sudden_death else 0)
        else:
            assert game.score() is None
    else:
        assert game.winner is None and game.loss_cause is None and game.score() is None


def assert_all_moves_refused_after_the_end(game: DuetGame) -> None:
    before = json.dumps(game.state_json(), sort_keys=True)
    for p in Player:
        for move in (
            lambda: game.give_clue(p, Clue("late", 1)),
            lambda: game.guess(game.words[0]),
            game.stop,
            lambda: game.sudden_death_guess(p, game.words[1]),
            lambda: game.sudden_death_pass(p),
        ):
            try:
                move()
            except GameOverError:
                pass
            else:  # pragma: no cover - a failure path
                raise AssertionError("a move after the end was accepted")
    assert json.dumps(game.state_json(), sort_keys=True) == before


def play_random_game(game: DuetGame, seed: int, skill: float, bank: Bank) -> None:
    rng = random.Random(seed)
    side = {p: game.key.side(p) for p in Player}
    marks: set = set()
    turns = stops = 0
    last_giver = None
    passed: set = set()
    penalty = game.config()["legality"] == "penalty"

    for _ in range(200):
        check_invariants(game, bank, marks, turns, stops)
        if game.is_over:
            break
        if game.phase is Phase.CLUE:
            allowed = game.allowed_givers()
            with_words = [p for p in Player if game.words_left_for(p)]
            expected = tuple(with_words) if last_giver is None else (
                (last_giver.other,) if last_giver.other in with_words else (last_giver,)
            )
            assert allowed == expected
            for p in set(Player) - set(allowed):
                try:
                    game.give_clue(p, Clue("x", 1))
                except NotYourTurnError:
                    pass
                else:  # pragma: no cover
                    raise AssertionError("a clue out of turn was accepted")
            giver = rng.choice(allowed)
            bad = penalty and rng.random() < 0.2
            word = ("bad" if bad else "hint") + str(rng.randrange(100))
            result = game.give_clue(giver, Clue(word, rng.randrange(5), rng.random() < 0.1))
            assert result.penalised == bad and result.legal == (not bad)
            last_giver = giver
            if bad:
                bank.turn()
                if bank.left == 0:
                    assert game.phase is Phase.SUDDEN_DEATH
                    continue
            assert game.phase is Phase.GUESS and game.giver is giver
        elif game.phase is Phase.GUESS:
            giver, guesser = game.giver, game.guesser
            if game.correct_this_turn and rng.random() < 0.3:
                game.stop()
                bank.turn()
                turns += 1
                stops += 1
                continue
            options = [w for w in game.visible_words() if game.can_guess(guesser, w)]
            targets = [w for w in options if side[giver][WORDS.index(w)] is G]
            word = rng.choice(targets if targets and rng.random() < skill else options)
            identity = side[giver][WORDS.index(word)]
            n_giver_left = len(game.words_left_for(giver))
            result = game.guess(word)
            assert result.identity is identity and result.correct == (identity is G)
            if identity is G:
                if game.greens_left() == 0 or n_giver_left == 1:
                    bank.turn()
                    turns += 1
                    assert result.turn_over
                else:
                    assert not result.turn_over and game.phase is Phase.GUESS
            elif identity is K:
                turns += 1
                assert game.loss_cause is LossCause.ASSASSIN
            else:
                turns += 1
                if bank.mistake():
                    marks.add((word, guesser))
                    assert result.turn_over and not result.game_over
                else:
                    assert game.loss_cause is LossCause.MISTAKE
            if result.turn_over and not game.is_over:
                assert game.phase is (Phase.SUDDEN_DEATH if bank.left == 0 else Phase.CLUE)
        else:
            players = game.sudden_death_players()
            assert players == tuple(p for p in Player if p not in passed and game.words_left_for(p.other))
            player = rng.choice(players)
            if rng.random() < 0.1:
                visible = set(game.visible_words())
                game.sudden_death_pass(player)
                passed.add(player)
                assert player not in game.sudden_death_players()
                # lost at once when a green card left can be found by no player still guessing
                left = {w for i, w in enumerate(WORDS) if w in visible and G in (side[Player.A][i], side[Player.B][i])}
                reach = {w for i, w in enumerate(WORDS) for p in Player if p not in passed and side[p.other][i] is G}
                assert (game.loss_cause is LossCause.TIMEOUT) == (not left <= reach)
                assert game.is_over == (not left <= reach)
                continue
            options = [w for w in game.visible_words() if game.can_guess(player, w)]
            targets = [w for w in options if side[player.other][WORDS.index(w)] is G]
            word = rng.choice(targets if rng.random() < skill else options)
            identity = side[player.other][WORDS.index(word)]
            result = game.sudden_death_guess(player, word)
            assert result.identity is identity
            if identity is K:
                assert game.loss_cause is LossCause.ASSASSIN
            elif identity is Y:
                assert game.loss_cause is LossCause.MISTAKE
            else:
                assert result.correct and (game.winner is True) == (game.greens_left() == 0)
    assert game.is_over, "a game of at most 11 tokens ends well within 200 moves"
    check_invariants(game, bank, marks, turns, stops)
    assert_all_moves_refused_after_the_end(game)

    again = DuetGame.from_config(json.loads(json.dumps(game.config())))
    again.replay(json.loads(json.dumps(game.actions)))
    assert again.state_json() == game.state_json()


@pytest.fixture(autouse=True, scope="module")
def fake_checker():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(duet, "check_clue_legality", fake_check)
        yield


def run(key_seed, walk_seed, skill, tokens, mistakes, legality):
    game = DuetGame(WORDS, generate_duet_key(key_seed), tokens=tokens, mistakes=mistakes, legality=legality)
    play_random_game(game, walk_seed, skill, Bank(tokens, mistakes))


seeds = st.integers(0, 2**32 - 1)
skills = st.floats(0.0, 1.0)


@settings(max_examples=600, deadline=None)
@given(seeds, seeds, skills, st.sampled_from([9, 10, 11, 1, 2, 4]), st.sampled_from(["off", "penalty"]))
def test_standard_games(key_seed, walk_seed, skill, tokens, legality):
    run(key_seed, walk_seed, skill, tokens, None, legality)


@settings(max_examples=600, deadline=None)
@given(seeds, seeds, skills, st.sampled_from(sorted(MISSIONS)), st.sampled_from(["off", "penalty"]))
def test_missions(key_seed, walk_seed, skill, mission, legality):
    tokens, mistakes = MISSIONS[mission]
    run(key_seed, walk_seed, skill, tokens, mistakes, legality)


@settings(max_examples=600, deadline=None)
@given(seeds, seeds, skills, st.integers(1, 11).flatmap(lambda t: st.tuples(st.just(t), st.integers(0, t))))
def test_any_tokens_and_mistakes(key_seed, walk_seed, skill, setting):
    tokens, mistakes = setting
    run(key_seed, walk_seed, skill, tokens, mistakes, "penalty")


@settings(max_examples=200, deadline=None)
@given(seeds, seeds)
def test_refused_moves_leave_the_state_unchanged(key_seed, walk_seed):
    """Random illegal moves thrown at random points of a game never change its state."""
    game = DuetGame(WORDS, generate_duet_key(key_seed), legality="off", tokens=3)
    rng = random.Random(walk_seed)
    while not game.is_over:
        before = json.dumps(game.state_json(), sort_keys=True)
        illegal = []
        if game.phase is not Phase.CLUE:
            illegal.append(lambda: game.give_clue(Player.A, Clue("x", 1)))
        if game.phase is not Phase.GUESS:
            illegal += [lambda: game.guess(WORDS[0]), game.stop]
        else:
            illegal.append(lambda: game.guess("not-a-card"))
            if not game.correct_this_turn:
                illegal.append(game.stop)
        if game.phase is not Phase.SUDDEN_DEATH:
            illegal += [lambda: game.sudden_death_guess(Player.B, WORDS[1]), lambda: game.sudden_death_pass(Player.A)]
        covered = [w for w in WORDS if w not in game.visible_words()]
        if covered and game.phase is Phase.GUESS:
            illegal.append(lambda: game.guess(rng.choice(covered)))
        for move in illegal:
            try:
                move()
            except IllegalMove:
                pass
            else:  # pragma: no cover
                raise AssertionError("an illegal move was accepted")
            assert json.dumps(game.state_json(), sort_keys=True) == before
        # one legal move
        if game.phase is Phase.CLUE:
            game.give_clue(rng.choice(game.allowed_givers()), Clue("hint", 1))
        elif game.phase is Phase.GUESS:
            if game.correct_this_turn and rng.random() < 0.3:
                game.stop()
            else:
                game.guess(rng.choice([w for w in game.visible_words() if game.can_guess(game.guesser, w)]))
        else:
            p = rng.choice(game.sudden_death_players())
            if rng.random() < 0.2:
                game.sudden_death_pass(p)
            else:
                game.sudden_death_guess(p, rng.choice([w for w in game.visible_words() if game.can_guess(p, w)]))
