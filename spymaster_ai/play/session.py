"""The session logic of a game between a human and AI players, without any terminal I/O.

Why this shape: whose turn it is, what to ask the human, what to tell them and what to keep
hidden are decided here, and a front end only shows :class:`Event` lines and the
:class:`~spymaster_ai.play.screen.Screen`, reads a line for each :class:`Prompt` and hands
it to :meth:`Session.answer`. Tests drive a whole game through this class with no console.

Rules of the seat:

* The AI players get only their role's view (picture cards under their captions, see
  :mod:`.names`). An AI guesser guessing for a human classic spymaster says which card it
  picks and how sure it is (a softmax over its own board scores); in Duet it says nothing
  but the card (its confidence would carry its own key side). An AI spymaster never tells a
  human guesser its targets during play: :meth:`Session.summary` lists them after the end.
* Moves are applied to the engine, which judges them; a refused human move changes nothing
  and its message is shown. After every accepted move the session is saved (if a save path
  is set), so a quit or a crash loses nothing while the file can be written. A save that
  fails does not stop the game: saving stops, :attr:`Session.save_failure` says why, and the
  front end offers another file (:meth:`Session.save_to`).
* Resuming replays the saved moves through the same path as live play; the AI players are
  rebuilt from their specs and seeds and asked again at each of their past decisions, so an
  agent that keeps state (a seeded random one) continues exactly as if never interrupted.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from ..rules.cards import Identity, Player, Team, normalise_word
from ..rules.classic import ClassicGame
from ..rules.duet import DuetGame
from ..rules.legality import LegalityOptions, check_clue
from ..rules.moves import Clue, IllegalMove, InvalidClueError, Phase
from ..sim.seeds import derive_seed
from .names import CardNames
from .parse import InputError, command_of, match_card, names_as_typed, parse_clue, read_spelling
from .events import Event
from .explain import model_reading_of, reading_of, targets_of, why_text
from .leftover import meant_for
from .outcome import result_events
from .screen import ClueLine, Screen, classic_screen, duet_screen, key_screen
from .seats import ai_roles, load_session_agents
from .settings import PlaySettings
from .setup import Game, ai_names

__all__ = ["Event", "Prompt", "Reply", "Session", "SessionError", "HELP", "ai_roles", "load_session_agents", "result_events"]


class SessionError(RuntimeError):
    """The session cannot go on (an AI player failed, or a saved game does not fit)."""


@dataclass(frozen=True)
class Prompt:
    """What the human must type now. ``kind``: clue, guess, cover, sudden_death."""

    kind: str
    text: str
    handover: bool = False  # Duet sudden death: the person may let the AI guess next ('ai')


@dataclass
class Reply:
    """The answer to one typed line: messages, and whether the board changed or the human quit."""

    events: list[Event] = field(default_factory=list)
    moved: bool = False
    redraw: bool = False
    quit: bool = False


@dataclass(frozen=True)
class _Move:
    kind: str  # clue, guess, stop, cover, pass
    clue: Optional[Clue] = None
    card: Optional[str] = None
    note: Optional[str] = None  # how the person's typing was read ("read SUESSIGKEIT as SÜSSIGKEIT")


@dataclass(frozen=True)
class _Actor:
    """Who acts now: ``role`` is an AI role name, "human", or "opponent" (the simulated one)."""

    role: str
    kind: str  # clue, guess, cover, sudden_death
    team: Optional[Team] = None
    player: Optional[Player] = None

    @property
    def human(self) -> bool:
        return self.role == "human"


HELP = """\
Type a card name, or a unique start of it of 3 letters or more (or of any word of a picture's caption).
  stop    end your guessing (after one guess; in Duet after a correct one: every Duet turn
          costs a timer token however it ends, so stopping saves none)
  ai      in Duet sudden death: let the AI guess one card now (you choose the order)
  pass    in Duet sudden death: guess no more (the cards only you can find stay hidden:
          the game is lost)
In Duet your guesses are judged by the AI's side of the key: a card black on your side is
black on the AI's side one time in three, and a card the AI's clue meant is green there.
  board   show the board again
  why     what the AI meant by its finished clues (the cards found so far) and its first pick for yours
  help    this text
  quit    leave; a saved game goes on with 'spymaster-ai play resume FILE'
A clue is a word and a number: 'ocean 2', 'ocean: 2', 'ocean 0', 'ocean unlimited'."""


def _softmax_share(scores: list[float], index: int) -> float:
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    return weights[index] / sum(weights)


class Session:
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
        if actor.kind == "sudden_death":
            if self.is_duet:
                ai_may = Player.B in g.sudden_death_players()
                also = ", 'ai' to let the AI guess one of yours," if ai_may else ""
                return Prompt("sudden_death", f"Sudden death: touch one of the AI's greens (any mistake loses){also} "
                                              "or 'pass' (gives up)", handover=ai_may)
            return Prompt("sudden_death", "Sudden death: touch a card (no stopping; a wrong card loses)")
        stop = " or 'stop'" if self._can_stop() else ""
        return Prompt("guess", f"Your guess{stop}")

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
                events += self._learn_pick(actor, seen, move.card)
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
        if not line:
            return reply
        try:
            move = self._read(prompt, line, command)
        except InputError as exc:
            reply.events.append(Event("error", str(exc)))
            return reply
        if move.kind == "clue" and self._unread_by_partner(move.clue):
            reply.events.append(Event("error", f"The AI does not know the word {move.clue.word.upper()}, so it could "
                                               "only guess blindly. Type another clue, or the same clue again to "
                                               "give it anyway."))
            return reply
        if move.note:
            reply.events.append(Event("info", move.note))
        if move.kind == "handover":  # no move of the game's: the AI guesses next (advance)
            self._sd_handover = True
            reply.events.append(Event("you", "You let the AI guess one card."))
            reply.moved = reply.redraw = True
            return reply
        actor = self._actor()
        seen = self._guesser_view(actor) if self.learner is not None and prompt.kind == "guess" and move.kind == "guess" else None
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
            reply.events += self._learn(seen, move.card)
        self._saved()
        return reply

    def _learn(self, view: Any, card: Optional[str]) -> list[Event]:
        """Teach the learner the person's guess; a learner's failure stops learning, never play."""
        try:
            self.learner.observe_guess(view, card)
        except Exception as exc:
            return self._stop_learning(exc)
        return []

    def _pick_on_persons_clue(self, actor: _Actor, move: _Move) -> Any:
        """The AI guesser's view before its guess on the person's clue, when the learner learns
        from clues (``observe_clue_pick``); None otherwise."""
        if (self.learner is None or not callable(getattr(self.learner, "observe_clue_pick", None))
                or actor.kind != "guess" or move.kind != "guess" or not self._person_gave(actor)):
            return None
        return self._guesser_view(actor)

    def _learn_pick(self, actor: _Actor, view: Any, card: Optional[str]) -> list[Event]:
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
        if isinstance(self.game, DuetGame):
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
                        if move.kind == "clue":
                            self.targets.append((self._who(actor), str(move.clue), ()))
                self._apply(actor, move)
        finally:
            self._replaying = False

    def _move_of(self, action: dict, actor: _Actor, n: int) -> _Move:
        kind = action.get("type")
        if kind == "clue":
            return _Move("clue", Clue(action["word"], int(action["count"]), bool(action.get("unlimited", False))))
        if kind in ("guess", "sd_guess"):
            if kind == "sd_guess" and actor.player is not Player(action["player"]):
                raise SessionError(f"saved move {n}: sudden-death order differs from this session's")
            return _Move("guess", card=action["word"])
        if kind == "stop":
            return _Move("stop")
        if kind == "sd_pass":
            if actor.player is not Player(action["player"]):
                raise SessionError(f"saved move {n}: sudden-death order differs from this session's")
            return _Move("pass")
        if kind in ("penalty_cover", "solo_cover"):
            return _Move("cover", card=action["word"])
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
            events.append(Event("info", "How the AI read your clues (its first pick, by its chances):"))
            for clue, reading, *_ in self.readings:
                shares = ", ".join(f"{self.label(card)} {share:.0%}" for card, share in reading)
                events.append(Event("info", f"  {clue.upper()}: {shares}"))
        return events, key_screen(self.game, self.labels, "The key card")

    # ================================================================= whose move
    def _actor(self) -> _Actor:
        g = self.game
        if isinstance(g, DuetGame):
            return self._duet_actor(g)
        s = self.settings
        phase, team = g.phase, g.current_team
        if phase is Phase.CLUE:
            role, kind = "spymaster", "clue"
        elif phase is Phase.GUESS:
            role, kind = "guesser", "guess"
        elif phase is Phase.SUDDEN_DEATH:
            role, kind = "guesser", "sudden_death"
        elif phase is Phase.SOLO_COVER:
            role, kind = "spymaster", "cover"
        elif phase is Phase.PENALTY_COVER:
            if g.solo and team is not Team(s.team):
                return _Actor("opponent", "cover", team)
            role, kind = "spymaster", "cover"
        else:
            raise SessionError(f"no move in phase {phase.value}")
        if team is Team(s.team) and role == s.role:
            return _Actor("human", kind, team)
        return _Actor(role if s.solo else f"{team.value}_{role}", kind, team)

    def _duet_actor(self, g: DuetGame) -> _Actor:
        if g.phase is Phase.CLUE:
            allowed = g.allowed_givers()
            if len(allowed) == 2:
                giver = Player.A if self.settings.first == "human" else Player.B
            else:
                giver = allowed[0]
            return _Actor("human" if giver is Player.A else "b_spymaster", "clue", player=giver)
        if g.phase is Phase.GUESS:
            guesser = g.guesser
            return _Actor("human" if guesser is Player.A else "b_guesser", "guess", player=guesser)
        if g.phase is Phase.SUDDEN_DEATH:
            # RULES.md §3: any order. The person chooses it: they guess while they have cards
            # to find, and the AI guesses one card each time they hand it the turn ('ai'), or
            # alone once they have none (playtests: "the screen never offered me a move").
            players = g.sudden_death_players()
            if Player.A in players and (Player.B not in players or not self._sd_handover):
                return _Actor("human", "sudden_death", player=Player.A)
            return _Actor("b_guesser", "sudden_death", player=Player.B)
        raise SessionError(f"no move in phase {g.phase.value}")

    def _on_my_side(self, actor: _Actor) -> bool:
        """The player plays with the human: the Duet partner, the solo teammate, or a player
        of the human's team (not the other team's AI)."""
        return self.is_duet or self.settings.solo or actor.team is Team(self.settings.team)

    def _unread_by_partner(self, clue: Clue) -> bool:
        """Whether the AI guesser of the person's clue cannot read its word, the first time
        this word is typed (a second time gives it anyway). Why: a Vietnamese playtest lost on
        SUY NGHĨ: 2, a word outside the glossary: the forced blind guess was the assassin."""
        if clue.is_zero:
            return False
        role = "b_guesser" if self.is_duet else f"{self.settings.team}_guesser"
        agent = self.agents.get(role)
        reads = getattr(agent, "reads", None)
        word = clue.word.strip().lower()
        if not callable(reads) or reads(clue.word) or self._unread_offered == word:
            return False
        self._unread_offered = word
        return True

    def _who(self, actor: _Actor) -> str:
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

    def _turn_line(self) -> str:
        if self.is_over:
            return "The game is over."
        if self.error:
            return "The game cannot go on (see the message above)."
        actor = self._actor()
        what = {"clue": "give a clue", "guess": "guess", "cover": "cover a card", "sudden_death": "guess (sudden death)"}
        who = "you" if actor.human else self._who(actor)[0].lower() + self._who(actor)[1:]
        return f"Now: {who} - {what[actor.kind]}"

    def _can_stop(self) -> bool:
        g = self.game
        if isinstance(g, DuetGame):
            return g.phase is Phase.GUESS and g.correct_this_turn >= 1
        return g.phase is Phase.GUESS and g.guesses_made >= 1

    # ================================================================= reading the human
    def _read(self, prompt: Prompt, line: str, command: Optional[str]) -> _Move:
        g = self.game
        if prompt.kind == "clue":
            if command == "stop":
                raise InputError("it is your turn to give a clue (a word and a number), not to guess")
            return self._spelled_clue(parse_clue(line, len(g.words)))
        if command == "handover":
            if prompt.kind != "sudden_death" or not prompt.handover:
                raise InputError("'ai' hands the AI the next guess in Duet sudden death, when it has cards to find")
            return _Move("handover")
        if command == "stop":
            if prompt.kind == "sudden_death":
                if self.is_duet:
                    return _Move("pass")
                raise InputError("no stopping in sudden death: the team guesses until it wins or loses")
            if prompt.kind == "cover":
                raise InputError("choose a card to cover")
            if not self._can_stop():
                need = "a correct guess" if self.is_duet else "one guess"
                raise InputError(f"you may stop only after at least {need} on this clue")
            return _Move("stop")
        allowed, why = self._choices(prompt.kind)
        fold = self._spelling_fold()
        card = match_card(line, g.words, allowed, self.labels, why, fold=fold)
        note = None
        if fold is not None and not names_as_typed(line, self.labels.get(card, card)):
            note = f"read {line.strip().upper()} as {self.labels.get(card, card).upper()}"
        return _Move("cover" if prompt.kind == "cover" else "guess", card=card, note=note)

    def _spelling_fold(self) -> Optional[Callable[[str], str]]:
        """The board language's keyboard spelling fold, or None: German ae/oe/ue/ss; Persian
        Arabic yeh and kaf (ي, ك) as Persian ی, ک, ZWNJ and diacritics dropped (rules.lang's
        fa_key, as check-clue reads them); Vietnamese without its marks (tien names TIỀN)."""
        lang = self.settings.lang
        if lang == "de":
            from ..rules.lang.normalise import de_fold

            return de_fold
        if lang == "fa":
            from ..rules.lang.normalise import fa_key

            return fa_key
        if lang == "vi":
            from ..rules.lang.vietnamese import strip_marks

            return strip_marks
        return None

    def _spelled_clue(self, clue: Clue) -> _Move:
        """The person's clue, read as the word it spells on a keyboard without the language's
        letters, with a note saying so: German ae/oe/ue/ss when that is a card or a known clue
        word (SUESSIGKEIT -> SÜSSIGKEIT); Vietnamese typed without marks as the word it most
        likely is (tien -> tiền, RULES.md §4), never as English."""
        lang = self.settings.lang
        known = [self.labels.get(w, w) for w in self.game.words]
        if lang == "de":
            from wordfreq import zipf_frequency

            from ..rules.lang.normalise import de_fold, de_umlaut_spellings
            from ..rules.lang.words import clue_words

            reading = read_spelling(clue.word, [*known, *clue_words(lang)], de_fold,
                                    de_umlaut_spellings, lambda w: zipf_frequency(w, "de"))
        elif lang == "vi":
            from ..rules.lang.vietnamese import toneless_reading

            reading = toneless_reading(clue.word, tuple(known))
        else:
            reading = None
        if reading is None:
            return _Move("clue", clue)
        note = f"read {clue.word.strip().upper()} as {reading.upper()}"
        return _Move("clue", Clue(reading, clue.count, clue.unlimited), note=note)

    def _choices(self, kind: str) -> tuple[set[str], dict[str, str]]:
        """The cards the human may name now, and why each other card may not be named."""
        g = self.game
        why: dict[str, str] = {}
        if isinstance(g, DuetGame):
            visible = set(g.visible_words())
            allowed = {w for w in visible if g.can_guess(Player.A, w)}
            for w in g.words:
                if w not in visible:
                    why[w] = "is already covered"
                elif w not in allowed:
                    why[w] = "is marked by your own earlier guess: you may not guess it again"
            return allowed, why
        visible = set(g.visible_words())
        for w in g.words:
            if w not in visible:
                why[w] = "is already covered"
        if kind != "cover":
            return visible, why
        # The human covering is a spymaster: its screen shows the key, so naming the rule is fair.
        if g.phase is Phase.SOLO_COVER:
            team = g.current_team.other
            need = f"is not an opponent ({team.value}) agent"
        else:
            team = g.current_team
            need = f"is not one of your own ({team.value}) agents"
        allowed = set(g.remaining(Identity.of_team(team)))
        for w in visible - allowed:
            why[w] = need
        return allowed, why

    def _explain(self, exc: IllegalMove) -> str:
        """The engine's message with picture ids written as the captions the human sees."""
        text = str(exc)
        for card, label in sorted(self.labels.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(repr(card), label.upper()).replace(card, label.upper())
        return text

    # ================================================================= the AI
    def _decide(self, actor: _Actor) -> tuple[_Move, list[Event]]:
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

    def _spymaster_view(self, actor: _Actor):
        g = self.game
        view = g.spymaster_view(actor.player) if isinstance(g, DuetGame) else g.spymaster_view(actor.team)
        return self.names.spymaster_view(view)

    def _guesser_view(self, actor: _Actor):
        g = self.game
        view = g.guesser_view(actor.player) if isinstance(g, DuetGame) else g.guesser_view(actor.team)
        return self.names.guesser_view(view)

    def _refusal(self, clue: Clue) -> Optional[str]:
        """Why the engine would refuse ``clue`` now (the same checks it makes), or None."""
        g = self.game
        count = None if clue.unlimited else clue.count
        if isinstance(g, DuetGame):
            verdict = check_clue(clue.word, g.visible_words(), self.settings.legality_options, count=count)
            return None if verdict.legal else verdict.reason
        visible = set(g.visible_words())
        for pictures in (False, True):
            words = [w for w, p in zip(g.words, g.pictures) if p is pictures and w in visible]
            if pictures not in g.pictures:
                continue
            verdict = check_clue(clue.word, words, LegalityOptions(pictures=pictures, lang=self.settings.lang), count=count)
            if not verdict.legal:
                return verdict.reason
        return None

    def _ai_clue(self, actor: _Actor) -> _Move:
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
        return _Move("clue", clue)

    def _person_gave(self, actor: _Actor) -> bool:
        """Whether the clue this AI guesser answers came from the person."""
        if self.is_duet:
            return actor.kind != "sudden_death"
        return self.settings.role == "spymaster" and actor.team is not None and actor.team.value == self.settings.team

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

    def _note_targets(self, actor: _Actor, agent: Any, view: Any, clue: Clue, ranked: Any) -> None:
        """Keep what the AI spymaster aimed at, to show after the game (never during it)."""
        self.targets.append((self._who(actor), str(clue), self.names.cards_of(targets_of(agent, view, clue, ranked))))

    def _ai_cover(self, actor: _Actor) -> _Move:
        g = self.game
        assert isinstance(g, ClassicGame)
        if g.phase is Phase.SOLO_COVER:
            candidates = g.remaining(Identity.of_team(g.current_team.other))
        else:
            candidates = g.remaining(Identity.of_team(g.current_team))
        agent = self.agents.get(actor.role)
        if agent is not None and callable(getattr(agent, "choose_cover", None)):
            view = self._spymaster_view(actor)
            word = agent.choose_cover(view, tuple(self.names.word(c) for c in candidates))
            card = self.names.card(word)
            if card not in candidates:
                raise SessionError(f"the AI ({actor.role}) chose {self.label(card)}, which it may not cover")
            return _Move("cover", card=card)
        # As the simulator: a seeded pick, one seed per move so a resumed game picks the same.
        rng = random.Random(derive_seed(self.settings.seed, "cover", len(g.actions)))
        return _Move("cover", card=rng.choice(list(candidates)))

    def _ai_guess(self, actor: _Actor) -> tuple[_Move, list[Event]]:
        agent = self.agents[actor.role]
        view = self._guesser_view(actor)
        if self._person_gave(actor):
            self._note_reading(agent, view)
        word = agent.next_guess(view)
        if word is None:
            if actor.kind == "sudden_death" and self.is_duet:
                return _Move("pass"), []
            if not view.can_stop:
                raise SessionError(f"the AI ({actor.role}) wanted to stop where a guess is mandatory")
            return _Move("stop"), []
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
        return _Move("guess", card=card), notes

    # ================================================================= applying moves
    def _apply(self, actor: _Actor, move: _Move) -> list[Event]:
        """Play ``move`` for ``actor`` on the engine; refused moves raise and change nothing."""
        if isinstance(self.game, DuetGame):
            return self._apply_duet(self.game, actor, move)
        return self._apply_classic(self.game, actor, move)

    def _apply_classic(self, g: ClassicGame, actor: _Actor, move: _Move) -> list[Event]:
        who = self._who(actor)
        out: list[Event] = []
        kind = "you" if actor.human else "ai"
        if move.kind == "clue":
            assert move.clue is not None
            result = g.give_clue(move.clue)
            self.clues.append(ClueLine(self._giver_name(actor), str(result.clue)))
            out.append(Event(kind, f"{who} give{'' if actor.human else 's'} the clue: {str(result.clue).upper()}"))
            out.extend(self._zero_clue_note(actor, result.clue, f"the {actor.team.value} agents"))
            if result.penalised:
                reason = getattr(result.verdict, "reason", "refused by the legality checker")
                self.clues[-1] = ClueLine(self.clues[-1].giver, self.clues[-1].clue, note="illegal: penalised")
                out.append(Event("warning", f"That clue is illegal: {reason}. Penalty: the turn ends at once, "
                                            f"and the other side covers one of its own agents."))
        elif move.kind == "guess":
            assert move.card is not None
            meant = self._leftover_of(actor, move.card)
            result = g.guess(move.card)
            identity = result.identity.value
            self._log_guess(move.card, identity if identity != "assassin" else "ASSASSIN", meant)
            verb = "touch" if actor.human else "touches"
            text = f"{who} {verb} {self.label(move.card)}: "
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
            out.append(Event("result", text))
        elif move.kind == "stop":
            g.stop()
            out.append(Event(kind, f"{who} stop{'' if actor.human else 's'} guessing."))
        elif move.kind == "cover":
            assert move.card is not None
            if g.phase is Phase.SOLO_COVER:
                g.solo_cover(move.card)
                out.append(Event(kind, f"{who} cover{'' if actor.human else 's'} {self.label(move.card)} "
                                       f"for the simulated opponent (a {g.key.starting.other.value} agent)."))
            else:
                team = g.current_team
                g.penalty_cover(move.card)
                out.append(Event(kind, f"{who} cover{'' if actor.human else 's'} {self.label(move.card)} "
                                       f"(a {team.value} agent) as the penalty."))
            if self.clues:
                last = self.clues[-1]
                self.clues[-1] = replace(last, note=(last.note + "; " if last.note else "") + f"covered {self.label(move.card)}")
        else:
            raise SessionError(f"unknown move {move.kind!r}")
        return out

    def _zero_clue_note(self, actor: _Actor, clue: Clue, whose: str) -> list[Event]:
        """What an AI's zero clue means, said right after it: the AI spymasters open with one
        as a warning about the assassin (see ``EmbeddingSpymaster.warning``), and a player
        who has not met the convention would read it as a lost turn."""
        if actor.human or not clue.is_zero:
            return []
        return [Event("info", f"A zero clue: none of {whose} relates to {clue.word.upper()}. It warns "
                              f"{'you' if self._on_my_side(actor) else 'its guesser'} to keep away from the cards it calls to mind; "
                              f"at least one guess is still due.")]

    def _giver_name(self, actor: _Actor) -> str:
        if actor.human:
            return "you"
        if self.is_duet:
            return "AI"
        if self.settings.solo:
            return "AI"
        return "your AI" if self._on_my_side(actor) else f"{actor.team.value} AI"

    def _log_guess(self, card: str, outcome: str, meant: str = "") -> None:
        if self.clues:
            last = self.clues[-1]
            self.clues[-1] = ClueLine(last.giver, last.clue, last.guesses + ((self.labels.get(card, card), outcome),),
                                      last.note, last.meant + ("",) * (len(last.guesses) - len(last.meant)) + (meant,))

    def _leftover_of(self, actor: _Actor, card: str) -> str:
        """The earlier clue a guess past the count was meant for, or "" (:mod:`.leftover`); asked
        before the guess. Read by the guesser's own reading for the AI's guesses and by the
        AI guesser's for the person's; a reading that fails marks nothing, never stops play."""
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

    def _apply_duet(self, g: DuetGame, actor: _Actor, move: _Move) -> list[Event]:
        who = self._who(actor)
        out: list[Event] = []
        kind = "you" if actor.human else "ai"
        s = "" if actor.human else "s"
        if move.kind == "clue":
            assert move.clue is not None and actor.player is not None
            tokens_before = g.tokens_left
            result = g.give_clue(actor.player, move.clue)
            self.clues.append(ClueLine(self._giver_name(actor), str(result.clue)))
            out.append(Event(kind, f"{who} give{s} the clue: {str(result.clue).upper()}"))
            out.extend(self._zero_clue_note(actor, result.clue, "the words green on its side"))
            if result.penalised:
                reason = getattr(result.verdict, "reason", "refused by the legality checker")
                self.clues[-1] = ClueLine(self.clues[-1].giver, self.clues[-1].clue, note="illegal: 1 token discarded")
                out.append(Event("warning", f"That clue is illegal: {reason}. Penalty: one timer token is discarded "
                                            f"({tokens_before} -> {g.tokens_left})."))
        elif move.kind == "guess" and g.phase is Phase.SUDDEN_DEATH:
            assert move.card is not None and actor.player is not None
            result = g.sudden_death_guess(actor.player, move.card)
            self._sd_handover = False
            outcome = {"green": "green", "bystander": "bystander", "black": "ASSASSIN"}[result.identity.value]
            self.clues.append(ClueLine("sudden death", "-", ((self.labels.get(move.card, move.card), outcome),),
                                       note=f"by {'you' if actor.human else 'the AI'}"))
            out.append(Event("result", f"{who} touch{'es' if s else ''} {self.label(move.card)}: " + {
                "green": "a green agent - correct",
                "bystander": "a bystander - a mistake in sudden death",
                "black": "an ASSASSIN!",
            }[result.identity.value]))
        elif move.kind == "guess":
            assert move.card is not None
            guesser = g.guesser
            meant = self._leftover_of(actor, move.card)
            result = g.guess(move.card)
            identity = result.identity.value
            if identity == "green":
                outcome, text = "green", "a green agent - correct"
            elif identity == "black":
                outcome, text = "ASSASSIN", "an ASSASSIN!"
            else:
                outcome = "bystander"
                direction = "you" if guesser is Player.A else "the AI"
                text = f"a bystander - a timer token marks it (guessed by {direction})"
            self._log_guess(move.card, outcome, meant)
            if result.turn_over and not result.game_over and identity == "green":
                text += " - that was the last green word on that side; the turn ends"
            elif result.turn_over and not result.game_over:
                text += "; the turn ends"
            out.append(Event("result", f"{who} touch{'es' if s else ''} {self.label(move.card)}: {text}"))
        elif move.kind == "stop":
            g.stop()
            out.append(Event(kind, f"{who} stop{s} and take{s} a timer token."))
        elif move.kind == "pass":
            assert actor.player is not None
            left = len(g.words_left_for(actor.player.other))
            g.sudden_death_pass(actor.player)
            self._sd_handover = False
            if g.is_over:
                whose = "the AI's" if actor.human else "your"
                out.append(Event(kind, f"{who} pass{'es' if s else ''}: {left} of {whose} green cards, which only "
                                       f"{'you' if actor.human else 'the AI'} could find, stay hidden - the game "
                                       "cannot be won and ends here."))
            else:
                out.append(Event(kind, f"{who} pass{'es' if s else ''}: no more guesses in sudden death."))
        else:
            raise SessionError(f"unknown move {move.kind!r}")
        out += self._duet_news(g)
        return out

    def _duet_news(self, g: DuetGame) -> list[Event]:
        """Public announcements: a side with no words left, sudden death, tokens."""
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
                order = f"The AI finds your last {theirs}; you have none of its left to find."
            out.append(Event("warning", "The timer has run out: SUDDEN DEATH. No more clues, and any wrong card "
                                        f"loses. {order}"))
        elif g.phase is Phase.CLUE:
            out.append(Event("info", f"Timer tokens left: {g.tokens_left}."))
        return out

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
