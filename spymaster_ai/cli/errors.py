"""Bad input on the command line: one clear line (or a JSON error object), exit status 2.

Every command module reports user errors the same way through these helpers, so the
"never a traceback" rule lives in one place.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, NoReturn, Optional

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


def _check_parents(path: Path, option: str) -> None:
    """The nearest existing folder above ``path`` must be a folder (it or its missing
    subfolders are created when the file is written)."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise BadInput(f"{option}: {parent} is a file, so {path} cannot be written")
            return


def check_output_file(path: Optional[Path], option: str, suffixes: Iterable[str] = ()) -> None:
    """Refuse, before any game is played, an output file that could not be written after them:
    a folder, a path under a file, or (with ``suffixes``) a name of another format."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(f"{option}: {path} is a folder; give a file name")
    _check_parents(path, option)
    wanted = tuple(suffixes)
    if wanted and path.suffix.lower() not in wanted:
        names = ", ".join(wanted[:-1]) + " or " + wanted[-1] if len(wanted) > 1 else wanted[0]
        raise BadInput(f"{option}: {path} should end in {names}")


def check_output_folder(path: Optional[Path], option: str) -> None:
    """Refuse, before any game is played, a results folder that is a file or lies under one."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise BadInput(f"{option}: {path} is a file; give a folder")
    _check_parents(path, option)


def check_distinct_files(first: Optional[Path], first_option: str, second: Optional[Path], second_option: str) -> None:
    """Refuse two output options naming one file (also through a link): the file written last
    would silently replace the other, e.g. a summary written over the games of a results file."""
    if first is None or second is None:
        return
    same = first.resolve() == second.resolve()
    if same or (first.exists() and second.exists() and os.path.samefile(first, second)):
        raise BadInput(
            f"{first_option} and {second_option} are the same file ({first}): one would overwrite the other; give two files"
        )
