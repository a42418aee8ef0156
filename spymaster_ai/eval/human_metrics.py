"""How human-like an agent is, measured on recorded human Duet turns (four figures).

Why these four: they are the four decisions a Duet player makes. Each figure comes with its
sample size and a seeded, game-resampling bootstrap 95% interval; turns the agent cannot be
scored on are counted by reason, never dropped silently.

* **guessing**: for each human clue and board, does the agent's first guess equal the
  human's (top-1 agreement), and the reciprocal rank of the human's first guess in the
  agent's ranking (MRR).
* **clue giving**: for each human turn (targets, black and tan to avoid), the rank of the
  human's clue among the agent's scored candidate clues: MRR (reciprocal rank 0 beyond the
  ranked depth) and the shares in the top 10 and top 100.
* **understanding human clues**: on turns whose intended targets are known (see
  :mod:`.human_join`), the share of the agent's first guesses that hit an intended target,
  beside the human guessers' share on the same turns, and the paired difference.
* **target choice**: Jaccard overlap between the cards the agent aims at on a side and the
  ones the human chose, and the share of exact matches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence

from .adapter import AgentAdapter, CardRanker, Unscorable
from .bootstrap import Estimate, estimate_difference, estimate_mean
from .human_data import ClueTurn, GuessTurn, TargetTurn
from .human_join import JoinResult, clue_games, guess_games, target_games

__all__ = [
    "DEFAULT_DEPTH",
    "ClueGivingResult",
    "GuessingResult",
    "TargetChoiceResult",
    "UnderstandingResult",
    "clue_counts",
    "clue_giving_metrics",
    "guessing_metrics",
    "jaccard",
    "target_choice_metrics",
    "understanding_metrics",
]

# Candidate clues ranked per turn; a human clue ranked lower counts reciprocal rank 0.
DEFAULT_DEPTH = 1000


def _tally(counter: Counter) -> dict[str, int]:
    return dict(sorted(counter.items()))


# -- guessing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuessOutcome:
    """One scored guess turn: the human's first guess, the agent's, and the human's rank."""

    row: int
    clue: str
    human: str
    agent: str
    rank: int  # 1-based rank of the human's first guess in the agent's ranking


@dataclass(frozen=True)
class GuessingResult:
    top1: Estimate
    mrr: Estimate
    turns: int
    unscorable: dict[str, int]
    outcomes: tuple[GuessOutcome, ...] = field(repr=False, default=())

    def to_json(self) -> dict:
        return {"top1": self.top1.to_json(), "mrr": self.mrr.to_json(), "turns": self.turns,
                "scored": self.top1.n, "unscorable": self.unscorable}


def guessing_metrics(
    turns: Sequence[GuessTurn], ranker: CardRanker, *, counts: Optional[Mapping[int, int]] = None, seed: int = 0,
) -> GuessingResult:
    """Top-1 agreement and MRR of the human's first guess. ``counts``: the clue's number per
    guess row where the join knows it (the rows themselves do not store it); else 1."""
    games = guess_games(turns)
    top1, rr, kept, outcomes = [], [], [], []
    skipped: Counter = Counter()
    for i, turn in enumerate(turns):
        human = turn.first_guess
        if human is None:
            skipped["no-human-guess"] += 1
            continue
        try:
            ranked = ranker.rank_cards(turn.remaining, turn.clue, (counts or {}).get(turn.row, 1))
        except Unscorable as exc:
            skipped[exc.reason] += 1
            continue
        rank = ranked.index(human) + 1
        top1.append(float(rank == 1))
        rr.append(1.0 / rank)
        kept.append(games[i])
        outcomes.append(GuessOutcome(turn.row, turn.clue, human, ranked[0], rank))
    return GuessingResult(
        top1=estimate_mean(top1, kept, seed), mrr=estimate_mean(rr, kept, seed), turns=len(turns),
        unscorable=_tally(skipped), outcomes=tuple(outcomes),
    )


# -- clue giving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClueOutcome:
    row: int
    targets: tuple[str, ...]
    human: str
    agent: str  # the agent's best clue
    rank: Optional[int]  # None: below the ranked depth


@dataclass(frozen=True)
class ClueGivingResult:
    mrr: Estimate
    top10: Estimate
    top100: Estimate
    turns: int
    depth: int
    beyond_depth: int
    unscorable: dict[str, int]
    outcomes: tuple[ClueOutcome, ...] = field(repr=False, default=())

    def to_json(self) -> dict:
        return {"mrr": self.mrr.to_json(), "top10": self.top10.to_json(), "top100": self.top100.to_json(),
                "turns": self.turns, "scored": self.mrr.n, "depth": self.depth,
                "beyond_depth": self.beyond_depth, "unscorable": self.unscorable}


def clue_giving_metrics(
    turns: Sequence[ClueTurn], adapter: AgentAdapter, *, depth: int = DEFAULT_DEPTH, seed: int = 0,
) -> ClueGivingResult:
    """Where the human's clue ranks among the agent's candidate clues for the same targets."""
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    games = clue_games(turns)
    rr, top10, top100, kept, outcomes = [], [], [], [], []
    skipped: Counter = Counter()
    beyond = 0
    for i, turn in enumerate(turns):
        try:
            adapter.check_clue_candidate(turn.clue, turn.targets, turn.black, turn.tan)
            ranking = adapter.rank_clues(turn.targets, turn.black, turn.tan, depth)
        except Unscorable as exc:
            skipped[exc.reason] += 1
            continue
        rank = ranking.rank_of(turn.clue)
        beyond += rank is None
        rr.append(0.0 if rank is None else 1.0 / rank)
        top10.append(float(rank is not None and rank <= 10))
        top100.append(float(rank is not None and rank <= 100))
        kept.append(games[i])
        best = ranking.words[0] if ranking.words else ""
        outcomes.append(ClueOutcome(turn.row, turn.targets, turn.clue, best, rank))
    return ClueGivingResult(
        mrr=estimate_mean(rr, kept, seed), top10=estimate_mean(top10, kept, seed),
        top100=estimate_mean(top100, kept, seed), turns=len(turns), depth=depth, beyond_depth=beyond,
        unscorable=_tally(skipped), outcomes=tuple(outcomes),
    )


