"""``spymaster-ai embeddings list|info|prepare``: which models exist, what they hold, build caches.

Bad names and missing packages print one line (with the pip command) and exit 2.
"""

from __future__ import annotations

import json
import time
from typing import Any, Optional

import typer

from .app import app
from .errors import fail as _fail

embeddings_app = typer.Typer(
    name="embeddings",
    help="Embedding backends: list them, inspect one, prepare its caches.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(embeddings_app, name="embeddings")

VOCAB_HELP = "Clue-vocabulary size (default 30000, or $SPYMASTER_AI_VOCAB_SIZE)."


def _check_vocab_size(vocab_size: Optional[int], as_json: bool) -> None:
    if vocab_size is not None and vocab_size < 1:
        _fail(f"--vocab-size must be positive, got {vocab_size}", as_json)


@embeddings_app.command("list")
def list_command(as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout.")) -> None:
    """Every backend: name, description, installed or not, how to install it."""
    from ..embeddings import DEFAULT_EMBEDDING, available_embeddings

    rows = available_embeddings()
    if as_json:
        typer.echo(json.dumps({"default": DEFAULT_EMBEDDING, "embeddings": [r.as_dict() for r in rows]}))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped: no terminal width to respect, keep commands whole
        console = Console(width=220)
    table = Table(title=f"Embedding backends (default: {DEFAULT_EMBEDDING})")
    for column in ("name", "description", "installed", "how to install / note"):
        table.add_column(column, overflow="fold")
    for row in rows:
        how = row.install if not row.installed else row.note
        table.add_row(row.name, row.description, "yes" if row.installed else "no", how)
    console.print(table)
    missing = [row for row in rows if not row.installed]
    if missing:  # whole lines, easy to copy even where the table wraps
        typer.echo("To install:")
        for row in missing:
            typer.echo(f"  {row.name}: {row.install}")


def _print_facts(facts: dict[str, Any]) -> None:
    width = max(len(k) for k in facts)
    for key, value in facts.items():
        if isinstance(value, (dict, list)):
            value = json.dumps(value)
        typer.echo(f"{key.ljust(width)}  {value}")


@embeddings_app.command("info")
def info_command(
    name: str = typer.Argument(..., help="Backend name, e.g. minilm, glove50, vectors:PATH, ensemble:A+B."),
    vocab_size: Optional[int] = typer.Option(None, "--vocab-size", help=VOCAB_HELP),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout."),
) -> None:
    """Load one backend and show its dimension, vocabulary size, load time and cache path."""
    from ..embeddings import EmbeddingError, load_embedding

    _check_vocab_size(vocab_size, as_json)
    started = time.perf_counter()
    try:
        embedding = load_embedding(name, vocab_size=vocab_size)
        facts = embedding.describe()
    except EmbeddingError as exc:
        _fail(str(exc), as_json)
    facts["load_seconds"] = round(time.perf_counter() - started, 3)
    if as_json:
        typer.echo(json.dumps(facts))
    else:
        _print_facts(facts)


@embeddings_app.command("prepare")
def prepare_command(
    name: str = typer.Argument(..., help="Backend name (mpnet is also unpacked here)."),
    vocab_size: Optional[int] = typer.Option(None, "--vocab-size", help=VOCAB_HELP),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout."),
) -> None:
    """Build the backend's clue-vocabulary vectors and on-disk cache (for mpnet, unpack it first)."""
    from ..embeddings import EmbeddingError, prepare_embedding

    _check_vocab_size(vocab_size, as_json)
    try:
        facts = prepare_embedding(name, vocab_size=vocab_size)
    except EmbeddingError as exc:
        _fail(str(exc), as_json)
    if as_json:
        typer.echo(json.dumps(facts))
    else:
        _print_facts(facts)
