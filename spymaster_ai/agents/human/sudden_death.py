"""Duet sudden death for the human guesser: which of the partner's cards is left to find.

Why its own module: in sudden death no clue is current, and the question is a different one
from a clue turn's (which card did the partner's *earlier* clues still mean, and how green is
it on their side), answered from the whole history and the key table. :class:`HumanGuesser`
(:mod:`.guesser`) inherits it; the attributes it reads (``reader``, ``leftovers_first``,
``plainest_first``, ``clued_first``, ``leftover_min``, ``leftover_evoke``, ``met_by_rank``,
``_guessable``, ``_partner_side``) are set there.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...views import GuesserView
from .features import median_evoke

__all__ = ["SuddenDeathReading"]

_BASE_GREEN, _BASE_BLACK = 9 / 25, 3 / 25  # a card's chance of green / black on the partner's side, knowing nothing


class SuddenDeathReading:
    """The sudden-death half of :class:`~spymaster_ai.agents.human.guesser.HumanGuesser`."""

    def _sudden_death(self, view: GuesserView) -> Optional[str]:
        """Duet sudden death: the plainest open leftover of the partner's clues, else the card
        likeliest green on the partner's side; pass when none can be.

        Why this mix: a card is green for the partner if one of their clues meant it, or else
        by the key table (my side tells me about theirs). A clue for n cards meant a card j
        found since it was given with chance min(1, p_j / p_n) (:meth:`_found_meant`), p being
        the reader's chance that a person takes j first among the cards still guessable and
        those found, p_n its n-th largest; what is left of
        its count, k = n - the sum of those, is still on the board, and meant card i with
        chance min(1, k * q_i), q read among the cards left. So found cards use up the count
        when they were the ones meant, and leave it on the board when they were not (a
        playtest lost on SAIL while SEEDS: 2 still meant SQUIRREL, its count met by an unmeant
        green), and a clue's open half is read among what is left, not diluted by the half
        found (playtests lost on OASIS and IGLOO with MIST: 2 and FLUFFY: 2 half open). Clues
        are independent. Any wrong card ends the game now, so a black card is no worse than a
        bystander.
        """
        chances, meant = self._sudden_death_reading(view)
        if not chances:
            return None
        # An open leftover of the partner's clues comes before any card no clue points to,
        # however the key table rates that card: playtests lost on CHESS while GUITAR was the
        # open half of NOTE: 2, on WIG with APRON and IRON open from SEWING: 3, and on BICYCLE
        # after ICE: 2 and NORTH: 2 had both pointed at SNOWFLAKE. A person plays the clue.
        leftovers = self._open_leftovers(view, meant) if self.leftovers_first else []
        if leftovers:  # the plainest first, the key table breaking near ties; or the likeliest green
            weigh = (lambda w: meant[w] + 0.1 * chances[w]) if self.plainest_first else chances.get
            return max(leftovers, key=weigh)
        if self.clued_first:
            # a card a clue still means, though it calls no clue to mind as plainly, comes
            # before one no clue means: native playtests lost all 7 sudden deaths of 10 games
            # on cards the person's clues had not pointed at (TAFEL at 0% with GOLD and TASSE
            # open; ZEITUNG with KAROTTE open from KOCHEN: 2 and EINKAUFEN: 2)
            clued = [w for w, m in meant.items() if m >= self.leftover_min]
            if clued:
                return max(clued, key=lambda w: meant[w] + 0.1 * chances[w])
        best = max(chances, key=chances.get)  # first of equals in board order
        return best if chances[best] > 0 else None

    def sudden_death_chances(self, view: GuesserView) -> dict[str, float]:
        """Each guessable card's chance of being green on the partner's side (see above)."""
        return self._sudden_death_reading(view)[0]

    def sudden_death_leftovers(self, view: GuesserView) -> dict[str, float]:
        """The open leftovers of the partner's clues, each with the chance a clue meant it."""
        meant = self._sudden_death_reading(view)[1]
        return {w: meant[w] for w in self._open_leftovers(view, meant)}

    def _open_leftovers(self, view: GuesserView, meant: dict[str, float]) -> list[str]:
        """Cards a clue of the partner's still means with at least ``leftover_min`` chance and
        that call that clue to mind (``leftover_evoke``). Why the second test: among the few
        cards left the reader's shares spread over cards with no link at all (ICE: 2 and
        NORTH: 2 gave FLEET 0.6 on one board), so a share alone does not say a clue points there."""
        cards = [w for w, m in meant.items() if m >= self.leftover_min]
        if not cards:
            return []
        clues = [e.clue.word for e in view.history if not e.clue.is_zero and self.reader.reads(e.clue.word)]
        if not clues:
            return []
        x = self.reader.features(cards, clues)  # (clues, cards, features)
        plain = median_evoke(x, len(self.reader.model_names)).max(axis=0)
        return [w for w, e in zip(cards, plain) if e >= self.leftover_evoke]

    def _found_meant(self, p: np.ndarray, then: np.ndarray, count: int, found: list[int]) -> float:
        """How much of a clue's count the cards found since it was given used up: each found
        card j was meant with chance min(1, p_j / p_n), p_n the clue's n-th likeliest card
        among the cards then guessable (n its count), so its n likeliest cards each use up
        one and an unlikely card (SEAL for SEEDS: 2) little.

        Why not min(1, n p_j), as before 2026-12-05 round 4 (``met_by_rank`` false): a
        clue's share spreads over every card that fits it, so INSECT: 2 met by WASP and
        BUTTERFLY (0.35 each) still meant 0.7 of a card, and sudden death took FROG for it;
        English playtesters saw 3 of 12 sudden-death guesses go to an open leftover."""
        if not self.met_by_rank:
            return sum(min(1.0, count * p[j]) for j in found)
        ranked = np.sort(p[then])[::-1]
        if not len(ranked) or count < 1:
            return 0.0
        nth = ranked[min(count, len(ranked)) - 1]
        return sum(min(1.0, p[j] / nth) if nth > 0 else 1.0 for j in found)

    def _sudden_death_reading(self, view: GuesserView) -> tuple[dict[str, float], dict[str, float]]:
        """(chance green on the partner's side, chance one of their clues meant it) per card."""
        table = self._partner_side(view)
        mask = self._guessable(view)
        column = {w: i for i, w in enumerate(view.words)}
        meant = np.zeros(len(view.words))
        found_for = [[w for w, o in zip(e.guesses, e.outcomes) if o in ("green", "own") and w in column]
                     for e in view.history]
        # the partner's greens I found outside any clue's turn (in sudden death): covered, not
        # green on my side (so not found by the partner for my clues), and in no turn of mine
        in_turns = {w for found in found_for for w in found}
        own = dict(zip(view.words, view.own_side or ()))
        # (a card green on my side too counts when the view says I found it: a German playtest
        # took SKELETT for EICHE: 3 after finding its EICHHÖRNCHEN and WURZEL, green on both sides)
        found_late = [w for w, ident in view.revealed if ident == "green" and w in column
                      and w not in in_turns and (own.get(w) != "green" or w in view.found_by_me)]
        for k, entry in enumerate(view.history):
            if entry.clue.is_zero:
                continue
            found = [w for later in found_for[k:] for w in later] + found_late
            count = len(found_for[k]) + 1 if entry.clue.unlimited else entry.clue.count
            then = mask.copy()
            then[[column[w] for w in found]] = True
            if self.reader.reads(entry.clue.word):
                p = self.reader.probabilities(view.words, entry.clue.word, then)
                p_left = self.reader.probabilities(view.words, entry.clue.word, mask) if mask.any() else p
            else:
                p = then / max(then.sum(), 1)
                p_left = mask / max(mask.sum(), 1)
            # every card found since it was given (for it or for a later clue) was meant by it
            # with chance min(1, p_j / p_n) (_found_meant): a playtest lost on WHEEL with FAST: 3's cards all found
            # under later clues; the rest of its count is still on the board, read among the
            # cards left
            still = max(0.0, count - self._found_meant(p, then, count, [column[w] for w in found]))
            meant = 1.0 - (1.0 - meant) * (1.0 - np.minimum(1.0, still * p_left) * mask)
        chances, meant_by = {}, {}
        for i, word in enumerate(view.words):
            if mask[i]:
                green, _ = table.get(word, (_BASE_GREEN, _BASE_BLACK))
                chances[word] = float(meant[i] + (1.0 - meant[i]) * green)
                meant_by[word] = float(meant[i])
        return chances, meant_by
