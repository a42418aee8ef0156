"""Information hiding over HTTP: no response anyone can fetch holds a colour they may not see.

Every route (pages, the board fragment, JSON, seat links, move posts, error pages, static
files) is fetched as each viewer: the seat (its own token), nobody (no token), a wrong token,
and the token of another game (as header and as cookie), at the start of a game, along it and
at its end. What each may see is computed here from the engine's key (the test may read it):
the seat of a Duet game sees side A, a classic spymaster the whole key, a guesser and everyone
else only the covered cards. Both the cards' markup (classes, texts) and the JSON cells are
checked, and the identity markers of the whole response are counted, so a colour that leaks
anywhere else in the page fails too. Once the game is over, the key is everyone's.
"""

from __future__ import annotations

import random
import re

import pytest

from spymaster_ai.rules.cards import Player
from spymaster_ai.rules.duet import DuetGame
from test_play_session import policy
from test_web_api import client_for, live, move, new_game, state

SETTINGS = [
    {"mode": "duet", "seed": "41", "first": "ai"},
    {"mode": "classic", "seed": "42", "role": "guesser"},
    {"mode": "classic", "seed": "43", "role": "spymaster", "team": "blue"},
    {"mode": "solo", "seed": "44", "role": "spymaster"},
    {"mode": "pictures", "seed": "45", "role": "guesser"},
]
CARD = re.compile(r'<button type="button" class="card([^"]*)"\s+data-card="([^"]*)"')
ID_CLASS = re.compile(r"\bid-(red|blue|green|bystander|assassin|black)\b")
IDS = {"red", "blue", "green", "bystander", "assassin", "black"}


def visible_key(session, seat: bool) -> dict[str, str]:
    """Card -> identity the viewer may see on an uncovered card."""
    g = session.game
    if not seat or session.is_over:
        return {}
    if isinstance(g, DuetGame):
        side = g.key.side(Player.A)
        return {w: side[i].value for i, w in enumerate(g.words)}
    if session.settings.role == "spymaster":
        return {w: i.value for w, i in zip(g.words, g.key.identities)}
    return {}


def covered(session) -> dict[str, str]:
    g = session.game
    if session.is_over:  # the whole key is shown to all at the end
        return {}
    shown = set(g.visible_words())
    if isinstance(g, DuetGame):
        return {w: "green" for w in g.words if w not in shown}
    return {w: i.value for w, i in zip(g.words, g.key.identities) if w not in shown}


def check_html(text: str, session, seat: bool, where: str) -> None:
    if session.is_over:
        return
    allowed, public = visible_key(session, seat), covered(session)
    cards = CARD.findall(text)
    markers = 0
    for classes, card in cards:
        ids = set(ID_CLASS.findall(classes))
        if card in public:
            assert ids == {public[card]}, (where, card, classes)
        elif ids:
            assert card in allowed and ids == {allowed[card]}, f"{where}: {card} shows {ids} to a viewer who may not see it"
        markers += len(ids)
    # every identity marker of the page belongs to a card the viewer may see
    assert len(ID_CLASS.findall(text)) == markers, f"{where}: an identity class outside the cards"
    keyed = sum(1 for c in cards if c[1] in allowed and c[1] not in public)
    assert text.count("(key)") == keyed, where
    assert "board mini" not in text, where  # the end-of-game key


def check_json(data, session, seat: bool, where: str) -> None:
    allowed, public = visible_key(session, seat), covered(session)

    def walk(node):
        if isinstance(node, dict):
            if "card" in node and "covered" in node and not session.is_over:
                card, identity = node["card"], node.get("identity")
                if node["covered"]:
                    assert identity == public[card], where
                else:
                    assert identity is None or allowed.get(card) == identity, f"{where}: {card} {identity}"
            if "key" in node and not session.is_over:
                assert node["key"] == [], where
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)


