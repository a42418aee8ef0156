"""``spymaster-ai sweep``: benchmark an agent at every point of a parameter grid.

A table (rich) or one JSON object, optionally the JSON in a file and a plot of the win rate
(95% Wilson interval) and the mean turns (95% t interval) against each parameter; each point
is compared game by game with the grid's first point (paired differences). Bad input (a
malformed grid, a parameter no agent takes, a value an agent refuses, an unknown backend)
prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__
from ..files import UnsafeFileError
from ..provenance import environment
from ..sim.play import DEFAULT_AGENT, ROLES
from .app import app
from .errors import BadInput, check_output_file, check_output_folder, exit_if_agent_errors, exit_if_lost, write_output
from .output import stdout_to_stderr
from .bench_common import (
    AddressOpt, AllowErrorsOpt, BackendOpt, GamesOpt, JobsOpt, JsonOpt, LegalityOpt, MissionOpt, ProgressOpt, SeedOpt, TokensOpt,
    _guarded, _options, _show_progress, check_backend, check_run_size,
)

# What matplotlib's Agg canvas writes, by file name.
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def _causes(counts: dict) -> str:
    """Loss causes one to a line ("assassin 13"): a cause is never cut mid-word in 80 columns."""
    return "\n".join(f"{c} {k}" for c, k in counts.items() if k) or "–"


def _table(report: dict) -> None:
    """The points, then each point against the baseline; both fit an 80-column terminal (each
    figure above its interval, each loss cause on its own line)."""
    from rich.console import Console
    from rich.table import Table

    from .paired_tables import sweep_paired_table

    def num(x: Any, fmt: str = "{:.2f}") -> str:
        return "–" if x is None else fmt.format(x)

    def interval(ci: Any, fmt: str) -> str:
        return "" if not ci else f"\n[{fmt.format(ci[0])}, {fmt.format(ci[1])}]"

    names = list(report["grid"])
    console = Console()
    table = Table(
        title=f"{report['game']} sweep: {report['spymaster']} / {report['guesser']}, "
        f"{report['games']} games per point, seed {report['seed']}"
    )
    for name in names:
        table.add_column(f"{name}\n({'+'.join(report['routes'][name])})", style="bold", overflow="fold")
    # no errors column: a game lost to an agent error is the loss cause "error" (and a warning follows)
    causes = [_causes(p["loss_causes"]) for p in report["points"]]
    widest = max(len(line) for text in causes for line in text.splitlines())
    for column in ("win rate\n[95% CI]", "wins", "mean turns\n[95% CI]", "score\n(wins)"):
        table.add_column(column)
    table.add_column("losses\nby cause", no_wrap=True, min_width=widest)
    for p, cause in zip(report["points"], causes):
        table.add_row(
            *(p["values"][n] for n in names),
            num(p["win_rate"], "{:.1%}") + interval([100 * x for x in p["ci95"]], "{:.1f}"),
            f"{p['wins']}/{p['games']}",
            num(p["mean_turns"]) + interval(p.get("turns_ci95"), "{:.2f}"),
            num(p["mean_score"]),
            cause,
        )
    console.print(table)
    sweep_paired_table(console, report.get("paired") or {}, names)


@app.command("sweep")
def sweep(
    game: str = typer.Option("duet", "--game", help="duet, classic, solo, kim2019 or pictures."),
    agent: str = typer.Option(DEFAULT_AGENT, "--agent", help="Base agent spec of both roles, e.g. minilm."),
    spymaster: Optional[str] = typer.Option(None, "--spymaster", help="Base spymaster spec, if not --agent."),
    guesser: Optional[str] = typer.Option(None, "--guesser", help="Base guesser spec, if not --agent."),
    grid: list[str] = typer.Option(
        [], "--grid", help="PARAM=v1,v2,... (repeat for more parameters: every combination is run)."
    ),
    games: int = GamesOpt, seed: int = SeedOpt,
    tokens: Optional[int] = TokensOpt, mission: Optional[str] = MissionOpt,
    legality: str = LegalityOpt, jobs: int = JobsOpt, backend: str = BackendOpt, address: Optional[str] = AddressOpt,
    out: Optional[Path] = typer.Option(None, "--out", help="Write the sweep JSON to this file."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Write a plot of win rate and mean turns [95% CI] against each parameter (.png, .pdf or .svg)."),
    results_dir: Optional[Path] = typer.Option(None, "--results-dir", help="One resumable JSON-lines file per point."),
    as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt, allow_errors: bool = AllowErrorsOpt,
) -> None:
    """Benchmark every point of the grid (same boards for every point); each parameter goes to
    the role whose agent takes it (risk: spymaster, stop_threshold: guesser)."""

    def run() -> None:
        from ..sim.sweep import GridError, parse_grid, plot_sweep, run_sweep

        if game not in ROLES:
            raise BadInput(f"unknown game {game!r} (known: {', '.join(ROLES)})")
        check_run_size(games, jobs)
        options = _options(tokens=tokens, mission=mission, legality=legality)
        check_backend(backend, address)
        check_output_file(out, "--out")
        check_output_file(plot, "--plot", PLOT_SUFFIXES)
        check_output_folder(results_dir, "--results-dir")
        try:
            parsed = parse_grid(grid)
            with stdout_to_stderr(as_json):
                result = run_sweep(
                    game, agent, spymaster=spymaster, guesser=guesser, grid=parsed, games=games, seed=seed,
                    options=options, jobs=jobs, backend=backend, address=address, results_dir=results_dir,
                    progress=_show_progress(progress),
                )
        except GridError as exc:
            raise BadInput(str(exc)) from exc
        report = {**result.to_json(), "jobs": jobs, "backend": backend, "address": address, "version": __version__,
                  "environment": environment()}
        plotted = True
        if plot is not None:
            try:
                report["plot"] = str(plot_sweep(result, plot))
            except (OSError, UnsafeFileError) as exc:
                plotted = False
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                typer.echo(f"error: --plot: cannot write {plot}: {reason}; the figures it shows are in the "
                           + ("JSON object" if as_json else "summary") + " on stdout", err=True)
        saved = write_output(out, json.dumps(report, indent=2) + "\n", "--out",
                             "its content is in the JSON object on stdout" if as_json else "its content follows on stdout")
        if as_json:
            typer.echo(json.dumps(report))
        else:
            _table(report)
            if not saved:
                typer.echo(json.dumps(report, indent=2))
        errors = sum(p["errors"] for p in report["points"])
        if errors:
            typer.echo(f"warning: {errors} game(s) ended on an agent error", err=True)
        exit_if_lost(plotted, saved)
        exit_if_agent_errors(errors, allow_errors)

    _guarded(run)
