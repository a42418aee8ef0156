"""What a person reads on the Duet screens: who finds which greens, the score in words, a
leftover guess filed under the clue it was meant for, and the card whose touch lost the game."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from rich.console import Console

from spymaster_ai.play.leftover import PAST_THE_COUNT, meant_for
from spymaster_ai.play.outcome import duet_score_line
from spymaster_ai.play.render import render_screen
from spymaster_ai.play.screen import ClueLine, duet_screen
from spymaster_ai.rules.cards import DuetIdentity, DuetKey, Player
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import ClueHistoryEntry, GuesserView

A, B = Player.A, Player.B
G, K, Y = DuetIdentity.GREEN, DuetIdentity.BLACK, DuetIdentity.BYSTANDER
# (side A, side B) -> card names, the RULES.md table's counts
GROUPS = {(G, G): ["gg0", "gg1", "gg2"], (G, K): ["gk"], (G, Y): [f"gy{i}" for i in range(5)],
          (K, G): ["kg"], (K, K): ["kk"], (K, Y): ["ky"], (Y, G): [f"yg{i}" for i in range(5)],
          (Y, K): ["yk"], (Y, Y): [f"yy{i}" for i in range(7)]}
WORDS = [w for names in GROUPS.values() for w in names]
KEY = DuetKey(tuple(a for (a, _), n in GROUPS.items() for _ in n), tuple(b for (_, b), n in GROUPS.items() for _ in n))


def _text(screen) -> str:
    console = Console(width=200, no_color=True, record=True)
    console.print(render_screen(screen))
    return console.export_text()


def _screen(game: DuetGame, clues=()):
    return duet_screen(game, {}, title="t", clues=tuple(clues), turn="now")


def test_the_duet_status_counts_the_greens_each_player_still_has_to_find():
    game = DuetGame(WORDS, KEY, legality="off")
    game.give_clue(B, Clue("hint", 2))
    game.guess("yg0")  # green on the AI's side: one fewer for the person to find
    line = next(s for s in _screen(game).status if s.startswith("Greens to find"))
    assert "you 8 (on the AI's side" in line and "the AI 9 (on your side" in line
    game.stop()
    game.give_clue(A, Clue("other", 1))
    game.guess("gg0")  # green on both sides: the AI finds it on the person's side
    line = next(s for s in _screen(game).status if s.startswith("Greens to find"))
    assert "you 7 (" in line and "the AI 8 (" in line  # gg0 was green on the AI's side too


def test_the_score_line_says_what_each_point_is_for():
    won = SimpleNamespace(tokens_left=2, voluntary_stops=4, needed_sudden_death=True, score=lambda: 9)
    line = duet_score_line(won)
    assert line.startswith("Score: 9 = 6 for the 2 timer tokens left in the bank (3 each) + 4 for the 4 turns ended")
    assert "not on a bystander" in line and line.endswith("− 1 because the win needed sudden death.")
    assert "voluntary stops" not in line
    plain = duet_score_line(SimpleNamespace(tokens_left=1, voluntary_stops=0, needed_sudden_death=False, score=lambda: 3))
    assert "the 1 timer token left" in plain and "sudden death" not in plain


class _Reader:
    """A reading that likes one card per clue word."""

    def __init__(self, likes: dict[str, str]) -> None:
        self.likes = likes

    def probabilities(self, view, clue):
        p = np.full(len(view.words), 0.1)
        if clue in self.likes:
            p[view.words.index(self.likes[clue])] = 0.9
        return p / p.sum()


def _view(guesses_made: int, count: int = 1) -> GuesserView:
    words = ("towel", "bay", "stable", "horse")
    history = (ClueHistoryEntry("A", Clue("beach", 2), ("bay",), ("green",)),
               ClueHistoryEntry("A", Clue("farm", 1), ("horse",), ("green",)),
               ClueHistoryEntry("A", Clue("island", count), ("bay",) * guesses_made, ("green",) * guesses_made))
    return GuesserView(game="duet", me="B", words=words, visible=words, revealed=(), clue=Clue("island", count),
                       guesses_made=guesses_made, max_guesses=None, can_stop=True, history=history)


def test_a_guess_past_the_count_is_filed_under_the_earlier_clue_that_reads_it():
    reader = _Reader({"beach": "towel", "farm": "stable", "island": "bay"})
    assert meant_for(reader, _view(guesses_made=1), "towel") == "beach"
    assert meant_for(reader, _view(guesses_made=1), "stable") is None  # FARM was finished
    assert meant_for(reader, _view(guesses_made=1), "bay") is None  # ISLAND reads it best
    assert meant_for(reader, _view(guesses_made=0), "towel") is None  # within the count
    assert meant_for(None, _view(guesses_made=1), "towel") is None  # no reading: no mark


def test_the_clue_log_shows_the_clue_a_leftover_was_meant_for():
    game = DuetGame(WORDS, KEY, legality="off")
    line = ClueLine("AI", "island: 1", (("bay", "green"), ("towel", "green")), meant=("", "beach"))
    text = _text(_screen(game, [line]))
    assert "BAY (green), TOWEL (green, for BEACH)" in text
    # a person's guess past the count that no AI clue aimed at says so, not "for" a clue
    line = ClueLine("you", "island: 1", (("bay", "green"), ("towel", "green")), meant=("", PAST_THE_COUNT))
    assert "TOWEL (green, past the count)" in _text(_screen(game, [line]))


def test_the_card_whose_touch_lost_the_game_is_marked():
    game = DuetGame(WORDS, KEY, tokens=1, legality="off")
    game.give_clue(A, Clue("hint", 1))
    game.guess("gy0")
    game.stop()  # the last token: sudden death
    game.sudden_death_guess(B, "yy0")  # a bystander on the person's side: lost
    cells = {c.card: c for c in _screen(game).cells}
    assert cells["yy0"].lost_by == "AI" and [c.card for c in cells.values() if c.lost_by] == ["yy0"]
    assert "the AI's touch lost" in _text(_screen(game))


def test_no_card_is_marked_while_the_game_goes_on():
    game = DuetGame(WORDS, KEY, tokens=1, legality="off")
    game.give_clue(A, Clue("hint", 1))
    game.guess("yy1")  # a bystander before sudden death costs a token, not the game
    assert not any(c.lost_by for c in _screen(game).cells)


def test_the_web_board_marks_the_losing_touch_and_the_leftover():
    from pathlib import Path

    from jinja2 import Environment, FileSystemLoader

    from spymaster_ai.web.present import view_of

    game = DuetGame(WORDS, KEY, tokens=1, legality="off")
    game.give_clue(A, Clue("hint", 1))
    game.guess("gy0")
    game.stop()
    game.sudden_death_guess(B, "yy0")
    line = ClueLine("AI", "island: 1", (("bay", "green"), ("towel", "green")), meant=("", "beach"))
    snap = SimpleNamespace(screen=_screen(game, [line]), key=(), over=True, why=None, version=1, thinking=False,
                           prompt=None, log=(), summary=(), error=None)
    import spymaster_ai.web

    templates = Path(spymaster_ai.web.__file__).parent / "templates"
    html = Environment(loader=FileSystemLoader(templates)).get_template("_board.html").render(
        v=view_of(snap, seat=False), game_id="g", notice=None, seat_link=None)
    lost = [chunk for chunk in html.split("<button")[1:] if "data-card=\"yy0\"" in chunk][0]
    assert " lost" in lost.split('"')[3] and "the AI" in lost and "touch lost the game" in lost
    assert html.count("touch lost the game") == 1
    assert 'TOWEL <span class="out out-green">(green)</span> <span class="meant">for BEACH</span>' in html
    past = ClueLine("you", "sea: 1", (("bay", "green"), ("towel", "green")), meant=("", PAST_THE_COUNT))
    snap.screen = _screen(game, [past])
    html = Environment(loader=FileSystemLoader(templates)).get_template("_board.html").render(
        v=view_of(snap, seat=False), game_id="g", notice=None, seat_link=None)
    assert 'TOWEL <span class="out out-green">(green)</span> <span class="meant">past the count</span>' in html


def test_a_bystander_mark_is_explained_as_ruling_the_card_out_for_its_guesser_only():
    game = DuetGame(WORDS, KEY, legality="off")
    game.give_clue(A, Clue("hint", 2))
    assert "✗AI:" not in _text(_screen(game))  # no marks yet, no legend
    game.guess("yy0")  # the AI (B) guesses a bystander of the person's side
    text = _text(_screen(game))
    assert "✗AI" in text and "✗AI: the AI tried it, a bystander on your side (you may still take it)" in text


def test_the_title_is_one_line_when_the_terminal_has_room():
    # as the grid's title it wrapped at the grid's width: "(Vietnamese / board)" in native playtests
    title = "Codenames Duet (9 tokens) - you are player A, the AI is player B (Vietnamese board)"
    game = DuetGame(WORDS, KEY, legality="off")
    text = _text(duet_screen(game, {}, title=title, clues=(), turn="now"))
    assert title in text.splitlines()


def test_a_long_message_wraps_between_words_in_a_terminal_and_a_path_stays_whole():
    # English playtest round 11: the terminal's own wrap cut the score line mid-word ("sudd / en death")
    import io

    from spymaster_ai.play.console import _show_events
    from spymaster_ai.play.events import Event

    score = duet_score_line(SimpleNamespace(tokens_left=2, voluntary_stops=4, needed_sudden_death=True, score=lambda: 9))
    path = "/tmp/" + "a-very-long-folder-name/" * 4 + "spymaster-duet-10007.json"
    shown = {}
    for terminal in (True, False):
        out = io.StringIO()
        _show_events(Console(file=out, width=60, force_terminal=terminal, color_system=None),
                     [Event("end", score), Event("info", f"The game is kept in {path}.")])
        shown[terminal] = out.getvalue().splitlines()
    lines = shown[True]
    assert all(len(line) <= 60 for line in lines if path not in line) and any(path in line for line in lines)
    assert " ".join(lines[:-2]).split() == score.split()  # every word whole, in order
    assert shown[False] == [score, f"The game is kept in {path}."]  # piped: one line a message
