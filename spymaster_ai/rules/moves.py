"""Moves shared by all engines: clues, guess outcomes, the typed moves of the uniform move
surface, and the errors a refused move raises.

A refused move raises a subclass of :class:`IllegalMove` and leaves the game unchanged.

The move surface (as OpenSpiel's states have it) is the same on both engines:
``current_seats()`` (who may move now), ``legal_moves(seat, clue_words)`` (the moves that
seat may make), ``apply(seat, move)``, ``is_over`` and ``returns()``. Seats are role names,
the simulator's: ``red_spymaster``, ``red_guesser``, ``blue_spymaster``, ``blue_guesser`` in
classic; ``a_spymaster``, ``a_guesser``, ``b_spymaster``, ``b_guesser`` in Duet (a Duet
player gives clues as its spymaster seat and guesses its partner's clues as its guesser seat).
A clue's word is free, so ``legal_moves`` lists clues only over the words it is given, with
counts from 0 to the giver's cards left: :meth:`apply` also takes any other clue the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Clue:
    """One word and one number. ``unlimited`` lifts the N+1 cap (``count`` is then ignored, 0)."""

    word: str
    count: int
    unlimited: bool = False

    def __str__(self) -> str:
        return f"{self.word}: {'unlimited' if self.unlimited else self.count}"

    @property
    def is_zero(self) -> bool:
        """"word: 0": no card of the giver's relates to the word (a warning, RULES.md)."""
        return not self.unlimited and self.count == 0

    def to_json(self) -> dict:
        return {"word": self.word, "count": self.count, "unlimited": self.unlimited}

    @classmethod
    def from_json(cls, data: dict) -> "Clue":
        """The clue a ``to_json`` dict describes; a word that is not a string, a count that is
        not an integer (2.5, "2", true) or a non-boolean ``unlimited`` is refused, not coerced."""
        word, count, unlimited = data["word"], data["count"], data.get("unlimited", False)
        if not isinstance(word, str):
            raise ValueError(f"clue word must be a string, got {word!r}")
        if not isinstance(count, int) or isinstance(count, bool):
            raise ValueError(f"clue count must be an integer, got {count!r}")
        if not isinstance(unlimited, bool):
            raise ValueError(f"clue 'unlimited' must be true or false, got {unlimited!r}")
        return cls(word, count, unlimited)


@dataclass(frozen=True)
class ClueResult:
    """An accepted clue: the checker's verdict (``legal`` is True when legality is off), and
    whether the invalid-clue penalty was applied."""

    clue: Clue
    legal: bool
    verdict: object | None
    penalised: bool


@dataclass(frozen=True)
class GuessResult:
    """The public result of one guess. ``identity`` is the card's identity on the judging key
    (classic: the key card; Duet: the giver's side, or the other side in sudden death);
    ``correct`` means one of the guessing side's own agents."""

    word: str
    identity: Enum
    correct: bool
    turn_over: bool
    game_over: bool


class Phase(str, Enum):
    CLUE = "clue"  # waiting for a spymaster's clue
    GUESS = "guess"  # operatives guessing
    PENALTY_COVER = "penalty_cover"  # classic invalid clue: opposing spymaster covers one own card
    SOLO_COVER = "solo_cover"  # classic solo: spymaster covers one opponent card
    SUDDEN_DEATH = "sudden_death"  # Duet sudden death, or classic Assassin Ending sudden-death turn
    OVER = "over"


@dataclass(frozen=True)
class GiveClue:
    """A spymaster's (Duet: a giver's) clue."""

    clue: Clue


@dataclass(frozen=True)
class Guess:
    """A guesser touches a card (in sudden death too)."""

    word: str


@dataclass(frozen=True)
class Stop:
    """A guesser ends its turn (classic: after one guess; Duet: after one correct guess)."""


@dataclass(frozen=True)
class Cover:
    """A spymaster covers a card: classic penalty cover (one of its own agents) or solo cover
    (an opponent agent), whichever the phase asks for."""

    word: str


@dataclass(frozen=True)
class Pass:
    """A Duet player in sudden death guesses no more."""


Move = GiveClue | Guess | Stop | Cover | Pass
MOVE_TYPES = (GiveClue, Guess, Stop, Cover, Pass)


class LossCause(str, Enum):
    ASSASSIN = "assassin"
    OPPONENT = "opponent"  # the other team (or simulated opponent) covered all its agents
    TIMEOUT = "timeout"  # Duet: ran out of tokens / lost in sudden death
    MISTAKE = "mistake"  # Duet mission: a turn needed more tokens than remained; sudden-death wrong guess


class IllegalMove(Exception):
    """A move the rules do not allow; the game state is unchanged."""


class GameOverError(IllegalMove):
    """A move after the game ended."""


class WrongPhaseError(IllegalMove):
    """A move of the wrong kind now (a guess before a clue, a clue during guessing...)."""


class WrongSeatError(WrongPhaseError):
    """A move by a seat that may not move now (or no seat of this game)."""


class NotAMoveError(IllegalMove, TypeError):
    """``apply`` was given something that is not one of the typed moves."""


def check_move(seat: str, move: object, seats: tuple[str, ...], current: tuple[str, ...]) -> None:
    """The checks every engine's ``apply`` makes before its own: a typed move, by a seat that may move."""
    if not isinstance(move, MOVE_TYPES):
        raise NotAMoveError(
            f"a move is GiveClue, Guess, Stop, Cover or Pass, got {type(move).__name__}: {move!r}"
        )
    if seat not in seats:
        raise WrongSeatError(f"{seat!r} is no seat of this game; seats: {', '.join(seats)}")
    if seat not in current:
        now = ", ".join(current) or "nobody (the game is over)"
        raise WrongSeatError(f"{seat} may not move now; to move: {now}")


class NotOnBoardError(IllegalMove):
    """A word that is not a card of this board."""


class AlreadyCoveredError(IllegalMove):
    """A card that is covered (or, in Duet, one this guesser may not guess again)."""


class InvalidClueError(IllegalMove):
    """A clue refused by the legality checker under strict legality, or a bad count."""

    def __init__(self, message: str, verdict: object | None = None):
        super().__init__(message)
        self.verdict = verdict
