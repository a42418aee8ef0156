"""``spymaster-ai eval human``: how human-like an agent is, on recorded human Duet play.

Exit status: 0 done, 2 bad usage (unreadable data folder or file, bad agent spec, bad option).
"""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from .app import app

eval_app = typer.Typer(
    name="eval",
    help="Evaluate agents against recorded human play.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(eval_app, name="eval")


def _fail(message: str, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"error": message}))
    else:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from ..agents.registry import AgentSpecError
    from ..embeddings import EmbeddingError
    from ..eval.human_data import HumanDataError

    return (HumanDataError, AgentSpecError, EmbeddingError, ValueError)


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
) -> None:
    """Top-1 guess agreement, clue rank, understanding of human clues, target choice (95% intervals)."""
    from ..eval.adapter import make_adapter
    from ..eval.human_data import load_human_data
    from ..eval.human_eval import evaluate_human

    chosen = [m.strip() for m in metrics.split(",") if m.strip()]
    if depth < 1:
        _fail(f"--depth must be at least 1, got {depth}", as_json)
    try:
        dataset = load_human_data(data, limit=limit, strict=strict)
        adapter = make_adapter(agent, guesser=guesser, spymaster=spymaster, seed=seed)
        report = evaluate_human(dataset, adapter, seed=seed, depth=depth, calibrate=calibrate, metrics=chosen)
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
    table = Table(title=f"{report.agent} against human Duet play ({report.data}), seed {report.seed}")
    for col in ("metric", "value", "95% CI", "n", "games", "not scored"):
        table.add_column(col, justify="right" if col in ("value", "n", "games") else "left")

    def row(name: str, est: Any, note: str = "") -> None:
        table.add_row(name, _fmt(est.value), _ci(est), str(est.n), str(est.games), note)

    if report.guessing is not None:
        g = report.guessing
        row("guess: top-1 agreement", g.top1, _unscorable(g.unscorable))
        row("guess: MRR of human guess", g.mrr)
    if report.clue_giving is not None:
        c = report.clue_giving
        row("clue: MRR of human clue", c.mrr, _unscorable(c.unscorable))
        row("clue: human clue in top 10", c.top10)
        row("clue: human clue in top 100", c.top100, f"beyond depth {c.depth}: {c.beyond_depth}")
    if report.understanding is not None:
        u = report.understanding
        row("understand: agent hits target", u.agent, _unscorable(u.unscorable))
        row("understand: humans hit target", u.human, f"joined {u.join['matched']}, ambiguous "
            f"{u.join['ambiguous']}, unmatched {u.join['unmatched']}")
        row("understand: agent - human", u.gap)
    if report.target_choice is not None:
        t = report.target_choice
        row("targets: Jaccard", t.jaccard, _unscorable(t.unscorable))
        row("targets: exact match", t.exact)
        row("targets: agent aims at (cards)", t.agent_count)
        row("targets: human aims at (cards)", t.human_count)
    if report.calibration is not None:
        cal = report.calibration
        split = cal.split
        label = f"held-out {split.test_games} games"
        row(f"calibrated: top-1 ({label})", cal.calibrated_guessing.top1)
        row(f"uncalibrated: top-1 ({label})", cal.baseline_guessing.top1)
        row(f"calibrated: hits target ({label})", cal.calibrated_understanding.agent)
        row(f"uncalibrated: hits target ({label})", cal.baseline_understanding.agent)
    console.print(table)
    accounting = ", ".join(f"{task} {r['parsed']}/{r['read']}" for task, r in report.rows.items())
    console.print(f"rows parsed/read: {accounting}; card rankings via {report.guess_method}")
    for problem in report.problems[:20]:
        console.print(f"[yellow]skipped malformed row[/yellow] {problem}")
    if len(report.problems) > 20:
        console.print(f"... and {len(report.problems) - 20} more malformed rows (see --json)")
    for metric, why in report.skipped.items():
        console.print(f"[yellow]{metric} not run[/yellow]: {why}")
