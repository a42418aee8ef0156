"""A chat completions server on loopback that answers from a script: for tests and offline runs.

Why: no model can be reached from the machines that test this project, yet the LLM agents
must be exercised end to end (HTTP, retries, rate limits, timeouts, the cache). This server
speaks the OpenAI chat completions protocol (``POST /v1/chat/completions``) from a thread,
and answers each request with what its script says: a :class:`Reply` from a queue, or from a
function of the request.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterable, Optional, Union

__all__ = ["Reply", "ScriptedChatServer"]


@dataclass
class Reply:
    """One scripted answer: ``content`` as a chat completion, or an HTTP ``status`` with
    ``headers`` (a 429 with Retry-After), or ``raw`` bytes as the body; after ``delay`` s."""

    content: Optional[str] = None
    status: int = 200
    headers: dict = field(default_factory=dict)
    raw: Optional[bytes] = None
    delay: float = 0.0

    def body(self, model: str) -> bytes:
        if self.raw is not None:
            return self.raw
        if self.status != 200:
            return json.dumps({"error": {"message": f"scripted status {self.status}"}}).encode()
        return json.dumps({
            "id": "scripted", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": self.content}, "finish_reason": "stop"}],
        }).encode()


Script = Union[Iterable[Union[Reply, str]], Callable[[dict], Union[Reply, str]]]


class ScriptedChatServer:
    """``with ScriptedChatServer(script) as server: ... server.base_url ...``

    ``script``: answers in order (a string is a completion), or a function of the request
    body. ``requests`` holds every body received (with its Authorization header as
    ``_authorization``), in order.
    """

    def __init__(self, script: Script) -> None:
        self._queue = None if callable(script) else collections.deque(script)
        self._function = script if callable(script) else None
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self.send_response(404)
                    self.end_headers()
                    return
                reply = server._next({**body, "_authorization": self.headers.get("Authorization")})
                if reply.delay:
                    time.sleep(reply.delay)
                data = reply.body(str(body.get("model")))
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _next(self, body: dict) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self._function is not None:
                try:
                    reply = self._function(body)
                except Exception as exc:  # a broken script answers 500, saying why
                    message = json.dumps({"error": {"message": f"script failed: {type(exc).__name__}: {exc}"}})
                    reply = Reply(status=500, raw=message.encode())
            elif self._queue:
                reply = self._queue.popleft()
            else:
                reply = Reply(status=500, raw=b'{"error": "the script has no answer left"}')
        return Reply(content=reply) if isinstance(reply, str) else reply

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> "ScriptedChatServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
