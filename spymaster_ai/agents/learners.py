"""Spymasters that learn an unknown partner over the games of a match (``--match K``).

They learn only from public play: after each game (``end_game``) the record says which cards
the partner took for each of my clues. ``start_match`` forgets it all (a new partner).

- :class:`LearningSpymaster` (registry ``learner``): the robust spymaster, whose partner
  models are weighed by how well each predicted every guess this partner made for my clues
  in the earlier games of the match (and in this game so far: ``adapt``), which fits a
  reader to those guesses over the partner models' readings (``fit``), and which
  remembers which clue words this partner read as intended (``word_memory``).
- :class:`BanditSpymaster` (registry ``bandit``): Archibald & Brosnahan's (2024) baseline, a
  multi-armed bandit (UCB1) over expert spymasters, one arm a game, rewarded by the game.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import numpy as np

from ..rules.moves import Clue
from ..rules.record import ClueTurn, clue_turns
from ..views import SpymasterView
from .partner_model import guesser_reading
from .spymaster import _ADAPT_TEMPERATURE, EmbeddingSpymaster

__all__ = ["BanditSpymaster", "LearningSpymaster", "game_reward", "my_turns"]

# Stephenson et al.'s score of a lost single-team game, and Duet's greens: the bandit's rewards.
_LOSS_TURNS = 25
_DUET_GREENS = 15
# Observed guesses at which a fitted reader's outcome counts half of ``fit``.
_FIT_HALF = 30


def my_turns(record: dict, me: Optional[str]) -> list[ClueTurn]:
    """The clues ``me`` (a team or a Duet player) gave in a recorded game."""
    return [t for t in clue_turns(record) if me is not None and t.giver == me]


def guess_loglik(models: Sequence[Any], turns: Sequence[ClueTurn], words: Sequence[str], temperature: float) -> np.ndarray:
    """Per model: the log probability of every guess made on ``turns``, each a softmax at
    ``temperature`` over the board z-scores (as that model's embedding guesser reads the clue)
    of the cards still to choose from. Zero clues are skipped (read as warnings, not pointers)."""
    turns = [t for t in turns if t.count > 0 and t.guesses]
    out = np.zeros(len(models))
    if not turns:
        return out
    column = {w: i for i, w in enumerate(words)}
    for k, model in enumerate(models):
        z = guesser_reading(model, [t.word for t in turns], words)
        for row, turn in zip(z, turns):
            left = [column[w] for w in turn.choices]
            for guess in turn.guesses:
                logits = row[left] / temperature
                top = logits.max()
                out[k] += logits[left.index(column[guess])] - top - math.log(np.exp(logits - top).sum())
                left.remove(column[guess])
                if len(left) < 2:
                    break
    return out


def fit_reader(choices: Sequence[np.ndarray], prior: np.ndarray, precision: float, steps: int = 25) -> np.ndarray:
    """The weights w maximising sum log softmax(X w)[chosen] - precision/2 |w - prior|^2 over
    ``choices`` (each X: the cards a guess chose among, by features, the chosen card first), by
    Newton's method (the objective is concave)."""
    width = max(len(x) for x in choices)
    n = len(prior)
    X = np.zeros((len(choices), width, n))
    mask = np.zeros((len(choices), width), dtype=bool)
    for r, x in enumerate(choices):
        X[r, : len(x)] = x
        mask[r, : len(x)] = True

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        logits = np.where(mask, X @ w, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        p = np.exp(logits - top)
        total = p.sum(axis=1, keepdims=True)
        p /= total
        value = float((logits[:, 0] - top[:, 0] - np.log(total[:, 0])).sum() - precision / 2 * ((w - prior) ** 2).sum())
        return value, p

    w = prior.astype(np.float64).copy()
    value, p = objective(w)
    for _ in range(steps):
        mean = np.einsum("rc,rcn->rn", p, X)
        grad = (X[:, 0] - mean).sum(axis=0) - precision * (w - prior)
        second = np.einsum("rc,rcn,rcm->nm", p, X, X) - np.einsum("rn,rm->nm", mean, mean)
        step = np.linalg.solve(second + precision * np.eye(n), grad)
        size = 1.0
        while size > 1e-4:  # backtrack: a full Newton step can overshoot far from the optimum
            trial, trial_p = objective(w + size * step)
            if trial >= value:
                break
            size /= 2
        else:
            break
        w, value, p = w + size * step, trial, trial_p
        if np.abs(size * step).max() < 1e-6:
            break
    return w


class LearningSpymaster(EmbeddingSpymaster):
    """The embedding spymaster, learning its partner from game to game within a match.

    ``carry``: how much the earlier games' guesses count in the partner-model weights, next to
    this game's (``adapt`` weighs both: weights proportional to the likelihood raised to
    ``adapt``). ``word_memory``: bonus, in own cards, for a clue word this partner read as
    intended (every guess on it one of my cards, the count reached), and twice that as a
    penalty for one it misread (a wrong card first), shrunk toward 0 for words seen rarely.
    ``fit``: the share, once fitted, of a reader fitted to this partner (:func:`fit_reader`:
    guess logits sum_k w_k z_k over the partner models' readings z_k, MAP under a Gaussian
    prior of precision ``fit_prior`` around the plain mean at temperature 0.75, from every
    guess on my clues in the earlier games); its expected outcome is blended with the
    partner models' own, counting ``fit`` x n / (n + 30) after n observed guesses. 0: off.
    All three 0 turn the learner into the plain spymaster.
    """

    def __init__(self, embedding: Any, *, carry: float = 1.0, word_memory: float = 0.5, adapt: float = 1.0,
                 fit: float = 0.5, fit_prior: float = 5.0, **kwargs: Any) -> None:
        if carry < 0 or word_memory < 0:
            raise ValueError(f"carry and word_memory must be >= 0, got {carry} and {word_memory}")
        if not 0.0 <= fit <= 1.0 or fit_prior <= 0:
            raise ValueError(f"fit must be in [0, 1] and fit_prior positive, got {fit} and {fit_prior}")
        super().__init__(embedding, adapt=adapt, **kwargs)
        self.carry = float(carry)
        self.word_memory = float(word_memory)
        self.fit = float(fit)
        self.fit_prior = float(fit_prior)
        self._me: Optional[str] = None
        self.start_match(0)

    def start_match(self, seed: int) -> None:
        self._loglik = np.zeros(len(self.partners))
        self._words: dict[str, list[int]] = {}  # clue word -> [read as intended, misread]
        self._bonus: Optional[np.ndarray] = None
        n = len(self.partners)
        self._prior_w = np.full(n, 1.0 / (n * _ADAPT_TEMPERATURE))
        self._w = self._prior_w.copy()
        self._choices: list[np.ndarray] = []  # per observed guess: (cards then guessable, models) readings, chosen first

    def give_clue(self, view: SpymasterView) -> Clue:
        self._me = view.me
        return super().give_clue(view)

    def end_game(self, record: dict) -> None:
        turns = my_turns(record, self._me)
        if not turns:
            return
        words = record["config"]["words"]
        if self.carry > 0 and len(self.partners) > 1:
            self._loglik += guess_loglik(self.partners, turns, words, _ADAPT_TEMPERATURE)
        if self.fit > 0:
            self._observe(turns)
        if self.word_memory > 0:
            for turn in turns:
                if turn.count <= 0 or not turn.guesses:
                    continue
                tally = self._words.setdefault(turn.word, [0, 0])
                if not all(turn.hits):
                    tally[1] += 1
                elif len(turn.guesses) >= turn.count:
                    tally[0] += 1
            self._bonus = None

    def _observe(self, turns: Sequence[ClueTurn]) -> None:
        """Add every guess on my clues to the fitted reader's data and refit it."""
        board = self._board
        if board is None:
            return
        col = board.column
        for turn in turns:
            i = self._vocab_index.get(turn.word)
            if turn.count <= 0 or not turn.guesses or i is None:
                continue
            z = np.stack([board.sim(k + 1)[:, i] / board.spread(k + 1) for k in range(len(self.partners))], axis=1)
            left = [col[w] for w in turn.choices if w in col]
            for guess in turn.guesses:
                c = col.get(guess)
                if c is None or c not in left or len(left) < 2:
                    break
                order = [c] + [x for x in left if x != c]
                self._choices.append(z[order].astype(np.float64))
                left.remove(c)
        if self._choices:
            self._w = fit_reader(self._choices, self._prior_w, self.fit_prior)

    def _reader_weights(self) -> Optional[np.ndarray]:
        n = len(self._choices)
        if self.fit == 0 or n == 0:
            return None
        share = self.fit * n / (n + _FIT_HALF)
        return np.concatenate([[share], self._w])

    def learned_weights(self) -> np.ndarray:
        """The partner-model weights the earlier games of this match give alone."""
        z = self.adapt * self.carry * (self._loglik - self._loglik.max())
        w = np.exp(z)
        return w / w.sum()

    def partner_weights(self, view: SpymasterView) -> np.ndarray:
        this_game = super().partner_weights(view)
        if self.carry == 0 or not self._loglik.any():
            return this_game
        logw = np.log(np.maximum(this_game, 1e-300)) + self.adapt * self.carry * (self._loglik - self._loglik.max())
        w = np.exp(logw - logw.max())
        return w / w.sum()

    def _clue_bonus(self, columns: np.ndarray) -> Optional[np.ndarray]:
        if self.word_memory == 0 or not self._words:
            return None
        if self._bonus is None:
            bonus = np.zeros(len(self.vocabulary), dtype=np.float32)
            index = self._vocab_index
            for word, (good, bad) in self._words.items():
                if word in index:
                    bonus[index[word]] = self.word_memory * (good - 2 * bad) / (good + bad + 1)
            self._bonus = bonus
        return self._bonus[columns]


def game_reward(record: dict, me: Optional[str]) -> float:
    """A finished game's worth in [0, 1] for the bandit: single-team games 1 - score/25
    (Stephenson's score: turns if won, 25 if lost), so faster wins earn more; Duet the share
    of the 15 greens found (a win is every green)."""
    state = record.get("final_state", {})
    turns = clue_turns(record)
    if record["engine"] == "duet":
        return sum(sum(t.hits) for t in turns) / _DUET_GREENS
    mine = [t for t in turns if t.giver == me]
    won = state.get("winner") == me
    score = len(mine) if won else _LOSS_TURNS
    return 1.0 - min(score, _LOSS_TURNS) / _LOSS_TURNS


class BanditSpymaster:
    """Archibald & Brosnahan's (2024) ensemble: UCB1 over expert spymasters (``arms``), one arm
    per game, rewarded by :func:`game_reward`. Each arm is played once first, in order; then
    the arm with the best mean reward plus ``exploration`` x sqrt(2 ln n / n_arm), the first
    on a tie, so a match replays exactly."""

    def __init__(self, arms: Sequence[Any], names: Sequence[str] = (), exploration: float = 0.5) -> None:
        if not arms:
            raise ValueError("a bandit needs at least one arm")
        if exploration < 0:
            raise ValueError(f"exploration must be >= 0, got {exploration}")
        self.arms = list(arms)
        self.names = list(names) or [type(a).__name__ for a in arms]
        self.exploration = float(exploration)
        self._me: Optional[str] = None
        self.current = 0
        self.start_match(0)

    def start_match(self, seed: int) -> None:
        self.pulls = np.zeros(len(self.arms))
        self.rewards = np.zeros(len(self.arms))
        for arm in self.arms:
            start = getattr(arm, "start_match", None)
            if callable(start):
                start(seed)

    def choose(self) -> int:
        untried = np.flatnonzero(self.pulls == 0)
        if untried.size:
            return int(untried[0])
        n = self.pulls.sum()
        ucb = self.rewards / self.pulls + self.exploration * np.sqrt(2.0 * math.log(n) / self.pulls)
        return int(np.argmax(ucb))

    def reset(self, seed: int) -> None:
        self.current = self.choose()
        self.arms[self.current].reset(seed)

    def give_clue(self, view: SpymasterView) -> Clue:
        self._me = view.me
        return self.arms[self.current].give_clue(view)

    def choose_cover(self, view: SpymasterView, candidates: Sequence[str]) -> str:
        arm = self.arms[self.current]
        if callable(getattr(arm, "choose_cover", None)):
            return arm.choose_cover(view, candidates)
        return sorted(candidates)[0]

    def end_game(self, record: dict) -> None:
        self.pulls[self.current] += 1
        self.rewards[self.current] += game_reward(record, self._me)
        end = getattr(self.arms[self.current], "end_game", None)
        if callable(end):
            end(record)
