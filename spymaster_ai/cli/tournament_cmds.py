"""``spymaster-ai tournament``: cross-play, every spymaster spec with every guesser spec.

Why its own module: the command line's side of a tournament (its options, checks, report and
tables) is its own job; the tournament itself is :mod:`spymaster_ai.sim.tournament`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .. import __version__
from ..provenance import environment
from ..sim.play import DEFAULT_AGENT, ROLES
from .app import app
from .bench_common import (
    _INSTEAD, AddressOpt, AllowErrorsOpt, BackendOpt, GamesOpt, JobsOpt, JsonOpt, LangOpt, LegalityOpt, MatchOpt,
    MissionOpt, ProgressOpt, SeedOpt, TokensOpt, _check_agents, _guarded, _options, _show_progress, check_backend,
    check_match, check_run_size,
)
from .errors import BadInput, check_output_file, check_output_folder, exit_if_agent_errors, exit_if_lost, write_output
from .output import stdout_to_stderr


@app.command("tournament")
def tournament(
    game: str = typer.Option("duet", "--game", help="duet, classic, solo, kim2019, pictures or pictures_solo."),
    agents: str = typer.Option(DEFAULT_AGENT, "--agents", help="Comma-separated specs: every one as spymaster with every one as guesser."),
    spymasters: Optional[str] = typer.Option(None, "--spymasters", help="Spymaster specs, if not --agents."),
    guessers: Optional[str] = typer.Option(None, "--guessers", help="Guesser specs, if not --agents."),
    opponent: Optional[str] = typer.Option(None, "--opponent", help="Classic/pictures: the blue reference team (default: the first agent)."),
    games: int = GamesOpt, seed: int = SeedOpt,
    tokens: Optional[int] = TokensOpt, mission: Optional[str] = MissionOpt,
    legality: str = LegalityOpt, jobs: int = JobsOpt, backend: str = BackendOpt, address: Optional[str] = AddressOpt,
    out: Optional[Path] = typer.Option(None, "--out", help="Write the matrix JSON to this file."),
    markdown: Optional[Path] = typer.Option(None, "--markdown", help="Write the matrix as a Markdown table."),
    results_dir: Optional[Path] = typer.Option(None, "--results-dir", help="One resumable JSON-lines file per cell."),
    as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt, lang: str = LangOpt, match: Optional[int] = MatchOpt,
    allow_errors: bool = AllowErrorsOpt,
    pairs: str = typer.Option(
        "shared", "--pairs", help="Paired differences for: shared (cells with a spymaster or a guesser in common) or all pairs."
    ),
) -> None:
    """Cross-play: every spymaster spec with every guesser spec, same boards for every cell;
    pairs of cells compared game by game on those boards (paired differences)."""

    def run() -> None:
        from ..sim.tournament import CELL_TITLES, format_cell, markdown_table, run_tournament
        from .paired_tables import tournament_paired_table

        if game not in ROLES:
            raise BadInput(f"unknown game {game!r} (known: {', '.join(ROLES)})")
        if pairs not in ("shared", "all"):
            raise BadInput(f"--pairs must be shared or all, not {pairs!r}")
        check_run_size(games, jobs)
        check_match(games, match)
        split = lambda text: [s.strip() for s in text.split(",") if s.strip()] if text else []  # noqa: E731
        spy, gue = split(spymasters) or split(agents), split(guessers) or split(agents)
        if not spy or not gue:
            raise BadInput("--agents needs at least one agent spec")
        options = _options(tokens=tokens, mission=mission, legality=legality, lang=lang)
        check_backend(backend, address)
        check_output_file(out, "--out")
        check_output_file(markdown, "--markdown")
        check_output_folder(results_dir, "--results-dir")
        two_teams = game in ("classic", "pictures")
        if opponent and not two_teams:
            raise BadInput(f"--opponent applies to classic and pictures only, not {game}")
        _check_agents([*(("spymaster", s) for s in spy), *(("guesser", g) for g in gue),
                       *((("spymaster", opponent), ("guesser", opponent)) if two_teams and opponent else ())],
                      lang=options.lang)
        with stdout_to_stderr(as_json):
            t = run_tournament(
                game, games=games, seed=seed, spymasters=spy, guessers=gue, opponent=opponent, options=options,
                jobs=jobs, results_dir=results_dir, progress=_show_progress(progress), backend=backend,
                address=address, match=match, pairs=pairs,
            )
        report = {**t.to_json(), "jobs": jobs, "backend": backend, "address": address, "version": __version__,
                  "environment": environment()}
        saved = write_output(out, json.dumps(report, indent=2) + "\n", "--out", _INSTEAD["json" if as_json else "summary"])
        table_saved = write_output(markdown, markdown_table(t), "--markdown", _INSTEAD["json" if as_json else "summary"])
        errors = sum(c["errors"] for c in t.cells.values())
        if as_json:
            typer.echo(json.dumps(report))
            exit_if_lost(saved, table_saved)
            exit_if_agent_errors(errors, allow_errors)
            return
        if not saved:
            typer.echo(json.dumps(report, indent=2))
        if not table_saved:
            typer.echo(markdown_table(t))
        from rich.console import Console
        from rich.table import Table

        console = Console()
        views = ["win_rate", "mean_turns", "turns_per_win"] if game == "kim2019" else ["win_rate"]
        if match is not None:
            views += ["last10_win_rate", "last10_turns_per_win"] + (["last10_score"] if game == "kim2019" else [])
        for figure in views:
            table = Table(title=f"{game}: {CELL_TITLES[figure]}, {games} games per cell, seed {seed}"
                          + (f", matches of {match} games" if match else ""))
            table.add_column("spymaster \\ guesser", style="bold")
            for g in gue:
                table.add_column(g)
            for s in spy:
                table.add_row(s, *(format_cell(t.cell(s, g), figure) for g in gue))
            console.print(table)
        tournament_paired_table(console, t.paired)
        if errors:
            typer.echo(f"warning: {errors} game(s) ended on an agent error", err=True)
        exit_if_lost(saved, table_saved)
        exit_if_agent_errors(errors, allow_errors)

    _guarded(run)
