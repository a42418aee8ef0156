"""What the Duet clock makes a black card cost, counted in greens.

Why: in Duet a bystander only ends a turn (as stopping would), and the timer decides how much
one more green is worth. A pair far ahead of the clock should risk nothing for an extra
green; a pair far behind it loses little by a black, since it would rarely have won anyway.

Model: every turn after this one finds Poisson(mu) greens, mu being the pair's greens per
finished turn with one prior turn of ``PRIOR_PACE`` mixed in; the game is won when the
greens left are found within those turns (sudden death ignored). A black costs P(X >= g),
the win the pair would have had anyway; a green is worth P(X = g - 1), the chance that it
is the one that decides the game (X ~ Poisson(mu * turns after this one), g greens left).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from scipy.special import pdtrc

if TYPE_CHECKING:
    from ..views import GuesserView

DUET_GREENS = 15  # green words on a Duet key, both sides together (RULES.md §3)
PRIOR_PACE = 2.0  # greens per turn assumed before the pair has finished a turn


def black_cost_in_greens(greens_left: int, tokens_left: int, turns_played: int, found_this_turn: int = 0) -> float:
    """P(won anyway) / P(one more green decides it): how many greens a black card is worth
    losing now. 0 when the game cannot be won in time anyway; inf when no single green matters."""
    if greens_left <= 0:
        return math.inf
    found = DUET_GREENS - greens_left
    after = max(int(tokens_left) - 1, 0)
    mu = (found - found_this_turn + PRIOR_PACE) / (max(int(turns_played), 0) + 1)
    lam = max(mu * after, 1e-9)
    if after:
        k = greens_left - 1
        won_anyway = float(pdtrc(k, lam))  # P(X > k), as a ufunc: ~30x faster than scipy.stats
        decisive = math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))
    else:
        won_anyway, decisive = 0.0, float(greens_left == 1)
    if won_anyway == 0.0:
        return 0.0
    return won_anyway / decisive if decisive > 0 else math.inf


def black_cost_of_view(view: "GuesserView") -> float:
    """:func:`black_cost_in_greens` for a Duet guesser's view: the greens found so far are the
    covered ones, this turn's being the guesses made on this clue."""
    found = sum(1 for _, identity in view.revealed if identity == "green")
    return black_cost_in_greens(DUET_GREENS - found, int(view.tokens_left or 0), view.turns_played or 0, view.guesses_made)
