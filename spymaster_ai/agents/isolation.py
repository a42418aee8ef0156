"""Agents in their own process: the simulator's end of ``agents.worker``.

Why: an agent in the simulator's process is trusted, since it can walk ``sys._getframe()`` or
``gc.get_objects()`` to the game and read the key. An isolated agent is built and called in a
child process (``python -m spymaster_ai.agents.worker``) that holds no game; each view is sent
as JSON and each answer comes back as JSON (never pickled: an answer cannot run code here).
The proxies below implement the ``Spymaster`` / ``Guesser`` protocols, so every driver plays
them unchanged.

Failures are the agent's errors, never the run's: an exception in the agent, an answer of the
wrong type, a call that takes longer than ``timeout`` (the process is then stopped) or a
process that dies raises :class:`IsolatedAgentError` naming the role, the spec, the method
and the last lines the process wrote on stderr. The simulator records that as the agent's
error (a forfeit of that game); the next ``reset`` starts a fresh process, so the run goes on.

What the boundary does not do (docs/isolation.md): the child runs as the same user, on the
same filesystem and network, with no sandbox; it can read any file the user can.
"""

from __future__ import annotations

import collections
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Optional

from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView

__all__ = ["DEFAULT_TIMEOUT", "IsolatedAgentError", "IsolatedGuesser", "IsolatedSpymaster", "check_isolated", "isolated"]

# Seconds an agent may take for one move (the IEEE CoG Codenames competition's soft limit).
DEFAULT_TIMEOUT = 60.0
# Seconds for starting the process and building the agent (it may load a model).
BUILD_TIMEOUT = 600.0
# An answer longer than this is refused: a reply is a clue or a card, not a payload.
MAX_ANSWER_BYTES = 1 << 20
_STDERR_LINES = 20
# How the worker learns which process to end with (agents.worker reads them).
PARENT_ENV = "SPYMASTER_AI_WORKER_PARENT"
DEATHSIG_ENV = "SPYMASTER_AI_WORKER_DEATHSIG"


class IsolatedAgentError(RuntimeError):
    """An isolated agent failed: its exception, a wrong answer, a timeout or a dead process."""


