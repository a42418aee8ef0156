"""Play against (or with) the AI in the terminal: ``spymaster-ai play classic|solo|duet|pictures``.

:class:`Session` holds the game logic of one session (whose turn, what to ask, what to show,
what to keep hidden) without any I/O; :func:`run_console` is the rich terminal front end;
:mod:`.store` saves a session after every move (while its file can be written) and resumes it. See ``spymaster-ai play --help``.
"""

from __future__ import annotations

from .console import run_console, write_board_png
from .parse import InputError, match_card, parse_clue
from .session import HELP, Event, Prompt, Reply, Session, SessionError, ai_roles, default_save_path, load_session_agents
from .settings import MODES, PlaySettings, SettingsError
from .setup import new_game
from .store import SaveFileError, SaveWriteError, hold_save, read_saved, resume_session, save_session, saver

__all__ = [
    "HELP",
    "MODES",
    "Event",
    "InputError",
    "PlaySettings",
    "Prompt",
    "Reply",
    "SaveFileError",
    "SaveWriteError",
    "Session",
    "SessionError",
    "SettingsError",
    "ai_roles",
    "default_save_path",
    "load_session_agents",
    "match_card",
    "new_game",
    "parse_clue",
    "read_saved",
    "hold_save",
    "resume_session",
    "run_console",
    "save_session",
    "saver",
    "write_board_png",
]
