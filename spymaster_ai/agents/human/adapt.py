"""The reader, adapted to one person from the guesses they make.

Why: the shipped reader is fitted to many people; one person reads clues their own way (a
player who takes the card a clue spells like, one who never does). Each of their guesses is
a choice among the visible cards for a clue: the same choice set the reader is fitted on.
So the person's reader is the shipped weights plus an offset, learned online:

* the offset has a Gaussian prior at 0 (precision ``prior``: the shipped weights count as
  that many choices' worth of evidence per direction, so a handful of guesses cannot wreck
  them);
* each choice updates it by a few Newton steps on its conditional log-likelihood plus the
  quadratic (Laplace) approximation of everything before, and its precision grows by the
  choice's Fisher information. Both the offset and the precision are what a profile keeps.

The person's clues teach it too (:meth:`ReaderAdaptation.observe_outcome`). When the AI
guesses for a clue of theirs, whether each card it took was one of the person's (revealed
by the game, so public) is a yes/no outcome whose chance depends on how the person reads:
a card their reading puts first for the clue is likely one they meant. The outcome is the
person's, not the AI's: which card the AI took depends on the AI's reader, but conditioning
on the card taken does not bias the likelihood of its colour. Its chance is
``1 - (1 - p)^r``: the card is among the ``r`` cards the clue still points at, ``p`` its
chance of being the person's next pick. It weighs ``CLUE_WEIGHT`` of a guess: the model of
a clue's targets is rougher than that of a guess, and a miss may be the AI's reading's fault.

Both agents of a person read through the adapted weights: the guesser reading their clues
(how they read a clue is our best model of what they mean by one) and the spymaster
predicting their guesses (:class:`PersonalReader`, :func:`PersonLearner.personalise`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from .reader import ChoiceSet, HumanReader, ReaderParams, softmax

__all__ = ["CLUE_WEIGHT", "PRIOR", "PersonLearner", "PersonalReader", "ReaderAdaptation", "guessable_mask"]

# Prior precision of the offset, per standardised feature. 30, not 10: on people's Duet games
# (experiments/results/learner_prior.md) learning a game's earlier guesses at 10 predicted its
# next guesses slightly worse than not learning (log p -0.041 [-0.084, +0.003] a guess); at 30
# no worse (+0.002 [-0.027, +0.030]), while a person's many games can still move it.
PRIOR = 30.0
CLUE_WEIGHT = 0.5  # what one AI pick on the person's clue weighs, next to one guess of theirs
_EDGE = 1e-6  # outcome chances are kept this far from 0 and 1


class ReaderAdaptation:
    """Offsets to the shipped reader's weights, with their precision, learned choice by choice."""

    def __init__(self, base: ReaderParams, offset: Optional[np.ndarray] = None,
                 precision: Optional[np.ndarray] = None, choices: int = 0, prior: float = PRIOR,
                 steps: int = 4, clues: int = 0, clue_picks: int = 0) -> None:
        n = len(base.weights)
        if prior <= 0:
            raise ValueError(f"prior must be > 0, got {prior}")
        self.base = base
        self.offset = np.zeros(n) if offset is None else np.asarray(offset, dtype=np.float64).copy()
        self.precision = prior * np.eye(n) if precision is None else np.asarray(precision, dtype=np.float64).copy()
        if self.offset.shape != (n,) or self.precision.shape != (n, n):
            raise ValueError(f"an adaptation of {n} features needs {n} offsets and an {n}x{n} precision")
        if not (np.all(np.isfinite(self.offset)) and np.all(np.isfinite(self.precision))):
            raise ValueError("offsets and precision must be finite numbers")
        self.choices = int(choices)  # the person's own guesses learned from
        self.clues = int(clues)  # the person's clues learned from
        self.clue_picks = int(clue_picks)  # the AI's picks on those clues, each an outcome
        self.steps = int(steps)

    @property
    def params(self) -> ReaderParams:
        """The person's reader: the shipped parameters with the offset added to the weights."""
        return replace(self.base, weights=self.base.weights + self.offset)

    def observe(self, choice: ChoiceSet) -> None:
        """Learn from one choice: the card the person took among the cards they could take."""
        if len(choice.x) < 2:
            return  # a choice of one card says nothing
        self._update(choice, lambda z, d: self._choice_terms(z, choice.chosen, d))
        self.choices += 1

    def _choice_terms(self, z: np.ndarray, chosen: int, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gradient, minus the Hessian) of the choice's log-likelihood at offset ``d``."""
        p = softmax(z @ (self.base.weights + d))
        centred = z - p @ z
        return centred[chosen], (centred.T * p) @ centred

    def _update(self, choice: ChoiceSet, terms) -> None:
        """Newton steps on one observation's log-likelihood (``terms(z, d)``: its gradient and
        curvature) plus the quadratic summary of everything before; the curvature at the new
        offset joins the precision."""
        z = (np.asarray(choice.x, dtype=np.float64) - self.base.mean) / self.base.scale
        d0, h0 = self.offset, self.precision
        d = d0.copy()
        for _ in range(self.steps):
            grad_ll, curvature = terms(z, d)
            d = d - np.linalg.solve(h0 + choice.weight * curvature, h0 @ (d - d0) - choice.weight * grad_ll)
        self.offset = d
        self.precision = h0 + choice.weight * terms(z, d)[1]

    def observe_all(self, choices: Iterable[ChoiceSet]) -> None:
        for c in choices:
            self.observe(c)

    def observe_outcome(self, pick: ChoiceSet, hit: bool, targets: int = 1) -> None:
        """Learn from one card someone else took for the person's clue: ``pick.chosen`` among
        the cards then guessable (``pick.x``), ``hit`` whether it was one of the person's, with
        ``targets`` cards the clue still pointed at. Newton (Fisher scoring) steps on the
        outcome's Bernoulli log-likelihood plus the quadratic summary of everything before."""
        if len(pick.x) < 2 or targets < 1:
            return
        self._update(pick, lambda z, d: self._outcome_terms(z, pick.chosen, d, hit, targets))
        self.clue_picks += 1

    def _outcome_terms(self, z: np.ndarray, chosen: int, d: np.ndarray, hit: bool,
                       targets: int) -> tuple[np.ndarray, np.ndarray]:
        """(gradient, Fisher information) of the outcome's log-likelihood at offset ``d``."""
        p = softmax(z @ (self.base.weights + d))
        pa = float(p[chosen])
        dp = pa * (z[chosen] - p @ z)  # d p_chosen / d weights
        q = 1.0 - (1.0 - pa) ** targets
        dq = targets * (1.0 - pa) ** (targets - 1) * dp
        q = min(max(q, _EDGE), 1.0 - _EDGE)
        grad = ((1.0 if hit else 0.0) - q) / (q * (1.0 - q)) * dq
        return grad, np.outer(dq, dq) / (q * (1.0 - q))


