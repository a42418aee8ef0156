"""Property tests of the engines' uniform move surface (current_seats, legal_moves, apply,
is_over, returns), on the real legality checker.

Hypothesis draws the variant, the board and a walk; the walk plays random moves from
``legal_moves`` and, between them, tries moves drawn from a wider universe (every card as a
guess and a cover, STOP, PASS, clues over the vocabulary and the visible cards, every seat).
Checked: every listed move applies; every move not listed is refused with an IllegalMove
and leaves the state exactly as it was; every playout ends, with returns that agree with the
winner (classic) or the score (Duet).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spymaster_ai.rules.cards import (
    CLASSIC_LAYOUT,
    KIM2019_LAYOUT,
    deal_words,
    generate_classic_key,
    generate_duet_key,
)
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.duet import LOSS_RETURN, DuetGame
from spymaster_ai.rules.moves import (
    Clue,
    Cover,
    GameOverError,
    GiveClue,
    Guess,
    IllegalMove,
    NotAMoveError,
    Pass,
    Stop,
    WrongSeatError,
)
from spymaster_ai.rules.wordlists import load_words

# Ordinary clue words, plus "three" (illegal as the count 3) and words that collide with
# board words when dealt ("fire" with FIREMAN...): the universe adds the visible cards too.
VOCAB = ("animal", "ocean", "music", "three", "fire", "metal", "royal", "space", "water", "sport")
BOARD_WORDS = load_words("classic")
MAX_STEPS = 400


def classic_game(variant: str, legality: str, seed: int) -> ClassicGame:
    rng = random.Random(seed)
    if variant == "kim2019":
        key = generate_classic_key(rng, KIM2019_LAYOUT, starting="red")
        return ClassicGame(deal_words(BOARD_WORDS, 25, rng), key, kind="kim2019", legality=legality)
    key = generate_classic_key(rng, CLASSIC_LAYOUT)
    return ClassicGame(
        deal_words(BOARD_WORDS, 25, rng), key, legality=legality,
        solo=variant == "solo", assassin_ending=variant == "assassin_ending",
    )


def duet_game(tokens: int, legality: str, seed: int) -> DuetGame:
    rng = random.Random(seed)
    return DuetGame(deal_words(BOARD_WORDS, 25, rng), generate_duet_key(rng), tokens=tokens, legality=legality)


def universe(game) -> tuple[tuple[str, ...], list[tuple[str, object]]]:
    """Its clue words, and moves of every kind by every seat (most of them illegal now)."""
    clue_words = VOCAB + game.words[:5]
    moves: list[object] = [Stop(), Pass()]
    moves += [Guess(w) for w in game.words] + [Cover(w) for w in game.words] + [Guess("nosuchcard")]
    moves += [GiveClue(Clue(w, c)) for w in clue_words for c in range(0, 10)]
    return clue_words, [(seat, move) for seat in game.seats for move in moves]


def walk(game, data, tries: int) -> None:
    """Play legal moves to the end, trying ``tries`` drawn moves between two legal ones."""
    clue_words, space = universe(game)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        seats = game.current_seats()
        assert seats, "a running game has a seat to move"
        for _ in range(tries):
            seat, move = data.draw(st.sampled_from(space))
            listed = move in game.legal_moves(seat, clue_words, max_count=9)
            if listed:
                continue
            before = game.state_json()
            with pytest.raises(IllegalMove) as refused:
                game.apply(seat, move)
            assert str(refused.value), "a refusal says why"
            assert game.state_json() == before, f"{seat} {move} was refused but changed the state"
        seat = data.draw(st.sampled_from(seats))
        legal = game.legal_moves(seat, VOCAB)
        assert legal, f"{seat} must move but has no legal move"
        move = data.draw(st.sampled_from(legal))
        game.apply(seat, move)
    assert game.is_over, "every playout ends"
    assert game.current_seats() == ()
    assert all(game.legal_moves(seat, VOCAB) == () for seat in game.seats)
    with pytest.raises(GameOverError):
        game.apply(game.seats[0], Stop())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    variant=st.sampled_from(["classic", "solo", "kim2019", "assassin_ending"]),
    legality=st.sampled_from(["strict", "penalty"]),
    seed=st.integers(0, 2**32 - 1),
    tries=st.integers(0, 3),
    data=st.data(),
)
def test_classic_moves_apply_refuse_and_end(variant, legality, seed, tries, data):
    game = classic_game(variant, legality, seed)
    walk(game, data, tries)
    returns = game.returns()
    assert set(returns) == set(game.seats)
    winner = game.winner.value
    assert all(value == (1.0 if seat.startswith(winner) else -1.0) for seat, value in returns.items())
    if not game.single_team:
        assert sum(returns.values()) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    tokens=st.integers(2, 11),
    legality=st.sampled_from(["strict", "penalty"]),
    seed=st.integers(0, 2**32 - 1),
    tries=st.integers(0, 3),
    data=st.data(),
)
def test_duet_moves_apply_refuse_and_end(tokens, legality, seed, tries, data):
    game = duet_game(tokens, legality, seed)
    walk(game, data, tries)
    returns = game.returns()
    assert set(returns) == set(game.seats)
    assert len(set(returns.values())) == 1, "Duet is cooperative: one result for every seat"
    value = returns["a_spymaster"]
    assert value == (game.score() if game.winner else LOSS_RETURN)
    assert value > LOSS_RETURN if game.winner else value == LOSS_RETURN


def test_refusals_name_the_problem():
    game = classic_game("classic", "strict", 7)
    spymaster = game.current_seats()[0]
    guesser = spymaster.replace("spymaster", "guesser")
    with pytest.raises(WrongSeatError, match="may not move now"):
        game.apply(guesser, Guess(game.words[0]))
    with pytest.raises(WrongSeatError, match="no seat of this game"):
        game.apply("green_spymaster", Stop())
    with pytest.raises(NotAMoveError, match="a move is GiveClue"):
        game.apply(spymaster, "animal")
    with pytest.raises(IllegalMove, match="illegal clue"):
        game.apply(spymaster, GiveClue(Clue(game.words[0], 1)))
    assert game.state_json()["moves"] == 0


def test_legal_clues_follow_the_checker_per_count():
    """"three: 3" is refused (the count cannot be the clue), "three: 2" is listed."""
    game = classic_game("classic", "strict", 3)
    seat = game.current_seats()[0]
    counts = {m.clue.count for m in game.legal_moves(seat, ["three"])}
    assert 3 not in counts and 2 in counts
    assert GiveClue(Clue("three", 3)) not in game.legal_moves(seat, ["three"])
    with pytest.raises(IllegalMove):
        game.apply(seat, GiveClue(Clue("three", 3)))


def test_duet_seats_follow_the_phases():
    game = duet_game(9, "strict", 5)
    assert game.current_seats() == ("a_spymaster", "b_spymaster")  # either player may start
    game.apply("b_spymaster", GiveClue(Clue("animal", 1)))
    assert game.current_seats() == ("a_guesser",)
    assert Stop() not in game.legal_moves("a_guesser")  # a correct guess comes first
    assert game.legal_moves("b_guesser") == ()


@pytest.mark.parametrize("make", [lambda: classic_game("classic", "penalty", 4), lambda: duet_game(9, "penalty", 4)])
def test_clue_verdict_says_what_give_clue_would_penalise(make):
    """Under "penalty" an illegal clue is played (and penalised): ``clue_verdict`` lets a player
    ask first, judging as the move would, and asking changes nothing."""
    game = make()
    seat = game.current_seats()[-1]
    board_word = game.words[0]
    assert not game.clue_verdict(Clue(board_word.upper(), 1)).legal  # judged as typed, normalised
    assert game.clue_verdict(Clue("animal", 2)).legal
    assert not game.clue_verdict(Clue("three", 3)).legal  # the count cannot be the clue
    with pytest.raises(IllegalMove, match="needs a word"):
        game.clue_verdict(Clue("  ", 1))
    assert game.actions == []
    assert game.apply(seat, GiveClue(Clue(board_word, 1))).penalised  # the move agrees
