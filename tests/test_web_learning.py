"""The web server's AI partner learns the person: within each game from their guesses and
clues, and, when they opt in, into a per-browser profile kept in SQLite under the SHA-256 of a
random id in an HttpOnly cookie, which 'forget me' deletes. Over HTTP (TestClient); the AI is
the play tests' scripted spymaster and a `human` guesser reading through toy models."""

from __future__ import annotations

import hashlib
import sqlite3
import time

import pytest
from fastapi.testclient import TestClient

from spymaster_ai.agents.human import HumanGuesser
from spymaster_ai.web import create_app
from test_play_profile import safe_guesses, toy_reader  # noqa: F401  (a fixture)
from test_play_session import ScriptedSpymaster

DUET = {"mode": "duet", "seed": "3"}


@pytest.fixture
def client(tmp_path, toy_reader):  # noqa: F811
    def agents(settings):
        return {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)}

    with TestClient(create_app(tmp_path / "games.sqlite3", agents, workers=1), base_url="http://localhost") as c:
        yield c


def start(client: TestClient, **form) -> tuple[str, str, dict]:
    r = client.post("/api/games", json={**DUET, **form})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["state"]["id"], data["token"], data


def settled(client: TestClient, game_id: str, token: str) -> dict:
    end = time.monotonic() + 20
    while True:
        data = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
        if not data["thinking"]:
            return data
        assert time.monotonic() < end, "the AI did not answer"
        time.sleep(0.01)


def play(client: TestClient, game_id: str, token: str, *moves: str) -> None:
    for text in moves:
        version = settled(client, game_id, token)["version"]
        r = client.post(f"/api/games/{game_id}/move", json={"text": text, "version": version},
                        headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
    settled(client, game_id, token)


def a_guess_and_a_clue(client, game_id, token) -> None:
    """One right guess of the AI's clue, stop, then a clue of the person's that the AI guesses."""
    play(client, game_id, token, safe_guesses(3)[0], "stop", "quantum 2")


def learner_of(client, game_id):
    return client.app.state.hub.get(game_id).session.learner


def stored_profiles(client) -> list[tuple[str, str]]:
    with sqlite3.connect(client.app.state.hub.store.path) as db:
        return db.execute("SELECT id_sha256, profile FROM profiles").fetchall()


def test_a_web_game_learns_from_the_persons_guesses_and_clues_within_itself_by_default(client):
    game_id, token, data = start(client)
    assert "in this game only" in data["learning"] and "profile" not in client.cookies
    a_guess_and_a_clue(client, game_id, token)
    learner = learner_of(client, game_id)
    assert learner.adaptation.choices == 1 and learner.adaptation.clues == 1 and learner.adaptation.clue_picks >= 1
    assert client.app.state.hub.get(game_id).session.agents["b_guesser"].reader is learner.reader
    assert stored_profiles(client) == []  # nothing kept beyond the game
    page = client.get(f"/g/{game_id}").text  # the seat's cookie was set when the game began
    assert "learns how you read clues" in page and "do not learn" in page and "Forget me" not in page


def test_learning_can_be_turned_off_and_a_bad_choice_is_refused(client):
    game_id, token, data = start(client, learn="off")
    assert data["learning"] is None and learner_of(client, game_id) is None
    assert "learns how you read clues" not in client.get(f"/g/{game_id}").text
    r = client.post("/api/games", json={**DUET, "learn": "always"})
    assert r.status_code == 400 and "learn must be one of game, browser, off" in r.json()["error"]


def test_an_opted_in_browser_keeps_a_profile_by_the_hash_of_its_cookie_and_forget_me_deletes_it(client, tmp_path,
                                                                                                  toy_reader):  # noqa: F811
    r = client.post("/api/games", json={**DUET, "learn": "browser"})
    assert r.status_code == 201
    cookie = [h for h in r.headers.get_list("set-cookie") if h.startswith("profile=")]
    assert len(cookie) == 1 and "httponly" in cookie[0].lower() and "samesite=strict" in cookie[0].lower()
    pid = client.cookies["profile"]
    game_id, token = r.json()["state"]["id"], r.json()["token"]
    assert "remembers it in this browser" in r.json()["learning"]
    a_guess_and_a_clue(client, game_id, token)

    rows = stored_profiles(client)
    assert [k for k, _ in rows] == [hashlib.sha256(pid.encode()).hexdigest()]
    assert pid not in (tmp_path / "games.sqlite3").read_bytes().decode("latin-1")  # only its hash is stored
    said = client.get("/api/profile").json()["profile"]
    assert said[0].startswith("Learned from 1 guess of yours and 1 clue of yours")
    assert "Forget me" in client.get(f"/g/{game_id}").text

    # the next game of this browser starts from what the first learned, under the same id
    second, token2, _ = start(client, learn="browser")
    assert client.cookies["profile"] == pid
    assert learner_of(client, second).adaptation.choices == 1 and learner_of(client, second).adaptation.clues == 1

    # a restarted server resumes the game with the profile
    with TestClient(create_app(tmp_path / "games.sqlite3", lambda s: {"b_spymaster": ScriptedSpymaster(),
                                                                      "b_guesser": HumanGuesser(toy_reader)}),
                    base_url="http://localhost") as again:
        assert again.app.state.hub.get(second).session.learner.adaptation.choices == 1

    r = client.delete("/api/profile")
    assert r.json() == {"forgotten": True} and "profile" not in client.cookies
    assert stored_profiles(client) == [] and client.get("/api/profile").json() == {"profile": None}
    # the game that was learning into it learns within itself only from now on: nothing is written back
    play(client, second, token2, safe_guesses(3)[0])
    assert learner_of(client, second).adaptation.choices == 2 and stored_profiles(client) == []
    # and a new opted-in game begins a new profile under a new id
    third, _, _ = start(client, learn="browser")
    assert client.cookies["profile"] != pid and learner_of(client, third).adaptation.choices == 0


def test_the_forget_me_button_deletes_the_profile_and_says_so(client):
    form = {**DUET, "learn": "browser"}
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 303 and "profile" in client.cookies
    game_id = r.headers["location"].rsplit("/", 1)[-1]
    token = client.cookies[f"seat-{game_id}"]
    play(client, game_id, token, safe_guesses(3)[0])
    assert len(stored_profiles(client)) == 1
    assert "This browser has a profile" in client.get("/").text
    r = client.post("/profile/forget")
    assert r.status_code == 200 and "Forgotten" in r.text and "profile" not in client.cookies
    assert stored_profiles(client) == [] and "This browser has a profile" not in client.get("/").text
    assert "nothing to forget" in client.post("/profile/forget").text
