"""End to end in a real headless Chromium: a whole Duet game and a solo game, by clicking and
typing, against a uvicorn server on loopback; a reload mid-game restores the board.

The browser is Debian's ``chromium`` driven through Debian's ``chromium-driver`` (Selenium);
nothing is downloaded at test time. ``.ci/run`` installs both; without them the tests skip,
saying so. The AI players are the play tests' scripted ones, so games are quick and the same
every run; the test player reads the live session only to choose its move (as the API tests do).
"""

from __future__ import annotations

import random
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from spymaster_ai.web import create_app  # noqa: E402
from test_play_session import agents_for, policy  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver; .ci/run does)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A uvicorn server in a thread of this process (so the test can read the live sessions)."""

    def __init__(self, db: Path) -> None:
        import uvicorn

        self.app = create_app(db, agents_for, workers=2)
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def chromium(width: int = 1280, height: int = 900) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(str(DRIVER)), options=options)


@pytest.fixture
def browser():
    try:
        driver = chromium()
    except WebDriverException as exc:  # pragma: no cover - a broken install, not a skip
        pytest.fail(f"chromium is installed but cannot start: {exc.msg}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def board(driver) -> dict:
    """What the page shows now: version, whether the AI thinks, the prompt, the cards' classes."""
    return driver.execute_script("""
        var a = document.getElementById('board-area');
        if (!a) { return null; }
        var cards = {};
        a.querySelectorAll('.board:not(.mini) .card').forEach(function (c) { cards[c.dataset.card] = c.className; });
        var n = document.getElementById('notice');
        return {version: a.dataset.version, thinking: a.dataset.thinking, prompt: a.dataset.prompt,
                over: a.dataset.over, cards: cards, notice: n && !n.hidden ? n.textContent : ''};
    """)


def settled(driver, timeout: float = 20) -> dict:
    WebDriverWait(driver, timeout).until(lambda d: (b := board(d)) is not None and b["thinking"] == "false")
    return board(driver)


def start(driver, server: Server, mode: str, **choices: str) -> str:
    driver.get(server.url + "/")
    driver.find_element(By.CSS_SELECTOR, f'input[name=mode][value="{mode}"]').click()
    for name, value in choices.items():
        field = driver.find_element(By.NAME, name)
        if field.tag_name == "select":
            Select(field).select_by_value(value)
        else:
            field.clear()
            field.send_keys(value)
    driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
    WebDriverWait(driver, 20).until(lambda d: "/g/" in d.current_url)
    return driver.current_url.rsplit("/", 1)[1]


def play(driver, server: Server, game_id: str, *, reload_after: int) -> tuple[int, bool]:
    """Play to the end, alternating clicks and typing; reload once. Returns (moves, reloaded)."""
    rng = random.Random(0)
    moves, reloaded = 0, False
    now = settled(driver)
    while now["over"] != "true":
        session = server.app.state.hub.get(game_id).session
        text = policy(session, rng)
        labels = {session.labels.get(c, c).lower(): c for c in session.game.words}
        if now["prompt"] != "clue" and text in ("stop", "pass"):
            driver.find_element(By.CSS_SELECTOR, f'button[value="{text}"]').click()
        elif now["prompt"] != "clue" and moves % 2 == 0 and text.lower() in labels:
            driver.find_element(By.CSS_SELECTOR, f'.board .card[data-card="{labels[text.lower()]}"]').click()
        else:  # keyboard: '/' focuses the move box, Enter plays
            driver.find_element(By.TAG_NAME, "body").send_keys("/")
            box = driver.switch_to.active_element
            assert box.get_attribute("id") == "move-text"
            box.send_keys(text + Keys.ENTER)
        WebDriverWait(driver, 20).until(lambda d: (b := board(d)) is not None and (b["version"] != now["version"] or b["notice"]))
        after = settled(driver)
        assert not after["notice"], f"{text!r} was refused: {after['notice']}"
        moves += 1
        assert moves < 200, "the game did not end"
        if moves == reload_after and after["over"] != "true":
            driver.refresh()
            restored = settled(driver)
            assert (restored["version"], restored["cards"], restored["prompt"]) == \
                   (after["version"], after["cards"], after["prompt"]), "a reload must restore the game as it was"
            reloaded = True
        now = settled(driver)
    return moves, reloaded


def check_end(driver) -> str:
    end = driver.find_element(By.ID, "end")
    text = end.text
    assert "Game over" in text and ("win" in text.lower() or "lose" in text.lower())
    assert driver.find_elements(By.CSS_SELECTOR, "#end .board.mini .card")
    assert not driver.find_elements(By.ID, "move-form")
    return text


def test_a_whole_duet_game_by_clicking_and_typing(tmp_path, browser):
    with Server(tmp_path / "g.sqlite3") as server:
        game_id = start(browser, server, "duet", seed="7", first="ai")
        moves, reloaded = play(browser, server, game_id, reload_after=2)
        assert moves >= 3 and reloaded
        text = check_end(browser)
        assert "You win together" in text or "You lose together" in text
        browser.refresh()  # the end screen survives a reload too
        assert check_end(browser) == text


def test_a_whole_solo_game_by_clicking_and_typing(tmp_path, browser):
    with Server(tmp_path / "g.sqlite3") as server:
        game_id = start(browser, server, "solo", seed="3", role="guesser")
        moves, reloaded = play(browser, server, game_id, reload_after=1)
        assert moves >= 2 and reloaded
        assert "You win" in check_end(browser) or "You lose" in check_end(browser)


def test_an_illegal_clue_typed_in_the_page_is_refused_there_and_nothing_moves(tmp_path, browser):
    with Server(tmp_path / "g.sqlite3") as server:
        game_id = start(browser, server, "duet", seed="9", first="human")
        before = settled(browser)
        word = next(iter(before["cards"]))
        box = browser.find_element(By.ID, "move-text")
        box.send_keys(f"{word} 2" + Keys.ENTER)
        WebDriverWait(browser, 20).until(lambda d: board(d)["notice"])
        after = board(browser)
        assert word.upper() in after["notice"].upper() and "Refused" in after["notice"]
        assert (after["version"], after["cards"]) == (before["version"], before["cards"])


def test_the_spinner_shows_while_the_ai_thinks_and_goes_when_it_has_answered(tmp_path, browser):
    from test_web_api import GatedSpymaster, gated_agents

    GatedSpymaster.gate.clear()
    with Server(tmp_path / "g.sqlite3") as server:
        server.app.state.hub.agents = gated_agents
        start(browser, server, "duet", seed="13", first="ai")
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "spinner").is_displayed())
        assert "thinking" in browser.find_element(By.ID, "spinner").text
        assert not browser.find_elements(By.ID, "move-form")
        GatedSpymaster.gate.set()
        after = settled(browser)
        assert after["prompt"] == "guess" and not browser.find_element(By.ID, "spinner").is_displayed()
