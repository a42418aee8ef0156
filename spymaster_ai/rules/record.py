"""JSON game records: a game's configuration, every accepted move, and the final state.

A record is replayed by building the game from its configuration and applying the moves
through the engine itself, so a replay is checked by the same rules as live play. A record
whose moves the engine refuses, whose stored final state differs from the replayed one, or
whose ``sha256`` does not match its content (:func:`checksum`) was damaged or edited and is
refused with :class:`RecordError`. The checksum is unkeyed: it catches accidental corruption
and hand edits, not someone who recomputes it (a consistent forged record with legal moves
replays).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from .classic import ClassicGame
from .duet import DuetGame
from .moves import IllegalMove

FORMAT = "spymaster_ai.game-record"
VERSION = 1

Game = Union[ClassicGame, DuetGame]
_ENGINES: dict[str, type] = {"classic": ClassicGame, "duet": DuetGame}


class RecordError(ValueError):
    """A record that cannot be read or replayed: says what is wrong with it."""


def _engine_name(game: Game) -> str:
    if isinstance(game, DuetGame):
        return "duet"
    if isinstance(game, ClassicGame):
        return "classic"
    raise TypeError(f"not a game engine: {type(game).__name__}")


def _digest(payload: dict) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _as_json(value: Any) -> Any:
    """The value as it reads back from a JSON file (tuples become lists)."""
    return json.loads(json.dumps(value, sort_keys=True))


def checksum(record: dict) -> str:
    """The sha256 of a record's content (everything but format, version and the checksum)."""
    body = {k: record.get(k) for k in ("engine", "config", "actions", "final_state")}
    body["meta"] = record.get("meta", {})
    return _digest(body)


def to_record(game: Game, meta: dict | None = None) -> dict:
    """The JSON-serialisable record of ``game`` as it stands (finished or not)."""
    body = {
        "engine": _engine_name(game),
        "config": game.config(),
        "actions": list(game.actions),
        "final_state": game.state_json(),
        "meta": dict(meta or {}),
    }
    return {"format": FORMAT, "version": VERSION, **body, "sha256": _digest(body)}


def from_record(record: Any, *, verify: bool = True) -> Game:
    """Rebuild a game by replaying a record; refuse bad, damaged or edited records with RecordError.

    A record without a ``sha256`` field is replayed unchecked by it (records written by hand
    or by other tools); callers that always write one, like the play save files, require it.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a game record is a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a spymaster_ai game record (format is {record.get('format')!r})")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}; this build reads {VERSION}")
    missing = [k for k in ("engine", "config", "actions", "final_state") if k not in record]
    if missing:
        raise RecordError(f"record is missing {', '.join(missing)}")
    # A forged record can pass the (unkeyed) checksum: every field's shape is checked, so what
    # it holds is refused as a RecordError naming the field, never a traceback.
    engine = _ENGINES.get(record["engine"]) if isinstance(record["engine"], str) else None
    if engine is None:
        raise RecordError(f"unknown engine {record['engine']!r} (known: {', '.join(_ENGINES)})")
    if not isinstance(record["actions"], list):
        raise RecordError("record 'actions' must be a list of moves")
    for field in ("config", "final_state"):
        if not isinstance(record[field], dict):
            raise RecordError(f"record {field!r} must be a JSON object, got {type(record[field]).__name__}")
    if verify and "sha256" in record:
        if checksum(record) != record["sha256"]:
            raise RecordError("record checksum does not match its content: the file was modified")
    try:
        game = engine.from_config(record["config"])
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise RecordError(f"record has an invalid game configuration: {exc}") from exc
    try:
        game.replay(record["actions"])
    except IllegalMove as exc:
        raise RecordError(f"record holds a move the rules refuse: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise RecordError(f"record holds a malformed move: {exc}") from exc
    if verify and _as_json(game.state_json()) != _as_json(record["final_state"]):
        raise RecordError("replaying the record's moves does not reach its stored final state")
    return game


def save_record(game: Game, path: str | Path, meta: dict | None = None) -> Path:
    path = Path(path)
    path.write_text(json.dumps(to_record(game, meta), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_record(path: str | Path, *, verify: bool = True) -> Game:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise RecordError(f"no such record file: {path}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path} is not valid JSON: {exc}") from exc
    return from_record(data, verify=verify)


@dataclass(frozen=True)
class ClueTurn:
    """One clue of a finished game as its giver's side of the key reads it: what a learning
    agent needs from a record (``clue_turns``).

    ``giver``: the team (``"red"``) or Duet player (``"A"``) who gave it; ``choices``: the cards
    its guesser could pick when it was given; ``own``: the giver's cards among them (the
    intended targets); ``guesses``: the guesser's picks on it, in order; ``hits``: whether each
    was one of the giver's cards.
    """

    giver: str
    word: str
    count: int
    choices: tuple[str, ...]
    own: tuple[str, ...]
    guesses: tuple[str, ...]
    hits: tuple[bool, ...]


def clue_turns(record: dict) -> list[ClueTurn]:
    """Every clue of a game record with the guesses made on it (classic family and Duet).

    Why from the record and not the engine: an agent is given the record after the game
    (``end_game``) and should not need the engine to learn from it. In Duet a bystander a
    guesser touched stays on the board but is no longer among that guesser's choices.
    """
    config = record["config"]
    words = list(config["words"])
    duet = record["engine"] == "duet"
    if duet:
        sides = {"A": config["key"]["side_a"], "B": config["key"]["side_b"]}
    else:
        identities = config["key"]["identities"]
    covered: set[str] = set()
    marked: dict[str, set[str]] = {"A": set(), "B": set()}  # Duet: cards each giver's guesser touched
    turns: list[dict] = []
    for action in record["actions"]:
        kind = action.get("type")
        if kind == "clue":
            giver = action.get("giver") if duet else action.get("team")
            key = sides[giver] if duet else identities
            mine = "green" if duet else giver
            choices = tuple(w for w in words if w not in covered and w not in marked.get(giver, ()))
            own = tuple(w for w in choices if key[words.index(w)] == mine)
            turns.append({"giver": giver, "word": action["word"], "count": int(action["count"]), "choices": choices,
                          "own": own, "guesses": [], "hits": [], "key": key, "mine": mine})
        elif kind == "guess" and turns:
            turn, word = turns[-1], action["word"]
            hit = turn["key"][words.index(word)] == turn["mine"]
            turn["guesses"].append(word)
            turn["hits"].append(hit)
            if not duet or hit or turn["key"][words.index(word)] == "black":
                covered.add(word)
            else:
                marked[turn["giver"]].add(word)
        elif "word" in action:  # covers, sudden-death guesses: the card leaves the board
            covered.add(action["word"])
    return [
        ClueTurn(t["giver"], t["word"], t["count"], t["choices"], t["own"], tuple(t["guesses"]), tuple(t["hits"]))
        for t in turns
    ]
