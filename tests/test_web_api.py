"""The web server's JSON API and pages: whole games in every mode, restarts, refusals.

The AI players are the play tests' scripted spymaster and seeded random guesser (no model is
loaded). The test player reads the live session only to choose a sensible move (as
``test_play_session.policy`` does); every move goes through HTTP.
"""

from __future__ import annotations

import html
import json
import random
import threading
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from spymaster_ai.web import create_app
from test_play_session import CLUE_WORDS, RecordingGuesser, ScriptedSpymaster, agents_for, policy

GAMES = [
    {"mode": "duet", "seed": "7"},
    {"mode": "duet", "seed": "8", "first": "human", "mission": "cairo"},
    {"mode": "solo", "seed": "3", "role": "guesser"},
    {"mode": "solo", "seed": "4", "role": "spymaster"},
    {"mode": "classic", "seed": "5", "role": "guesser", "team": "blue", "level": "easy"},
    {"mode": "classic", "seed": "6", "role": "spymaster", "level": "hard"},
    {"mode": "pictures", "seed": "9", "role": "guesser"},
    {"mode": "pictures", "seed": "10", "role": "spymaster", "solo": "on"},
]


def _id(form: dict) -> str:
    return "-".join(form.values())


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def client_for(db, agents=agents_for) -> TestClient:
    return TestClient(create_app(db, agents, workers=2), base_url="http://localhost")


def new_game(client: TestClient, form: dict) -> tuple[str, str, dict]:
    r = client.post("/api/games", json=form)
    assert r.status_code == 201, r.text
    data = r.json()
    client.cookies.clear()  # the API client carries its token in a header; without it, it is nobody
    return data["state"]["id"], data["token"], data["state"]


def state(client: TestClient, game_id: str, token: str | None = None, wait: bool = True) -> dict:
    """The seat's state, once the AI has answered (polling, as the page does)."""
    headers = {"X-Seat-Token": token} if token else {}
    end = time.monotonic() + 20
    while True:
        r = client.get(f"/api/games/{game_id}", headers=headers)
        assert r.status_code == 200, r.text
        data = r.json()
        if not (wait and data["thinking"]):
            return data
        assert time.monotonic() < end, "the AI did not answer"
        time.sleep(0.01)


def move(client: TestClient, game_id: str, token: str, text: str, version) -> "httpx.Response":  # noqa: F821
    return client.post(f"/api/games/{game_id}/move", json={"text": text, "version": version},
                       headers={"X-Seat-Token": token})


def live(client: TestClient, game_id: str):
    return client.app.state.hub.get(game_id)


def play_to_end(client: TestClient, game_id: str, token: str, *, seed: int = 0, stop_after: int | None = None) -> dict:
    rng = random.Random(seed)
    moves = 0
    data = state(client, game_id, token)
    while not data["over"] and (stop_after is None or moves < stop_after):
        assert data["prompt"] is not None, data
        text = policy(live(client, game_id).session, rng)
        r = move(client, game_id, token, text, data["version"])
        assert r.status_code == 200, r.text
        moves += 1
        assert moves < 300
        data = state(client, game_id, token)
    return data


@pytest.mark.parametrize("form", GAMES, ids=_id)
def test_every_mode_plays_to_the_end_over_http_and_shows_the_result_and_key(db, form):
    with client_for(db) as client:
        game_id, token, first = new_game(client, form)
        assert len(first["cells"]) == (20 if form["mode"] == "pictures" else 25)
        data = play_to_end(client, game_id, token)
        assert data["over"] and data["prompt"] is None
        assert data["summary"] and data["summary"][0]["kind"] == "end"
        assert data["key"] and all(c["identity"] for k in data["key"] for c in k["cells"])
        page = client.get(f"/g/{game_id}", headers={"X-Seat-Token": token})
        assert page.status_code == 200 and 'id="end"' in page.text and data["summary"][0]["text"] in html.unescape(page.text)
        if form["mode"] == "pictures":
            image = first["cells"][0]["image"]
            assert image and client.get(image).headers["content-type"] == "image/png"


def test_a_restarted_server_resumes_every_game_where_it_stopped(db):
    with client_for(db) as client:
        games = [new_game(client, form) for form in GAMES[:3]]
        before = {}
        for n, (game_id, token, _) in enumerate(games):
            before[game_id] = play_to_end(client, game_id, token, seed=n, stop_after=3)
            assert not before[game_id]["over"]
    with client_for(db) as client:  # a new process over the same file: nothing in memory
        for n, (game_id, token, _) in enumerate(games):
            after = state(client, game_id, token)
            assert {k: after[k] for k in ("version", "cells", "clues", "prompt", "status")} == \
                   {k: before[game_id][k] for k in ("version", "cells", "clues", "prompt", "status")}
            assert play_to_end(client, game_id, token, seed=n)["over"]


