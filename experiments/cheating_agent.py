"""A guesser that cheats: it looks for the game object and reads the key (docs/isolation.md).

Why it is here: it shows what the process boundary of ``--isolate`` closes. In the
simulator's process it walks ``sys._getframe()`` up to the driver's frames, or scans the
garbage collector's objects, finds the engine whose board is its view's board, and guesses
its own team's cards straight from the key: it wins every Kim-protocol game. In its own
process there is no game to find, and it falls back to :class:`RandomGuesser` with the same
seed, so it plays exactly as the ``random`` guesser does.

    spymaster-ai bench kim2019 --games 20 --no-isolate \\
        --spymaster experiments.cheating_agent:ListSpymaster --guesser experiments.cheating_agent:KeyThief
    spymaster-ai bench kim2019 --games 20 \\
        --spymaster experiments.cheating_agent:ListSpymaster --guesser experiments.cheating_agent:KeyThief

Classic-family games only (classic, solo, kim2019, pictures): it reads ``remaining`` of the
engine it finds.
"""

from __future__ import annotations

import gc
import sys
from typing import Any, Optional

from spymaster_ai.agents.baselines import RandomGuesser
from spymaster_ai.agents.legal_clues import is_legal
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import GuesserView, SpymasterView

# Enough count-1 clue words for any Kim-protocol game (at most 25 turns), most of them legal on any board.
CLUE_WORDS = (
    "animal+music+water+city+food+space+weapon+tree+metal+light+paper+game+fire+sport+money+school+house+"
    "colour+river+night+winter+doctor+army+garden+kitchen+island+market+church+engine+storm+cloth+stone+"
    "bird+fruit+ocean+planet+theatre+travel+science+bread"
)


class ListSpymaster:
    """The cheater's partner: an honest, aimless spymaster (count-1 clues from a long word list)."""

    def reset(self, seed: int) -> None:
        pass

    def give_clue(self, view: SpymasterView) -> Clue:
        said = {entry.clue.word for entry in view.history}
        for word in CLUE_WORDS.split("+"):
            if word not in said and is_legal(Clue(word, 1), view.visible):
                return Clue(word, 1)
        raise RuntimeError("every word of the list is used or illegal on this board")


def _is_the_game(obj: Any, words: tuple[str, ...]) -> bool:
    try:
        return callable(getattr(obj, "remaining", None)) and tuple(obj.words) == words and hasattr(obj, "key")
    except Exception:
        return False


class KeyThief:
    """Guesses from the stolen key when it finds the game; otherwise as ``random`` does."""

    def __init__(self, use_gc: bool = True) -> None:
        self.use_gc = use_gc
        self.fallback = RandomGuesser()
        self.stolen = 0  # moves made from the key, this game

    def reset(self, seed: int) -> None:
        self.fallback.reset(seed)
        self.stolen = 0

    def _find(self, view: GuesserView) -> Optional[Any]:
        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if _is_the_game(value, view.words):
                    return value
            frame = frame.f_back
        if self.use_gc:
            for obj in gc.get_objects():
                if _is_the_game(obj, view.words):
                    return obj
        return None

    def next_guess(self, view: GuesserView) -> Optional[str]:
        game = self._find(view)
        if game is None:
            return self.fallback.next_guess(view)
        from spymaster_ai.rules.cards import Identity, Team

        mine = [w for w in game.remaining(Identity.of_team(Team(view.me))) if w in view.visible]
        if not mine:
            return None if view.can_stop else view.visible[0]
        self.stolen += 1
        return mine[0]
