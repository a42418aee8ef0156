"""SQLite persistence of web games: one row per game, its save record rewritten after every move.

Why SQLite and the play save record: a restart of the server or a closed tab must lose nothing,
and the record (:func:`spymaster_ai.play.store.session_record`) is what ``play resume`` already
replays and checks (its checksum, the engine's final state), so the web server resumes a game
exactly as the terminal does. The seat token is kept only as its SHA-256: a copy of the
database does not give anyone a seat (it does hold the key cards, as a save file does).
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
)
"""


def default_db_path() -> Path:
    """``games.sqlite3`` under the user's data folder (platformdirs), e.g. ~/.local/share/spymaster_ai."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("spymaster_ai")) / "games.sqlite3"


class GameRow:
    """One stored game: its seat token's hash and its save record."""

    def __init__(self, game_id: str, token_sha256: str, record: dict) -> None:
        self.id = game_id
        self.token_sha256 = token_sha256
        self.record = record


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
            self._db.execute(SCHEMA)

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
            row = self._db.execute("SELECT token_sha256, record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return GameRow(game_id, row[0], json.loads(row[1]))

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
