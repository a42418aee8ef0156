"""The paired differences of a tournament and of a sweep as terminal tables (rich).

Why apart: both commands print them, and both must fit an 80-column terminal: each figure
stands above its interval, so the names of the cells or points keep the width.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table

from ..sim.paired import paired_table_rows
from ..sim.tournament import cell_label

__all__ = ["sweep_paired_table", "tournament_paired_table"]


def _stacked(text: str) -> str:
    """A figure above its interval (or its count)."""
    return text.replace(" [", "\n[").replace(" (", "\n(")


def _discordant(counts: str, p: str) -> str:
    return f"{counts}\np" + (p if p.startswith("<") else f"={p}")


def tournament_paired_table(console: Any, section: dict) -> None:
    """The tournament's paired differences, one row per pair of cells, in 80 columns: the
    cells are named on a line of their own, the figures below them."""
    if not section.get("comparisons"):
        return
    table = Table(title="paired differences A − B on the same boards", show_lines=True,
                  caption="win rate in points and mean turns [95% paired bootstrap]; A/B only: discordant games, "
                  "exact McNemar p; uncorrected for multiple comparisons")
    table.add_column("A − B", overflow="fold", min_width=24)
    for column in ("win rate", "A/B only", "mean turns"):
        table.add_column(column, no_wrap=True)
    for c in section["comparisons"]:
        win, discordant, p, turns, _ = paired_table_rows(c)
        a, b = c["a"], c["b"]
        names = f"{cell_label(a['spymaster'], a['guesser'])}\n−\u00a0{cell_label(b['spymaster'], b['guesser'])}"
        table.add_row(names, _stacked(win), _discordant(discordant, p), _stacked(turns))
    console.print(table)


def sweep_paired_table(console: Any, paired: dict, names: Sequence[str]) -> None:
    """Every point of a sweep against its baseline, one row per point."""
    if not paired.get("comparisons"):
        return
    base = ", ".join(f"{k}={v}" for k, v in paired["baseline"].items())
    table = Table(title=f"each point − the baseline ({base}), game by game on the same boards",
                  caption="95% paired bootstrap intervals; point/baseline only: discordant games, exact McNemar p; "
                  "uncorrected for multiple comparisons")
    for name in names:
        table.add_column(name, style="bold", overflow="fold")
    for column in ("win rate,\npoints", "point/base\nonly, p", "mean turns", "turns,\nboth won"):
        table.add_column(column)
    for c in paired["comparisons"]:
        win, discordant, p, turns, both = paired_table_rows(c)
        table.add_row(*(c["values"][n] for n in names), _stacked(win), _discordant(discordant, p), _stacked(turns),
                      _stacked(both))
    console.print(table)
