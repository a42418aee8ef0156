"""The agent protocols. A researcher's own agent implements one of these to be benchmarked.

Agents keep memory within a game if they like; ``reset`` is called before every game with
that game's seed so that a seeded run is reproducible bit for bit.
"""

from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView


@runtime_checkable
class Spymaster(Protocol):
    def reset(self, seed: int) -> None: ...

    def give_clue(self, view: SpymasterView) -> Clue: ...


@runtime_checkable
class Guesser(Protocol):
    def reset(self, seed: int) -> None: ...

    def next_guess(self, view: GuesserView) -> Optional[str]:
        """A visible card to guess, or None to stop (only honoured when ``view.can_stop``)."""
        ...
