"""Refuse oversized request bodies before anything reads them (a pure ASGI middleware).

Why by hand: Starlette has no body-size limit of its own, and a form or JSON body of a move
is a few dozen bytes; a body over :data:`MAX_BODY` is refused with 413 whether it announces
its length or streams in chunks, and the game is never touched.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_BODY", "BodyLimit"]

MAX_BODY = 8 * 1024


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
