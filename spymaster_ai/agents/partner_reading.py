"""How the spymaster's partner models read a clue on this board, and how much each one counts.

Why a module of its own: the guesser inside the spymaster is not a mirror of its own model
(DESIGN.md, Agents). This is everything the spymaster knows of that partner: each partner
model's expected outcome for every candidate clue and count (:mod:`.partner_model` does the
guessing arithmetic), what the partner remembers of my earlier clues and zero-clue warnings,
how strongly a card calls a clue to mind (backward association), and the weights of several
partner models (``adapt``, ``partner_prior``, ``agreement_weight``, a fitted reader).
:class:`PartnerReading` is a mixin of :class:`.spymaster.EmbeddingSpymaster`: it reads that
class's parameters, and subclasses (the learners) override its hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

import numpy as np

from ..views import SpymasterView
from .clue_space import BoardMatrices
from .partner_model import expected_outcome, guesser_reading, mirror_outcome

if TYPE_CHECKING:
    from .clue_search import Shortlist

# The softmax temperature under which the partner's past guesses are scored when ``adapt``
# weighs the partner models: 0.75 fits a guesser of an unseen model (transfer study part B)
# and real people (human Duet split) best, so no model is ruled out by one misread.
_ADAPT_TEMPERATURE = 0.75

# How many of a board's clearest candidate clues ``agreement_weight`` compares the partner models on.
AGREEMENT_CLUES = 300


def agreement_shares(sims: np.ndarray, n_clues: int) -> np.ndarray:
    """(models,): for each model of ``sims`` (models, cards, clues), the share of the
    ``n_clues`` clearest clues (best card furthest above the second under the models' mean
    reading) for which its likeliest card is another model's too, averaged over the others."""
    top2 = np.partition(sims.mean(axis=0), -2, axis=0)[-2:]
    clear = np.argsort(top2[0] - top2[1], kind="stable")[: min(n_clues, sims.shape[2])]
    tops = sims[:, :, clear].argmax(axis=1)
    same = (tops[:, None, :] == tops[None, :, :]).mean(axis=2)
    return (same.sum(axis=1) - 1.0) / max(len(sims) - 1, 1)


# The embedding guesser's own weight on my unfinished clues (its ``history_weight``): what a
# mirror partner remembers (``mirror``).
MIRROR_MEMORY = 1.0
# ... and the common words its hub correction measures each card against (``hub_reference``).
MIRROR_REFERENCE = 2000


