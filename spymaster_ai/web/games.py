"""Live web games: the play :class:`~spymaster_ai.play.Session` of each game, its seat token,
its AI running off the request thread, and the snapshot every page is drawn from.

Why this shape: a request must never wait for the AI (the human agents take seconds a clue),
so after a person's move the AI's answer runs in a small thread pool and pages poll; a read
never takes the game's lock, it reads the last :class:`Snapshot`, made under the lock after
every change. Moves carry the version (the number of moves played) the page was drawn at: a
move from a stale page (two tabs) is refused and changes nothing. Every accepted move is saved
to SQLite through the session's own save hook, so a restarted server replays the game as
``play resume`` does.

The AI partner learns the person as ``play`` does (:mod:`spymaster_ai.play.profile`): from
their guesses and clues, within the game, and, when they opt in, into their browser's profile
(stored in SQLite under the SHA-256 of the browser's random profile id), written after every
move that taught it something. A game resumed after a restart starts again from the profile
(or, without one, from nothing): what it learned within itself before the restart is lost.

A restart changes nothing a player sees: what the AI aimed at, how it read the person's clues,
the clue log's "for X" notes and the message log are stored with the game after every change (:func:`seen_of`, the
``view`` column of :mod:`.db`) and put back on load (:func:`restore_view`), since the replay
asks the AI again and its answers (and the learner it reads with) may differ. A game stored
without them (before this was kept, or when the last write of them failed) is replayed as
before: the replay's targets and readings, and a log that says it resumed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Optional

from ..play.events import Event
from ..play.parse import MIN_PREFIX, command_of
from ..play.session import Prompt, Session, SessionError
from ..play.settings import PlaySettings
from ..play.setup import new_game
from ..play.store import SaveFileError, check_saved, restore_session, session_record
from .db import GameStore

__all__ = ["AgentFactory", "GameHub", "LiveGame", "MoveRefused", "Snapshot", "UnknownGame"]

AgentFactory = Callable[[PlaySettings], Mapping[str, Any]]
# The page's own help: the terminal's (session.HELP) names quit, board and
# 'spymaster-ai play resume FILE', which do nothing here.
WEB_HELP = f"""\
Click a card, or type its name (or its first {MIN_PREFIX} letters or more, or one whole word of a picture's caption) and press Enter.
A clue is a word and a number: 'ocean 2', 'ocean: 2', 'ocean 0', 'ocean unlimited'.
stop (or the Stop guessing button): end your guessing (after one guess; in Duet after a correct one).
ai: in Duet sudden death, let the AI guess one card now. pass: in Duet sudden death, guess no more (the game is lost).
why: what the AI meant by its finished clues. help: this text.
The game is saved after every move: close the page when you like and come back to its address (from another device: the seat link under 'Play on another device')."""
WEB_COMMANDS = {
    "help": WEB_HELP,
    "quit": "Nothing to quit here: the game is saved after every move; close the page when you like and come back "
            "to its address to go on.",
    "board": "The board is on this page, always as it stands now.",
}
LOG_LINES = 40  # messages kept for the person's log (the clue history is kept whole by the session)


class UnknownGame(KeyError):
    """No game has this id."""


class MoveRefused(Exception):
    """A move the server refuses before the session sees it; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """Everything a page shows of one game at one moment (read without a lock)."""

    version: int
    thinking: bool
    over: bool
    screen: Any  # the person's Screen (their seat's view only)
    prompt: Optional[Prompt]
    log: tuple[Event, ...]
    why: str
    summary: tuple[Event, ...] = ()
    key: tuple[Any, ...] = ()  # the whole key's screens, only once the game is over
    error: Optional[str] = None


@dataclass
class LiveGame:
    id: str
    token_sha256: str
    session: Session
    lock: threading.RLock = field(default_factory=threading.RLock)
    log: list[Event] = field(default_factory=list)
    thinking: bool = False
    unsaved: bool = False  # saving to SQLite failed (said once in the log)
    snapshot: Optional[Snapshot] = None
    profile_sha256: Optional[str] = None  # the profile this game learns into (None: within the game only)
    kept: int = 0  # what the learner had learned when the profile was last written
    profile_created: str = ""  # when the profile began
    keep_view: Optional[Callable[[dict], None]] = None  # stores seen_of(self) (see the module doc)
    kept_view: Optional[dict] = None  # the view last stored

    @property
    def version(self) -> int:
        return len(self.session.game.actions)

    def seat(self, token: Optional[str]) -> bool:
        """Whether ``token`` is this game's seat token (compared in constant time)."""
        if not token or len(token) > 200:
            return False
        return hmac.compare_digest(token_hash(token), self.token_sha256)

    def refresh(self) -> Snapshot:
        """A new snapshot of the game (call with the lock held)."""
        s = self.session
        if s.save_failure and not self.unsaved:
            self.unsaved = True
            self.tell([Event("warning", f"{s.save_failure}: the game goes on, but a restart of the server "
                                        "would lose the moves from here on")])
        summary: tuple[Event, ...] = ()
        key: tuple[Any, ...] = ()
        if s.is_over:
            events, screens = s.summary()
            summary, key = tuple(events), tuple(screens)
        self.snapshot = Snapshot(
            version=self.version,
            thinking=self.thinking,
            over=s.is_over,
            screen=s.screen(),
            prompt=s.prompt(),
            log=tuple(self.log[-LOG_LINES:]),
            why=s.why(),
            summary=summary,
            key=key,
            error=s.error,
        )
        self._store_view()
        return self.snapshot

    def _store_view(self) -> None:
        if self.keep_view is None:
            return
        view = seen_of(self)
        if view == self.kept_view:
            return
        try:
            self.keep_view(view)
        except Exception:  # sqlite3.Error: the record is what counts; a restart then replays as before
            return
        self.kept_view = view

    def tell(self, events: list[Event]) -> None:
        self.log.extend(events)
        del self.log[:-LOG_LINES]


class GameHub:
    """All games of one server process: created, loaded from SQLite on demand, kept in memory
    (the most recent ``keep`` of them), their AI moves run by ``workers`` threads."""

    def __init__(self, store: GameStore, agents: AgentFactory, *, workers: int = 2, keep: int = 100) -> None:
        self.store = store
        self.agents = agents
        self.keep = keep
        self._games: "OrderedDict[str, LiveGame]" = OrderedDict()
        self._lock = threading.Lock()  # the cache itself
        self._agents_lock = threading.Lock()  # models load once, not once per racing request
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="spymaster-ai")

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    # ------------------------------------------------------------------ games
    def create(self, settings: PlaySettings, *, learn: bool = True,
               profile_sha256: Optional[str] = None) -> tuple[LiveGame, str]:
        """A new game and its seat token (returned once, never stored in clear). ``learn``: the
        AI partner learns the person within this game; ``profile_sha256``: and into (and from)
        that profile."""
        game, labels = new_game(settings)
        with self._agents_lock:
            agents = self.agents(settings)
        game_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(24)
        learner, created = self._learner(settings, agents, profile_sha256) if learn else (None, "")
        session = Session(settings, game, agents, labels, learner=learner)
        live = LiveGame(game_id, token_hash(token), session, profile_sha256=profile_sha256 if learner else None,
                        profile_created=created, keep_view=self._view_saver(game_id))
        self.store.create(game_id, live.token_sha256, session_record(session))
        if learner is not None:
            self.store.set_learning(game_id, live.profile_sha256)
        session.save_to(self._saver(game_id))
        live.tell([Event("info", f"{settings.describe()}. Seed {settings.seed}.")])
        self._remember(live)
        with live.lock:
            self._start_ai(live)
            live.refresh()
        return live, token

    def get(self, game_id: str) -> LiveGame:
        """The live game with this id, replayed from SQLite if it is not in memory."""
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
                return live
        row = self.store.load(game_id) if _plausible_id(game_id) else None
        if row is None:
            raise UnknownGame(game_id)
        try:
            saved = check_saved(row.record, f"game {game_id}")
            with self._agents_lock:
                agents = self.agents(saved.settings)
            learns, profile_sha256 = self.store.learning(game_id)
            # the AI replays with the person's weights as they are now; it learns from the next move
            learner, created = self._learner(saved.settings, agents, profile_sha256) if learns else (None, "")
            session = restore_session(saved, f"game {game_id}", agents, save=self._saver(game_id))
            session.learner = learner
        except (SaveFileError, SessionError) as exc:
            raise SaveFileError(f"the stored game cannot be resumed: {exc}") from exc
        live = LiveGame(game_id, row.token_sha256, session, profile_sha256=profile_sha256 if learner else None,
                        profile_created=created, keep_view=self._view_saver(game_id))
        if not restore_view(live, row.view):  # stored before the view was kept: as the replay has it
            live.tell([Event("info", f"{saved.settings.describe()}. Resumed where it stopped.")])
        with self._lock:
            if game_id in self._games:  # another request loaded it meanwhile
                return self._games[game_id]
            self._remember_locked(live)
        with live.lock:
            self._start_ai(live)
            live.refresh()
        return live

    def move(self, live: LiveGame, text: str, version: Optional[int]) -> list[Event]:
        """Play the person's typed move (a card name, a clue, 'stop', 'pass')."""
        if live.thinking:  # checked before the lock, which the AI holds while it thinks
            raise MoveRefused("the AI is still thinking: wait for its move (the page updates by itself)")
        with live.lock:
            if live.session.is_over:
                raise MoveRefused("the game is over: no more moves (start a new game from the home page)")
            if live.session.error:
                raise MoveRefused(f"the game cannot go on: {live.session.error}")
            if live.thinking:
                raise MoveRefused("the AI is still thinking: wait for its move (the page updates by itself)")
            if version is not None and version != live.version:
                raise MoveRefused("this page was out of date (the game moved on, in another tab perhaps): "
                                  "nothing was played; the board is redrawn as it stands now")
            command = command_of(text.strip())
            if command in WEB_COMMANDS:  # the terminal's help, quit and board mean other things here
                events = [Event("info", WEB_COMMANDS[command])]
                live.tell([Event("you", f"> {text.strip()}")] + events)
                live.refresh()
                return events
            reply = live.session.answer(text)
            live.tell([Event("you", f"> {text.strip()}")] + reply.events)
            self._keep_profile(live)
            if reply.moved:
                self._start_ai(live)
            live.refresh()
            return reply.events

    # ------------------------------------------------------------------ the AI
    def _start_ai(self, live: LiveGame) -> None:
        """Hand the AI's turn to the pool (call with the game's lock held)."""
        s = live.session
        if s.is_over or s.error or s.prompt() is not None or live.thinking:
            return
        live.thinking = True
        self._pool.submit(self._run_ai, live)

    def _run_ai(self, live: LiveGame) -> None:
        with live.lock:
            try:
                events = live.session.advance()
            except Exception as exc:  # advance reports agent failures itself; anything else must not hang the page
                events = [Event("error", f"the server failed during the AI's move: {type(exc).__name__}")]
                live.session.error = live.session.error or "the server failed during the AI's move"
            live.thinking = False
            live.tell(events)
            self._keep_profile(live)
            live.refresh()

    def wait_idle(self, live: LiveGame, timeout: float = 30.0) -> None:
        """Block until the AI has answered (for tests and scripts)."""
        import time

        end = time.monotonic() + timeout
        while live.snapshot is None or live.snapshot.thinking:
            if time.monotonic() > end:
                raise TimeoutError("the AI did not answer in time")
            time.sleep(0.01)

    # ------------------------------------------------------------------ learning the person
    def _learner(self, settings: PlaySettings, agents: Mapping[str, Any], profile_sha256: Optional[str]):
        """(the session's learner, when its profile began): no learner when no partner reads
        as the `human` agents do; it starts from the stored profile if there is a readable one."""
        from ..play.profile import parse_profile, session_learner

        created = [_today()]

        def stored(base):
            text = self.store.load_profile(profile_sha256) if profile_sha256 else None
            if text is None:
                return None
            try:
                adaptation, created[0] = parse_profile(text, base)
            except ValueError:
                return None  # another reader's features: a new profile begins, written over it
            return adaptation

        return session_learner(settings, dict(agents), stored), created[0]

    def _keep_profile(self, live: LiveGame) -> None:
        """Write the game's profile when its learner learned something since the last write
        (call with the game's lock held); a failure is said once, and the game goes on."""
        learner = live.session.learner
        if live.profile_sha256 is None or learner is None or learner.learned <= live.kept:
            return
        from ..play.profile import profile_text

        try:
            self.store.save_profile(live.profile_sha256, profile_text(learner.adaptation, live.profile_created))
        except Exception as exc:  # sqlite3.Error: the game goes on, learning within itself
            live.tell([Event("warning", f"your profile could not be stored ({type(exc).__name__}); "
                                        "the AI learns from you in this game only")])
            live.profile_sha256 = None
            return
        live.kept = learner.learned

    def forget(self, profile_sha256: str) -> bool:
        """Delete a profile; the games learning into it go on learning within themselves only."""
        with self._lock:
            games = list(self._games.values())
        for live in games:
            if live.profile_sha256 == profile_sha256:
                with live.lock:
                    live.profile_sha256 = None
        return self.store.delete_profile(profile_sha256)

    def profile_lines(self, profile_sha256: str) -> Optional[list[str]]:
        """What the profile holds, in words (None when there is none)."""
        from ..agents.human.reader import load_params
        from ..play.profile import describe_lines, parse_profile

        text = self.store.load_profile(profile_sha256)
        if text is None:
            return None
        try:
            adaptation, created = parse_profile(text, load_params())
        except ValueError:
            return ["Your profile was written by another version of the AI: your next game starts a new one."]
        return describe_lines(adaptation, created)

    # ------------------------------------------------------------------ storage
    def _saver(self, game_id: str) -> Callable[[Session], None]:
        def save(session: Session) -> None:
            try:
                self.store.save(game_id, session_record(session))
            except Exception as exc:  # sqlite3.Error and friends: the session turns saving off on OSError
                raise OSError(f"the game could not be stored: {exc}") from exc

        return save

    def _view_saver(self, game_id: str) -> Callable[[dict], None]:
        return lambda view: self.store.save_view(game_id, view)

    def _remember(self, live: LiveGame) -> None:
        with self._lock:
            self._remember_locked(live)

    def _remember_locked(self, live: LiveGame) -> None:
        self._games[live.id] = live
        while len(self._games) > self.keep:
            oldest, old = next(iter(self._games.items()))
            if old.thinking:  # never drop a game whose AI is still moving
                break
            del self._games[oldest]


