"""The web page under bad input and for people (issue 41, items 12 and 13): deep JSON, error
headers, foreign Host headers, HEAD, other digits, absurd token counts, one-letter card starts,
the page's own help, the spectator's header and the Messages box's scrolling.

The AI players are test_web_api's scripted ones: no model is loaded.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from spymaster_ai.web import create_app
from test_web_api import client_for, db, move, new_game, state  # noqa: F401 (db is a fixture)
from test_play_session import agents_for

HEADERS = ("cache-control", "content-security-policy", "x-content-type-options", "referrer-policy")


def _secured(r) -> bool:
    return all(name in r.headers for name in HEADERS)


# ----------------------------------------------------------------------------- item 12


def test_deeply_nested_json_is_refused_with_400_before_it_is_parsed(db):
    with client_for(db) as client:
        for body in ("[" * 1000 + "]" * 1000, '{"mode": ' + "[" * 1000 + "]" * 1000 + "}", '{"a":' * 1000 + "1" + "}" * 1000):
            r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
            assert r.status_code == 400 and "nests too deeply" in r.json()["error"], r.text
            assert _secured(r)
        assert client.app.state.hub.store.count() == 0
        # a string full of brackets is no nesting
        r = client.post("/api/games", json={"mode": "duet", "seed": "1", "learn": "[[[[[[[[[[[[[["})
        assert r.status_code == 400 and "learn must be one of" in r.json()["error"]


def test_a_server_fault_answers_500_with_the_pages_security_headers(db):
    app = create_app(db, agents_for, workers=1)

    def broken(game_id):
        raise RuntimeError("boom")

    app.state.hub.get = broken
    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as client:
        for url, accept in (("/api/games/abcdefabcdefabcdef", "application/json"), ("/g/abcdefabcdefabcdef", "text/html")):
            r = client.get(url, headers={"accept": accept})
            assert r.status_code == 500 and _secured(r) and r.headers["cache-control"] == "no-store"
            assert "boom" not in r.text and "Traceback" not in r.text and "server failed" in r.text


def test_refusals_of_the_middlewares_carry_the_headers_too(db):
    with client_for(db) as client:
        r = client.post("/api/games", content=b"x" * 20_000, headers={"content-type": "application/json"})
        assert r.status_code == 413 and _secured(r)
        r = client.get("/", headers={"host": "evil.example"})
        assert r.status_code == 400 and _secured(r)


def test_a_foreign_host_header_is_refused_and_never_reflected(db):
    with client_for(db) as client:
        for host in ("evil.example", "evil.example:8000", "localhost.evil.example"):
            r = client.get("/", headers={"host": host}, follow_redirects=False)
            assert r.status_code == 400 and "evil" not in r.text and "evil" not in r.headers.get("location", "")
        assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 200
        for host in ("[::1]:8000", "[::1]"):  # IPv6 comes in brackets: docs/web.md lists ::1
            assert client.get("/", headers={"host": host}).status_code == 200
        assert client.get("/", headers={"host": "[fe80::1]:8000"}).status_code == 400
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "31", "first": "human"})
        page = client.get(f"/g/{game_id}", headers={"X-Seat-Token": token, "host": "localhost:8000"}).text
        assert f'value="/g/{game_id}/seat/{token}"' in page and "http://localhost" not in page
        r = client.get(f"/g/{game_id}/", follow_redirects=False)  # no redirect built from the Host
        assert r.status_code == 404 and "location" not in r.headers


def test_serve_allows_its_own_host_and_this_machine_only():
    from spymaster_ai.web.app import allowed_hosts_for

    assert allowed_hosts_for("127.0.0.1") == ["localhost", "127.0.0.1", "::1"]
    assert allowed_hosts_for("game.example.org") == ["localhost", "127.0.0.1", "::1", "game.example.org"]
    assert allowed_hosts_for("0.0.0.0") == ["*"]  # every interface: the pages build no link from the Host



def test_head_is_answered_like_get_without_a_body(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "31", "first": "human"})
        for url in ("/", f"/g/{game_id}", f"/g/{game_id}/board", f"/api/games/{game_id}", "/static/app.js"):
            get, head = client.get(url), client.head(url)
            assert head.status_code == 200 == get.status_code, url
            assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"] and _secured(head)
        assert client.head("/no-such-page").status_code == 404


def test_a_count_in_arabic_indic_or_persian_digits_is_refused_and_plays_nothing(db):
    with client_for(db) as client:
        game_id, token, before = new_game(client, {"mode": "duet", "seed": "22", "first": "human"})
        for text in ("zebra \u0662", "zebra \u06f2", "zebra:\u0661"):
            r = move(client, game_id, token, text, before["version"])
            assert r.status_code == 422 and "digits 0-9" in r.json()["error"]
        assert state(client, game_id, token)["clues"] == before["clues"]
        assert move(client, game_id, token, "zebra 2", before["version"]).status_code == 200


def test_a_persian_board_takes_a_clue_with_the_digits_0_to_9(db):
    with client_for(db) as client:
        game_id, token, before = new_game(client, {"mode": "duet", "seed": "3", "lang": "fa", "first": "human"})
        r = move(client, game_id, token, "\u062f\u0631\u06cc\u0627 \u06f1", before["version"])  # دریا ۱
        assert r.status_code == 422 and "digits 0-9" in r.json()["error"]
        r = move(client, game_id, token, "\u062f\u0631\u06cc\u0627 1", before["version"])  # دریا 1
        error = r.json().get("error") or ""
        assert r.status_code == 200 or ("digits 0-9" not in error and "is not a clue" not in error), error


def test_the_timer_tokens_of_a_new_game_are_bounded(db):
    with client_for(db) as client:
        for tokens in ("1000000000", 1000000000, "16", "0", "-3"):
            r = client.post("/api/games", json={"mode": "duet", "seed": "1", "tokens": tokens})
            assert r.status_code == 400 and "tokens must be a whole number from 1 to 15" in r.json()["error"], r.text
            page = client.post("/games", data={"mode": "duet", "seed": "1", "tokens": str(tokens)})
            assert page.status_code == 400 and "from 1 to 15" in page.text
        assert client.app.state.hub.store.count() == 0
        for tokens in ("1", "11", "15"):
            r = client.post("/api/games", json={"mode": "duet", "seed": "1", "tokens": tokens})
            assert r.status_code == 201 and f"{tokens} tokens" in r.json()["state"]["title"]


# ----------------------------------------------------------------------------- item 13


def _guessing(client):
    """A Duet game where the AI has given its clue and the person guesses."""
    game_id, token, _ = new_game(client, {"mode": "duet", "seed": "7"})
    data = state(client, game_id, token)
    assert data["prompt"] and data["prompt"]["kind"] == "guess", data["prompt"]
    return game_id, token, data


def test_one_or_two_letters_play_no_card_unless_they_are_its_whole_name(db):
    with client_for(db) as client:
        game_id, token, data = _guessing(client)
        labels = [c["label"] for c in data["cells"] if not c["covered"]]
        for typed in {labels[0][:1], labels[0][:2].lower(), labels[1][:1].upper()}:
            r = move(client, game_id, token, typed, data["version"])
            assert r.status_code == 422 and "too short to name a card: type at least 3 letters" in r.json()["error"]
            after = state(client, game_id, token)
            assert (after["version"], after["cells"]) == (data["version"], data["cells"])
        page = client.post(f"/g/{game_id}/move", data={"text": labels[0][:1], "version": data["version"]},
                           headers={"X-Seat-Token": token})
        assert page.status_code == 422 and "at least 3 letters" in page.text
        r = move(client, game_id, token, labels[0], data["version"])  # the whole name still plays
        assert r.status_code == 200


def test_help_in_the_page_names_the_pages_commands_not_the_terminals(db):
    with client_for(db) as client:
        game_id, token, data = _guessing(client)
        for word in ("help", "?", "quit", "board"):
            r = move(client, game_id, token, word, data["version"])
            assert r.status_code == 200
            text = " ".join(e["text"] for e in r.json()["events"])
            assert "resume FILE" not in text and "'quit'" not in text and "  quit" not in text
        help_text = move(client, game_id, token, "help", data["version"]).json()["events"][0]["text"]
        assert "Click a card" in help_text and "stop" in help_text and "3 letters" in help_text
        after = state(client, game_id, token)
        assert after["cells"] == data["cells"] and after["clues"] == data["clues"]


def test_a_spectator_is_not_told_they_are_player_a(db):
    with client_for(db) as client:
        game_id, token, _ = new_game(client, {"mode": "duet", "seed": "31", "first": "human"})
        assert "you are player A" in client.get(f"/g/{game_id}", headers={"X-Seat-Token": token}).text
        for url in (f"/g/{game_id}", f"/g/{game_id}/board"):
            page = client.get(url).text
            assert "you are player A" not in page and "a person (player A) plays with the AI (player B)" in page
        assert "you are" not in client.get(f"/api/games/{game_id}").json()["title"]
        game_id, _, _ = new_game(client, {"mode": "classic", "seed": "5", "role": "guesser", "team": "blue"})
        title = client.get(f"/api/games/{game_id}").json()["title"]
        assert "you are" not in title and "a person plays the blue guesser" in title


def test_the_messages_box_is_scrolled_to_its_newest_line_whenever_the_board_is_drawn(db):
    with client_for(db) as client:
        js = client.get("/static/app.js").text
    assert "log.scrollTop = log.scrollHeight" in js
    bind = js.split("function bind() {")[1]
    assert bind.lstrip().startswith("scrollLog();")  # bind() runs on load and after every redraw


def test_a_new_game_takes_its_numbers_in_the_digits_0_to_9_only(db):
    with client_for(db) as client:
        for field, value in (("tokens", "\u0663"), ("seed", "\u0663"), ("seed", "\uff11\uff12")):  # ٣, １２
            r = client.post("/api/games", json={"mode": "duet", "seed": "1", field: value})
            assert r.status_code == 400 and "digits 0-9" in r.json()["error"], r.text
            page = client.post("/games", data={"mode": "duet", "seed": "1", field: value})
            assert page.status_code == 400 and "digits 0-9" in page.text
        assert client.app.state.hub.store.count() == 0
