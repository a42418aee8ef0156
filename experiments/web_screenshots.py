"""Screenshots of the web page (docs/web/*.png): the Duet board, the Pictures board and the end
screen, at desktop (1280 px) and phone (390 px) width, in Debian's headless Chromium.

    HF_HUB_OFFLINE=1 python experiments/web_screenshots.py [--out docs/web] [--agent human]

A server runs in this process with the default AI players (``human``), so the script can read
the key to steer the game to the moments shown: a Duet game after the AI's first clue and two
of the person's guesses, a Pictures game seen by its spymaster, and that Duet game's end (the
person touches a card black on the AI's side). Each moment is shot once per width, through the
seat link (so both browsers see the seat's view).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from spymaster_ai.play.seats import load_session_agents
from spymaster_ai.rules.cards import Player
from spymaster_ai.web import create_app

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def driver_for(width: int, height: int) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def shoot(drivers: dict, base: str, game_id: str, token: str, name: str, out: Path) -> None:
    for kind, driver in drivers.items():
        driver.get(f"{base}/g/{game_id}/seat/{token}")
        time.sleep(0.5)
        width, least = WIDTHS[kind]
        metrics = {"width": width, "height": least, "deviceScaleFactor": 1, "mobile": kind == "phone"}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        time.sleep(0.3)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": max(least, height)})
        time.sleep(0.3)
        path = out / f"{name}-{kind}.png"
        driver.save_screenshot(str(path))
        print("wrote", path)


def settled(http: httpx.Client, game_id: str, token: str) -> dict:
    while True:
        data = http.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
        if not data["thinking"]:
            return data
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/web"))
    parser.add_argument("--agent", default="human", help="the AI players' embedding (default: the play default)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    app = create_app(db, load_session_agents, default_agent=args.agent)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    http = httpx.Client(base_url=base, timeout=120)
    drivers = {kind: driver_for(*size) for kind, size in WIDTHS.items()}
    try:
        # Duet: the AI's first clue, then two of the person's guesses (greens of the AI's side)
        made = http.post("/api/games", json={"mode": "duet", "seed": "7", "first": "ai"}).json()
        duet, duet_token = made["state"]["id"], made["token"]
        data = settled(http, duet, duet_token)
        session = app.state.hub.get(duet).session
        game = session.game
        greens = [w for w in game.words_left_for(Player.B) if game.can_guess(Player.A, w)]
        for word in greens[:2]:
            http.post(f"/api/games/{duet}/move", json={"text": word, "version": data["version"]},
                      headers={"X-Seat-Token": duet_token})
            data = settled(http, duet, duet_token)
        shoot(drivers, base, duet, duet_token, "duet-board", args.out)
        # Pictures: the spymaster's view (the key as borders), picture cards as images
        made = http.post("/api/games", json={"mode": "pictures", "seed": "9", "role": "spymaster"}).json()
        pictures, pictures_token = made["state"]["id"], made["token"]
        settled(http, pictures, pictures_token)
        shoot(drivers, base, pictures, pictures_token, "pictures-board", args.out)
        # the Duet game's end: stop, let the AI clue again, then touch a card black on the AI's side
        data = settled(http, duet, duet_token)
        while not data["over"]:
            prompt = data["prompt"]["kind"] if data["prompt"] else None
            side_b = game.key.side(Player.B)
            black = [w for i, w in enumerate(game.words) if side_b[i].value == "black" and w in game.visible_words()]
            if prompt == "clue":
                text = "zebra 1"
            elif prompt == "guess" and data["clues"] and len(data["clues"]) < 3 and game.correct_this_turn >= 1:
                text = "stop"
            else:
                text = black[0]
            http.post(f"/api/games/{duet}/move", json={"text": text, "version": data["version"]},
                      headers={"X-Seat-Token": duet_token})
            data = settled(http, duet, duet_token)
        shoot(drivers, base, duet, duet_token, "end-screen", args.out)
    finally:
        for driver in drivers.values():
            driver.quit()
        server.should_exit = True


if __name__ == "__main__":
    main()
