"""Baselines every benchmark table needs: a random guesser and a one-card-at-a-time spymaster.

Why: a win rate means little without the floor it is measured against.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView
from .clue_space import ClueVocabularyAgent
from .vocabulary import DEFAULT_MIN_ZIPF, SimilarityModel


class RandomGuesser:
    """Guesses uniformly among the cards it may guess, up to the clue's count, then stops.

    Seeded by ``reset(seed)`` (``numpy.random.default_rng``), so a seeded game replays exactly.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def next_guess(self, view: GuesserView) -> Optional[str]:
        marked = set(view.marked_by_me)
        candidates = sorted(w for w in view.visible if w not in marked)
        if not candidates:
            return None
        clue = view.clue
        wanted = 1 if clue is None or clue.unlimited or clue.count == 0 else clue.count
        if view.can_stop and view.guesses_made >= wanted:
            return None
        return candidates[int(self._rng.integers(len(candidates)))]


class ClosestCardSpymaster(ClueVocabularyAgent):
    """Always clues its single closest own card with count 1 (the legal word nearest any own card)."""

    def __init__(
        self, embedding: SimilarityModel, *, vocabulary_size: Optional[int] = 30000, min_zipf: Optional[float] = DEFAULT_MIN_ZIPF
    ) -> None:
        super().__init__(embedding, [], vocabulary_size, min_zipf)

    def give_clue(self, view: SpymasterView) -> Clue:
        if not view.own:
            raise ValueError("no own card left to clue")
        board = self._matrices(view)
        own_cols = sorted(board.column[w] for w in view.own)
        best = board.sim(0)[own_cols].max(axis=0)
        allowed = board.legal.mask(view.visible) & ~self._banned(view)
        best = np.where(allowed, best, -np.inf)
        vocab = self.vocabulary
        order = np.argsort(-best, kind="stable")[:8]  # vocabulary order breaks ties
        return self._emit([Clue(vocab[i], 1) for i in order if np.isfinite(best[i])], view)
