"""The AI's moves in a session: asking each AI player for its move, and what may be said about it.

Why here: the AI players see only their role's view (picture cards under their captions,
see :mod:`.names`), and their moves are checked against the engine's own answers (its
legal covers, ``clue_verdict``) before they are played. An AI guesser guessing for a human
classic spymaster says which card it picks and how sure it is (a softmax over its own board
scores); in Duet it says nothing but the card (its confidence would carry its own key
side). An AI spymaster's targets are kept for after the game, never shown during it.
"""

from __future__ import annotations

import math
import random
from typing import Any, Optional

from ..rules.cards import normalise_word
from ..rules.moves import Clue, Cover, GiveClue, Guess, IllegalMove, Move, Pass, Stop
from ..sim.seeds import derive_seed
from .errors import SessionError
from .events import Event
from .explain import model_reading_of, reading_of, targets_of
from .leftover import PAST_THE_COUNT, aimed_for, aimed_now, meant_for, past_the_count
from .turns import Actor

__all__ = ["AIMoves"]


def _softmax_share(scores: list[float], index: int) -> float:
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    return weights[index] / sum(weights)


class AIMoves:
    """The part of :class:`~spymaster_ai.play.session.Session` that plays the AI's seats."""

    def _decide(self, actor: Actor) -> tuple[Move, list[Event]]:
        """The AI's (or the simulated opponent's) next move, with what may be said about it."""
        try:
            if actor.kind == "clue":
                return self._ai_clue(actor), []
            if actor.kind == "cover":
                return self._ai_cover(actor), []
            return self._ai_guess(actor)
        except SessionError:
            raise
        except Exception as exc:  # an agent's own failure (UnknownCardName included) ends the session cleanly
            raise SessionError(f"the AI ({actor.role}) failed: {type(exc).__name__}: {exc}") from exc

    def _spymaster_view(self, actor: Actor):
        g = self.game
        view = g.spymaster_view(actor.player) if self.is_duet else g.spymaster_view(actor.team)
        return self.names.spymaster_view(view)

    def _guesser_view(self, actor: Actor):
        g = self.game
        view = g.guesser_view(actor.player) if self.is_duet else g.guesser_view(actor.team)
        return self.names.guesser_view(view)

    def _refusal(self, clue: Clue) -> Optional[str]:
        """Why the rules would refuse (strict) or penalise (penalty) ``clue`` now, or None:
        the engine's own verdict (``clue_verdict``), so an AI never plays into a penalty."""
        try:
            verdict = self.game.clue_verdict(clue)
        except IllegalMove as exc:  # a malformed clue
            return str(exc)
        return None if verdict.legal else (verdict.reason or "refused by the legality checker")

    def _ai_clue(self, actor: Actor) -> Move:
        agent = self.agents[actor.role]
        view = self._spymaster_view(actor)
        clue = agent.give_clue(view)
        if not isinstance(clue, Clue):
            raise SessionError(f"the AI ({actor.role}) returned {type(clue).__name__}, not a clue")
        ranked = None
        if self._refusal(clue) is not None and callable(getattr(agent, "rank_clues", None)):
            # Its own checker reads the captions as words; Pictures rules also refuse colours.
            ranked = agent.rank_clues(view, top=64)
            better = [o.clue for o in ranked if self._refusal(o.clue) is None]
            if not better:
                raise SessionError(f"the AI ({actor.role}) found no clue the rules allow")
            clue = better[0]
        clue = Clue(normalise_word(clue.word), clue.count, clue.unlimited)
        self._note_targets(actor, agent, view, clue, ranked)
        return GiveClue(clue)

    def _person_gave(self, actor: Actor) -> bool:
        """Whether the clue this AI guesser answers came from the person."""
        if self.is_duet:
            return actor.kind != "sudden_death"
        return self.settings.role == "spymaster" and actor.team is not None and actor.team.value == self.settings.team

    def _note_reading(self, agent: Any, view: Any) -> None:
        """Keep how the AI guesser reads a clue of the person's (its three likeliest cards).
        On boards in other languages the guesser has no reader fitted to people: its model's
        scores are kept instead, labelled as such."""
        top = reading_of(agent, view)
        if top is not None:
            self.readings.append((str(view.clue), [(self.names.card(w), p) for w, p in top]))
            return
        if self.settings.lang != "en":
            found = model_reading_of(agent, view)
            if found is not None:
                self.readings.append((str(view.clue), [(self.names.card(w), p) for w, p in found[0]], found[1]))

    def _note_targets(self, actor: Actor, agent: Any, view: Any, clue: Clue, ranked: Any) -> None:
        """Keep what the AI spymaster aimed at, to show after the game (never during it)."""
        self.targets.append((self._who(actor), str(clue), self.names.cards_of(targets_of(agent, view, clue, ranked))))

    def _ai_cover(self, actor: Actor) -> Move:
        g = self.game
        candidates = tuple(m.word for m in g.legal_moves(actor.seat) if isinstance(m, Cover))
        agent = self.agents.get(actor.role)
        if agent is not None and callable(getattr(agent, "choose_cover", None)):
            view = self._spymaster_view(actor)
            word = agent.choose_cover(view, tuple(self.names.word(c) for c in candidates))
            card = self.names.card(word)
            if card not in candidates:
                raise SessionError(f"the AI ({actor.role}) chose {self.label(card)}, which it may not cover")
            return Cover(card)
        # As the simulator: a seeded pick, one seed per move so a resumed game picks the same.
        rng = random.Random(derive_seed(self.settings.seed, "cover", len(g.actions)))
        return Cover(rng.choice(list(candidates)))

    def _ai_guess(self, actor: Actor) -> tuple[Move, list[Event]]:
        agent = self.agents[actor.role]
        view = self._guesser_view(actor)
        if self._person_gave(actor):
            self._note_reading(agent, view)
        word = agent.next_guess(view)
        if word is None:
            if self._can_pass(actor):
                return Pass(), []
            if not self._can_stop(actor):
                raise SessionError(f"the AI ({actor.role}) wanted to stop where a guess is mandatory")
            return Stop(), []
        if not isinstance(word, str):
            raise SessionError(f"the AI ({actor.role}) returned {word!r}, not a card")
        card = self.names.card(word)
        notes: list[Event] = []
        clue = view.clue
        if (clue is not None and not clue.is_zero and view.guesses_made == 0 and actor.kind != "sudden_death"
                and self._person_gave(actor) and callable(getattr(agent, "reads", None)) and not agent.reads(clue.word)):
            # a word outside its models and glossary reads as nothing: say so rather than
            # let a forced pick look like a reading (a Persian playtest: لابی, then the assassin)
            notes.append(Event("ai", f"{self._who(actor)} does not know the word {clue.word.upper()}: it takes "
                                     f"{self.label(card)}, the card its own key makes safest, and stops. "
                                     "A commoner word will be read."))
        if not self.is_duet and view.clue is not None and view.clue.is_zero:
            # A zero clue points away: the cards it ranks first are the ones to avoid, so a
            # confidence from that ranking would read 0% for a deliberate pick.
            why = (f"away from what {view.clue.word.upper()} calls to mind" if view.guesses_made == 0
                   else "for an earlier clue")
            notes.append(Event("ai", f"{self._who(actor)} picks {self.label(card)}, {why}"))
        elif not self.is_duet and callable(getattr(agent, "rank_cards", None)):
            # Classic: the AI has no key, so its confidence is built from public facts only.
            try:
                ranked = agent.rank_cards(view)
                words = [c.word for c in ranked]
                if word in words:
                    share = _softmax_share([c.score for c in ranked], words.index(word))
                    notes.append(Event("ai", f"{self._who(actor)} picks {self.label(card)} (confidence {share:.0%})"))
            except Exception:
                pass
        return Guess(card), notes

    def _leftover_of(self, actor: Actor, card: str) -> str:
        """The earlier clue a guess past the count was meant for, or "" (:mod:`.leftover`); asked
        before the guess. The AI's guesses by its own reading; the person's by what the AI's
        clues aimed at. A reading that fails marks nothing, never stops play."""
        if actor.human:  # guessing the AI's clues: what the AI aimed at, not a reading
            aims = [(clue, tuple(self.names.word(c) for c in cards)) for _, clue, cards in self.targets]
            try:
                view = self._guesser_view(actor)
                word = self.names.word(card)
                if aimed_now(view, word, aims):
                    return ""
                return aimed_for(view, word, aims) or (PAST_THE_COUNT if past_the_count(view) else "")
            except Exception:
                return ""
        reader = self.agents.get(actor.role)
        if not callable(getattr(reader, "probabilities", None)):
            reader = next((a for _, a in sorted(self.agents.items())
                           if callable(getattr(a, "probabilities", None)) and callable(getattr(a, "next_guess", None))), None)
        if reader is None:
            return ""
        try:
            return meant_for(reader, self._guesser_view(actor), self.names.word(card)) or ""
        except Exception:
            return ""

