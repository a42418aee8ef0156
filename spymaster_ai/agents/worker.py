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
import sys
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


class _Worker:
    def __init__(self) -> None:
        self.agent: Optional[Any] = None

    def handle(self, request: dict) -> Any:
        op = request.get("op")
        if op in ("build", "check"):
            from .registry import make_guesser, make_spymaster

            role, spec = request["role"], request["spec"]
            make = make_spymaster if role == "spymaster" else make_guesser
            built = make(spec, load=op == "build", isolate=False)
            if op == "check":
                return None
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
