"""The process an isolated agent runs in: ``python -m spymaster_ai.agents.worker``.

Why: an agent in the simulator's process can walk its frames (or the garbage collector) to
the game and read the key. Here the agent is built and called in a process that holds no
game at all; it receives each view as JSON and answers in JSON, one object a line
(``agents.isolation`` is the other end). Only data crosses: nothing is pickled either way,
so an agent's answer cannot run code in the simulator's process.

Requests: ``{"op": "build", "role": R, "spec": S}``, ``{"op": "check", ...}``,
``{"op": "call", "method": M, "args": [...]}`` (``reset``, ``give_clue``, ``next_guess``,
``choose_cover``); answers ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": ...}``.
Whatever the agent prints goes to stderr: stdout carries only the answers.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import traceback
from typing import Any, Optional

# Methods an isolated agent may be asked for, and how each one's arguments arrive.
METHODS = ("reset", "give_clue", "next_guess", "choose_cover")


def _view(data: dict) -> Any:
    from ..views import GuesserView, SpymasterView

    kind = data.get("kind")
    if kind == "spymaster":
        return SpymasterView.from_json(data["view"])
    if kind == "guesser":
        return GuesserView.from_json(data["view"])
    raise ValueError(f"unknown view kind {kind!r}")


def _result(method: str, value: Any) -> Any:
    """The agent's answer as JSON, refusing a value of the wrong type here, in its own words."""
    from ..rules.moves import Clue

    if method == "give_clue":
        if not isinstance(value, Clue):
            raise TypeError(f"give_clue returned {type(value).__name__}, not a Clue")
        return value.to_json()
    if method == "next_guess":
        if value is not None and not isinstance(value, str):
            raise TypeError(f"next_guess returned {type(value).__name__}, not a card word or None")
        return value
    if method == "choose_cover":
        if not isinstance(value, str):
            raise TypeError(f"choose_cover returned {type(value).__name__}, not a card word")
        return value
    return None


# How often the fallback watch looks for the parent (seconds).
_PARENT_POLL_SECONDS = 0.5


def _end_group() -> None:
    """Exit now, with every process the agent started: the worker leads its own process group
    (``agents.isolation`` starts it in its own session), so the group is the agent's."""
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        try:
            os.killpg(os.getpid(), signal.SIGKILL)  # this process too
        except OSError:
            pass
    os._exit(1)


def _watch_parent() -> None:
    """End this worker, and the processes its agent started, when the simulator's process is gone.

    Why: an agent stuck in a move outlived a SIGKILLed run (adopted by PID 1, alive minutes
    later), as did the processes a plug-in started. Linux: ``PR_SET_PDEATHSIG`` asks for
    SIGTERM at the parent's death, and its handler ends the group. Everywhere: a daemon thread
    polls ``os.getppid()``, which changes when the parent dies (the worker is adopted).
    """
    from .isolation import DEATHSIG_ENV, PARENT_ENV

    try:
        parent = int(os.environ.get(PARENT_ENV, ""))
    except ValueError:
        return  # started by hand: no run to end with
    if os.environ.get(DEATHSIG_ENV) == "1" and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            if libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0) == 0:
                signal.signal(signal.SIGTERM, lambda *_: _end_group())
        except (OSError, AttributeError, ValueError):
            pass  # the polling thread below still watches
    if os.getppid() != parent:  # the parent died before the watch was set
        _end_group()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_POLL_SECONDS)
        _end_group()

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class _Worker:
    def __init__(self) -> None:
        self.agent: Optional[Any] = None

    def handle(self, request: dict) -> Any:
        op = request.get("op")
        if op in ("build", "check"):
            from .registry import make_guesser, make_spymaster

            role, spec = request["role"], request["spec"]
            make = make_spymaster if role == "spymaster" else make_guesser
            if op == "check":  # the resolved parameters (registry.resolve_spec), computed here
                return make(spec, load="resolve", isolate=False)
            built = make(spec, load=True, isolate=False)
            self.agent = built
            return {"methods": [m for m in METHODS if callable(getattr(built, m, None))]}
        if op == "call":
            if self.agent is None:
                raise RuntimeError("no agent built in this worker")
            method = request["method"]
            if method not in METHODS:
                raise ValueError(f"unknown method {method!r}")
            if method == "reset":
                args: list = [int(request["seed"])]
            elif method == "choose_cover":
                args = [_view(request), tuple(str(c) for c in request["candidates"])]
            else:
                args = [_view(request)]
            return _result(method, getattr(self.agent, method)(*args))
        raise ValueError(f"unknown request {op!r}")


def main() -> int:
    # The answers' channel is a private copy of stdout; fd 1 itself now points at stderr, so
    # a print (or a C library's output) of the agent never corrupts an answer.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _watch_parent()
    worker = _Worker()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            reply: dict = {"ok": True, "result": worker.handle(request)}
        except Exception as exc:  # the agent's own error: reported, the worker lives on
            kind = "spec" if type(exc).__name__ == "AgentSpecError" else "agent"
            reply = {
                "ok": False, "kind": kind, "error": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(limit=8),
            }
        answers.write(json.dumps(reply) + "\n")
    # stdin closed: the simulator is done with this agent (or gone); the processes the agent
    # started must not outlive it.
    answers.flush()
    _end_group_members()
    return 0


def _end_group_members() -> None:
    """Stop the other processes of this worker's group (it leads one only when isolation started it)."""
    if not hasattr(os, "killpg") or os.getpgrp() != os.getpid():
        return
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        os.killpg(os.getpid(), signal.SIGTERM)  # ignored here, ends the others
    except OSError:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
