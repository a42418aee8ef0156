"""Which candidate clues the legality checker allows on a board, kept up to date cheaply.

Why: a spymaster chooses among ~30,000 words and must never say one the checker refuses.
The batch check runs once per board; when cards are covered only the words refused so far
are checked again (a covered word and its forms become legal; nothing legal becomes
illegal when the visible set shrinks), so later clues cost almost nothing.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..rules.legality import LegalityOptions, check_clue
from ..rules.legality import legal_mask as _legal_mask
from ..rules.moves import Clue


def _options(lang: str) -> LegalityOptions | None:
    return None if lang == "en" else LegalityOptions(lang=lang)


def legal_mask(candidates: Sequence[str], visible: Sequence[str], lang: str = "en") -> np.ndarray:
    """Boolean array: True where the checker allows the candidate with these cards visible."""
    return np.asarray(_legal_mask(list(candidates), list(visible), _options(lang)), dtype=bool)


def is_legal(clue: Clue, visible: Sequence[str], lang: str = "en") -> bool:
    """The single-clue verdict (count included), a final guard on the clue an agent emits."""
    return bool(check_clue(clue.word, list(visible), _options(lang), count=clue.count).legal)


class LegalClueMask:
    """The legality of a fixed candidate list on one board, as cards get covered."""

    def __init__(self, candidates: Sequence[str], visible: Sequence[str], lang: str = "en") -> None:
        self.lang = lang
        self.candidates = tuple(candidates)
        self._visible = frozenset(visible)
        self._mask = legal_mask(self.candidates, sorted(self._visible), lang)

    def mask(self, visible: Sequence[str]) -> np.ndarray:
        """The mask for ``visible`` (read-only view; recomputed only where it can change)."""
        now = frozenset(visible)
        if now != self._visible:
            if now <= self._visible:
                refused = np.flatnonzero(~self._mask)
                if refused.size:
                    again = legal_mask([self.candidates[i] for i in refused], sorted(now), self.lang)
                    self._mask[refused] = again
            else:  # cards came back (a different board): start over
                self._mask = legal_mask(self.candidates, sorted(now), self.lang)
            self._visible = now
        out = self._mask.view()
        out.flags.writeable = False
        return out