def responses(client, game_id: str, token: str, other_token: str, viewer: str):
    """(where, response, seat?) for every route, as ``viewer``."""
    headers, cookies = {}, {}
    if viewer == "seat":
        headers = {"X-Seat-Token": token}
    elif viewer == "wrong":
        headers = {"X-Seat-Token": token[:-2] + ("AA" if not token.endswith("AA") else "BB")}
    elif viewer == "other-header":
        headers = {"X-Seat-Token": other_token}
    elif viewer == "other-cookie":
        cookies = {f"seat-{game_id}": other_token}
    seat = viewer == "seat"
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)
    version = state(client, game_id, token)["version"]
    for path in (f"/g/{game_id}", f"/g/{game_id}/board", f"/api/games/{game_id}", "/", "/g/nosuchgame0000",
                 f"/api/games/nosuchgame0000", f"/g/{game_id}/seat/{other_token}", f"/g/{game_id}/nothing"):
        yield path, client.get(path, headers=headers, follow_redirects=False), seat
    url = f"/api/games/{game_id}/move"
    yield "stale move", client.post(url, json={"text": "stop", "version": version - 1}, headers=headers), seat
    yield "garbled", client.post(url, content=b"{", headers={**headers, "Content-Type": "application/json"}), seat
    yield "oversized", client.post(url, content=b"x" * 9000, headers={**headers, "Content-Type": "application/json"}), seat
    yield "form move, stale", client.post(f"/g/{game_id}/move", data={"text": "stop", "version": str(version - 1)},
                                          headers=headers), seat
    yield "bad card", client.post(url, json={"text": "qqqqzz", "version": version}, headers=headers), seat
    for path in ("/static/style.css", "/static/app.js"):
        yield path, client.get(path, headers=headers), seat
    client.cookies.clear()


@pytest.mark.parametrize("form", SETTINGS, ids=lambda f: "-".join(f.values()))
def test_no_response_holds_a_colour_its_viewer_may_not_see(tmp_path, form):
    with client_for(tmp_path / "g.sqlite3") as client:
        game_id, token, _ = new_game(client, form)
        _, other_token, _ = new_game(client, form)
        rng = random.Random(0)
        statics = {}
        checked = 0
        moves = 0
        while True:
            data = state(client, game_id, token)
            session = live(client, game_id).session
            if moves % 2 == 0 or data["over"]:
                for viewer in ("seat", "none", "wrong", "other-header", "other-cookie"):
                    for where, r, seat in responses(client, game_id, token, other_token, viewer):
                        where = f"{viewer} {where} after {moves} moves"
                        assert r.status_code < 500, where
                        if where.split()[1].startswith("/static/"):
                            statics.setdefault(where.split()[1], r.content)
                            assert r.content == statics[where.split()[1]], "static files are the same for everyone"
                            continue
                        if "json" in r.headers.get("content-type", ""):
                            check_json(r.json(), session, seat, where)
                        else:
                            check_html(r.text, session, seat, where)
                        checked += 1
                if data["over"]:
                    break
            r = move(client, game_id, token, policy(session, rng), data["version"])
            assert r.status_code == 200, r.text
            moves += 1
            assert moves < 300
        assert checked > 50 and moves >= 1
        # at the end the key is everyone's
        end = client.get(f"/api/games/{game_id}").json()
        assert end["over"] and end["key"] and all(c["identity"] for k in end["key"] for c in k["cells"])


def test_the_seat_of_a_duet_game_sees_side_a_and_a_guesser_no_key_at_all(tmp_path):
    """The checks above are not vacuous: the seat's own key does reach the seat."""
    with client_for(tmp_path / "g.sqlite3") as client:
        duet, duet_token, _ = new_game(client, {"mode": "duet", "seed": "41", "first": "human"})
        data = state(client, duet, duet_token)
        side = live(client, duet).session.game.key.side(Player.A)
        assert [c["identity"] for c in data["cells"]] == [i.value for i in side]
        assert state(client, duet)["cells"][0]["identity"] is None
        guess, guess_token, _ = new_game(client, {"mode": "classic", "seed": "42", "role": "guesser"})
        assert all(c["identity"] is None for c in state(client, guess, guess_token)["cells"])
        spy, spy_token, _ = new_game(client, {"mode": "classic", "seed": "43", "role": "spymaster"})
        cells = state(client, spy, spy_token)["cells"]
        assert all(c["identity"] for c in cells)
        page = client.get(f"/g/{spy}", headers={"X-Seat-Token": spy_token}).text
        assert page.count("(key)") == sum(not c["covered"] for c in cells) > 15