def test_the_new_game_form_starts_a_game_and_sets_the_seat_cookie(db):
    with client_for(db) as client:
        r = client.post("/games", data={"mode": "duet", "seed": "12", "first": "human", "tokens": "7"},
                        follow_redirects=False)
        assert r.status_code == 303
        game_id = r.headers["location"].rsplit("/", 1)[1]
        cookie = r.cookies.get(f"seat-{game_id}")
        assert cookie and "httponly" in r.headers["set-cookie"].lower() and "samesite=strict" in r.headers["set-cookie"].lower()
        page = client.get(f"/g/{game_id}")
        assert "Your clue" in page.text and "7 tokens" in page.text
        # the no-JavaScript path: the form posts and the server redirects back
        data = state(client, game_id)
        clue = next(w for w in CLUE_WORDS if w.upper() not in page.text)
        r = client.post(f"/g/{game_id}/move", data={"text": f"{clue} 1", "version": data["version"]}, follow_redirects=False)
        assert r.status_code == 303
        assert state(client, game_id)["version"] > data["version"]


@pytest.mark.parametrize("form, message", [
    ({"mode": "chess"}, "unknown mode"),
    ({"mode": "duet", "seed": "-1"}, "seed"),
    ({"mode": "duet", "seed": "abc"}, "seed must be a whole number"),
    ({"mode": "duet", "mission": "atlantis"}, "unknown mission"),
    ({"mode": "duet", "tokens": "0"}, "tokens"),
    ({"mode": "classic", "level": "godlike"}, "level must be one of easy, normal, hard"),
    ({"mode": "classic", "role": "captain"}, "role must be spymaster or guesser"),
    ({"mode": "duet", "strength": "max"}, "AI strength must be one of"),
    ({"mode": "duet", "colour": "red"}, "unknown setting"),
    ({"mode": "duet", "lang": "klingon"}, "lang must be one of en, de"),
])
def test_bad_settings_are_refused_with_what_to_fix(db, form, message):
    with client_for(db) as client:
        r = client.post("/api/games", json=form)
        assert r.status_code == 400 and message in r.json()["error"]
        page = client.post("/games", data=form)
        assert page.status_code == 400 and message in page.text and 'action="/games"' in page.text
        assert client.app.state.hub.store.count() == 0


def _unchanged(client, game_id, token, before):
    after = state(client, game_id, token)
    assert (after["version"], after["cells"], after["clues"]) == (before["version"], before["cells"], before["clues"])


def test_an_illegal_clue_is_refused_with_the_rule_and_the_board_word_and_changes_nothing(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "21", "first": "human"})
        before = state(client, game_id, token)
        word = before["cells"][0]["label"]
        r = move(client, game_id, token, f"{word}s 2", before["version"])
        assert r.status_code == 422
        error = r.json()["error"]
        assert word.upper() in error.upper() and "Refused" in error
        _unchanged(client, game_id, token, before)
        r = move(client, game_id, token, "two words 2", before["version"])
        assert r.status_code == 422
        r = move(client, game_id, token, "ocean", before["version"])
        assert r.status_code == 422 and "not a clue" in r.json()["error"]
        _unchanged(client, game_id, token, before)


def test_a_move_from_a_stale_page_is_refused_and_changes_nothing(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "22", "first": "human"})
        tab1 = state(client, game_id, token)
        r = move(client, game_id, token, "zebra 1", tab1["version"])  # tab 2 plays
        assert r.status_code == 200
        tab2 = state(client, game_id, token)
        r = move(client, game_id, token, tab2["cells"][0]["label"], tab1["version"])  # tab 1, out of date
        assert r.status_code == 409 and "out of date" in r.json()["error"]
        _unchanged(client, game_id, token, tab2)
        page = client.post(f"/g/{game_id}/move", data={"text": "stop", "version": tab1["version"]},
                           headers={"X-Seat-Token": token})
        assert page.status_code == 409 and "out of date" in page.text and 'id="board-area"' in page.text


