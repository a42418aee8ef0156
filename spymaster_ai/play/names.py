"""The words the AI players see for the cards, and back.

Why: a picture card is stored by its id ("pic:rocket+cat") but an embedding agent can only
read words, so agents get views whose cards are the pictures' captions ("rocket cat"), and
their answers are mapped back to card ids. For word cards the map is the identity and views
pass through unchanged. Only card names change: a view keeps exactly what its role may see.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping, Optional

from ..views import ClueHistoryEntry, GuesserView, SpymasterView

__all__ = ["CardNames", "UnknownCardName"]


class UnknownCardName(ValueError):
    """An agent answered with a word that names no card of the board."""


class CardNames:
    """Card <-> agent word, for one board."""

    def __init__(self, to_agent: Mapping[str, str]) -> None:
        self._to = dict(to_agent)
        self._back = {v: k for k, v in self._to.items()}
        if len(self._back) != len(self._to):
            raise ValueError("two cards would reach the agents under the same name")
        self.identity = all(k == v for k, v in self._to.items())

    def word(self, card: str) -> str:
        return self._to.get(card, card)

    def card(self, word: str) -> str:
        """The card an agent's word names (its exact word as the view gave it)."""
        if word in self._back:
            return self._back[word]
        if self.identity and word in self._to:
            return word
        raise UnknownCardName(f"{word!r} names no card of this board")

    def _cards(self, cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self.word(c) for c in cards)

    def _history(self, history: tuple[ClueHistoryEntry, ...]) -> tuple[ClueHistoryEntry, ...]:
        return tuple(dataclasses.replace(h, guesses=self._cards(h.guesses)) for h in history)

    def spymaster_view(self, view: SpymasterView) -> SpymasterView:
        if self.identity:
            return view
        extra = dict(view.extra)
        if "my_marked" in extra:
            extra["my_marked"] = self._cards(tuple(extra["my_marked"]))
        return dataclasses.replace(
            view,
            words=self._cards(view.words),
            visible=self._cards(view.visible),
            own=self._cards(view.own),
            opponent=self._cards(view.opponent),
            bystanders=self._cards(view.bystanders),
            assassins=self._cards(view.assassins),
            revealed=tuple((self.word(w), i) for w, i in view.revealed),
            history=self._history(view.history),
            partner_marked=self._cards(view.partner_marked),
            extra=extra,
        )

    def guesser_view(self, view: GuesserView) -> GuesserView:
        if self.identity:
            return view
        return dataclasses.replace(
            view,
            words=self._cards(view.words),
            visible=self._cards(view.visible),
            revealed=tuple((self.word(w), i) for w, i in view.revealed),
            history=self._history(view.history),
            marked_by_me=self._cards(view.marked_by_me),
            found_by_me=self._cards(view.found_by_me),
        )

    def cards_of(self, words: Optional[tuple[str, ...]]) -> tuple[str, ...]:
        return tuple(self.card(w) for w in (words or ()))
