"""Bad input on the command line: one clear line (or a JSON error object), exit status 2.

Every command module reports user errors the same way through these helpers, so the
"never a traceback" rule lives in one place.
"""

from __future__ import annotations

import json
from typing import NoReturn

import typer


class BadInput(Exception):
    """Input the user must fix: reported as one line, exit status 2."""


def fail(message: str, as_json: bool = False) -> NoReturn:
    """Report ``message`` (as ``{"error": ...}`` on stdout with ``--json``) and exit 2."""
    if as_json:
        typer.echo(json.dumps({"error": message}))
    else:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message, or its type name when it has none."""
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def user_errors(*extra: type[BaseException]) -> tuple[type[BaseException], ...]:
    """Exceptions that mean the user's input is wrong: bad agent specs, unknown or missing
    embeddings, :class:`BadInput`, and ``extra``. Imported lazily to keep start-up fast."""
    from ..agents.registry import AgentSpecError
    from ..embeddings import EmbeddingError

    return (BadInput, AgentSpecError, EmbeddingError, *extra)
