"""The clue search: which words are candidates on a board, and the best clues among them.

Why a module of its own: of ~30,000 clue words only a few hundred per own card stand out for
it at all, so each board keeps a shortlist of candidate columns (:class:`Shortlist`) with its
similarity sub-matrices; a clue is then a masked, vectorised selection over them. This module
holds the candidates (legal, not banned, not spelled like a card), the final choice of the
best-scoring clues with their counts (:class:`ClueOption`), and the zero-clue warning (a
search for the word that points at the assassin). :class:`ClueSearch` is a mixin of
:class:`.spymaster.EmbeddingSpymaster`; the scores come from :mod:`.partner_reading` and
:mod:`.count_rule`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..rules.moves import Clue
from ..views import SpymasterView
from .clue_space import BoardMatrices
from .partner_reading import agreement_shares


@dataclass(frozen=True)
class ClueOption:
    """One scored clue: what it aims at, what it is expected to yield, its worst neighbour.

    ``closest_bad_similarity`` is in the spymaster's own scoring units: with
    ``hub_correction`` (the default), how many standard deviations the clue stands above the
    closest bad card's mean similarity over the clue vocabulary; without it, the model's raw
    similarity. Compare it with ``embedding.similarity`` only in the second case.
    """

    word: str
    count: int
    targets: tuple[str, ...]
    score: float
    expected_found: float
    expected_cost: float
    closest_bad: Optional[str]
    closest_bad_similarity: Optional[float]

    @property
    def clue(self) -> Clue:
        return Clue(self.word, self.count)

    def to_json(self) -> dict:
        return {
            "word": self.word,
            "count": self.count,
            "targets": list(self.targets),
            "score": self.score,
            "expected_found": self.expected_found,
            "expected_cost": self.expected_cost,
            "closest_bad": self.closest_bad,
            "closest_bad_similarity": self.closest_bad_similarity,
        }


class Shortlist:
    """The candidate columns worth scoring on one board, with their similarity sub-matrices.

    Why: of ~30,000 words only a few hundred per own card stand out for it at all; scoring
    just their union keeps a clue at a few milliseconds. A word is kept when it is among the
    ``size`` words with the highest board-standardised similarity to some own card, under
    the own model or any partner model.
    """

    def __init__(self, board: BoardMatrices, own_cols: np.ndarray, n_models: int, size: Optional[int], per_clue_spread: bool) -> None:
        self.board = board
        self.own = frozenset(own_cols.tolist())
        n_vocab = board.sims[0].shape[1]
        if size is None or size >= n_vocab:
            self.columns = np.arange(n_vocab)
        else:
            keep = np.zeros(n_vocab, dtype=bool)
            for sim in board.sims:
                z = sim - sim.mean(axis=0)  # ranked within a card's row: the model's scale is moot
                if per_clue_spread:
                    z /= np.maximum(sim.std(axis=0), 1e-6)
                top = np.argpartition(-z[own_cols], size - 1, axis=1)[:, :size]
                keep[top.ravel()] = True
            self.columns = np.flatnonzero(keep)
        self.sims = [np.ascontiguousarray(board.sim(k)[:, self.columns]) for k in range(n_models)]
        self.sims_sq = [x * x for x in self.sims]
        self._evocation: dict[int, np.ndarray] = {}
        self._agreement: Optional[np.ndarray] = None

    def agreement(self, n_partners: int, n_clues: int) -> np.ndarray:
        """:func:`agreement_shares` of the partner models on this board's candidates, built once."""
        if self._agreement is None:
            self._agreement = agreement_shares(np.stack([self.sims[k] for k in range(1, n_partners + 1)]), n_clues)
        return self._agreement

    def evocation(self, k: int) -> np.ndarray:
        """(cards, candidates) under model ``k``: each card's similarity to each candidate clue in
        standard deviations of that card's similarity to the whole clue vocabulary (how strongly
        the card calls the clue to mind). Built once per board, on first use."""
        z = self._evocation.get(k)
        if z is None:
            full = self.board.sim(k)
            mu = full.mean(axis=1, keepdims=True)
            sd = np.maximum(full.std(axis=1, keepdims=True), 1e-9)
            z = self._evocation[k] = (self.sims[k] - mu) / sd
        return z


