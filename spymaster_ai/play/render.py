"""Draw a :class:`~spymaster_ai.play.screen.Screen` and the session's messages with rich.

Every identity is written as a word under the card as well as coloured, so the board reads
the same without colour (``--no-color``, ``NO_COLOR``, a pipe): a covered card shows
"■ red", a key the human holds shows "red" (no square), a guesser's hidden card shows nothing.
"""

from __future__ import annotations

from typing import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .screen import Screen

__all__ = ["render_screen", "render_event", "EVENT_STYLES"]

STYLES: dict[str, dict[str, str]] = {
    "classic": {
        "red": "bold red",
        "blue": "bold blue",
        "bystander": "yellow",
        "assassin": "bold white on black",
    },
    "duet": {"green": "bold green", "black": "bold white on black", "bystander": "yellow"},
}
COVERED_NAMES: dict[str, dict[str, str]] = {
    "classic": {"red": "red agent", "blue": "blue agent", "bystander": "bystander", "assassin": "ASSASSIN"},
    "duet": {"green": "agent", "bystander": "bystander x2", "black": "ASSASSIN"},
}
EVENT_STYLES: dict[str, str] = {
    "info": "",
    "ai": "cyan",
    "you": "bold",
    "result": "",
    "error": "bold red",
    "warning": "yellow",
    "end": "bold magenta",
}


def _cell(cell, palette: str) -> Text:
    text = _cell_body(cell, palette)
    if cell.lost_by:  # the touch that lost the game, said in words (it reads without colour)
        whose = "your" if cell.lost_by == "you" else "the AI's"
        text.append(f"\n‼ {whose} touch lost", style="bold white on red")
    return text


def _cell_body(cell, palette: str) -> Text:
    styles = STYLES[palette]
    label = cell.label.upper()
    if cell.covered:
        text = Text(label, style="dim strike")
        name = COVERED_NAMES[palette].get(cell.identity or "", cell.identity or "")
        text.append("\n")
        text.append(f"■ {name}", style=styles.get(cell.identity or "", ""))
        return text
    text = Text(label, style="bold")
    text.append("\n")
    if cell.identity:
        text.append(cell.identity, style=styles.get(cell.identity, ""))
    for mark in cell.marks:
        text.append(f" ✗{mark}", style="yellow")
    return text


def render_screen(screen: Screen) -> RenderableType:
    """The board grid, then status lines, the current clue and the clue history."""
    # the title on a line of its own: as the grid's title it wrapped at the grid's width
    # ("(Vietnamese / board)" in native playtests), though the terminal had room
    grid = Table(show_header=False, show_lines=True, expand=False, pad_edge=True)
    for _ in range(screen.columns):
        grid.add_column(overflow="fold", min_width=10)
    cells = list(screen.cells)
    for start in range(0, len(cells), screen.columns):
        grid.add_row(*[_cell(c, screen.palette) for c in cells[start : start + screen.columns]])
    parts: list[RenderableType] = ([Text(screen.title, style="table.title")] if screen.title else []) + [grid]
    if screen.key_legend:
        parts.append(Text(f"Under the cards: {screen.key_legend}. ■ covered", style="dim"))
    else:
        parts.append(Text("■ covered", style="dim"))
    if any(c.marks and not c.covered for c in cells):
        # playtests read "✗you" as "ruled out": it rules the card out for its guesser only
        parts.append(Text("✗you: you tried it, a bystander on the AI's side (the AI may still take it). "
                          "✗AI: the AI tried it, a bystander on your side (you may still take it).", style="dim"))
    if screen.clues:
        history = Table(title="Clues so far", title_justify="left", show_edge=False, pad_edge=False)
        history.add_column("#", justify="right")
        history.add_column("by")
        history.add_column("clue")
        history.add_column("guesses")
        for n, line in enumerate(screen.clues, start=1):
            guesses = ", ".join(f"{label.upper()} ({outcome}{f', {note}' if note else ''})"
                                for label, outcome, note in line.noted()) or "-"
            if line.note:
                guesses = f"{guesses}; {line.note}" if line.guesses else line.note
            history.add_row(str(n), line.giver, line.clue.upper(), guesses)
        parts.append(history)
    for line in screen.status:
        parts.append(Text(line))
    if screen.current:
        parts.append(Text(screen.current, style="bold"))
    return Group(*parts)


def render_event(kind: str, text: str) -> Text:
    return Text(text, style=EVENT_STYLES.get(kind, ""))


def render_events(events: Iterable) -> list[Text]:
    return [render_event(e.kind, e.text) for e in events]
