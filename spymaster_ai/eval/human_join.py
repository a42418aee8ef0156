"""Linking rows of the human data by content: a guesser's turn to its giver's turn, rows to games.

Why by content: the task files are shuffled independently (their row orders do not line up),
and the word pool is small (about 100 words), so different games share many words. Two rows
belong together only when the rules of Duet say they can describe one moment of one game.

**Guess row <-> clue row.** A guess row (visible cards, clue, guesses) and a clue row (the
giver's black and tan cards, targets, clue) describe the same turn when the clue is the same
word and the giver's words fit the guesser's board: every target and every tan card is still
visible, and at most one black card is not. (A side's black cards are never removed from the
clue rows, and exactly one of them is green on the other side of the key, RULES.md §3, so that
one may already be covered.) When several clue rows fit with different target sets the turn
is *ambiguous* and left out; identical duplicates are one match.

**Games.** Rows of one game share a board, and the cards still visible only shrink during a
game, so within one task a row whose word set contains another's (or is contained in it) is
from the same game; games are the connected groups of that relation. They are the clusters
of the bootstrap and the unit of the calibration split.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from .human_data import ClueTurn, GuessTurn, TargetTurn

__all__ = [
    "IntendedTurn", "JoinResult", "clue_games", "game_groups", "guess_games", "join_intended_targets",
    "target_games",
]

# RULES.md §3: of a side's 3 black cards exactly 1 is green on the other side (coverable).
MAX_COVERED_BLACK = 1


@dataclass(frozen=True)
class IntendedTurn:
    """A human guess turn whose giver's intended targets are known."""

    guess: GuessTurn
    clue: ClueTurn

    @property
    def targets(self) -> tuple[str, ...]:
        return self.clue.targets


@dataclass(frozen=True)
class JoinResult:
    matched: tuple[IntendedTurn, ...]
    ambiguous: tuple[GuessTurn, ...]  # several fitting clue rows with different targets
    unmatched: tuple[GuessTurn, ...]  # no clue row fits

    def to_json(self) -> dict:
        return {"matched": len(self.matched), "ambiguous": len(self.ambiguous), "unmatched": len(self.unmatched)}


def fits(guess: GuessTurn, clue: ClueTurn) -> bool:
    """Whether the giver's turn ``clue`` can be the turn the guesser of ``guess`` answered."""
    if guess.clue != clue.clue:
        return False
    visible = set(guess.remaining)
    if not visible.issuperset(clue.targets) or not visible.issuperset(clue.tan):
        return False
    return sum(1 for w in clue.black if w not in visible) <= MAX_COVERED_BLACK


def join_intended_targets(guesses: Iterable[GuessTurn], clues: Iterable[ClueTurn]) -> JoinResult:
    """Match every guess turn to the giver's turn it answered (see the module docstring)."""
    by_clue: dict[str, list[ClueTurn]] = defaultdict(list)
    for clue in clues:
        by_clue[clue.clue].append(clue)
    matched, ambiguous, unmatched = [], [], []
    for guess in guesses:
        fitting = [c for c in by_clue.get(guess.clue, ()) if fits(guess, c)]
        target_sets = {frozenset(c.targets) for c in fitting}
        if not fitting:
            unmatched.append(guess)
        elif len(target_sets) > 1:
            ambiguous.append(guess)
        else:
            matched.append(IntendedTurn(guess, min(fitting, key=lambda c: c.row)))
    return JoinResult(tuple(matched), tuple(ambiguous), tuple(unmatched))


def game_groups(word_sets: Sequence[Iterable[str]]) -> np.ndarray:
    """A game id per row (0, 1, ... in order of first appearance): rows linked by set inclusion."""
    sets = [frozenset(s) for s in word_sets]
    parent = list(range(len(sets)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(sets):
        for j in range(i):
            b = sets[j]
            if (a <= b or b <= a) and root(i) != root(j):
                parent[root(i)] = root(j)
    ids: dict[int, int] = {}
    return np.array([ids.setdefault(root(i), len(ids)) for i in range(len(sets))], dtype=np.int64)


def guess_games(turns: Sequence[GuessTurn]) -> np.ndarray:
    """Game ids of guess turns: the visible cards only shrink during a game."""
    return game_groups([t.remaining for t in turns])


def clue_games(turns: Sequence[ClueTurn]) -> np.ndarray:
    """Game (giver side) ids of clue turns: black and tan cards only shrink; targets change."""
    return game_groups([t.black + t.tan for t in turns])


def target_games(turns: Sequence[TargetTurn]) -> np.ndarray:
    """Game (giver side) ids of target choices: every listed card only shrinks."""
    return game_groups([t.green + t.black + t.tan for t in turns])
