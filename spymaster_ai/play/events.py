"""What the person is told: one message a line, of a kind the front end colours."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Event"]


@dataclass(frozen=True)
class Event:
    """One message for the human. ``kind``: info, ai, you, result, error, warning, end."""

    kind: str
    text: str
