"""Moves shared by all engines: clues, guess outcomes, and the errors a refused move raises.

A refused move raises a subclass of :class:`IllegalMove` and leaves the game unchanged.
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


class NotOnBoardError(IllegalMove):
    """A word that is not a card of this board."""


class AlreadyCoveredError(IllegalMove):
    """A card that is covered (or, in Duet, one this guesser may not guess again)."""


class InvalidClueError(IllegalMove):
    """A clue refused by the legality checker under strict legality, or a bad count."""

    def __init__(self, message: str, verdict: object | None = None):
        super().__init__(message)
        self.verdict = verdict
