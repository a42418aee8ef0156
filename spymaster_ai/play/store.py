"""Save and resume a play session: a game record (config + moves) with the session settings.

Why the game record format (:mod:`spymaster_ai.rules.record`): the file is replayed through
the engine on resume, so a damaged or edited file is refused, and a finished game's file is
an ordinary record the rest of the toolkit can replay. The session settings (mode, seat,
agent specs, seed) and the picture captions travel in the record's ``meta``.

Every save carries the record's ``sha256`` checksum, and resuming requires it: a file
without one, or whose content no longer matches it, is refused. The replay alone would let
an edit of the settings through (another seat, another AI), so the checksum is what catches
it. It guards against accidental corruption and hand edits; it is not a signature (anyone
can recompute it), so it proves nothing about who wrote the file.

The file is written after every move, atomically (a temporary file, then a rename), so a
quit, a crash or a killed terminal loses nothing while the file can be written. A write that
fails raises :class:`SaveWriteError`, one line that names the file; the session then goes on
in memory and the front end offers another file. **It holds the key card** (the engine
needs it to replay the moves): opening it spoils the game for a guesser, which is why the
front end says so when it starts saving.

A live session holds its save file (:func:`hold_save`, the simulator's lock on results files,
:func:`spymaster_ai.files.hold_file`): a second ``play resume`` of it, or a new game told to
``--save`` onto it, is refused at start, since each would rewrite the file from its own game
and one session's moves would vanish. The lock dies with its process, so a crash leaves none.
"""

from __future__ import annotations

import json
import os
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Optional

from ..files import UnsafeFileError, check_readable, hold_file, write_atomically
from ..rules.moves import IllegalMove
from ..rules.record import RecordError, checksum, from_record, to_record
from .session import Session, SessionError, load_session_agents
from .settings import PlaySettings, SettingsError
from .setup import Game

__all__ = [
    "FORMAT",
    "VERSION",
    "SaveFileError",
    "SaveWriteError",
    "SavedGame",
    "check_saved",
    "hold_save",
    "read_saved",
    "restore_session",
    "resume_session",
    "save_session",
    "saver",
    "session_record",
]

FORMAT = "spymaster_ai.play-session"
VERSION = 1


class SaveFileError(ValueError):
    """A save file that cannot be resumed; the message says why."""


class SaveWriteError(OSError):
    """A save file that cannot be written (read-only folder, full disk...); the message says
    which file and why, in one line."""


@dataclass(frozen=True)
class SavedGame:
    settings: PlaySettings
    labels: dict[str, str]
    record: dict
    game: Game  # the game as the record replays it (checked against its stored final state)


@contextmanager
def hold_save(path: str | Path) -> Iterator[None]:
    """Hold the save file ``path`` for one session (an exclusive ``flock`` on ``<path>.lock``,
    released when the session ends or its process dies); a file another live session holds is
    refused with :class:`SaveFileError`, one line naming it. A folder where no lock file can be
    made (missing, read-only) holds nothing: no save can be written there either, and the
    reading or saving says so."""
    path = Path(path)
    with ExitStack() as held:
        try:
            # a link is held at its target, the file the saves land in (as the runner's results)
            held.enter_context(hold_file(os.path.realpath(path), lambda who: SaveFileError(
                f"{path} is in use by another play session{who}: continue the game there, or quit it first "
                "(two sessions on one save would overwrite each other's moves)")))
        except OSError:
            pass
        yield


def session_meta(session: Session) -> dict:
    return {
        "play": {
            "format": FORMAT,
            "version": VERSION,
            "settings": session.settings.to_json(),
            "labels": dict(session.labels),
        }
    }


def save_session(session: Session, path: str | Path) -> Path:
    """Write the session to ``path`` atomically; returns the path. Raises SaveWriteError.

    A symbolic link is written through to its target; a device, a pipe or a folder is refused
    and left as it is (:mod:`spymaster_ai.files` says why)."""
    path = Path(path)
    text = json.dumps(session_record(session), indent=1, ensure_ascii=False) + "\n"
    try:
        write_atomically(path, text, fsync=True, private=True)  # it holds the key card
    except UnsafeFileError as exc:
        raise SaveWriteError(f"cannot save the game to {path}: {exc}") from None
    except OSError as exc:
        raise SaveWriteError(f"cannot save the game to {path}: {exc.strerror or exc}") from exc
    return path


