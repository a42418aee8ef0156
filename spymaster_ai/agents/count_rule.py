"""The count rule: what a miss costs, what a find is worth, and which counts a clue may carry.

Why a module of its own: the count the spymaster announces is the number of targets whose
expected finds best repay the risk-weighted cost of the first wrong card. This is every input
to that trade that does not depend on the partner's reading: the cost of each wrong card
(assassin, opponent, bystander; a Duet bystander by the timer tokens left), the value of each
own card (less for one an unfinished clue already points at), the targets (Assassin Ending:
the assassin), the countdown's smallest worthwhile count, and the ``margin`` rule.
:class:`CountRule` is a mixin of :class:`.spymaster.EmbeddingSpymaster` and reads its parameters.
"""

from __future__ import annotations

import numpy as np

from ..views import SpymasterView
from .clue_space import BoardMatrices
from .duet_clock import DUET_GREENS

# What guessing a wrong card costs, in own cards, beyond the guesses it cuts short (those are
# already missing from the expected finds): the assassin (Duet: a black card) loses the game,
# an opponent agent gives the other team a card and ends the turn, a bystander ends the turn.
# A Duet bystander costs nothing more while a bystander-face timer token is left: its mark is
# the token the turn takes anyway (see CountRule._duet_bystander_cost).
DEFAULT_COSTS: dict[str, dict[str, float]] = {
    "classic": {"assassin": 10.0, "opponent": 1.0, "bystander": 0.25},
    "duet": {"assassin": 10.0, "opponent": 1.0, "bystander": 0.0},
}
# Duet missions, once their bystander-face tokens are spent: a bystander takes two tokens, one
# more turn (about what a turn finds, in own cards).
DUET_EXTRA_TURN_COST = 1.5


