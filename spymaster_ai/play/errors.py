"""The error a session raises when it cannot go on."""

from __future__ import annotations

__all__ = ["SessionError"]


class SessionError(RuntimeError):
    """The session cannot go on (an AI player failed, or a saved game does not fit)."""