class PersonalReader(HumanReader):
    """A reader with a person's weights that shares everything else (models, the cards'
    statistics) with the process's reader, so a personal reader costs no memory or time."""

    def __init__(self, base: HumanReader, adaptation: ReaderAdaptation) -> None:  # noqa: super not called on purpose
        self.base = base
        self.adaptation = adaptation

    @property
    def params(self) -> ReaderParams:  # type: ignore[override]
        return self.adaptation.params

    @property
    def model_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.base.model_names

    @property
    def lang(self) -> str:  # type: ignore[override]
        return self.base.lang

    @property
    def models(self) -> list[Any]:
        return self.base.models

    def reference_vocabulary(self) -> tuple[str, ...]:
        return self.base.reference_vocabulary()

    def reads(self, clue: str) -> bool:
        return self.base.reads(clue)

    def card_stats(self, cards: Sequence[str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        return self.base.card_stats(cards)

    def _features(self, clues: tuple[str, ...], cards: tuple[str, ...], visible: np.ndarray) -> np.ndarray:
        return self.base._features(clues, cards, visible)  # features are the models', not the weights'

    def params_for(self, cards: Sequence[str]) -> ReaderParams:
        return self.adaptation.params


def guessable_mask(view) -> np.ndarray:
    """The cards a guesser may take now: visible, and not marked by their own guesses (Duet)."""
    marked = set(view.marked_by_me)
    visible = set(view.visible)
    return np.array([w in visible and w not in marked for w in view.words], dtype=bool)


class PersonLearner:
    """What ``play`` learns of the person: their guesses and the outcomes of their clues, into
    one adaptation that every `human` agent of the session reads with."""

    def __init__(self, reader: HumanReader, adaptation: Optional[ReaderAdaptation] = None,
                 clue_weight: float = CLUE_WEIGHT) -> None:
        if clue_weight < 0:
            raise ValueError(f"clue_weight must be >= 0, got {clue_weight}")
        self.reader = PersonalReader(reader, adaptation or ReaderAdaptation(reader.params))
        self.clue_weight = float(clue_weight)  # 0: learn from guesses only
        self.learned = 0  # guesses and picks learned in this process (whether there is anything to save)

    @property
    def adaptation(self) -> ReaderAdaptation:
        return self.reader.adaptation

    def personalise(self, agents: dict[str, Any]) -> int:
        """Make the `human` agents among ``agents`` read with the person's weights; how many."""
        from .guesser import HumanGuesser
        from .spymaster import HumanSpymaster

        n = 0
        for agent in agents.values():
            if isinstance(agent, HumanGuesser):
                agent._reader = self.reader
                n += 1
            elif isinstance(agent, HumanSpymaster):
                agent.reader = self.reader
                n += 1
        return n

    def observe_guess(self, view, card: str) -> bool:
        """The person, seeing ``view`` (their own guesser view), took ``card`` for its clue;
        whether it was learned from (an unreadable clue or a lone card teaches nothing)."""
        clue = view.clue
        if clue is None or clue.is_zero or not clue.word or card not in view.words:
            return False
        mask = guessable_mask(view)
        index = view.words.index(card)
        if not mask[index] or mask.sum() < 2 or not self.reader.reads(clue.word):
            return False
        x = self.reader.features(view.words, [clue.word], mask)[0]
        cards = np.flatnonzero(mask)
        self.adaptation.observe(ChoiceSet(x[cards], int(np.flatnonzero(cards == index)[0])))
        self.learned += 1
        return True

    def observe_clue_pick(self, view, card: str, hit: bool) -> bool:
        """The AI, seeing ``view`` (its guesser view, before the pick), took ``card`` for the
        person's current clue, and the game showed whether it was one of the person's cards
        (``hit``); whether it was learned from. Guesses past the clue's count are for earlier
        clues and teach nothing of this one; an unlimited clue counts as pointing at one more."""
        clue = view.clue
        if self.clue_weight == 0 or clue is None or clue.is_zero or not clue.word or card not in view.words:
            return False
        targets = 1 if clue.unlimited else clue.count - view.guesses_made
        mask = guessable_mask(view)
        index = view.words.index(card)
        if targets < 1 or not mask[index] or mask.sum() < 2 or not self.reader.reads(clue.word):
            return False
        x = self.reader.features(view.words, [clue.word], mask)[0]
        cards = np.flatnonzero(mask)
        pick = ChoiceSet(x[cards], int(np.flatnonzero(cards == index)[0]), weight=self.clue_weight)
        self.adaptation.observe_outcome(pick, hit, targets)
        if view.guesses_made == 0:
            self.adaptation.clues += 1
        self.learned += 1
        return True
