"""How a finished game ended, in words: at the end of a session, and when a finished save is opened."""

from __future__ import annotations

from ..rules.cards import Team
from ..rules.classic import ClassicGame
from ..rules.duet import DuetGame
from .events import Event
from .settings import PlaySettings
from .setup import Game

__all__ = ["result_events", "duet_score_line"]


def result_events(settings: PlaySettings, g: Game) -> list[Event]:
    """How a finished game ended, as the human is told: at the end of a session, and again
    when its save file is opened (no AI player is needed for that)."""
    events: list[Event] = []
    if isinstance(g, DuetGame):
        if g.winner:
            events.append(Event("end", f"You win together! {duet_score_line(g)}"))
            if g.tokens == 9:
                events.append(Event("info", "Standard game: above 5 is good, 9-10 great, above 10 excellent."))
        else:
            events.append(Event("end", f"You lose together: {_duet_loss(g)}."))
    elif g.winner is not None:
        mine = Team(settings.team)
        won = g.winner is mine
        if g.solo:
            if won:
                events.append(Event("end", f"You win! Score: {g.score()} (opponent agents not yet covered; "
                                           f"{g.turns[mine]} turns)."))
            else:
                events.append(Event("end", f"You lose: {_classic_loss(g)}."))
        else:
            events.append(Event("end", f"{g.winner.value.capitalize()} wins - you {'win' if won else 'lose'}: "
                                       f"{_classic_loss(g)}."))
    return events


def duet_score_line(g: DuetGame) -> str:
    """The Duet score on a win and where each point came from, in one line (RULES.md §3).

    Why spelled out: "7 voluntary stops" read to a playtester as a reward for stopping. The
    point is paid for a turn that ended on a stop rather than on a bystander (every turn uses
    a token either way), while each token still in the bank is worth three."""
    left, stops = g.tokens_left, g.voluntary_stops
    line = (f"Score: {g.score()} = {3 * left} for the {left} timer token{'' if left == 1 else 's'} left in the bank "
            f"(3 each) + {stops} for the {stops} turn{'' if stops == 1 else 's'} ended by stopping after a correct "
            f"guess, not on a bystander (1 each)")
    if g.needed_sudden_death:
        line += " − 1 because the win needed sudden death"
    return line + "."


def _duet_loss(g: DuetGame) -> str:
    cause = g.loss_cause.value if g.loss_cause else ""
    if cause == "assassin":
        return "an assassin was touched"
    if cause == "timeout":
        if g.needed_sudden_death:
            return "time ran out (in sudden death a pass left green cards that no one could find)"
        return "time ran out"
    if g.needed_sudden_death:
        return "a wrong guess in sudden death"
    return "a bystander when no timer token was left to pay for it"


def _classic_loss(g: ClassicGame) -> str:
    winner, loser = g.winner, g.loser
    cause = g.loss_cause.value if g.loss_cause else ""
    if g.solo:
        if cause == "assassin":
            return "your team touched the assassin"
        if cause == "mistake":
            return "a wrong card in sudden death"
        return "all the opponent's agents are covered"
    if cause == "assassin":
        return f"{loser.value} touched the assassin"
    if cause == "mistake":
        return f"{loser.value} touched a wrong card in sudden death"
    then = " and then the assassin" if g.assassin_ending else ""
    return f"{winner.value} found all its agents{then}"
