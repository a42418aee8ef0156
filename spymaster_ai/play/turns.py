"""Whose move it is in a session, and what the person is asked: the engine's seats as players.

Why: the engine answers who may move (``current_seats``) and what is legal
(``legal_moves``); the session only maps a seat to who sits in it (the person, an AI role,
the simulated opponent) and, where the engine leaves the order to the players, chooses it
as they agreed: Duet's first clue (``--first``) and the order of sudden-death guesses (the
person guesses unless they hand the next guess to the AI with 'ai').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..rules.cards import Player, Team
from ..rules.moves import Pass, Phase, Stop
from .errors import SessionError

__all__ = ["Actor", "Prompt", "Turns"]


@dataclass(frozen=True)
class Prompt:
    """What the human must type now. ``kind``: clue, guess, cover, sudden_death, or
    sudden_death_wait (Duet: only the AI has cards left to find; the person lets it guess)."""

    kind: str
    text: str
    handover: bool = False  # Duet sudden death: the person may let the AI guess next ('ai')


@dataclass(frozen=True)
class Actor:
    """Who acts now: ``seat`` is the engine's seat; ``role`` an AI role name, "human", or
    "opponent" (the simulated one); ``kind``: clue, guess, cover, sudden_death, sudden_death_wait."""

    seat: str
    role: str
    kind: str
    team: Optional[Team] = None
    player: Optional[Player] = None

    @property
    def human(self) -> bool:
        return self.role == "human"


_KINDS = {Phase.CLUE: "clue", Phase.GUESS: "guess", Phase.SUDDEN_DEATH: "sudden_death",
          Phase.PENALTY_COVER: "cover", Phase.SOLO_COVER: "cover"}


class Turns:
    """The part of :class:`~spymaster_ai.play.session.Session` that says who moves and asks the person."""

    def _is_persons(self, seat: str) -> bool:
        if self.is_duet:
            return seat.startswith("a_")
        return seat == f"{self.settings.team}_{self.settings.role}"

    def _actor(self) -> Actor:
        g = self.game
        seats = g.current_seats()
        if not seats:
            raise SessionError(f"no move in phase {g.phase.value}")
        seat = seats[0]
        if len(seats) > 1:
            # The engine leaves the order to the players (RULES.md §3): the first Duet clue
            # as --first says; in sudden death the person guesses while they have cards to
            # find, and the AI once they hand it the turn ('ai'), or alone once they have none
            # (playtests: "the screen never offered me a move").
            person_first = self.settings.first == "human" if g.phase is Phase.CLUE else not self._sd_handover
            seat = next(s for s in seats if self._is_persons(s) is person_first)
        elif self.is_duet and g.phase is Phase.SUDDEN_DEATH and not self._is_persons(seat) and not self._sd_handover:
            # the AI alone has cards to find: it still guesses when the person says so, one
            # card at a time (playtests: sudden death "started with no prompt", the AI's guess
            # already made)
            return Actor("a_guesser", "human", "sudden_death_wait", player=Player.A)
        return self._actor_of(seat)

    def _actor_of(self, seat: str) -> Actor:
        kind = _KINDS[self.game.phase]
        if self.is_duet:
            player = Player(seat[0].upper())
            return Actor(seat, "human" if self._is_persons(seat) else seat, kind, player=player)
        side, role = seat.split("_")
        team = Team(side)
        if self._is_persons(seat):
            return Actor(seat, "human", kind, team)
        if self.settings.solo and team is not Team(self.settings.team):
            return Actor(seat, "opponent", kind, team)  # its penalty cover
        return Actor(seat, role if self.settings.solo else seat, kind, team)

    def _can_stop(self, actor: Actor) -> bool:
        return Stop() in self.game.legal_moves(actor.seat)

    def _can_pass(self, actor: Actor) -> bool:
        return Pass() in self.game.legal_moves(actor.seat)

    def prompt(self) -> Optional[Prompt]:
        """The human's question now, or None (game over, or an AI failed)."""
        if self.is_over or self.error:
            return None
        actor = self._actor()
        if not actor.human:
            return None
        g = self.game
        if actor.kind == "clue":
            return Prompt("clue", "Your clue (a word and a number)")
        if actor.kind == "cover":
            if g.phase is Phase.SOLO_COVER:
                return Prompt("cover", f"Cover one opponent ({g.current_team.other.value}) agent for the simulated opponent")
            return Prompt("cover", f"Penalty: cover one of your own ({g.current_team.value}) agents")
        if actor.kind == "sudden_death_wait":
            left = len(g.words_left_for(Player.A))
            return Prompt("sudden_death_wait", f"Sudden death: you have no cards left to find; the AI must find your "
                                               f"last {left}. Press Enter (or type 'ai') to let it guess one",
                          handover=True)
        if actor.kind == "sudden_death":
            if self.is_duet:
                ai_may = "b_guesser" in g.current_seats()
                also = ", 'ai' to let the AI guess one of yours," if ai_may else ""
                return Prompt("sudden_death", f"Sudden death: touch one of the AI's greens (any mistake loses){also} "
                                              "or 'pass' (gives up)", handover=ai_may)
            return Prompt("sudden_death", "Sudden death: touch a card (no stopping; a wrong card loses)")
        stop = " or 'stop'" if self._can_stop(actor) else ""
        return Prompt("guess", f"Your guess{stop}")

    def _on_my_side(self, actor: Actor) -> bool:
        """The player plays with the human: the Duet partner, the solo teammate, or a player
        of the human's team (not the other team's AI)."""
        return self.is_duet or self.settings.solo or actor.team is Team(self.settings.team)

    def _who(self, actor: Actor) -> str:
        """How a player is named in messages."""
        if actor.human:
            return "You"
        if self.is_duet:
            return "The AI"
        if actor.role == "opponent":
            return "The simulated opponent"
        role = actor.role.split("_")[-1]
        if self._on_my_side(actor):
            return f"Your AI {role}"
        return f"The {actor.team.value} AI {role}"

    def _giver_name(self, actor: Actor) -> str:
        if actor.human:
            return "you"
        if self.is_duet or self.settings.solo:
            return "AI"
        return "your AI" if self._on_my_side(actor) else f"{actor.team.value} AI"

    def _turn_line(self) -> str:
        if self.is_over:
            return "The game is over."
        if self.error:
            return "The game cannot go on (see the message above)."
        actor = self._actor()
        what = {"clue": "give a clue", "guess": "guess", "cover": "cover a card", "sudden_death": "guess (sudden death)",
                "sudden_death_wait": "let the AI guess (sudden death)"}
        who = "you" if actor.human else self._who(actor)[0].lower() + self._who(actor)[1:]
        return f"Now: {who} - {what[actor.kind]}"