def test_unknown_ids_garbled_and_oversized_bodies_and_moves_after_the_end_get_clear_messages(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "solo", "seed": "3"})
        before = state(client, game_id, token)
        for path in ("/api/games/nosuchgame12345", "/g/nosuchgame12345", "/g/../../etc/passwd", "/g/x/board"):
            r = client.get(path)
            assert r.status_code == 404, path
        assert "no game has this id" in client.get("/api/games/nosuchgame12345").json()["error"]
        assert "no game has this id" in client.get("/g/nosuchgame12345").text
        url = f"/api/games/{game_id}/move"
        seat = {"X-Seat-Token": token}
        cases = [
            (client.post(url, content=b"{not json", headers={**seat, "Content-Type": "application/json"}), 400, "not valid JSON"),
            (client.post(url, content=b"[1, 2]", headers={**seat, "Content-Type": "application/json"}), 400, "JSON object"),
            (client.post(url, content=b"\xff\xfe", headers={**seat, "Content-Type": "application/json"}), 400, "not valid JSON"),
            (client.post(url, content=b"text", headers={**seat, "Content-Type": "text/plain"}), 415, "send a form"),
            (client.post(url, json={"text": "x" * 20_000}, headers=seat), 413, "too large"),
            (client.post(url, json={"text": "x" * 500}, headers=seat), 400, "at most 200 characters"),
            (client.post(url, json={"text": ""}, headers=seat), 400, "type a move"),
            (client.post(url, json={"text": ["a"]}, headers=seat), 400, "type a move"),
            (client.post(url, json={"text": "stop", "version": "x"}, headers=seat), 400, "version must be a whole number"),
            (client.post(url, json={"text": "stop"}), 403, "seat token"),
            (client.post(url, json={"text": "stop"}, headers={"X-Seat-Token": "wrong"}), 403, "seat token"),
        ]
        for r, status, message in cases:
            assert r.status_code == status and message in r.json()["error"], (r.status_code, r.text)
        # a body that streams past the limit without announcing its length
        chunks = (b'{"text": "' + b"y" * 4096 for _ in range(4))
        r = client.post(url, content=chunks, headers={**seat, "Content-Type": "application/json"})
        assert r.status_code == 413
        _unchanged(client, game_id, token, before)
        end = play_to_end(client, game_id, token)
        r = move(client, game_id, token, "stop", end["version"])
        assert r.status_code == 409 and "the game is over" in r.json()["error"]
        _unchanged(client, game_id, token, end)


class GatedSpymaster(ScriptedSpymaster):
    """A spymaster that waits for the test to let it answer: the server must not wait with it."""

    gate = threading.Event()

    def give_clue(self, view):
        assert self.gate.wait(10)
        return super().give_clue(view)


def gated_agents(settings):
    return {r: GatedSpymaster() if r.endswith("spymaster") else RecordingGuesser() for r in agents_for(settings)}


def test_the_ai_moves_off_the_request_thread_and_the_page_says_it_is_thinking(db):
    GatedSpymaster.gate.clear()
    with client_for(db, gated_agents) as client:
        started = time.monotonic()
        game_id, token, first = new_game(client, {"mode": "duet", "seed": "30", "first": "ai"})
        assert time.monotonic() - started < 5 and first["thinking"] and first["prompt"] is None
        page = client.get(f"/g/{game_id}", headers={"X-Seat-Token": token})
        assert 'data-thinking="true"' in page.text and 'id="spinner"' in page.text
        r = move(client, game_id, token, "stop", first["version"])
        assert r.status_code == 409 and "still thinking" in r.json()["error"]
        GatedSpymaster.gate.set()
        data = state(client, game_id, token)
        assert not data["thinking"] and data["prompt"]["kind"] == "guess" and data["clues"]


def test_the_why_panel_explains_an_ai_clue_once_its_turn_is_over(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7", "first": "ai"})
        data = state(client, game_id, token)
        assert data["why"] is None  # the AI's clue is being guessed: nothing to explain yet
        rng = random.Random(1)
        while not data["over"] and data["why"] is None:
            data_v = data["version"]
            assert move(client, game_id, token, policy(live(client, game_id).session, rng), data_v).status_code == 200
            data = state(client, game_id, token)
        assert data["why"] and "AI" in data["why"]
        assert "Why?" in client.get(f"/g/{game_id}", headers={"X-Seat-Token": token}).text


def test_the_seat_link_gives_another_browser_the_seat_and_a_wrong_one_does_not(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "31", "first": "human"})
        page = client.get(f"/g/{game_id}", headers={"X-Seat-Token": token}).text
        assert f"/g/{game_id}/seat/{token}" in page
        watcher = client.get(f"/g/{game_id}").text
        assert "/seat/" not in watcher and "You are watching" in watcher and 'id="move-form"' not in watcher
        r = client.get(f"/g/{game_id}/seat/{token[:-1]}x", follow_redirects=False)
        assert r.status_code == 403 and "not valid" in r.text and not r.cookies
    with client_for(db) as other:  # another browser (and a restarted server)
        r = other.get(f"/g/{game_id}/seat/{token}", follow_redirects=False)
        assert r.status_code == 303 and r.cookies.get(f"seat-{game_id}") == token
        assert 'id="move-form"' in other.get(f"/g/{game_id}").text
        version = state(other, game_id)["version"]
        assert other.post(f"/api/games/{game_id}/move", json={"text": "zebra 1", "version": version}).status_code == 200