class _Process:
    """One worker process and its two JSON-lines pipes."""

    def __init__(self, label: str) -> None:
        self.label = label
        env = dict(os.environ)
        # The child imports what this process imports: the same package, the same sys.path.
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        # The worker ends with this process (agents.worker watches it): it is told whom to watch,
        # and whether PR_SET_PDEATHSIG may be used (that signal follows the thread that started
        # the worker, so only the main thread, whose end is the process's, may ask for it).
        env[PARENT_ENV] = str(os.getpid())
        env[DEATHSIG_ENV] = "1" if threading.current_thread() is threading.main_thread() else "0"
        # Its own session, so its own process group: stop() ends the group, the processes the
        # plug-in started included, and a Ctrl-C at the terminal reaches this process only.
        session = {"start_new_session": True} if os.name == "posix" else {}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spymaster_ai.agents.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **session,
        )
        self._group = bool(session)
        self._buffer = b""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._echo = threading.Thread(target=self._read_stderr, daemon=True)
        self._echo.start()

    def _read_stderr(self) -> None:
        """Keep the last lines for error messages and pass them on (an agent's prints)."""
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.stderr_tail.append(line)
            try:
                sys.stderr.write(f"[{self.label}] {line}\n")
            except (OSError, ValueError):
                pass

    def alive(self) -> bool:
        return self.proc.poll() is None

    def request(self, message: dict, timeout: float) -> dict:
        """Send one request and wait up to ``timeout`` seconds for its answer line."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died("before it was asked") from None
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise _Timeout()
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._died("while it was asked")
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER_BYTES:
                self.stop()
                raise IsolatedAgentError(f"{self.label}: answer longer than {MAX_ANSWER_BYTES} bytes; process stopped")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            self.stop()
            raise IsolatedAgentError(f"{self.label}: unreadable answer {line[:200]!r}; process stopped") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            self.stop()
            raise IsolatedAgentError(f"{self.label}: unreadable answer {line[:200]!r}; process stopped")
        return reply

    def _died(self, when: str) -> IsolatedAgentError:
        code = self.proc.wait()
        self._echo.join(timeout=1.0)
        return IsolatedAgentError(f"{self.label}: its process exited (code {code}) {when}{self._tail()}")

    def _tail(self) -> str:
        lines = [line for line in self.stderr_tail if line.strip()][-5:]
        return "; last lines on stderr: " + " | ".join(lines) if lines else ""

    def stop(self) -> None:
        """End the worker and every process of its group (those the plug-in started)."""
        if self._group:
            try:  # before the worker is reaped: its group id stays its own until then
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass  # the group is empty (the worker and its children are gone)
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass


class _Timeout(Exception):
    pass


class _IsolatedAgent:
    """The common part of the two proxies: one agent, one process, JSON both ways."""

    role = ""

    def __init__(self, spec: str, *, timeout: float = DEFAULT_TIMEOUT, build_timeout: float = BUILD_TIMEOUT) -> None:
        if timeout <= 0 or build_timeout <= 0:
            raise ValueError("timeouts must be positive")
        self.spec = spec
        self.timeout = float(timeout)
        self.build_timeout = float(build_timeout)
        self.restarts = 0
        self._process: Optional[_Process] = None
        self._methods: tuple[str, ...] = ()
        self._start()  # a spec the worker refuses fails here, before any game
        if "choose_cover" in self._methods:
            self.choose_cover = self._choose_cover  # only an agent that chooses covers gets asked

    @property
    def label(self) -> str:
        return f"isolated {self.role} {self.spec}"

    def _start(self) -> None:
        from .registry import AgentSpecError

        process = _Process(self.label)
        try:
            reply = self._ask(process, {"op": "build", "role": self.role, "spec": self.spec}, "build", self.build_timeout)
        except IsolatedAgentError:
            process.stop()
            raise
        if not reply["ok"]:
            process.stop()
            if reply.get("kind") == "spec":
                raise AgentSpecError(reply["error"].partition(": ")[2] or reply["error"])
            raise IsolatedAgentError(f"{self.label}: building it failed: {reply['error']}")
        self._process = process
        self._methods = tuple(reply["result"]["methods"])

    def _ask(self, process: _Process, message: dict, what: str, timeout: float) -> dict:
        try:
            return process.request(message, timeout)
        except _Timeout:
            raise IsolatedAgentError(
                f"{self.label}: no answer to {what} within {timeout:g} s; its process was stopped "
                "(a fresh one starts at the next game)"
            ) from None

    def _call(self, method: str, **payload: Any) -> Any:
        if self._process is None or not self._process.alive():
            raise IsolatedAgentError(f"{self.label}: its process is not running (it restarts at the next game)")
        reply = self._ask(self._process, {"op": "call", "method": method, **payload}, method, self.timeout)
        if not reply["ok"]:
            raise IsolatedAgentError(f"{self.label}: {method} raised {reply['error']}")
        return reply.get("result")

    def reset(self, seed: int) -> None:
        if self._process is None or not self._process.alive():
            if self._process is not None:
                self._process.stop()
                self.restarts += 1
            self._process = None
            self._start()
        self._call("reset", seed=int(seed))

    def _choose_cover(self, view: SpymasterView, candidates: tuple[str, ...]) -> str:
        word = self._call("choose_cover", kind="spymaster", view=view.to_json(), candidates=list(candidates))
        if not isinstance(word, str):
            raise IsolatedAgentError(f"{self.label}: choose_cover answered {word!r}, not a card word")
        return word

    def close(self) -> None:
        """Stop the process (also done when the proxy is collected or the program ends)."""
        if self._process is not None:
            self._process.stop()
            self._process = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"


class IsolatedSpymaster(_IsolatedAgent):
    """A spymaster spec built and played in its own process."""

    role = "spymaster"

    def give_clue(self, view: SpymasterView) -> Clue:
        data = self._call("give_clue", kind="spymaster", view=view.to_json())
        try:
            return Clue.from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise IsolatedAgentError(f"{self.label}: give_clue answered {data!r}: {exc}") from None


class IsolatedGuesser(_IsolatedAgent):
    """A guesser spec built and played in its own process."""

    role = "guesser"

    def next_guess(self, view: GuesserView) -> Optional[str]:
        word = self._call("next_guess", kind="guesser", view=view.to_json())
        if word is not None and not isinstance(word, str):
            raise IsolatedAgentError(f"{self.label}: next_guess answered {word!r}, not a card word or None")
        return word


def isolated(role: str, spec: str, **kwargs: Any) -> _IsolatedAgent:
    """The spec's agent for ``role`` ("spymaster" or "guesser"), in its own process."""
    cls = IsolatedSpymaster if role == "spymaster" else IsolatedGuesser
    return cls(spec, **kwargs)


def check_isolated(role: str, spec: str, timeout: float = BUILD_TIMEOUT) -> dict:
    """Every check of ``check_spec`` on a spec, made in a child process: the agent's module is
    imported there, never here (its import-time code could otherwise patch this process)."""
    from .registry import AgentSpecError

    process = _Process(f"isolated {role} {spec} (check)")
    try:
        reply = process.request({"op": "check", "role": role, "spec": spec}, timeout)
    except _Timeout:
        raise AgentSpecError(f"agent spec {spec!r}: checking it took longer than {timeout:g} s") from None
    except IsolatedAgentError as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from None
    finally:
        process.stop()
    if not reply["ok"]:
        raise AgentSpecError(reply["error"].partition(": ")[2] or reply["error"])
    return reply.get("result") or {}