class ClueSearch:
    """The search half of :class:`.spymaster.EmbeddingSpymaster` (see its parameters)."""

    def _candidates(self, view: SpymasterView, board: BoardMatrices, aim_cols: np.ndarray) -> tuple[Shortlist, np.ndarray]:
        """This board's shortlist (built once per board and set of targets) and, per candidate,
        whether it may be given: legal, not banned, and (``avoid_lookalikes``) spelled unlike
        every visible card when any such word is left."""
        short = self._short
        if short is None or short.board is not board or not set(aim_cols.tolist()) <= short.own:
            short = self._short = Shortlist(board, aim_cols, len(self.partners) + 1, self.shortlist, self.standardise == "board")
        cols = short.columns
        allowed = board.legal.mask(view.visible)[cols] & ~self._banned(view)[cols]
        if not allowed.any():
            raise RuntimeError("no legal clue left in the vocabulary for this board")
        if self.avoid_lookalikes:
            unlike = allowed & ~self._lookalikes(view, cols)
            if unlike.any():
                allowed = unlike
        return short, allowed

    def _top_options(self, view: SpymasterView, board: BoardMatrices, short: Shortlist, aim_cols: np.ndarray,
                     util: np.ndarray, found: np.ndarray, spent: np.ndarray, allowed: np.ndarray,
                     top: int) -> list[ClueOption]:
        """The ``top`` allowed candidates by score (their best count's utility, plus the
        common-word and learned bonuses), best first, each with its targets and worst neighbour."""
        col = board.column
        cols = short.columns
        best_k = np.argmax(util, axis=1)  # first maximum: the smaller count on a tie
        rows = np.arange(util.shape[0])
        assert self._prior is not None
        score = util[rows, best_k] + self.prefer_common * self._prior[cols]
        bonus = self._clue_bonus(cols)
        if bonus is not None:
            score = score + bonus
        score = np.where(allowed, score, -np.inf)
        n_ok = int(allowed.sum())
        top = max(1, min(int(top), n_ok))
        if top < n_ok:
            cut = np.partition(score, -top)[-top]
            chosen = np.flatnonzero(score >= cut)
        else:
            chosen = np.flatnonzero(allowed)
        vocab = self.vocabulary
        chosen = sorted(chosen.tolist(), key=lambda i: (-float(score[i]), vocab[cols[i]]))[:top]

        own_sim = short.sims[0].T  # (candidates, cards) view
        bad_cols = [col[w] for w in view.bad]
        options = []
        for i in chosen:
            k = int(best_k[i]) + 1
            ranked_own = sorted(aim_cols.tolist(), key=lambda c: (-float(own_sim[i, c]), board.words[c]))
            if bad_cols:
                worst = max(bad_cols, key=lambda c: (float(own_sim[i, c]), board.words[c]))
                bad_word, bad_sim = board.words[worst], float(own_sim[i, worst])
            else:
                bad_word, bad_sim = None, None
            options.append(
                ClueOption(
                    word=vocab[cols[i]],
                    count=k,
                    targets=tuple(board.words[c] for c in ranked_own[:k]),
                    score=float(score[i]),
                    expected_found=float(found[i, k - 1]),
                    expected_cost=float(spent[i, k - 1]),
                    closest_bad=bad_word,
                    closest_bad_similarity=bad_sim,
                )
            )
        return options

    def _clue_bonus(self, columns: np.ndarray) -> Optional[np.ndarray]:
        """What each candidate clue (vocabulary ``columns``) earns beyond its expected
        outcome, in own cards: nothing here; a learner adds what it knows of its partner."""
        return None

    def _lookalikes(self, view: SpymasterView, cols: np.ndarray) -> np.ndarray:
        """(candidates,) bool: the candidate clue is spelled like a visible card."""
        from .human.features import spelled_matrix

        vocab = self.vocabulary
        clues = [vocab[c] for c in cols]
        out = spelled_matrix(clues, list(view.visible)).any(axis=1)
        if self.shared_letters:
            out |= np.array([shares_letters(c, view.visible, self.shared_letters) for c in clues], dtype=bool)
        return out

    def warning(self, view: SpymasterView) -> Optional[ClueOption]:
        """A zero clue ("word: 0": none of ours relates to it) that points at the assassin,
        given once, on the first turn with at most ``warn_cards`` own cards left.

        Why: a guesser of another model now and then takes a clue for the assassin where none
        of the partner models would (they put its chance near 0.1%). A warning costs one turn,
        in which the partner still guesses once, and from then on the partner keeps away from
        the cards the word points at (:class:`.guesser.EmbeddingGuesser` ``zero_weight``).
        The word is the legal one the assassin stands out most for under the partner models,
        minus twice how much any own card does. Classic rules and the Kim protocol only: the
        clocks of Duet and of the solo variant cannot spare the turn.
        """
        if not self.warn_cards or view.game == "duet" or view.extra.get("solo"):
            return None
        if not view.own or len(view.own) > self.warn_cards:
            return None
        assassins = [w for w in view.assassins if w not in view.own]
        if not assassins or self._zero_clues(view):
            return None
        board = self._matrices(view)
        a_rows = [board.column[w] for w in assassins]
        own_rows = [board.column[w] for w in view.own]
        z = np.mean([self._board_z(board, k, slice(None)) for k in range(1, len(self.partners) + 1)], axis=0)
        score = z[a_rows].max(axis=0) - 2.0 * np.maximum(z[own_rows].max(axis=0), 0.0)
        assert self._prior is not None
        score = score + self.prefer_common * self._prior
        allowed = board.legal.mask(view.visible) & ~self._banned(view)
        score = np.where(allowed, score, -np.inf)
        top = [j for j in np.argsort(-score)[:8] if np.isfinite(score[j])]
        try:
            clue = self._emit([Clue(self.vocabulary[j], 0) for j in top], view)
        except RuntimeError:  # no legal word among the best: no warning
            return None
        j = self._vocab_index[clue.word]
        worst = assassins[int(np.argmax(z[a_rows, j]))]
        return ClueOption(clue.word, 0, (), float(score[j]), 0.0, 0.0, worst, float(z[a_rows, j].max()))


def _plain(word: str) -> str:
    """Lower case without accents, umlauts or tone marks (GUCKEN and KÜKEN: gucken, kuken)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c)).replace(" ", "")


def shares_letters(clue: str, cards: Sequence[str], n: int) -> bool:
    """Whether ``clue`` shares ``n`` letters in a row, or its first three, with one of ``cards``
    (accents set aside): a spelling link a reader takes for no meaning."""
    a = _plain(clue)
    grams = {a[i:i + n] for i in range(len(a) - n + 1)}
    for card in cards:
        b = _plain(card)
        if a[:3] == b[:3] or any(b[i:i + n] in grams for i in range(len(b) - n + 1)):
            return True
    return False
