"""Playing a move on the engine and telling the person what happened, in each game's words.

Why here: the engine judges and plays every move (``apply``: a refused move raises and
changes nothing); what is said about it (the result of a guess, a penalty, sudden death,
the tokens left) and the public clue history on the screen differ between classic and
Duet, so each game has its telling here, read from the engine's result and public state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..rules.cards import Identity, Player
from ..rules.moves import Clue, Cover, GiveClue, Guess, Move, Pass, Phase, Stop
from .events import Event
from .screen import ClueLine
from .turns import Actor

__all__ = ["News"]


class News:
    """The part of :class:`~spymaster_ai.play.session.Session` that plays moves and tells of them."""

    def _apply(self, actor: Actor, move: Move) -> list[Event]:
        """Play ``move`` for ``actor`` on the engine; refused moves raise and change nothing."""
        g = self.game
        # what is told after the move, read before it
        before: dict[str, Any] = {"phase": g.phase}
        if isinstance(move, Guess) and (not self.is_duet or g.phase is Phase.GUESS):
            before["meant"] = self._leftover_of(actor, move.word)
        if self.is_duet:
            before["tokens"] = g.tokens_left
            if isinstance(move, Pass):
                before["left"] = len(g.words_left_for(actor.player.other))
        else:
            before["team"] = g.current_team
        result = g.apply(actor.seat, move)
        if self.is_duet:
            return self._told_duet(actor, move, result, before) + self._duet_news()
        return self._told_classic(actor, move, result, before)

    # ----------------------------------------------------------------- both games
    def _told_clue(self, actor: Actor, result: Any, whose: str, penalty: str, note: str) -> list[Event]:
        self.clues.append(ClueLine(self._giver_name(actor), str(result.clue)))
        out = [Event("you" if actor.human else "ai",
                     f"{self._who(actor)} give{'' if actor.human else 's'} the clue: {str(result.clue).upper()}")]
        out.extend(self._zero_clue_note(actor, result.clue, whose))
        if result.penalised:
            reason = getattr(result.verdict, "reason", "refused by the legality checker")
            self.clues[-1] = ClueLine(self.clues[-1].giver, self.clues[-1].clue, note=note)
            out.append(Event("warning", f"That clue is illegal: {reason}. Penalty: {penalty}."))
        return out

    def _zero_clue_note(self, actor: Actor, clue: Clue, whose: str) -> list[Event]:
        """What an AI's zero clue means, said right after it: the AI spymasters open with one
        as a warning about the assassin (see ``EmbeddingSpymaster.warning``), and a player
        who has not met the convention would read it as a lost turn."""
        if actor.human or not clue.is_zero:
            return []
        return [Event("info", f"A zero clue: none of {whose} relates to {clue.word.upper()}. It warns "
                              f"{'you' if self._on_my_side(actor) else 'its guesser'} to keep away from the cards it calls to mind; "
                              f"at least one guess is still due.")]

    def _log_guess(self, card: str, outcome: str, meant: str = "") -> None:
        if self.clues:
            last = self.clues[-1]
            self.clues[-1] = ClueLine(last.giver, last.clue, last.guesses + ((self.labels.get(card, card), outcome),),
                                      last.note, last.meant + ("",) * (len(last.guesses) - len(last.meant)) + (meant,))

    # ----------------------------------------------------------------- classic
    def _told_classic(self, actor: Actor, move: Move, result: Any, before: dict) -> list[Event]:
        g = self.game
        who = self._who(actor)
        kind = "you" if actor.human else "ai"
        if isinstance(move, GiveClue):
            return self._told_clue(actor, result, f"the {actor.team.value} agents",
                                   "the turn ends at once, and the other side covers one of its own agents",
                                   "illegal: penalised")
        if isinstance(move, Guess):
            identity = result.identity.value
            self._log_guess(move.word, identity if identity != "assassin" else "ASSASSIN", before["meant"])
            verb = "touch" if actor.human else "touches"
            text = f"{who} {verb} {self.label(move.word)}: "
            if result.identity is Identity.ASSASSIN and not result.game_over:
                text += "the ASSASSIN - sudden death: find all your remaining agents now; any other card loses"
            elif result.identity is Identity.ASSASSIN:
                text += "the ASSASSIN!"
            elif result.correct:
                text += f"a {identity} agent - correct"
            elif result.identity is Identity.BYSTANDER:
                text += "an innocent bystander"
            else:
                text += f"a {identity} agent (the other team's)"
            if result.turn_over and not result.game_over:
                text += " - the turn ends"
            return [Event("result", text)]
        if isinstance(move, Stop):
            return [Event(kind, f"{who} stop{'' if actor.human else 's'} guessing.")]
        assert isinstance(move, Cover)
        s = "" if actor.human else "s"
        if before["phase"] is Phase.SOLO_COVER:
            out = [Event(kind, f"{who} cover{s} {self.label(move.word)} "
                               f"for the simulated opponent (a {g.key.starting.other.value} agent).")]
        else:
            out = [Event(kind, f"{who} cover{s} {self.label(move.word)} (a {before['team'].value} agent) as the penalty.")]
        if self.clues:
            last = self.clues[-1]
            self.clues[-1] = replace(last, note=(last.note + "; " if last.note else "") + f"covered {self.label(move.word)}")
        return out

    # ----------------------------------------------------------------- Duet
    def _told_duet(self, actor: Actor, move: Move, result: Any, before: dict) -> list[Event]:
        g = self.game
        who = self._who(actor)
        kind = "you" if actor.human else "ai"
        s = "" if actor.human else "s"
        if isinstance(move, GiveClue):
            return self._told_clue(actor, result, "the words green on its side",
                                   f"one timer token is discarded ({before['tokens']} -> {g.tokens_left})",
                                   "illegal: 1 token discarded")
        if isinstance(move, Guess) and before["phase"] is Phase.SUDDEN_DEATH:
            self._sd_handover = False
            outcome = {"green": "green", "bystander": "bystander", "black": "ASSASSIN"}[result.identity.value]
            self.clues.append(ClueLine("sudden death", "-", ((self.labels.get(move.word, move.word), outcome),),
                                       note=f"by {'you' if actor.human else 'the AI'}"))
            return [Event("result", f"{who} touch{'es' if s else ''} {self.label(move.word)}: " + {
                "green": "a green agent - correct",
                "bystander": "a bystander - a mistake in sudden death",
                "black": "an ASSASSIN!",
            }[result.identity.value])]
        if isinstance(move, Guess):
            identity = result.identity.value
            if identity == "green":
                outcome, text = "green", "a green agent - correct"
            elif identity == "black":
                outcome, text = "ASSASSIN", "an ASSASSIN!"
            else:
                outcome = "bystander"
                direction = "you" if actor.player is Player.A else "the AI"
                text = f"a bystander - a timer token marks it (guessed by {direction})"
            self._log_guess(move.word, outcome, before["meant"])
            if result.turn_over and not result.game_over and identity == "green":
                text += " - that was the last green word on that side; the turn ends"
            elif result.turn_over and not result.game_over:
                text += "; the turn ends"
            return [Event("result", f"{who} touch{'es' if s else ''} {self.label(move.word)}: {text}")]
        if isinstance(move, Stop):
            return [Event(kind, f"{who} stop{s} and take{s} a timer token.")]
        assert isinstance(move, Pass)
        self._sd_handover = False
        if g.is_over:
            whose = "the AI's" if actor.human else "your"
            return [Event(kind, f"{who} pass{'es' if s else ''}: {before['left']} of {whose} green cards, which only "
                                f"{'you' if actor.human else 'the AI'} could find, stay hidden - the game "
                                "cannot be won and ends here.")]
        return [Event(kind, f"{who} pass{'es' if s else ''}: no more guesses in sudden death.")]

    def _duet_news(self) -> list[Event]:
        """Public announcements: a side with no words left, sudden death, tokens."""
        g = self.game
        out: list[Event] = []
        if g.is_over:
            return out
        # in sudden death nobody gives clues any more: say only that a side is done
        clues_go_on = g.phase is not Phase.SUDDEN_DEATH
        if not g.words_left_for(Player.A) and "a_done" not in self._announced:
            self._announced.add("a_done")
            out.append(Event("info", "All your green words are found"
                             + (": the AI gives every clue from now on." if clues_go_on else ".")))
        if not g.words_left_for(Player.B) and "b_done" not in self._announced:
            self._announced.add("b_done")
            out.append(Event("info", "The AI says: all my green words are found"
                             + (" - you give every clue from now on." if clues_go_on else ".")))
        if g.phase is Phase.SUDDEN_DEATH and "sd" not in self._announced:
            self._announced.add("sd")
            mine, theirs = len(g.words_left_for(Player.B)), len(g.words_left_for(Player.A))
            if mine and theirs:
                order = (f"You find the AI's {mine}, the AI finds your {theirs}, in the order you choose: "
                         "touch a card yourself, or type 'ai' to let the AI guess one of yours.")
            elif mine:
                order = f"You find the AI's last {mine}; the AI has none of yours left to find."
            else:
                order = (f"The AI finds your last {theirs}, one card each time you let it; you have none of its "
                         "left to find.")
            out.append(Event("warning", "The timer has run out: SUDDEN DEATH. No more clues, and any wrong card "
                                        f"loses. {order}"))
        elif g.phase is Phase.CLUE:
            out.append(Event("info", f"Timer tokens left: {g.tokens_left}."))
        return out