def test_a_store_that_fails_is_said_once_and_the_game_goes_on_in_memory(db, monkeypatch):
    import sqlite3

    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "32", "first": "human"})
        store = client.app.state.hub.store

        def broken(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(store, "save", broken)
        data = state(client, game_id, token)
        assert move(client, game_id, token, "zebra 1", data["version"]).status_code == 200
        data = state(client, game_id, token)
        warnings = [e["text"] for e in data["log"] if e["kind"] == "warning"]
        assert len(warnings) == 1 and "disk is full" in warnings[0] and "restart" in warnings[0]
        assert data["version"] >= 1 and data["clues"][0]["clue"].startswith("zebra")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(
    st.binary(max_size=300),
    st.dictionaries(st.sampled_from(["text", "version", "other"]),
                    st.one_of(st.text(max_size=60), st.integers(), st.none(), st.lists(st.integers(), max_size=3)),
                    max_size=3).map(lambda d: json.dumps(d).encode()),
), kind=st.sampled_from(["application/json", "application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]))
def test_any_body_gets_an_answer_below_500_and_a_refused_one_changes_nothing(shared_game, body, kind):
    client, game_id, token = shared_game
    before = state(client, game_id, token)
    r = client.post(f"/api/games/{game_id}/move", content=body, headers={"X-Seat-Token": token, "Content-Type": kind})
    assert r.status_code < 500 and "error" in r.json() or r.status_code == 200
    if r.status_code != 200:
        _unchanged(client, game_id, token, before)


@pytest.fixture(scope="module")
def shared_game(tmp_path_factory):
    with client_for(tmp_path_factory.mktemp("web") / "g.sqlite3") as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "33", "first": "human"})
        yield client, game_id, token


class BrokenSpymaster(ScriptedSpymaster):
    def give_clue(self, view):
        raise RuntimeError(f"cannot clue; my own cards were {', '.join(view.own)}")


def test_an_ai_failure_ends_the_game_cleanly_and_its_message_reaches_the_seat_only(db):
    def broken(settings):
        return {r: BrokenSpymaster() if r.endswith("spymaster") else RecordingGuesser() for r in agents_for(settings)}

    with client_for(db, broken) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "34", "first": "ai"})
        seat = state(client, game_id, token)
        assert "my own cards were" in seat["error"] and seat["prompt"] is None and seat["version"] == 0
        for text in (client.get(f"/api/games/{game_id}").text, client.get(f"/g/{game_id}").text):
            assert "my own cards" not in text and "cannot go on" in text
        r = move(client, game_id, token, "zebra 1", 0)
        assert r.status_code == 409 and "cannot go on" in r.json()["error"]


def test_a_board_in_another_language_deals_its_cards_and_says_so(db):
    from spymaster_ai.rules.wordlists import load_words

    with client_for(db) as client:
        _, _, data = new_game(client, {"mode": "duet", "seed": "3", "lang": "de", "first": "human"})
        assert {c["card"] for c in data["cells"]} <= set(load_words("de"))
        assert "German board" in data["title"]
        assert 'name="lang"' in client.get("/").text


def test_when_only_the_ai_has_cards_left_in_sudden_death_the_page_offers_one_button_to_let_it_guess(db):
    with client_for(db) as client:
        for seed in range(19, 60):
            game_id, token, _ = new_game(client, {"mode": "duet", "seed": str(seed), "first": "human", "tokens": "1"})
            data = state(client, game_id, token)
            rng = random.Random(1)
            while not data["over"] and data["prompt"]["kind"] != "sudden_death_wait":
                move(client, game_id, token, policy(live(client, game_id).session, rng), data["version"])
                data = state(client, game_id, token)
            if not data["over"]:
                break
        else:
            raise AssertionError("no seed left the AI alone in sudden death")  # pragma: no cover
        page = client.get(f"/g/{game_id}/board", headers={"X-Seat-Token": token}).text
        assert 'name="text" value="ai"' in page and "Let the AI guess one" in page
        assert 'maxlength="200"' not in page  # no card to type: the person has none left to find
        before = len(live(client, game_id).session.game.actions)
        assert move(client, game_id, token, "ai", data["version"]).status_code == 200
        state(client, game_id, token)
        made = live(client, game_id).session.game.actions[before:]
        assert len(made) == 1 and made[0]["player"] == "B"