class PartnerReading:
    """The partner-model half of :class:`.spymaster.EmbeddingSpymaster` (see its parameters)."""

    def _partner_utilities(
        self, view: SpymasterView, board: BoardMatrices, short: "Shortlist", guessable: np.ndarray, own: np.ndarray,
        value: np.ndarray, cost: np.ndarray, cap: int, weight: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(utility, expected finds, expected cost), each (candidates, counts 1..cap): the partner
        models' expected outcome of every candidate clue, a miss weighed by ``weight``, combined
        over the models (their mean, weighting, worst case or disagreement) and a fitted reader."""
        warned = self._warned_rows(view, board)
        remembered = self._remembered_rows(view, board)
        reader = None if self.mirror or self.standardise != "model" else self._reader_weights()
        readings = []  # each partner model's reading in its own units (for a fitted reader)
        utilities = []
        if self.mirror:
            read = self._remembered_rows(view, board, MIRROR_MEMORY)
        for k in range(1, len(self.partners) + 1):
            if self.mirror:  # the guesser is known: play its guesses out (see the class docstring)
                z = self._mirror_z(board, k, short.columns)
                if warned is not None:
                    z = z - warned[k - 1][:, None]
                if read is not None:
                    z = z + read[k - 1][:, None]
                out = mirror_outcome(z, guessable, own, value, cost, cap, self.mirror_stop, self.mirror_margin)
                utilities.append((out.found - weight * out.cost, out.found, out.cost))
                continue
            spread = board.spread(k) if self.standardise == "model" else None
            sims_k, sims_sq_k = short.sims[k], short.sims_sq[k]
            if warned is not None:  # the partner keeps away from what my zero clues pointed at
                sims_k = sims_k - (warned[k - 1] * board.spread(k))[:, None]
                sims_sq_k = sims_k * sims_k
            if remembered is not None:  # and is drawn to what my unfinished clues point at
                sims_k = sims_k + (remembered[k - 1] * board.spread(k))[:, None]
                sims_sq_k = sims_k * sims_k
            out = expected_outcome(sims_k, guessable, own, value, cost, cap, self.temperature, sims_sq_k, spread)
            utilities.append((out.found - weight * out.cost, out.found, out.cost))
            if reader is not None:
                readings.append(sims_k / np.float32(board.spread(k)))
        if len(utilities) == 1:
            util, found, spent = utilities[0]
        else:
            stacked = np.stack([u[0] for u in utilities])
            factors = [self.partner_weights(view)] if self.adapt > 0 else []
            if self._prior_weights is not None:
                factors.append(self._prior_weights)
            if self.agreement_weight > 0:
                share = short.agreement(len(self.partners), AGREEMENT_CLUES)
                factors.append(np.exp(self.agreement_weight * (share - share.max())))
            weights = None
            if factors:
                product = np.prod(factors, axis=0)
                weights = (product / product.sum()).astype(np.float32)

            def average(arrays: list[np.ndarray]) -> np.ndarray:
                """The partner models' mean, or their weighting (``adapt``, ``partner_prior``,
                ``agreement_weight``)."""
                return np.mean(arrays, axis=0) if weights is None else np.tensordot(weights, np.stack(arrays), axes=1)

            util = stacked.min(axis=0) if self.partner_mode == "min" else average([u[0] for u in utilities])
            if self.disagreement > 0:
                util = util - self.disagreement * stacked.std(axis=0)
            found = average([u[1] for u in utilities])
            spent = average([u[2] for u in utilities])
        if reader is not None:  # a reader fitted to this partner: logits sum_k w_k z_k (see _reader_weights)
            mixed = np.tensordot(reader[1:].astype(np.float32), np.stack(readings), axes=1)
            out = expected_outcome(mixed, guessable, own, value, cost, cap, 1.0, None, 1.0)
            share = float(reader[0])
            util = (1 - share) * util + share * (out.found - weight * out.cost)
            found = (1 - share) * found + share * out.found
            spent = (1 - share) * spent + share * out.cost
        return util, found, spent

    def _association(self, view: SpymasterView, board: BoardMatrices, short: "Shortlist", targets: tuple[str, ...],
                     aim_cols: np.ndarray, util: np.ndarray, cap: int) -> np.ndarray:
        """``util`` with the backward-association terms: a bonus for clues my targets call to
        mind (``backward_strength``), a penalty for clues an assassin does (``assassin_backward``)."""
        col = board.column
        backward, assassin_backward = self._backward_weights(view.game)
        if backward > 0:
            util = util + backward * self._backward(short, aim_cols, cap)
        assassin_cols = np.array(sorted(col[w] for w in view.assassins if w not in targets), dtype=np.intp)
        if assassin_backward > 0 and assassin_cols.size:
            evoked = self._evoked(short, assassin_cols).max(axis=0)
            util = util - assassin_backward * evoked[:, None]
        return util

    def _reader_weights(self) -> Optional[np.ndarray]:
        """A reader fitted to this partner, or ``None`` (here: none): [share, w_1..w_n], the
        guess logits being sum_k w_k z_k (z_k: partner model k's similarity in its own units)
        and ``share`` how much its expected outcome counts next to the partner models' own."""
        return None

    def _backward_weights(self, game: str) -> tuple[float, float]:
        """(``backward_strength``, ``assassin_backward``) for this game: Duet has its own."""
        backward, assassin = self.backward_strength, self.assassin_backward
        if game == "duet":
            if self.duet_backward_strength is not None:
                backward = self.duet_backward_strength
            if self.duet_assassin_backward is not None:
                assassin = self.duet_assassin_backward
        return backward, assassin

    def _standardised_rows(self, short: "Shortlist", cards: np.ndarray) -> list[np.ndarray]:
        """Per partner model, (cards, candidates): :meth:`.clue_search.Shortlist.evocation` for ``cards``."""
        return [short.evocation(k)[cards] for k in range(1, len(self.partners) + 1)]

    def _evoked(self, short: "Shortlist", cards: np.ndarray) -> np.ndarray:
        """(cards, candidates): how strongly each card calls each clue to mind (see
        :meth:`_standardised_rows`), clipped to [0, 5] and averaged over the partner models."""
        return np.mean([np.clip(z, 0.0, 5.0) for z in self._standardised_rows(short, cards)], axis=0)

    def _backward(self, short: "Shortlist", own_cols: np.ndarray, cap: int) -> np.ndarray:
        """(candidates, counts 1..cap): how strongly the count-th most evocative own card evokes
        each clue, in standard deviations of that card's similarity to the whole vocabulary,
        averaged over the partner models and clipped to [0, 5].

        Each own card's similarities are standardised over the full clue vocabulary (a no-op
        when ``hub_correction`` already did it), so a high value means the clue is one of the
        few words the card calls to mind, not merely the closest card to the clue.
        """
        per_model = [-np.sort(-z, axis=0)[:cap].T for z in self._standardised_rows(short, own_cols)]
        return np.clip(np.mean(per_model, axis=0), 0.0, 5.0)

    def partner_weights(self, view: SpymasterView) -> np.ndarray:
        """Weight of each partner model, from how well it predicted this partner's guesses so far.

        Each earlier clue of mine (a word of the clue vocabulary, count above 0) and each guess
        made for it: the log probability of that card under the model's softmax over the cards
        still guessable then (the cards visible now plus every card guessed at or after that
        point, in order), summed, times ``adapt``, then normalised. Uniform without history.
        """
        n = len(self.partners)
        uniform = np.full(n, 1.0 / n)
        if self.adapt == 0 or n < 2 or not view.history:
            return uniform
        board = self._matrices(view)
        col = board.column
        guessed = [w for e in view.history for w in e.guesses if w in col]
        pool = set(col[w] for w in view.visible) | set(col[w] for w in guessed)
        loglik = np.zeros(n)
        used = False
        for entry in view.history:
            clue = entry.clue
            i = self._vocab_index.get(clue.word)
            usable = i is not None and (clue.unlimited or clue.count > 0)
            for word in entry.guesses:
                c = col.get(word)
                if c is None:
                    continue
                if usable and c in pool and len(pool) > 1:
                    rows = np.fromiter(sorted(pool), dtype=np.intp)
                    for k in range(n):
                        sims = board.sim(k + 1)[rows, i].astype(np.float64)
                        logits = (sims - sims.max()) / (_ADAPT_TEMPERATURE * board.spread(k + 1))
                        loglik[k] += logits[int(np.searchsorted(rows, c))] - np.log(np.exp(logits).sum())
                    used = True
                pool.discard(c)
        if not used:
            return uniform
        z = self.adapt * (loglik - loglik.max())
        w = np.exp(z)
        return w / w.sum()

    @staticmethod
    def _zero_clues(view: SpymasterView) -> list[str]:
        return [e.clue.word for e in view.history if e.clue.is_zero]

    @staticmethod
    def _board_z(board: BoardMatrices, k: int, columns: Union[np.ndarray, slice]) -> np.ndarray:
        """(cards, columns) under partner model ``k``: each clue's similarities z-scored across
        the whole board, as the embedding guesser reads a clue (how far a card stands out)."""
        s = board.sim(k)[:, columns]
        return (s - s.mean(axis=0)) / np.maximum(s.std(axis=0), 1e-9)

    def _mirror_z(self, board: BoardMatrices, k: int, columns: np.ndarray) -> np.ndarray:
        """(cards, columns): each candidate clue's board z-scores exactly as the embedding
        guesser of partner model ``k`` reads them (its hub correction against its
        ``MIRROR_REFERENCE`` most common clue words, then z across the whole board), cached per
        board. The spymaster's own matrices standardise over its whole vocabulary instead,
        which ranks a few cards differently: enough to send a bold clue to the assassin."""
        cache = getattr(self, "_mirror_cache", None)
        if cache is not None and cache[0] is board and cache[1] == k and np.array_equal(cache[2], columns):
            return cache[3]
        vocab = self.vocabulary
        z = guesser_reading(self.partners[k - 1], [vocab[c] for c in columns], board.words, MIRROR_REFERENCE).T
        z = np.ascontiguousarray(z, dtype=np.float32)
        self._mirror_cache = (board, k, columns, z)
        return z

    def _remembered_rows(
        self, view: SpymasterView, board: BoardMatrices, weight: Optional[float] = None
    ) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): how far the partner's memory of my unfinished clues lifts
        each card within the count (``memory_weight``, or ``duet_memory_weight`` in Duet, times
        its best positive z for them, as :class:`.guesser.EmbeddingGuesser` adds with its
        ``history_weight``); None without any."""
        if weight is None:
            weight = self.memory_weight
            if view.game == "duet" and self.duet_memory_weight is not None:
                weight = self.duet_memory_weight
        unfinished = [e.clue.word for e in view.history if e.unfinished]
        return self._positive_z_rows(board, unfinished, weight, np.max)

    def _warned_rows(self, view: SpymasterView, board: BoardMatrices) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): how far my earlier zero clues push each card down in
        the partner's eyes (``zero_weight`` times its positive z for them); None without any."""
        return self._positive_z_rows(board, self._zero_clues(view), self.zero_weight, np.sum)

    def _positive_z_rows(self, board: BoardMatrices, words: list[str], weight: float, reduce) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): ``weight`` times ``reduce`` (over ``words``, those in
        the vocabulary) of each card's positive z-score for them; None when nothing counts."""
        words = [w for w in words if w in self._vocab_index]
        if not words or weight == 0:
            return None
        columns = np.array([self._vocab_index[w] for w in words])
        return [
            (weight * reduce(np.maximum(self._board_z(board, k, columns), 0.0), axis=1)).astype(np.float32)
            for k in range(1, len(self.partners) + 1)
        ]
