"""Refuse oversized or too deeply nested request bodies before anything reads them, and give
every response (errors included) the page's security headers: pure ASGI middlewares.

Why by hand: Starlette has no body-size limit of its own, and a form or JSON body of a move
is a few dozen bytes; a body over :data:`MAX_BODY` is refused with 413 whether it announces
its length or streams in chunks, and the game is never touched.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_BODY", "MAX_DEPTH", "SECURITY_HEADERS", "BodyLimit", "HeadAsGet", "SecurityHeaders", "json_depth",
           "secure"]

MAX_BODY = 8 * 1024
# How deep a JSON body may nest: the API's bodies are flat objects; 1,000 levels made the
# parser recurse until a RecursionError (a 500) before this bound.
MAX_DEPTH = 8

SECURITY_HEADERS: dict[str, str] = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"),
}


def json_depth(raw: bytes | str, limit: int = MAX_DEPTH) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped), counting stops
    once past ``limit``: a cheap scan, no recursion, before the text is parsed."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def secure(headers: Any) -> None:
    """Set the security headers (and no-store unless the response caches on purpose) on a
    response's ``headers`` (Starlette's MutableHeaders)."""
    if "cache-control" not in headers:
        headers["Cache-Control"] = "no-store"
    for name, value in SECURITY_HEADERS.items():
        headers[name] = value


class SecurityHeaders:
    """Every response, refusals of other middlewares and 500s included, carries the headers."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                from starlette.datastructures import MutableHeaders

                secure(MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_secured)


class HeadAsGet:
    """HEAD is answered as GET without the body (RFC 9110): the routes are declared GET only."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: dict) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


class _TooLarge(Exception):
    pass


class BodyLimit:
    def __init__(self, app: Any, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_body
            except ValueError:
                too_big = True
            if too_big:
                await self._refuse(scope, send)
                return
        seen = 0
        started = False

        async def limited_receive() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge()
            return message

        async def tracked_send(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope: dict, send: Any) -> None:
        message = f"the request body is too large (at most {self.max_body} bytes): nothing was played"
        accept = dict(scope.get("headers") or []).get(b"accept", b"")
        if scope.get("path", "").startswith("/api/") or b"json" in accept:
            body, kind = json.dumps({"error": message}).encode(), b"application/json"
        else:
            body, kind = (f"<!doctype html><title>Too large</title><p>{message}</p>").encode(), b"text/html; charset=utf-8"
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
