"""Codenames Pictures: the shipped picture deck and board images."""

from __future__ import annotations

from spymaster_ai.pictures.deck import (
    PICTURE_PREFIX,
    DeckError,
    PictureCard,
    PictureDeck,
    UnknownCardError,
    deck_root,
    is_picture_id,
    load_deck,
    read_deck,
)

__all__ = [
    "PICTURE_PREFIX",
    "DeckError",
    "PictureCard",
    "PictureDeck",
    "UnknownCardError",
    "deck_root",
    "is_picture_id",
    "load_deck",
    "read_deck",
]
