"""Keeping ``--json`` output parseable: one JSON object on stdout, nothing else.

Why: agents are researchers' code, and a ``print`` in one (or in a library it calls, or in a
worker process) would land between the progress bar and the JSON object and break every
script that parses it. While a run is in progress, stdout is pointed at stderr, at the file
descriptor level so that worker processes started meanwhile inherit it too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator


@contextlib.contextmanager
def stdout_to_stderr(enabled: bool = True) -> Iterator[None]:
    """Send everything written to stdout meanwhile to stderr (no-op when ``enabled`` is False)."""
    if not enabled:
        yield
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no usable file descriptor 1 (an embedding host): Python-level only
        saved = None
    if saved is not None:
        os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
