"""Bad input on the command line: one clear line (or a JSON error object), exit status 2.

Every command module reports user errors the same way through these helpers, so the
"never a traceback" rule lives in one place.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, NoReturn, Optional, Union

import typer

from ..files import UnsafeFileError, check_writable, check_writable_folder, write_atomically, write_target


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


def check_output_file(path: Optional[Path], option: str, suffixes: Iterable[str] = (), probe: bool = True) -> None:
    """Refuse, before any game is played, an output file that could not be written after them:
    a folder, a path under a file, (with ``suffixes``) a name of another format, anything that
    is not a regular file (a device, a named pipe), or a file in a folder that cannot be written
    (a probe file is made and removed there; an existing file is not touched). A symbolic link
    is checked, and later written, through to its target (:mod:`spymaster_ai.files`).
    ``probe=False`` skips the probe file, for a writer that copes with a failed write itself
    (``play --save`` goes on in memory and offers another file)."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(f"{option}: {path} is a folder; give a file name")
    _check_parents(path, option)
    wanted = tuple(suffixes)
    if wanted and path.suffix.lower() not in wanted:
        names = ", ".join(wanted[:-1]) + " or " + wanted[-1] if len(wanted) > 1 else wanted[0]
        raise BadInput(f"{option}: {path} should end in {names}")
    try:  # a device, a pipe, an unwritable folder: refused now, not after the games
        check_writable(path) if probe else write_target(path)
    except UnsafeFileError as exc:
        raise BadInput(f"{option}: {exc}") from None


def check_output_folder(path: Optional[Path], option: str) -> None:
    """Refuse, before any game is played, a results folder that is a file, lies under one, or
    cannot be written (a probe file is made and removed in it or the nearest folder above)."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise BadInput(f"{option}: {path} is a file; give a folder")
    _check_parents(path, option)
    try:
        check_writable_folder(path)
    except UnsafeFileError as exc:
        raise BadInput(f"{option}: {exc}") from None


def write_output(path: Optional[Path], data: Union[str, bytes], option: str, shown: str = "") -> bool:
    """Write a summary output (atomically, through a link) after the run; True if written.

    Its path was checked before the first game, but a disk can fill or a folder turn read-only
    meanwhile: the games are not lost then. The error names the file, and ``shown`` (the
    caller prints the summary on stdout) says where the content went instead; the caller then
    exits 1 (see :func:`exit_if_lost`)."""
    if path is None:
        return True
    try:
        write_atomically(path, data)
        return True
    except (OSError, UnsafeFileError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        typer.echo(f"error: {option}: cannot write {path}: {reason}" + (f"; {shown}" if shown else ""), err=True)
        return False


def exit_if_lost(*written: bool) -> None:
    """Exit with status 1 when an output could not be written (its content went to stdout)."""
    if not all(written):
        raise typer.Exit(1)


# The exit status of a run whose games ended on agent errors (bad input is 2, a lost output 1).
AGENT_ERRORS_EXIT = 3


def exit_if_agent_errors(errors: int, allow: bool) -> None:
    """Exit with :data:`AGENT_ERRORS_EXIT` when ``errors`` games ended on an agent error,
    unless ``--allow-errors``: an error counts as a loss, so a table with forfeits would
    otherwise pass as a figure (a mistyped plug-in once forfeited every game and exited 0).
    Called after the summary is printed and written: the figures are still there to read."""
    if errors and not allow:
        typer.echo(
            f"error: {errors} game(s) ended on an agent error and count as losses in the figures above; "
            "fix the agent, or pass --allow-errors to accept them (exit status 3)",
            err=True,
        )
        raise typer.Exit(AGENT_ERRORS_EXIT)


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
