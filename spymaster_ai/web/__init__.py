"""Play in a browser: ``spymaster-ai serve`` (a FastAPI app, pages rendered on the server).

It sits beside :mod:`spymaster_ai.play` and uses the same session logic (:mod:`.games` holds
live :class:`~spymaster_ai.play.Session` objects), never the engines' internals; games live in
SQLite (:mod:`.db`); what each viewer may see is decided in :mod:`.present`. See docs/web.md.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
