"""The embedding guesser: rank the cards by meaning, guess while confident, stop otherwise.

Why these rules: a card's raw similarity means little on its own (some words are close to
everything), so each clue's similarities are standardised across the whole board (z-scores:
how far a card stands out for this clue). The guesser guesses up to the count, spends the
classic bonus guess (or, in Duet, further guesses) only on leftovers of earlier clues it is
sure about, and stops when the best remaining card no longer stands out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..views import ClueHistoryEntry, GuesserView
from .duet_prior import partner_side_probabilities
from .vocabulary import SimilarityModel

_FOUND = frozenset({"own", "green"})
# Unconditional partner-side rates on a full Duet board (RULES.md §3): 9 green, 3 black of 25.
_BASE_GREEN, _BASE_BLACK = 9 / 25, 3 / 25


@dataclass(frozen=True)
class CardScore:
    """One candidate card: raw similarity to the clue, its z-score on the board, final score."""

    word: str
    similarity: float
    z: float
    score: float


class EmbeddingGuesser:
    """Guesses the cards that stand out for the clue under one embedding.

    ``stop_threshold``: stop within the count when the best card's score (z units) is below it
    (never before the mandatory first guess). ``bonus_threshold``: the score a leftover of an
    earlier clue needs for a guess beyond the count. ``sudden_death_threshold``: the score a
    card needs in Duet sudden death, where any miss loses (else the guesser passes).
    ``duet_prior``: blend my own key side into the score (``prior_weight`` on the log green
    odds, ``black_weight`` on the black probability).
    """

    def __init__(
        self,
        embedding: SimilarityModel,
        *,
        stop_threshold: float = 0.5,
        bonus_threshold: float = 2.0,
        sudden_death_threshold: float = 2.5,
        use_history: bool = True,
        duet_prior: bool = True,
        prior_weight: float = 1.0,
        black_weight: float = 3.0,
    ) -> None:
        self.embedding = embedding
        self.stop_threshold = float(stop_threshold)
        self.bonus_threshold = float(bonus_threshold)
        self.sudden_death_threshold = float(sudden_death_threshold)
        self.use_history = bool(use_history)
        self.duet_prior = bool(duet_prior)
        self.prior_weight = float(prior_weight)
        self.black_weight = float(black_weight)
        self._board: tuple[str, ...] = ()
        self._rows: dict[str, np.ndarray] = {}

    def reset(self, seed: int) -> None:
        self._board = ()
        self._rows = {}

    # -- similarities -------------------------------------------------------------------

    def _row(self, words: tuple[str, ...], clue: str) -> np.ndarray:
        """Similarity of ``clue`` to every card of the board (cached for the game)."""
        if words != self._board:
            self._board, self._rows = words, {}
        row = self._rows.get(clue)
        if row is None:
            row = np.asarray(self.embedding.similarity([clue], list(words)), dtype=np.float64)[0]
            self._rows[clue] = row
        return row

    def _z(self, view: GuesserView, clue: str) -> dict[str, float]:
        row = self._row(tuple(view.words), clue)
        sd = float(row.std())
        z = (row - row.mean()) / sd if sd > 0 else np.zeros_like(row)
        return dict(zip(view.words, z.tolist()))

    # -- the parts of a score -------------------------------------------------------------

    @staticmethod
    def _earlier(view: GuesserView) -> tuple[ClueHistoryEntry, ...]:
        hist = view.history
        if hist and view.clue is not None and hist[-1].clue == view.clue and len(hist[-1].guesses) == view.guesses_made:
            hist = hist[:-1]  # the current clue, if the engine lists it already
        return hist

    def _leftovers(self, view: GuesserView) -> Optional[dict[str, float]]:
        """Best z-score of each card for any earlier clue that still has cards to find."""
        if not self.use_history:
            return None
        best: Optional[dict[str, float]] = None
        for entry in self._earlier(view):
            clue = entry.clue
            found = sum(1 for o in entry.outcomes if o in _FOUND)
            if clue.unlimited:
                open_ = bool(entry.outcomes) and entry.outcomes[-1] in _FOUND
            else:
                open_ = clue.count > found
            if not open_:
                continue
            z = self._z(view, clue.word)
            best = z if best is None else {w: max(best[w], z[w]) for w in best}
        return best

    def _prior(self, view: GuesserView) -> dict[str, float]:
        if not self.duet_prior:
            return {}
        probs = partner_side_probabilities(view)
        return {
            w: self.prior_weight * math.log(max(pg, 1e-9) / _BASE_GREEN) - self.black_weight * (pb - _BASE_BLACK)
            for w, (pg, pb) in probs.items()
        }

    # -- public -------------------------------------------------------------------------------

    def rank_cards(self, view: GuesserView) -> list[CardScore]:
        """Every card this guesser may guess, best first, scored for the current clue."""
        candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
        prior = self._prior(view)
        if view.clue is None:
            left = self._leftovers(view) or {}
            sims = {w: 0.0 for w in candidates}
            z = {w: left.get(w, 0.0) for w in candidates}
        else:
            row = self._row(tuple(view.words), view.clue.word)
            sims = dict(zip(view.words, row.tolist()))
            z = self._z(view, view.clue.word)
        out = [CardScore(w, sims[w], z[w], z[w] + prior.get(w, 0.0)) for w in candidates]
        out.sort(key=lambda c: (-c.score, c.word))
        return out

    def next_guess(self, view: GuesserView) -> Optional[str]:
        candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
        if not candidates:
            return None
        must = not view.can_stop
        prior = self._prior(view)
        left = self._leftovers(view)

        def best(scores: dict[str, float]) -> tuple[str, float]:
            word = min(candidates, key=lambda w: (-(scores[w] + prior.get(w, 0.0)), w))
            return word, scores[word] + prior.get(word, 0.0)

        clue = view.clue
        if view.sudden_death or clue is None:
            if left is None:
                return best({w: 0.0 for w in candidates})[0] if must else None
            word, score = best(left)
            return word if must or score >= self.sudden_death_threshold else None

        current = self._z(view, clue.word)
        if not clue.unlimited and clue.count == 0:
            # "No card of ours relates to this word": steer away from it, or to leftovers.
            base = left or {w: 0.0 for w in candidates}
            if view.guesses_made == 0:
                return best({w: base[w] - current[w] for w in candidates})[0]
            word, score = best(base)
            return word if must or (left is not None and score >= self.bonus_threshold) else None
        if clue.unlimited:
            merged = {w: max(current[w], left[w]) if left else current[w] for w in candidates}
            word, score = best(merged)
            ok = score >= (self.stop_threshold if view.guesses_made == 0 else self.bonus_threshold)
            return word if must or ok else None
        if view.guesses_made < clue.count:
            word, score = best(current)
            return word if must or score >= self.stop_threshold else None
        if left is None:
            return None
        word, score = best(left)  # the bonus guess: only a leftover of an earlier clue
        return word if must or score >= self.bonus_threshold else None
