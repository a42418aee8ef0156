"""Which candidate clues the legality checker allows on a board, kept up to date cheaply.

Why: a spymaster chooses among ~30,000 words and must never say one the checker refuses.
The batch check runs once per board; when cards are covered only the words refused so far
are checked again (a covered word and its forms become legal; nothing legal becomes
illegal when the visible set shrinks), so later clues cost almost nothing.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..rules.moves import Clue

try:  # the project's checker (rules/legality.py)
    from ..rules.legality import check_clue as _check_clue
    from ..rules.legality import legal_mask as _legal_mask
except ImportError:  # pragma: no cover - only while the checker module is absent
    _check_clue = None
    _legal_mask = None


def _conservative_collides(word: str, board_word: str) -> bool:
    # Stand-in used only without rules/legality.py: refuses a superset of what the rules
    # refuse (equal words, containment, a shared stem of four letters or more).
    b = board_word.replace(" ", "").replace("-", "")
    if word == b or (len(word) >= 3 and word in b) or (len(b) >= 3 and b in word):
        return True
    return len(word) >= 4 and len(b) >= 4 and word[:4] == b[:4]


def legal_mask(candidates: Sequence[str], visible: Sequence[str]) -> np.ndarray:
    """Boolean array: True where the checker allows the candidate with these cards visible."""
    if _legal_mask is not None:
        return np.asarray(_legal_mask(list(candidates), list(visible)), dtype=bool)
    return np.array(
        [not any(_conservative_collides(c, v) for v in visible) for c in candidates], dtype=bool
    )


def is_legal(clue: Clue, visible: Sequence[str]) -> bool:
    """The single-clue verdict, used as a final guard on the clue an agent emits."""
    if _check_clue is not None:
        return bool(_check_clue(clue, list(visible), count=clue.count).legal)
    return bool(legal_mask([clue.word], visible)[0])


class LegalClueMask:
    """The legality of a fixed candidate list on one board, as cards get covered."""

    def __init__(self, candidates: Sequence[str], visible: Sequence[str]) -> None:
        self.candidates = tuple(candidates)
        self._visible = frozenset(visible)
        self._mask = legal_mask(self.candidates, sorted(self._visible))

    def mask(self, visible: Sequence[str]) -> np.ndarray:
        """The mask for ``visible`` (read-only view; recomputed only where it can change)."""
        now = frozenset(visible)
        if now != self._visible:
            if now <= self._visible:
                refused = np.flatnonzero(~self._mask)
                if refused.size:
                    again = legal_mask([self.candidates[i] for i in refused], sorted(now))
                    self._mask[refused] = again
            else:  # cards came back (a different board): start over
                self._mask = legal_mask(self.candidates, sorted(now))
            self._visible = now
        out = self._mask.view()
        out.flags.writeable = False
        return out
