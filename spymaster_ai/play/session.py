"""The session logic of a game between a human and AI players, without any terminal I/O.

Why this shape: a front end only shows :class:`Event` lines and the
:class:`~spymaster_ai.play.screen.Screen`, reads a line for each :class:`Prompt` and hands
it to :meth:`Session.answer`. Tests drive a whole game through this class with no console.
The rules are the engine's alone: it says which seats move and which moves are legal
(``current_seats``, ``legal_moves``) and plays typed moves (``apply``), as in ``sim/`` and
``envs/``. The session's parts, one job each:

* :mod:`.turns`: whose move (the engine's seats as the person, an AI role or the simulated
  opponent) and what the person is asked;
* :mod:`.person_input`: a typed line read as a move, and why a card may not be named;
* :mod:`.ai_moves`: the AI players' moves (they get only their role's view) and what may
  be said about them; an AI spymaster's targets are kept for after the game;
* :mod:`.news`: each move played on the engine, and what the person is told, per game.

Rules of the seat: a refused human move changes nothing and its message is shown. After
every accepted move the session is saved (if a save path is set), so a quit or a crash loses
nothing while the file can be written. A save that fails does not stop the game: saving
stops, :attr:`Session.save_failure` says why, and the front end offers another file
(:meth:`Session.save_to`). Resuming replays the saved moves through the same path as live
play; the AI players are rebuilt from their specs and seeds and asked again at each of their
past decisions, so an agent that keeps state (a seeded random one) continues exactly as if
never interrupted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from ..rules.cards import Player, Team
from ..rules.duet import DuetGame
from ..rules.moves import Clue, Cover, GiveClue, Guess, IllegalMove, InvalidClueError, Move, Pass, Stop
from ..sim.seeds import derive_seed
from .ai_moves import AIMoves
from .errors import SessionError
from .events import Event
from .explain import why_text
from .names import CardNames
from .news import News
from .outcome import result_events
from .parse import InputError, command_of
from .person_input import HELP, PersonInput
from .screen import ClueLine, Screen, classic_screen, duet_screen, key_screen
from .seats import ai_roles, load_session_agents
from .settings import PlaySettings
from .setup import Game, ai_names
from .turns import Actor, Prompt, Turns

__all__ = ["Event", "Prompt", "Reply", "Session", "SessionError", "HELP", "ai_roles", "load_session_agents", "result_events"]


@dataclass
class Reply:
    """The answer to one typed line: messages, and whether the board changed or the human quit."""

    events: list[Event] = field(default_factory=list)
    moved: bool = False
    redraw: bool = False
    quit: bool = False


class Session(Turns, PersonInput, AIMoves, News):
    """One game between the human and the AI; see the module docstring."""

    def __init__(
        self,
        settings: PlaySettings,
        game: Game,
        agents: Mapping[str, Any],
        labels: Optional[Mapping[str, str]] = None,
        *,
        save: Optional[Callable[["Session"], None]] = None,
        learner: Optional[Any] = None,
    ) -> None:
        missing = [r for r in ai_roles(settings) if r not in agents]
        if missing:
            raise SessionError(f"no AI player for {', '.join(missing)}")
        self.settings = settings
        self.game = game
        self.labels = dict(labels or {})
        self.names = CardNames(ai_names(game.words, self.labels))
        self.agents = {r: agents[r] for r in ai_roles(settings)}
        for role in sorted(self.agents):
            self.agents[role].reset(derive_seed(settings.seed, role))
        self._save = save
        self.save_failure: Optional[str] = None  # why the last save failed (the game goes on in memory)
        self.clues: list[ClueLine] = []
        self.targets: list[tuple[str, str, tuple[str, ...]]] = []  # hidden until the end
        # how the AI guesser read each of the person's clues: (clue, [(card, share), ...])
        # (clue, [(card, p)...]) from a reader fitted to people, or (clue, shares, model name)
        self.readings: list[tuple] = []
        self.error: Optional[str] = None
        self.mismatches = 0  # past AI decisions that came out differently on resume
        self._sd_handover = False  # Duet sudden death: the person asked the AI to guess next
        self._unread_offered: Optional[str] = None  # a clue word the AI cannot read, offered back once
        self._announced: set[str] = set()
        self._replaying = False
        # learns the person from their guesses (``observe_guess(view, card)``) and, if it has
        # ``observe_clue_pick(view, card, hit)``, from the AI's picks on their clues (e.g.
        # agents.human.adapt.PersonLearner); replayed moves are not learned again
        self.learner = learner

    # ================================================================= public state
    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def is_duet(self) -> bool:
        return isinstance(self.game, DuetGame)

    def label(self, card: str) -> str:
        return self.labels.get(card, card).upper()

    def screen(self) -> Screen:
        """The human's screen now (built from the human's views only)."""
        g = self.game
        clues = tuple(self.clues)
        if isinstance(g, DuetGame):
            return duet_screen(g, self.labels, title=self.settings.describe(), clues=clues, turn=self._turn_line())
        return classic_screen(
            g, Team(self.settings.team), self.settings.role, self.labels,
            title=self.settings.describe(), clues=clues, turn=self._turn_line(),
        )

    # ================================================================= the loop
    def advance(self) -> list[Event]:
        """Play the AI's moves until the human must act or the game ends."""
        events: list[Event] = []
        while not self.is_over and not self.error:
            actor = self._actor()
            if actor.human:
                break
            try:
                move, notes = self._decide(actor)
            except SessionError as exc:
                self.error = str(exc)
                events.append(Event("error", f"{exc}.{self._kept()}"))
                break
            events += notes
            seen = self._pick_on_persons_clue(actor, move)
            try:
                events += self._apply(actor, move)
            except IllegalMove as exc:
                self.error = f"the AI ({actor.role}) made a move the rules refuse: {exc}"
                events.append(Event("error", f"{self.error}.{self._kept()}"))
                break
            if seen is not None:
                events += self._learn_pick(actor, seen, move.word)
            self._saved()
        return events

    def answer(self, text: str) -> Reply:
        """Handle one line typed by the human."""
        reply = Reply()
        line = str(text).strip()
        command = command_of(line)
        if command == "quit":
            reply.quit = True
            return reply
        if command == "help":
            reply.events.append(Event("info", HELP))
            return reply
        if command == "board":
            reply.redraw = True
            return reply
        if command == "why":
            reply.events.append(Event("info", self.why()))
            return reply
        prompt = self.prompt()
        if prompt is None:
            reply.events.append(Event("error", "no move is expected from you now"))
            return reply
        if not line and prompt.kind != "sudden_death_wait":  # there Enter lets the AI guess
            return reply
        actor = self._actor()
        try:
            typed = self._read(actor, prompt, line, command)
        except InputError as exc:
            reply.events.append(Event("error", str(exc)))
            return reply
        move = typed.move
        if isinstance(move, GiveClue) and self._unread_by_partner(move.clue):
            reply.events.append(Event("error", f"The AI does not know the word {move.clue.word.upper()}, so it could "
                                               "only guess blindly. Type another clue, or the same clue again to "
                                               "give it anyway."))
            return reply
        if typed.note:
            reply.events.append(Event("info", typed.note))
        if move is None:  # no move of the game's: the AI guesses next (advance)
            self._sd_handover = True
            reply.events.append(Event("you", "You let the AI guess one card."))
            reply.moved = reply.redraw = True
            return reply
        seen = self._guesser_view(actor) if self.learner is not None and prompt.kind == "guess" and isinstance(move, Guess) else None
        try:
            reply.events += self._apply(actor, move)
        except InvalidClueError as exc:
            reply.events.append(Event("error", f"{self._explain(exc)}. Refused: it costs nothing, give another clue."))
            return reply
        except IllegalMove as exc:
            reply.events.append(Event("error", self._explain(exc)))
            return reply
        reply.moved = reply.redraw = True
        if seen is not None:
            reply.events += self._learn(seen, move.word)
        self._saved()
        return reply

    def _learn(self, view: Any, card: Optional[str]) -> list[Event]:
        """Teach the learner the person's guess; a learner's failure stops learning, never play."""
        try:
            self.learner.observe_guess(view, card)
        except Exception as exc:
            return self._stop_learning(exc)
        return []

    def _pick_on_persons_clue(self, actor: Actor, move: Move) -> Any:
        """The AI guesser's view before its guess on the person's clue, when the learner learns
        from clues (``observe_clue_pick``); None otherwise."""
        if (self.learner is None or not callable(getattr(self.learner, "observe_clue_pick", None))
                or actor.kind != "guess" or not isinstance(move, Guess) or not self._person_gave(actor)):
            return None
        return self._guesser_view(actor)

    def _learn_pick(self, actor: Actor, view: Any, card: Optional[str]) -> list[Event]:
        """Teach the learner whether the AI's pick on the person's clue was one of the person's
        cards: its public result, just logged (classic: the person's team colour; Duet: green)."""
        outcome = self.clues[-1].guesses[-1][1] if self.clues and self.clues[-1].guesses else None
        hit = outcome == "green" if self.is_duet else outcome == getattr(actor.team, "value", None)
        try:
            self.learner.observe_clue_pick(view, card, hit)
        except Exception as exc:
            return self._stop_learning(exc)
        return []

    def _stop_learning(self, exc: Exception) -> list[Event]:
        self.learner = None
        return [Event("warning", f"The AI stops learning from you this game ({type(exc).__name__}: {exc}).")]

    # ================================================================= resume
    def replay(self, actions: list[dict]) -> None:
        """Replay saved moves through the live path (AI players asked again, see module doc)."""
        self._replaying = True
        if self.is_duet:
            self.game.follow_recorded_passes(actions)
        try:
            for n, action in enumerate(actions):
                if self.is_over:
                    raise SessionError(f"saved move {n} comes after the end of the game")
                if action.get("type") in ("sd_guess", "sd_pass") and action.get("player") == Player.B.value:
                    self._sd_handover = True  # the person had handed the AI this guess
                actor = self._actor()
                move = self._move_of(action, actor, n)
                if not actor.human:
                    noted = len(self.targets)
                    try:
                        decided, _ = self._decide(actor)
                    except SessionError:
                        decided = None
                    if decided != move:
                        self.mismatches += 1
                        del self.targets[noted:]  # a note about a clue that was not the one given
                        if isinstance(move, GiveClue):
                            self.targets.append((self._who(actor), str(move.clue), ()))
                self._apply(actor, move)
        finally:
            self._replaying = False

    def _move_of(self, action: dict, actor: Actor, n: int) -> Move:
        """The typed move of one saved action, played by ``actor`` (the sudden-death order
        the person chose is checked against the record's player)."""
        kind = action.get("type")
        if kind == "clue":
            return GiveClue(Clue(action["word"], int(action["count"]), bool(action.get("unlimited", False))))
        if kind in ("sd_guess", "sd_pass") and actor.player is not Player(action["player"]):
            raise SessionError(f"saved move {n}: sudden-death order differs from this session's")
        if kind in ("guess", "sd_guess"):
            return Guess(action["word"])
        if kind == "stop":
            return Stop()
        if kind == "sd_pass":
            return Pass()
        if kind in ("penalty_cover", "solo_cover"):
            return Cover(action["word"])
        raise SessionError(f"saved move {n}: unknown move {kind!r}")

    # ================================================================= the end
    def summary(self) -> tuple[list[Event], list[Screen]]:
        """The result, the AI spymasters' targets (a courtesy, after the end) and the whole key."""
        events = result_events(self.settings, self.game)
        if self.targets:
            events.append(Event("info", "What the AI spymaster aimed at (kept secret during play):"))
            for giver, clue, targets in self.targets:
                aimed = ", ".join(self.label(t) for t in targets) if targets else "(not reported)"
                events.append(Event("info", f"  {giver}: {clue.upper()} -> {aimed}"))
        if self.readings:  # the other half of 'why', which cannot be typed once the game has ended
            # the reading of the clue alone: the card taken first may differ, an earlier clue's
            # open half or the AI's own key weighing in (a playtester read SAIL, touched, beside
            # LITTLE: 3's reading PEBBLE 21% as a contradiction)
            events.append(Event("info", "How the AI read your clues (its likeliest cards for each; the card it took "
                                        "first can differ where an earlier clue or its own key weighed in):"))
            for clue, reading, *_ in self.readings:
                shares = ", ".join(f"{self.label(card)} {share:.0%}" for card, share in reading)
                events.append(Event("info", f"  {clue.upper()}: {shares}"))
        return events, key_screen(self.game, self.labels, "The key card")


    def why(self) -> str:
        """What the AI meant by its finished clues and how it read the person's (:func:`.explain.why_text`)."""
        finished = self.targets
        prompt = self.prompt()
        if prompt is not None and prompt.kind == "guess" and finished and not self.is_over:
            current = getattr(self.game, "clue", None)
            if current is not None and finished[-1][1] == str(current):
                finished = finished[:-1]  # the clue being guessed now is left out
        covered = set(self.game.words) - set(self.game.visible_words())
        if self.is_over:  # the key is no secret any more: every target is named, found or not
            covered = set(self.game.words)
        return why_text(finished, self.readings, covered, self.label)

    # ================================================================= saving
    def save_now(self) -> bool:
        """Save the session now (it also saves itself after every move); whether it was saved.

        A save that raises OSError (a read-only folder, a full disk) turns saving off and
        keeps its message in :attr:`save_failure`: losing the file must not lose the game.
        """
        if self._save is None:
            return False
        try:
            self._save(self)
        except OSError as exc:
            self._save = None
            self.save_failure = str(exc)
            return False
        return True

    def save_to(self, save: Optional[Callable[["Session"], None]]) -> bool:
        """Save with ``save`` from now on (None: not at all), starting with the game as it
        stands; whether that first save worked (if not, :attr:`save_failure` says why)."""
        self._save, self.save_failure = save, None
        return save is None or self.save_now()

    def _kept(self) -> str:
        return " The game is saved as it was before this move." if self._save is not None else ""

    def _saved(self) -> None:
        if not self._replaying:
            self.save_now()


def default_save_path(settings: PlaySettings) -> Path:
    """Where a session saves unless told otherwise: the current folder."""
    return Path(f"spymaster-{settings.mode}-{settings.seed}.json")
