"""What a Duet guesser's own key side says about the partner's side of each card.

Why: the two sides are linked by the RULES.md §3 table (a card green on my side is green on
the partner's side 3 times in 9, black 1 in 9; black on mine is green 1 in 3 and black 1 in
3; bystander on mine is green 5 in 13, black 1 in 13). A guess is judged by the partner's
side, so my side is a prior worth blending with the clue similarity, above all to steer away
from my own black cards.

The table's counts are updated with what this guesser has learnt: its own earlier guesses
revealed the partner-side identity of those cards. Cards covered by the partner's guesses
(partner side unknown) are removed from each row in proportion to what is left.
"""

from __future__ import annotations

import numpy as np

from ..rules.cards import DUET_TABLE, DuetIdentity
from ..views import GuesserView

_IDS = (DuetIdentity.GREEN, DuetIdentity.BLACK, DuetIdentity.BYSTANDER)
# RULES.md §3 is symmetric (A->B equals B->A), so one table serves both players.
_TABLE = np.array([[DUET_TABLE[a][b] for b in _IDS] for a in _IDS], dtype=np.float64)
_OUTCOME = {"green": 0, "black": 1, "bystander": 2}


def partner_side_table() -> np.ndarray:
    """P(partner-side identity | my-side identity) from the full table: rows/cols green, black, bystander."""
    return _TABLE / _TABLE.sum(axis=1, keepdims=True)


def partner_side_probabilities(view: GuesserView) -> dict[str, tuple[float, float]]:
    """For each card I may still guess: (P(green), P(black)) on the partner's side.

    Empty when the view carries no usable own side (not Duet, or a side of the wrong length).
    """
    side = view.own_side
    if side is None or len(side) != len(view.words):
        return {}
    mine = {w: _IDS.index(DuetIdentity(s)) for w, s in zip(view.words, side)}
    known: dict[str, int] = {}  # partner-side identity learnt from my own guesses
    for entry in view.history:
        for word, outcome in zip(entry.guesses, entry.outcomes):
            if outcome in _OUTCOME:
                known[word] = _OUTCOME[outcome]
    for word in view.marked_by_me:
        known[word] = _OUTCOME["bystander"]
    remaining = _TABLE.copy()
    for word, ident in known.items():
        if word in mine:
            remaining[mine[word], ident] -= 1
    candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
    covered_unknown = np.zeros(3)
    visible = set(view.visible)
    for word in view.words:
        if word not in visible and word not in known:
            covered_unknown[mine[word]] += 1
    remaining = np.maximum(remaining, 0.0)
    row = remaining.sum(axis=1, keepdims=True)
    share = np.divide(remaining, row, out=np.zeros_like(remaining), where=row > 0)
    remaining = np.maximum(remaining - share * covered_unknown[:, None], 0.0)
    row = remaining.sum(axis=1, keepdims=True)
    probs = np.divide(remaining, row, out=partner_side_table(), where=row > 0)
    return {w: (float(probs[mine[w], 0]), float(probs[mine[w], 1])) for w in candidates}