class CountRule:
    """The count half of :class:`.spymaster.EmbeddingSpymaster` (see its parameters)."""

    def _card_costs(self, view: SpymasterView, board: BoardMatrices, targets: tuple[str, ...]) -> np.ndarray:
        costs = dict(DEFAULT_COSTS["duet" if view.game == "duet" else "classic"])
        if view.game == "duet":
            costs["bystander"] = self._duet_bystander_cost(view, costs)
        costs.update(self.costs)
        out = np.zeros(len(board.words), dtype=np.float32)
        aimed = set(targets)
        for kind, cards in (("bystander", view.bystanders), ("opponent", view.opponent), ("assassin", view.assassins)):
            for w in cards:
                if w not in aimed:
                    out[board.column[w]] = costs[kind]
        return out

    @staticmethod
    def _duet_bystander_cost(view: SpymasterView, costs: dict[str, float]) -> float:
        """Duet: a bystander's mark is paid with a bystander-face timer token, the turn's own
        token, so it costs nothing beyond the turn while one is left (the standard game: every
        token). A mission that has spent them pays two marked-face tokens instead (one more
        turn: :data:`DUET_EXTRA_TURN_COST`), and loses with fewer than two left."""
        if int(view.extra.get("bystander_tokens_left", 1)) > 0:
            return costs["bystander"]
        if int(view.extra.get("marked_tokens_left", 0)) >= 2:
            return DUET_EXTRA_TURN_COST
        return costs["assassin"]

    @staticmethod
    def _targets(view: SpymasterView) -> tuple[str, ...]:
        """The cards to clue: the own ones; in Assassin Ending, once they are all covered, the assassin."""
        if view.own:
            return view.own
        if view.extra.get("assassin_ending") and view.assassins:
            return view.assassins
        raise ValueError("no own card left to clue")

    def _ambition(self, view: SpymasterView, n_targets: int) -> tuple[int, float]:
        """Countdown: (the smallest count worth giving, the factor on the cost of a miss).

        Solo: each turn that does not win costs one opponent agent, and the last one covered
        loses, so the turns left are the opponent's uncovered agents and the cards to find are
        our own. Duet: every turn takes a timer token, and sudden death after the last one is
        nearly always lost, so the turns left are the tokens and the cards to find are all the
        greens of both sides. When the cards left need more per turn than the pace so far
        (cards found per turn; 2 before any turn), the count rises to what the deadline needs
        and a miss weighs less (it costs a turn that would be lost anyway).
        """
        if not self.countdown:
            return 1, 1.0
        if view.extra.get("solo") and view.opponent:
            turns_left = len(view.opponent)
            turns_played = int(view.extra.get("turns", {}).get(view.me, 0))
            found = sum(1 for e in view.history for o in e.outcomes if o == "own")
            cards_left = n_targets
        elif view.game == "duet" and view.tokens_left and "greens_left" in view.extra:
            turns_left = int(view.tokens_left)
            turns_played = int(view.extra.get("turns_played", 0))
            cards_left = int(view.extra["greens_left"])
            found = DUET_GREENS - cards_left
        else:
            return 1, 1.0
        pace = found / turns_played if turns_played and found else 2.0
        need = cards_left / turns_left
        if need <= pace:
            return 1, 1.0
        return int(np.ceil(need)), float(min(1.0, pace / need))

    def _card_values(self, view: SpymasterView, board: BoardMatrices, own_cols: np.ndarray) -> np.ndarray:
        """1 per own card, ``leftover_value`` for those an unfinished earlier clue still points at."""
        value = np.zeros(len(board.words), dtype=np.float32)
        value[own_cols] = 1.0
        for entry in view.history:
            clue = entry.clue
            if clue.unlimited or clue.count == 0:
                continue
            left = clue.count - entry.found
            if left <= 0:
                continue
            i = self._vocab_index.get(clue.word)
            if i is not None:
                row = np.mean([board.sim(k)[:, i] for k in range(1, len(self.partners) + 1)], axis=0)
            else:
                row = np.asarray(self.embedding.similarity([clue.word], list(board.words)), dtype=np.float32)[0]
            order = sorted(own_cols.tolist(), key=lambda c: (-float(row[c]), board.words[c]))
            pending = np.array(order[:left], dtype=np.intp)
            value[pending] = np.minimum(value[pending], self.leftover_value)
        return value

    def _count_rule(self, util: np.ndarray, min_count: int, board: BoardMatrices, cols: np.ndarray,
                    aim_cols: np.ndarray, visible: np.ndarray, own: np.ndarray, cap: int,
                    allowed: np.ndarray) -> np.ndarray:
        """``util`` (candidates, counts) with the counts this spymaster will not give set to
        -inf: below the countdown's ``min_count``, and (``margin``) those whose targets do not
        stand clear of every card not mine."""
        if min_count > 1:
            util = util.copy()
            util[:, : min_count - 1] = -np.inf
        if self.margin > 0:
            clear = self._clear(board, cols, aim_cols, visible, own, cap)
            if not (clear & allowed[:, None]).any():
                clear[:, 0] = True  # nothing clears the margin: one card, scored as without it
            util = np.where(clear, util, -np.inf)
        return util

    def _clear(self, board: BoardMatrices, cols: np.ndarray, aim_cols: np.ndarray, visible: np.ndarray,
               own: np.ndarray, cap: int) -> np.ndarray:
        """(candidates, cap) bool: whether, under every model (own and partners), the ``count``
        best of my aimed-at cards each lead every visible card not mine by ``margin`` (z-scores
        of the clue's similarities across the visible cards)."""
        shown = np.flatnonzero(visible)
        is_aim = np.isin(shown, aim_cols)
        is_bad = ~own[shown]
        clear = np.ones((len(cols), cap), dtype=bool)
        for k in range(len(self.partners) + 1):
            s = board.sim(k)[np.ix_(shown, cols)]
            z = (s - s.mean(axis=0)) / np.maximum(s.std(axis=0), 1e-9)
            best_bad = z[is_bad].max(axis=0) if is_bad.any() else np.full(len(cols), -np.inf)
            ranked = -np.sort(-z[is_aim], axis=0)  # (aimed cards, candidates), best first
            n = min(cap, ranked.shape[0])
            gaps = np.full((len(cols), cap), -np.inf)
            gaps[:, :n] = (ranked[:n] - best_bad).T
            clear &= gaps >= self.margin
        return clear