def saver(path: str | Path) -> Callable[[Session], None]:
    """The save callback a :class:`Session` calls after every move."""
    return lambda session: save_session(session, path)


def read_saved(path: str | Path) -> SavedGame:
    """Read and check a save file (the moves are replayed through the engine)."""
    path = Path(path)
    try:
        check_readable(path, SaveFileError)  # a device or a pipe: never read (endless, or blocking)
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveFileError(f"no such save file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFileError(f"{path} is not a readable save file: {exc}") from exc
    return check_saved(data, path)


def check_saved(data: Any, path: str | Path) -> SavedGame:
    """Check a saved session already parsed from JSON (``path`` names where it came from in
    messages): the checksum, the settings, then the moves replayed through the engine."""
    meta = data.get("meta") if isinstance(data, dict) else None
    play = meta.get("play") if isinstance(meta, dict) else None
    if not isinstance(play, dict) or play.get("format") != FORMAT:
        raise SaveFileError(f"{path} is not a saved play session (no session settings in it)")
    _check_checksum(path, data)
    if play.get("version") != VERSION:
        raise SaveFileError(f"{path}: unsupported session version {play.get('version')!r}; this build reads {VERSION}")
    try:
        settings = PlaySettings.from_json(play.get("settings"))
    except (SettingsError, TypeError) as exc:
        raise SaveFileError(f"{path}: bad session settings: {exc}") from exc
    labels = play.get("labels") or {}
    if not isinstance(labels, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
        raise SaveFileError(f"{path}: bad card labels")
    try:
        game = from_record(data)
    except RecordError as exc:
        raise SaveFileError(f"{path}: {exc}") from exc
    expected = "duet" if settings.mode == "duet" else "classic"
    if data.get("engine") != expected:
        raise SaveFileError(f"{path}: a {settings.mode} session cannot hold a {data.get('engine')} game")
    return SavedGame(settings, dict(labels), data, game)


def _check_checksum(path: str | Path, data: dict) -> None:
    """Refuse a save whose checksum is missing or wrong, before anything in it is trusted."""
    stored = data.get("sha256")
    if not isinstance(stored, str):
        raise SaveFileError(f"{path} has no checksum (sha256): every save play writes has one, so the file "
                            "was edited or damaged; it cannot be resumed")
    if checksum(data) != stored:
        raise SaveFileError(f"{path}: the checksum does not match the content: the file was edited or damaged "
                            "after it was saved; it cannot be resumed")


def resume_session(
    path: str | Path,
    agents: Optional[Mapping[str, Any]] = None,
    *,
    save_to: Optional[str | Path] = "same",
) -> Session:
    """The session saved in ``path``, replayed to where it stopped.

    ``agents`` defaults to the ones the saved specs build; ``save_to`` is where later moves are
    saved ("same": the file itself; None: nowhere).
    """
    saved = read_saved(path)
    target = Path(path) if save_to == "same" else (Path(save_to) if save_to is not None else None)
    return restore_session(saved, path, agents, save=saver(target) if target is not None else None)


def restore_session(
    saved: SavedGame,
    path: str | Path,
    agents: Optional[Mapping[str, Any]] = None,
    *,
    save: Optional[Callable[[Session], None]] = None,
) -> Session:
    """The session of a checked save (:func:`check_saved`), replayed to where it stopped;
    ``path`` names where it came from in messages, ``save`` is called after each later move."""
    engine = type(saved.game)
    fresh = engine.from_config(saved.record["config"])
    session = Session(
        saved.settings,
        fresh,
        agents if agents is not None else load_session_agents(saved.settings),
        saved.labels,
        save=save,
    )
    try:
        session.replay(list(saved.record["actions"]))
    except (SessionError, IllegalMove, ValueError) as exc:
        raise SaveFileError(f"{path}: cannot replay the session: {exc}") from exc
    if session.game.state_json() != saved.game.state_json():
        raise SaveFileError(f"{path}: replaying the session does not reach the saved state")
    return session


def session_record(session: Session) -> dict:
    """The session as the JSON a save file holds (the game record with its settings)."""
    return to_record(session.game, session_meta(session))
