"""What one viewer of a game is shown: the person's seat, or anyone else (no token).

Why a separate step: the session's :class:`~spymaster_ai.play.screen.Screen` is the seat's own
view (a guesser's holds no key; a Duet player's holds its side only), and that is what the
seat gets. Anyone without the seat's token gets the public part of it: an uncovered card's
identity is dropped, as are the person's messages, the AI's explanations and the status lines
that count the seat's own key. The whole key is added only once the game is over. Nothing here
reads the game's key: it reads the snapshot the session built from the seat's views.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from ..play.explain import NOTHING_YET
from ..play.leftover import PAST_THE_COUNT, meant_note
from ..play.screen import GREENS_TO_FIND
from .games import Snapshot

__all__ = ["View", "view_of", "view_json", "card_image"]

# status lines a spectator may not see (they count the seat's own side of the key)
PRIVATE_STATUS = (GREENS_TO_FIND,)
IDENTITY_TEXT = {"red": "RED", "blue": "BLUE", "bystander": "BYSTANDER", "assassin": "ASSASSIN", "green": "GREEN",
                 "black": "ASSASSIN"}


@dataclass(frozen=True)
class CellView:
    card: str
    label: str
    covered: bool
    identity: Optional[str]  # None: not the viewer's to know
    marks: tuple[str, ...]
    image: Optional[str]  # the picture's file name under /deck/, for picture cards
    lost_by: Optional[str] = None  # "you" or "AI": this touch lost the game (a public move)

    @property
    def identity_text(self) -> str:
        return IDENTITY_TEXT.get(self.identity or "", "")


@dataclass(frozen=True)
class View:
    seat: bool
    version: int
    thinking: bool
    over: bool
    title: str
    palette: str
    key_legend: Optional[str]
    cells: tuple[CellView, ...]
    status: tuple[str, ...]
    clues: tuple[Any, ...]
    current: Optional[str]
    prompt: Optional[Any]
    log: tuple[Any, ...]
    why: Optional[str]
    summary: tuple[Any, ...]
    key: tuple[tuple[str, str, tuple[CellView, ...]], ...]
    error: Optional[str]


@lru_cache(maxsize=1)
def _deck_images() -> dict[str, str]:
    from ..pictures import load_deck

    try:
        deck = load_deck()
    except Exception:
        return {}
    return {card.id: card.image.name for card in deck}


def card_image(card: str) -> Optional[str]:
    return _deck_images().get(card) if card.startswith("pic:") else None


def _cells(cells, *, seat: bool) -> tuple[CellView, ...]:
    return tuple(
        CellView(c.card, c.label, c.covered, c.identity if (seat or c.covered) else None, tuple(c.marks),
                 card_image(c.card), c.lost_by)
        for c in cells
    )


def spectator_title(title: str) -> str:
    """The header as a spectator reads it: the settings' line speaks to the player ("you are
    player A"), and a spectator is no player."""
    return (title.replace(" - you are player A, the AI is player B", " - a person (player A) plays with the AI (player B)")
            .replace(" - you are the ", " - a person plays the "))


def view_of(snap: Snapshot, *, seat: bool) -> View:
    """The snapshot as ``seat`` (the token holder) or anyone else may see it."""
    screen = snap.screen
    status = tuple(screen.status) if seat else tuple(s for s in screen.status if not s.startswith(PRIVATE_STATUS))
    key = tuple((k.title, k.palette, _cells(k.cells, seat=True)) for k in snap.key) if snap.over else ()
    why = snap.why if seat and snap.why and snap.why != NOTHING_YET else None
    return View(
        seat=seat,
        version=snap.version,
        thinking=snap.thinking,
        over=snap.over,
        title=screen.title if seat else spectator_title(screen.title),
        palette=screen.palette,
        key_legend=screen.key_legend if seat else None,
        cells=_cells(screen.cells, seat=seat),
        status=status,
        clues=tuple(screen.clues),
        current=screen.current,
        prompt=snap.prompt if seat else None,
        log=snap.log if seat else (),
        why=why,
        summary=snap.summary,
        key=key,
        error=snap.error if seat or snap.error is None else "the game cannot go on (an AI player failed)",
    )


def _cell_json(c: CellView) -> dict:
    return {"card": c.card, "label": c.label, "covered": c.covered, "identity": c.identity,
            "marks": list(c.marks), "image": f"/deck/{c.image}" if c.image else None, "lost_by": c.lost_by}


def view_json(game_id: str, v: View) -> dict:
    """The view as the JSON API returns it."""
    return {
        "id": game_id,
        "seat": v.seat,
        "version": v.version,
        "thinking": v.thinking,
        "over": v.over,
        "title": v.title,
        "cells": [_cell_json(c) for c in v.cells],
        "status": list(v.status),
        "clues": [{"giver": c.giver, "clue": c.clue, "guesses": [list(g) for g in c.guesses], "note": c.note,
                   "meant": [m if m != PAST_THE_COUNT else "" for _, _, m in c.shown()],
                   "notes": [meant_note(m) for _, _, m in c.shown()]}
                  for c in v.clues],
        "current": v.current,
        "prompt": {"kind": v.prompt.kind, "text": v.prompt.text, "handover": v.prompt.handover} if v.prompt else None,
        "log": [{"kind": e.kind, "text": e.text} for e in v.log],
        "why": v.why,
        "summary": [{"kind": e.kind, "text": e.text} for e in v.summary],
        "key": [{"title": t, "cells": [_cell_json(c) for c in cells]} for t, _, cells in v.key],
        "error": v.error,
    }