VIEW_FORMAT = 1


def seen_of(live: LiveGame) -> dict:
    """What the players see of the game that its record does not hold, as JSON: the AI's
    targets and readings as they were noted, and the message log (its last LOG_LINES)."""
    s = live.session
    return {
        "format": VIEW_FORMAT,
        "moves": live.version,
        "targets": [[giver, clue, list(cards)] for giver, clue, cards in s.targets],
        "readings": [[r[0], [[card, float(p)] for card, p in r[1]], *r[2:]] for r in s.readings],
        "log": [[e.kind, e.text] for e in live.log[-LOG_LINES:]],
        "meant": [list(line.meant) for line in s.clues],  # the clue log's "for X", from the targets as noted
    }


def restore_view(live: LiveGame, view: Optional[dict]) -> bool:
    """Put a stored :func:`seen_of` back on a replayed game; whether it could (not when there
    is none, it is malformed, or it was written at another move than the record's last)."""
    if not isinstance(view, dict) or view.get("format") != VIEW_FORMAT or view.get("moves") != live.version:
        return False
    try:
        targets = [(str(g), str(c), tuple(str(t) for t in cards)) for g, c, cards in view["targets"]]
        readings = [(str(r[0]), [(str(card), float(p)) for card, p in r[1]], *(str(x) for x in r[2:]))
                    for r in view["readings"]]
        log = [Event(str(kind), str(text)) for kind, text in view["log"]]
        meant = [tuple(str(m) for m in line) for line in view.get("meant", ())]  # absent: stored before 0.4.6
    except (KeyError, TypeError, ValueError, IndexError):
        return False
    clues = live.session.clues
    if meant and len(meant) == len(clues) and all(len(m) <= len(c.guesses) for m, c in zip(meant, clues)):
        live.session.clues = [replace(c, meant=m) for c, m in zip(clues, meant)]
    live.session.targets, live.session.readings = targets, readings
    live.log = log
    live.kept_view = view
    return True


def _today() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def _plausible_id(game_id: str) -> bool:
    return 8 <= len(game_id) <= 64 and all(c.isalnum() or c in "-_" for c in game_id)
