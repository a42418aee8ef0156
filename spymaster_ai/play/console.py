"""The terminal front end: shows a session with rich and reads the human's lines with ``input()``.

Why so thin: every decision lives in :class:`~spymaster_ai.play.session.Session`; this loop
only draws, reads and reports. It works on a terminal, a pseudo-terminal and a pipe; on a
pipe the typed line is echoed so a transcript reads like a terminal session. End of input
counts as ``quit`` (each move is saved as it is made, while the save file can be written).
When it cannot be written, the player is told in one line and asked for another file, or
Enter to go on without saving: the game itself goes on in memory either way.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Callable, Iterable, Optional

from rich.console import Console

from .render import render_event, render_screen
from .screen import Screen, key_screen
from .session import Event, Session, result_events
from .settings import PlaySettings
from .setup import Game
from .store import saver

__all__ = ["run_console", "show_finished", "write_board_png", "EXIT_OK", "EXIT_AI_ERROR", "EXIT_INTERRUPTED"]

EXIT_OK = 0
EXIT_AI_ERROR = 1
EXIT_INTERRUPTED = 130


def write_board_png(screen: Screen, path: str | Path) -> Path:
    """The human's board as a PNG grid (pictures package): the key only on a spymaster's screen."""
    from ..pictures.board_image import render_board
    from ..rules.cards import Identity

    cards = [c.card for c in screen.cells]
    covered = {c.card: Identity(c.identity) for c in screen.cells if c.covered and c.identity}
    key = None
    if screen.key_legend and all(c.identity for c in screen.cells):
        key = [Identity(c.identity) for c in screen.cells]
    return render_board(cards, path, covered=covered, key=key)


def _show_events(console: Console, events: Iterable[Event]) -> None:
    for e in events:
        text = _wrapped(e.text, console.width) if console.is_terminal else e.text  # piped: one line each
        console.print(render_event(e.kind, text), soft_wrap=True)


def _wrapped(text: str, width: int) -> str:
    """``text`` broken between words to fit a terminal ``width`` wide, a word longer than the
    line (a path) left whole so it can be copied. Why not the terminal's wrap: it cut a
    playtester's score line mid-word ("sudd / en death"); rich's own wrap folds long paths."""
    if width < 20:
        return text
    return "\n".join(textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False) if line else line
                     for line in text.split("\n"))


def show_finished(console: Console, path: Path, settings: PlaySettings, game: Game, labels: dict[str, str]) -> int:
    """Show the result and the key of a finished saved game: there is nothing to resume, so
    no AI player is loaded and the file is left as it is."""
    _show_events(console, [Event("info", f"{path} holds a finished game: it is over, there is nothing to resume.")])
    _show_events(console, result_events(settings, game))
    for screen in key_screen(game, labels, "The key card"):
        console.print(render_screen(screen))
    return EXIT_OK


def run_console(
    session: Session,
    console: Console,
    *,
    read: Optional[Callable[[str], str]] = None,
    save_path: Optional[Path] = None,
    png: Optional[Path] = None,
    intro: Iterable[Event] = (),
    echo: Optional[bool] = None,
) -> int:
    """Play ``session`` to its end or until the human quits; returns the exit status."""
    if read is None:
        read = lambda prompt: console.input(prompt)  # noqa: E731
    if echo is None:
        echo = not sys.stdin.isatty()

    def draw() -> None:
        console.print(render_screen(session.screen()))
        if png is not None:
            console.print(f"Board image: {write_board_png(session.screen(), png)}", soft_wrap=True)

    unsaved = "--no-save"  # why the game is not kept, once save_path is None

    def saved_note() -> None:
        if save_path is not None:
            console.print(f"The game is saved in {save_path}. Continue it with: spymaster-ai play resume {save_path}",
                          soft_wrap=True)
        else:
            console.print(f"This game was not saved ({unsaved}).", soft_wrap=True)

    def another_file() -> None:
        """The save failed: say so in one line, then ask for another file until one can be
        written, or Enter (or end of input) to go on without saving."""
        nonlocal save_path, unsaved
        failed = save_path
        _show_events(console, [Event("warning", f"{session.save_failure}. The game goes on in memory.")])
        while True:
            try:
                line = read("Another save file (a .json path), or Enter to go on unsaved> ")
            except EOFError:
                line = ""
            if echo:
                console.print(line, markup=False, highlight=False)
            typed = line.strip()
            if not typed:
                session.save_to(None)
                save_path, unsaved = None, "the save file could not be written"
                _show_events(console, [Event("info", "The game goes on without saving.")])
                return
            path = Path(typed).expanduser()
            if path.suffix.lower() != ".json":  # a card name typed out of habit must not become a file
                _show_events(console, [Event("error", "a save file name ends in .json: type one, or press Enter")])
                continue
            if path.exists() and path != failed:
                _show_events(console, [Event("error", f"{path} exists and is not overwritten: type another path")])
                continue
            if session.save_to(saver(path)):
                save_path = path
                spoiler = "" if session.settings.human_holds_key else " It holds the key card: do not open it before the end."
                _show_events(console, [Event("info", f"The game is saved after every move in {path}.{spoiler}")])
                return
            _show_events(console, [Event("error", f"{session.save_failure}")])

    def check_saving() -> Optional[int]:
        """Offer another file if the last save failed; the exit status if the human left."""
        if session.save_failure is None:
            return None
        try:
            another_file()
        except KeyboardInterrupt:
            console.print()
            saved_note()
            return EXIT_INTERRUPTED
        return None

    _show_events(console, intro)
    left = check_saving()
    if left is not None:
        return left
    leaving = "(the game is saved)" if save_path is not None else f"({unsaved}: the game is not kept)"
    _show_events(console, [Event("info", f"Type 'help' for the commands, 'quit' to leave {leaving}.")])
    _show_events(console, session.advance())
    draw()
    while True:
        left = check_saving()
        if left is not None:
            return left
        if session.error:
            saved_note()
            return EXIT_AI_ERROR
        if session.is_over:
            events, keys = session.summary()
            _show_events(console, events)
            for screen in keys:
                console.print(render_screen(screen))
            if save_path is not None:
                console.print(f"The finished game is kept in {save_path}.", soft_wrap=True)
            return EXIT_OK
        prompt = session.prompt()
        assert prompt is not None  # advance() ran: it is the human's move
        try:
            line = read(f"{prompt.text}> ")
        except EOFError:
            console.print()
            _show_events(console, [Event("info", "End of input: leaving.")])
            saved_note()
            return EXIT_OK
        except KeyboardInterrupt:
            console.print()
            saved_note()
            return EXIT_INTERRUPTED
        if echo:
            console.print(line, markup=False, highlight=False)
        reply = session.answer(line)
        _show_events(console, reply.events)
        if reply.quit:
            saved_note()
            return EXIT_OK
        if reply.moved:
            _show_events(console, session.advance())
        if reply.redraw:
            draw()
