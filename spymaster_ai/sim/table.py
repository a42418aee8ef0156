"""The agents at the table: guarded calls to them, and their life around a game.

Why a module of its own: every agent call is guarded. An exception inside an agent, a value
of the wrong type, or a move the engine refuses ends the game as an *error of that agent*
(:class:`_Fault`, with its role) instead of stopping a batch run. The same holds for the
calls around a game: ``reset``, ``start_match`` and ``end_game``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from ..rules.cards import normalise_word
from ..rules.moves import Clue, Guess, IllegalMove, InvalidClueError, Stop
from ..views import detached
from .game_kinds import PlayOptions
from .seeds import derive_seed

class _Fault(Exception):
    """An agent misbehaved (or the clue cap was hit): ends the game as that agent's error."""

    def __init__(self, role: Optional[str], message: str):
        super().__init__(message)
        self.role = role
        self.message = message


@dataclass
class _Tally:
    clues: int = 0
    announced: int = 0
    correct: int = 0
    invalid: int = 0

    def words_per_clue(self) -> Optional[float]:
        return self.correct / self.clues if self.clues else None


class _Table:
    """The agents of one game and guarded calls to them. ``new_match``: the game starts a
    match (or is a game alone), so agents that learn across games are told to forget first."""

    def __init__(self, agents: Mapping[str, Any], options: PlayOptions, new_match: bool = False):
        self.agents = agents
        self.options = options
        self.new_match = new_match
        self.total_clues = 0

    def clue(self, role: str, view: Any) -> Clue:
        if self.total_clues >= self.options.max_clues:
            raise _Fault(None, f"clue cap of {self.options.max_clues} clues per game reached")
        clue = self._call(role, "give_clue", view)
        if not isinstance(clue, Clue):
            raise _Fault(role, f"give_clue returned {type(clue).__name__}, not a Clue")
        self.total_clues += 1
        return clue

    def guess(self, role: str, view: Any, stop_allowed: bool) -> Optional[str]:
        word = self._call(role, "next_guess", view)
        if word is None:
            if not stop_allowed:
                raise _Fault(role, "returned STOP (None) when a guess is mandatory")
            return None
        if not isinstance(word, str):
            raise _Fault(role, f"next_guess returned {type(word).__name__}, not a card word or None")
        return word

    def cover(self, role: str, view: Any, candidates: tuple[str, ...], rng: random.Random) -> str:
        """The spymaster's ``choose_cover(view, candidates)`` if it has one, else a seeded random pick."""
        agent = self.agents[role]
        if not candidates:
            raise _Fault(None, "no card to cover (engine state)")
        if not callable(getattr(agent, "choose_cover", None)):
            return rng.choice(candidates)
        word = self._call(role, "choose_cover", view, detached(candidates))  # the agent's own copy
        if not isinstance(word, str) or normalise_word(word) not in candidates:
            raise _Fault(role, f"choose_cover returned {word!r}, not one of the cards it may cover")
        return normalise_word(word)

    def _call(self, role: str, method: str, *args: Any) -> Any:
        try:
            return getattr(self.agents[role], method)(*args)
        except Exception as exc:  # an agent's own bug must not stop a batch run
            raise _Fault(role, f"{method} raised {type(exc).__name__}: {exc}") from exc


def _apply(role: Optional[str], what: str, move: Callable[[], Any]) -> Any:
    """Apply an agent's move; a move the engine refuses is that agent's error."""
    try:
        return move()
    except IllegalMove as exc:
        raise _Fault(role, f"{what} refused by the rules: {type(exc).__name__}: {exc}") from exc


def _take_guess(table: "_Table", role: str, view: Any, game: Any, seat: str) -> Any:
    """Ask the guesser and apply its STOP (returns None) or its guess (returns the engine's result)."""
    word = table.guess(role, view, view.can_stop)
    if word is None:
        _apply(role, "stop", lambda: game.apply(seat, Stop()))
        return None
    return _apply(role, f"guess {word!r}", lambda: game.apply(seat, Guess(word)))


def _give_clue(role: str, clue: Clue, tally: "_Tally", move: Callable[[], Any]) -> None:
    """Play a clue; a refused clue (strict legality) is counted as invalid and is the giver's error."""
    try:
        result = move()
    except InvalidClueError as exc:
        tally.invalid += 1
        raise _Fault(role, f"clue {clue} refused as illegal: {exc}") from exc
    except IllegalMove as exc:
        raise _Fault(role, f"clue {clue} refused by the rules: {type(exc).__name__}: {exc}") from exc
    tally.clues += 1
    tally.announced += clue.count
    tally.invalid += int(bool(getattr(result, "penalised", False)))


def _start_match(agents: Mapping[str, Any], seed: int) -> None:
    """Call ``start_match(seed)`` on every agent that has it: a new partner, forget what was
    learned. Why the runner insists: agents are built once per process and kept, so an agent
    that learned in one match and did not forget would make the next match depend on which
    process played it."""
    for role in sorted(agents):
        agent = agents[role]
        start = getattr(agent, "start_match", None)
        if not callable(start):
            if callable(getattr(agent, "end_game", None)):
                raise _Fault(role, "has end_game but no start_match: an agent that learns across games must forget "
                                   "what it learned at start_match, or a match would depend on the games before it")
            continue
        try:
            start(derive_seed(seed, "match", role))
        except Exception as exc:
            raise _Fault(role, f"start_match raised {type(exc).__name__}: {exc}") from exc


def _end_game(agents: Mapping[str, Any], record: dict) -> Optional[_Fault]:
    """Give every agent with ``end_game(record)`` the finished game (its own copy), to learn from."""
    for role in sorted(agents):
        end = getattr(agents[role], "end_game", None)
        if not callable(end):
            continue
        try:
            end(copy.deepcopy(record))
        except Exception as exc:
            return _Fault(role, f"end_game raised {type(exc).__name__}: {exc}")
    return None


def _reset_agents(agents: Mapping[str, Any], seed: int) -> None:
    for role in sorted(agents):
        try:
            agents[role].reset(derive_seed(seed, role))
        except Exception as exc:
            raise _Fault(role, f"reset raised {type(exc).__name__}: {exc}") from exc


def _cover_rng(seed: int) -> random.Random:
    """Seeded choices of cards to cover when no agent chooses (simulated opponents, plain agents)."""
    return random.Random(derive_seed(seed, "covers"))


def _run_guarded(drive: Callable[[], Any], table: _Table, seed: int) -> Optional[_Fault]:
    """Reset the agents and play; an agent's misbehaviour comes back as the fault, not an exception."""
    try:
        if table.new_match:
            _start_match(table.agents, seed)
        _reset_agents(table.agents, seed)
        drive()
    except _Fault as exc:
        return exc
    return None
