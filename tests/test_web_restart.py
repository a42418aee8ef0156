"""A restarted server changes nothing a player sees (issue 41, item 11).

The AI players here answer differently after the restart, as real ones may (a learner that
moved on, another moment): the spymaster aims its same clues at other cards, the guesser reads
the person's clues with other chances. What the seat and a spectator receive (the JSON state
and the pages) must be the same bytes before and after: the server shows what it showed, not
what the AI would say now.
"""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest

from test_play_session import ScriptedSpymaster, RecordingGuesser
from test_web_api import client_for, db, new_game, play_to_end, state  # noqa: F401 (db: the fixture)

from spymaster_ai.play.seats import ai_roles

GENERATION = {"n": 0}  # which server process the agents belong to


class FickleSpymaster(ScriptedSpymaster):
    """The scripted spymaster's clues, aimed at its first own card, or after a restart its last."""

    def _options(self, view):
        for option in super()._options(view):
            own = list(view.own)
            aimed = tuple(own[:1]) if GENERATION["n"] == 0 else tuple(own[-1:])
            yield SimpleNamespace(word=option.word, count=option.count, targets=aimed, clue=option.clue)


class FickleGuesser(RecordingGuesser):
    """The seeded random guesser, with a reading of the person's clue that changes on restart."""

    def reading(self, view):
        cards = list(view.visible)[:3]
        shares = (0.48, 0.3, 0.22) if GENERATION["n"] == 0 else (0.84, 0.1, 0.06)
        return list(zip(cards, shares))


def fickle_agents(settings):
    return {r: FickleSpymaster() if r.endswith("spymaster") else FickleGuesser() for r in ai_roles(settings)}


@pytest.fixture(autouse=True)
def first_generation():
    GENERATION["n"] = 0
    yield
    GENERATION["n"] = 0


def everything_seen(client, game_id: str, token: str) -> dict:
    """Every byte the seat and a spectator receive of the game."""
    state(client, game_id, token)  # the AI has answered
    seen = {}
    for who, headers in (("seat", {"X-Seat-Token": token}), ("spectator", {})):
        for path in (f"/api/games/{game_id}", f"/g/{game_id}", f"/g/{game_id}/board"):
            r = client.get(path, headers=headers)
            assert r.status_code == 200, r.text
            seen[who, path] = r.content
    return seen


@pytest.mark.parametrize("stop_after", [None, 4], ids=["finished", "in-play"])
def test_a_restart_changes_nothing_the_seat_or_a_spectator_receives(db, stop_after):
    with client_for(db, fickle_agents) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7"})
        data = play_to_end(client, game_id, token, stop_after=stop_after)
        assert data["over"] == (stop_after is None)
        before = everything_seen(client, game_id, token)
    seat_state = before["seat", f"/api/games/{game_id}"].decode()
    if stop_after is None:  # the end screen names the targets and the readings (guarded below)
        assert "(not reported)" not in seat_state and "48%" in seat_state
    GENERATION["n"] = 1
    with client_for(db, fickle_agents) as client:  # a new process over the same file
        after = everything_seen(client, game_id, token)
        assert "Resumed where it stopped" not in after["seat", f"/api/games/{game_id}"].decode()
        for where in before:
            assert after[where] == before[where], where
        if stop_after is not None:  # and the game goes on to its end
            assert play_to_end(client, game_id, token)["over"]


def test_a_spectator_gets_no_targets_before_the_end_after_a_restart_either(db):
    with client_for(db, fickle_agents) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7"})
        play_to_end(client, game_id, token, stop_after=3)
        stored = client.app.state.hub.store.load(game_id).view
    assert stored["targets"]  # kept in the store, for the end screen
    GENERATION["n"] = 1
    with client_for(db, fickle_agents) as client:
        seen = everything_seen(client, game_id, token)
        spectator = b"".join(v for (who, _), v in seen.items() if who == "spectator").decode()
        assert "aimed at" not in spectator and "first pick" not in spectator
        assert b'"log":[]' in seen["spectator", f"/api/games/{game_id}"]


def test_a_game_stored_before_the_view_was_kept_is_replayed_as_before(db):
    with client_for(db, fickle_agents) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7"})
        play_to_end(client, game_id, token)
    with sqlite3.connect(db) as con:  # the database as an older build left it: no view column
        con.execute("ALTER TABLE games DROP COLUMN view")
    GENERATION["n"] = 1
    with client_for(db, fickle_agents) as client:
        data = state(client, game_id, token)
        assert data["over"] and any("Resumed where it stopped" in e["text"] for e in data["log"])
        assert "84%" in str(data["summary"])  # the replay's readings: nothing else was kept
    with sqlite3.connect(db) as con:
        assert "view" in {row[1] for row in con.execute("PRAGMA table_info(games)")}


def test_a_view_stored_without_the_clue_logs_notes_still_restores_the_rest(db):
    # 0.4.5 stored no clue-log notes ("for X"): its targets and readings still come back
    with client_for(db, fickle_agents) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7"})
        play_to_end(client, game_id, token)
    with sqlite3.connect(db) as con:
        view = json.loads(con.execute("SELECT view FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        assert "meant" in view
        del view["meant"]
        con.execute("UPDATE games SET view = ? WHERE id = ?", (json.dumps(view), game_id))
    GENERATION["n"] = 1
    with client_for(db, fickle_agents) as client:
        data = state(client, game_id, token)
        assert data["over"] and not any("Resumed where it stopped" in e["text"] for e in data["log"])
        assert "48%" in str(data["summary"]) and "84%" not in str(data["summary"])  # the readings as noted