# -- understanding human clues -------------------------------------------------------------------


@dataclass(frozen=True)
class UnderstandingOutcome:
    row: int
    clue: str
    targets: tuple[str, ...]
    human: str
    agent: str


@dataclass(frozen=True)
class UnderstandingResult:
    agent: Estimate  # share of the agent's first guesses on an intended target
    human: Estimate  # the same share for the human guessers, same turns
    gap: Estimate  # agent - human, paired
    join: dict[str, int]
    unscorable: dict[str, int]
    outcomes: tuple[UnderstandingOutcome, ...] = field(repr=False, default=())

    def to_json(self) -> dict:
        return {"agent_hit_rate": self.agent.to_json(), "human_hit_rate": self.human.to_json(),
                "gap": self.gap.to_json(), "join": self.join, "scored": self.agent.n,
                "unscorable": self.unscorable}


def understanding_metrics(
    join: JoinResult, ranker: CardRanker, *, seed: int = 0, rows: Optional[set[int]] = None,
) -> UnderstandingResult:
    """Agent and human first-guess hit rates on the intended targets (``rows``: only these
    guess rows, e.g. the test part of a calibration split)."""
    matched = [m for m in join.matched if rows is None or m.guess.row in rows]
    games = guess_games([m.guess for m in matched])
    agent_hits, human_hits, kept, outcomes = [], [], [], []
    skipped: Counter = Counter()
    for i, turn in enumerate(matched):
        human = turn.guess.first_guess
        if human is None:
            skipped["no-human-guess"] += 1
            continue
        try:
            first = ranker.rank_cards(turn.guess.remaining, turn.guess.clue, len(turn.targets))[0]
        except Unscorable as exc:
            skipped[exc.reason] += 1
            continue
        agent_hits.append(float(first in turn.targets))
        human_hits.append(float(human in turn.targets))
        kept.append(games[i])
        outcomes.append(UnderstandingOutcome(turn.guess.row, turn.guess.clue, turn.targets, human, first))
    join_counts = join.to_json() if rows is None else {
        "matched": len(matched),
        "ambiguous": sum(1 for g in join.ambiguous if g.row in rows),
        "unmatched": sum(1 for g in join.unmatched if g.row in rows),
    }
    return UnderstandingResult(
        agent=estimate_mean(agent_hits, kept, seed), human=estimate_mean(human_hits, kept, seed),
        gap=estimate_difference(agent_hits, human_hits, kept, seed), join=join_counts,
        unscorable=_tally(skipped), outcomes=tuple(outcomes),
    )


# -- target choice ------------------------------------------------------------------------------


def jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    """|A ∩ B| / |A ∪ B| (1.0 for two empty sets)."""
    sa, sb = set(a), set(b)
    union = sa | sb
    return len(sa & sb) / len(union) if union else 1.0


@dataclass(frozen=True)
class TargetOutcome:
    row: int
    human: tuple[str, ...]
    agent: tuple[str, ...]
    jaccard: float


@dataclass(frozen=True)
class TargetChoiceResult:
    jaccard: Estimate
    exact: Estimate
    agent_count: Estimate  # mean number of cards the agent aims at
    human_count: Estimate
    turns: int
    unscorable: dict[str, int]
    outcomes: tuple[TargetOutcome, ...] = field(repr=False, default=())

    def to_json(self) -> dict:
        return {"jaccard": self.jaccard.to_json(), "exact": self.exact.to_json(),
                "agent_count": self.agent_count.to_json(), "human_count": self.human_count.to_json(),
                "turns": self.turns, "scored": self.jaccard.n, "unscorable": self.unscorable}


def target_choice_metrics(turns: Sequence[TargetTurn], adapter: AgentAdapter, *, seed: int = 0) -> TargetChoiceResult:
    """Jaccard overlap between the agent's and the human's chosen targets on each side."""
    games = target_games(turns)
    scores, exact, n_agent, n_human, kept, outcomes = [], [], [], [], [], []
    skipped: Counter = Counter()
    for i, turn in enumerate(turns):
        try:
            chosen = adapter.choose_targets(turn.green, turn.black, turn.tan)
        except Unscorable as exc:
            skipped[exc.reason] += 1
            continue
        j = jaccard(chosen, turn.chosen)
        scores.append(j)
        exact.append(float(set(chosen) == set(turn.chosen)))
        n_agent.append(float(len(chosen)))
        n_human.append(float(len(turn.chosen)))
        kept.append(games[i])
        outcomes.append(TargetOutcome(turn.row, turn.chosen, chosen, j))
    return TargetChoiceResult(
        jaccard=estimate_mean(scores, kept, seed), exact=estimate_mean(exact, kept, seed),
        agent_count=estimate_mean(n_agent, kept, seed), human_count=estimate_mean(n_human, kept, seed),
        turns=len(turns), unscorable=_tally(skipped), outcomes=tuple(outcomes),
    )


def clue_counts(join: JoinResult) -> dict[int, int]:
    """The clue's number (its target count) per guess row, where the join knows it."""
    return {m.guess.row: len(m.targets) for m in join.matched}

