"""What the AI tells the person about its play: the targets of its clues and how it read theirs.

Why apart from the session: these are courtesies with one rule of fairness. An AI's target
that is not yet found is a card of its key, so during play only targets already covered are
named (the whole list comes with the summary at the end), and an explanation must never
break the game: an agent that cannot say gives no line.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Optional, Sequence

import numpy as np

from ..rules.moves import Clue

__all__ = ["model_reading_of", "reading_of", "targets_of", "why_text"]

NOTHING_YET = "Nothing to explain yet: no AI clue has finished, and the AI has read none of yours."


def why_text(
    finished: Sequence[tuple[str, str, tuple[str, ...]]],
    readings: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    covered: Collection[str],
    label: Callable[[str], str],
) -> str:
    """One line per finished AI clue (``(giver, clue, targets)``: only covered targets named,
    the others counted) and per reading of the person's clues (``(clue, [(card, p), ...])``)."""
    lines = []
    for giver, clue, targets in finished:
        if not targets:
            continue
        found = [label(t) for t in targets if t in covered]
        rest = len(targets) - len(found)
        if not found:
            lines.append(f"{giver}: {clue.upper()}: {'its target is' if rest == 1 else f'its {rest} targets are'} not found yet")
            continue
        aimed = ", ".join(found) + (f" (and {rest} not found yet)" if rest else "")
        lines.append(f"{giver}: {clue.upper()} aimed at {aimed}")
    for clue, reading, *source in readings:
        # the chances before its first pick: later picks are read again without the cards taken
        shares = ", ".join(f"{label(card)} {share:.0%}" for card, share in reading)
        if source and source[0]:  # a model's scores, not a reader fitted to people
            lines.append(f"your {clue.upper()}: how the AI read it (its word model's odds, not fitted to "
                         f"people): {shares}")
        else:
            lines.append(f"your {clue.upper()}: how the AI read it, its likeliest cards: {shares}")
    return "\n".join(lines) if lines else NOTHING_YET


def reading_of(agent: Any, view: Any) -> Optional[list[tuple[str, float]]]:
    """The AI guesser's three likeliest cards for the clue it is about to guess, with their
    probabilities (its ``reading``), or None: not its first guess, or it cannot say."""
    method = getattr(agent, "reading", None)
    if view.clue is None or view.guesses_made or not callable(method):
        return None
    try:
        return list(method(view))[:3]
    except Exception:  # the courtesy must never break the game
        return None


def model_reading_of(agent: Any, view: Any) -> Optional[tuple[list[tuple[str, float]], str]]:
    """For a guesser with no reader fitted to people (the embedding guessers that play boards
    in other languages): its three best cards for the clue with the softmax of its scores as
    shares, and the name of its model; None when it cannot say or it is not its first guess."""
    rank = getattr(agent, "rank_cards", None)
    if view.clue is None or view.guesses_made or not callable(rank) or callable(getattr(agent, "reading", None)):
        return None
    try:
        ranked = list(rank(view))
        if not ranked:
            return None
        scores = np.array([c.score for c in ranked], dtype=np.float64)
        shares = np.exp(scores - scores.max())
        shares /= shares.sum()
        model = getattr(getattr(agent, "embedding", None), "name", None) or type(agent).__name__
        return [(c.word, float(p)) for c, p in zip(ranked[:3], shares[:3])], str(model)
    except Exception:  # the courtesy must never break the game
        return None


def targets_of(agent: Any, view: Any, clue: Clue, ranked: Any = None) -> tuple[str, ...]:
    """The cards the AI spymaster aimed ``clue`` at, from its ranked options (``ranked``, if
    the session holds them already); () when it cannot say."""
    if not callable(getattr(agent, "rank_clues", None)):
        return ()
    try:
        options = ranked if ranked is not None else agent.rank_clues(view, top=8)
        for option in options:
            if option.word == clue.word:
                return tuple(option.targets)
    except Exception:  # the courtesy must never break the game
        return ()
    return ()
