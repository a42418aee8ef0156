"""``spymaster-ai eval human``: how human-like an agent is, on recorded human Duet play.

Exit status: 0 done, 2 bad usage (unreadable data folder or file, bad agent spec, bad option).
"""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from .app import app
from .errors import fail as _fail, user_errors

eval_app = typer.Typer(
    name="eval",
    help="Evaluate agents against recorded human play.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(eval_app, name="eval")


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from ..eval.human_data import HumanDataError

    return user_errors(HumanDataError, ValueError)


@eval_app.command("human")
def human_command(
    data: str = typer.Option(..., "--data", help="Folder with the Cultural Codes *_val.csv files, or a clone of "
                             "the dataset repository (its data/ folder is found)."),
    agent: str = typer.Option("minilm", "--agent", help="Agent spec for both roles (e.g. minilm, glove50, "
                              "ensemble:mpnet+minilm)."),
    guesser: Optional[str] = typer.Option(None, "--guesser", help="Guesser spec, if not --agent."),
    spymaster: Optional[str] = typer.Option(None, "--spymaster", help="Spymaster spec, if not --agent."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Read at most N rows of each file."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap intervals and the calibration split."),
    calibrate: bool = typer.Option(False, "--calibrate", help="Fit a calibrated guesser on half of the games "
                                   "(seeded split) and report both guessers on the other half."),
    metrics: str = typer.Option("guessing,clue-giving,understanding,target-choice", "--metrics",
                                help="Comma-separated subset of the four metrics."),
    depth: int = typer.Option(1000, "--depth", help="Candidate clues ranked per turn (a human clue ranked "
                              "lower counts reciprocal rank 0)."),
    strict: bool = typer.Option(False, "--strict", help="A malformed row is an error instead of a counted, "
                                "skipped row."),
    cross_fit: bool = typer.Option(True, "--cross-fit/--no-cross-fit", help="Agents on the fitted human reader: "
                                   "on rows it was fitted on, read each game with a reader fitted on the other games."),
    lang: str = typer.Option("en", "--lang", metavar="en", help="The language of the human games: only English "
                             "play has been recorded (the Cultural Codes Duet data)."),
) -> None:
    """Top-1 guess agreement, clue rank, understanding of human clues, target choice (95% intervals)."""
    from ..eval.adapter import make_adapter
    from ..eval.human_data import load_human_data
    from ..eval.human_eval import METRICS, evaluate_human

    chosen = [m.strip() for m in metrics.split(",") if m.strip()]
    unknown = [m for m in chosen if m not in METRICS]
    if unknown or not chosen:
        _fail(f"--metrics: unknown metric(s) {', '.join(unknown) or '(none given)'}; "
              f"choose from {', '.join(METRICS)}", as_json)
    if depth < 1:
        _fail(f"--depth must be at least 1, got {depth}", as_json)
    if lang != "en":
        _fail(f"--lang {lang}: the human games are English (no recorded play in German, Vietnamese or Persian "
              "exists to evaluate against)", as_json)
    try:
        dataset = load_human_data(data, limit=limit, strict=strict)
        adapter = make_adapter(agent, guesser=guesser, spymaster=spymaster, seed=seed)
        report = evaluate_human(dataset, adapter, seed=seed, depth=depth, calibrate=calibrate, metrics=chosen,
                                cross_fit=cross_fit)
    except _bad_input_types() as exc:
        _fail(str(exc), as_json)
    if as_json:
        typer.echo(json.dumps(report.to_json()))
    else:
        _print_report(report)


def _fmt(x: Optional[float]) -> str:
    return "–" if x is None else f"{x:.3f}"


def _ci(est: Any) -> str:
    return "–" if est.ci95 is None else f"[{est.ci95[0]:.3f}, {est.ci95[1]:.3f}]"


def _unscorable(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"


def _print_report(report: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"{report.agent} against human Duet play, seed {report.seed}")
    for col, justify in (("metric", "left"), ("value", "right"), ("95% CI", "left"), ("n", "right"),
                         ("games", "right")):
        table.add_column(col, justify=justify, no_wrap=True)
    notes: list[str] = []

    def row(name: str, est: Any) -> None:
        table.add_row(name, _fmt(est.value), _ci(est), str(est.n), str(est.games))

    if report.guessing is not None:
        g = report.guessing
        row("guess top-1 agreement", g.top1)
        row("guess MRR (human 1st guess)", g.mrr)
        notes.append(f"guessing: {g.turns} turns, not scored: {_unscorable(g.unscorable)}")
    if report.clue_giving is not None:
        c = report.clue_giving
        row("clue MRR (human clue)", c.mrr)
        row("clue: human's in top 10", c.top10)
        row("clue: human's in top 100", c.top100)
        notes.append(f"clue giving: {c.turns} turns, not scored: {_unscorable(c.unscorable)}; "
                     f"ranked below depth {c.depth}: {c.beyond_depth}")
    if report.understanding is not None:
        u = report.understanding
        row("understand: agent hits", u.agent)
        row("understand: humans hit", u.human)
        row("understand: agent - humans", u.gap)
        notes.append(f"understanding: joined {u.join['matched']}, ambiguous {u.join['ambiguous']}, "
                     f"unmatched {u.join['unmatched']}; not scored: {_unscorable(u.unscorable)}")
    if report.target_choice is not None:
        t = report.target_choice
        row("targets Jaccard", t.jaccard)
        row("targets exact match", t.exact)
        row("targets: agent aims at", t.agent_count)
        row("targets: human aims at", t.human_count)
        notes.append(f"target choice: {t.turns} turns, not scored: {_unscorable(t.unscorable)}")
    if report.calibration is not None:
        cal = report.calibration
        row("held-out: plain top-1", cal.baseline_guessing.top1)
        row("held-out: calibrated top-1", cal.calibrated_guessing.top1)
        row("held-out: plain hits", cal.baseline_understanding.agent)
        row("held-out: calibrated hits", cal.calibrated_understanding.agent)
        split = cal.split
        notes.append(f"calibration: fitted on {split.fit_games} games ({len(split.fit_rows)} turns), "
                     f"reported on the other {split.test_games} games (seed {split.seed})")
    console.print(table)
    accounting = ", ".join(f"{task} {r['parsed']}/{r['read']}" for task, r in report.rows.items())
    notes.append(f"rows parsed/read: {accounting}; card rankings via {report.guess_method}")
    if report.reader:
        notes.append(f"human reader: {report.reader}")
    for note in notes:
        console.print(note, highlight=False)
    for problem in report.problems[:20]:
        console.print(f"[yellow]skipped malformed row[/yellow] {problem}", highlight=False)
    if len(report.problems) > 20:
        console.print(f"... and {len(report.problems) - 20} more malformed rows (see --json)")
    for metric, why in report.skipped.items():
        console.print(f"[yellow]{metric} not run[/yellow]: {why}", highlight=False)
