"""SQLite persistence of web games: one row per game, its save record rewritten after every move.

Why SQLite and the play save record: a restart of the server or a closed tab must lose nothing,
and the record (:func:`spymaster_ai.play.store.session_record`) is what ``play resume`` already
replays and checks (its checksum, the engine's final state), so the web server resumes a game
exactly as the terminal does. The seat token is kept only as its SHA-256: a copy of the
database does not give anyone a seat (it does hold the key cards, as a save file does).

Profiles (opt-in, one per browser): how a person reads clues, the same JSON as ``play``'s
profile file (:mod:`spymaster_ai.play.profile`), keyed by the SHA-256 of the random id in
the browser's cookie, so the database alone does not say which browser is whose. Each game
that learns notes how (``game_learning``): within itself only, or into which profile.

What the players saw (``games.view``, JSON, nullable): the AI spymasters' targets, how the AI
read the person's clues and the message log, as they were after the move they were written at.
Replaying the record asks the AI again, and its answers (the targets, the readings) may differ
from what was shown, so a restarted server shows these instead. The column is added to a
database made before it (a game saved then has none and is replayed as before); a build
without it ignores it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

__all__ = ["GameRow", "GameStore", "default_db_path"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS profiles (
    id_sha256 TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS game_learning (
    game_id TEXT PRIMARY KEY,
    profile_sha256 TEXT
)
"""


def default_db_path() -> Path:
    """``games.sqlite3`` under the user's data folder (platformdirs), e.g. ~/.local/share/spymaster_ai."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("spymaster_ai")) / "games.sqlite3"


class GameRow:
    """One stored game: its seat token's hash and its save record."""

    def __init__(self, game_id: str, token_sha256: str, record: dict, view: Optional[dict] = None) -> None:
        self.id = game_id
        self.token_sha256 = token_sha256
        self.record = record
        self.view = view  # what the players saw (see the module doc); None for games saved without it


class GameStore:
    """The games table; one connection shared under a lock (SQLite serialises writes anyway)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            if "view" not in columns:  # a database made before the view was kept
                self._db.execute("ALTER TABLE games ADD COLUMN view TEXT")

    def create(self, game_id: str, token_sha256: str, record: dict) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, token_sha256, record, created, updated) VALUES (?, ?, ?, ?, ?)",
                (game_id, token_sha256, json.dumps(record, ensure_ascii=False), now, now),
            )

    def save(self, game_id: str, record: dict) -> None:
        with self._lock:
            cur = self._db.execute(
                "UPDATE games SET record = ?, updated = ? WHERE id = ?",
                (json.dumps(record, ensure_ascii=False), time.time(), game_id),
            )
        if cur.rowcount != 1:
            raise KeyError(game_id)

    def load(self, game_id: str) -> Optional[GameRow]:
        with self._lock:
            row = self._db.execute("SELECT token_sha256, record, view FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        view = None
        if row[2] is not None:
            try:
                view = json.loads(row[2])
            except ValueError:
                view = None  # unreadable: the game is replayed as before
        return GameRow(game_id, row[0], json.loads(row[1]), view if isinstance(view, dict) else None)

    def save_view(self, game_id: str, view: dict) -> None:
        """Keep what the players see of the game now (module doc)."""
        text = json.dumps(view, ensure_ascii=False)
        with self._lock:
            self._db.execute("UPDATE games SET view = ? WHERE id = ?", (text, game_id))

    # -- profiles ---------------------------------------------------------------------------
    def load_profile(self, id_sha256: str) -> Optional[str]:
        with self._lock:
            row = self._db.execute("SELECT profile FROM profiles WHERE id_sha256 = ?", (id_sha256,)).fetchone()
        return None if row is None else str(row[0])

    def save_profile(self, id_sha256: str, text: str) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO profiles (id_sha256, profile, created, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id_sha256) DO UPDATE SET profile = excluded.profile, updated = excluded.updated",
                (id_sha256, text, now, now),
            )

    def delete_profile(self, id_sha256: str) -> bool:
        """Forget a profile, and which games learned into it; whether there was one."""
        with self._lock:
            cur = self._db.execute("DELETE FROM profiles WHERE id_sha256 = ?", (id_sha256,))
            self._db.execute("UPDATE game_learning SET profile_sha256 = NULL WHERE profile_sha256 = ?", (id_sha256,))
        return cur.rowcount > 0

    def set_learning(self, game_id: str, profile_sha256: Optional[str]) -> None:
        """The game learns the person: within itself (None) or into that profile."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO game_learning (game_id, profile_sha256) VALUES (?, ?)",
                             (game_id, profile_sha256))

    def learning(self, game_id: str) -> tuple[bool, Optional[str]]:
        """(whether the game learns the person, the profile it learns into)."""
        with self._lock:
            row = self._db.execute("SELECT profile_sha256 FROM game_learning WHERE game_id = ?", (game_id,)).fetchone()
        return (False, None) if row is None else (True, row[0])

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
