"""What a probabilistic guesser is expected to do with each candidate clue, for every count.

Why: a spymaster that assumes its guesser reads the board exactly as it does wins every
self-play game and almost none with another model. So a clue is scored by how a *partner
model* would guess: for every candidate clue at once, a softmax over the clue's standardised
similarities to the cards the partner may still guess (z-scored across that board, divided
by a temperature), guessed one card at a time until the count or the first wrong card.

The expectation is a short vectorised sequential approximation: guess j is own with
probability (own mass left) / (mass left); after an own guess the heaviest own card is taken
off (the partner's likeliest pick), so later steps are estimated slightly pessimistically.
The first step is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GuessOutcome:
    """Per candidate clue (rows) and count 1..K (columns): what the guesses are expected to yield.

    ``found``: expected total value of own cards guessed before the first wrong card.
    ``cost``: expected cost of the first wrong card (zero if none is guessed within the count).
    """

    found: np.ndarray
    cost: np.ndarray


def expected_outcome(
    sim: np.ndarray,
    guessable: np.ndarray,
    own: np.ndarray,
    value: np.ndarray,
    cost: np.ndarray,
    max_count: int,
    temperature: float = 0.6,
    sim_sq: np.ndarray | None = None,
) -> GuessOutcome:
    """Expected finds and costs for counts 1..``max_count``.

    ``sim``: (V, n) similarity of each candidate clue to each board card (the partner's model).
    ``guessable``: (n,) cards the partner may still guess. ``own``: (n,) the spymaster's cards
    (guessing one is not a mistake); ``value``: (n,) what finding each own card is worth;
    ``cost``: (n,) what guessing each wrong card costs. ``sim_sq``: ``sim**2`` if precomputed.
    """
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    if max_count < 1:
        raise ValueError(f"max_count must be at least 1, got {max_count}")
    g = np.asarray(guessable, dtype=bool)
    n_g = int(g.sum())
    n_rows = sim.shape[0]
    if n_g == 0:
        z = np.zeros((n_rows, max_count), dtype=np.float32)
        return GuessOutcome(z, z.copy())
    gf = g.astype(np.float32)
    if sim_sq is None:
        sim_sq = sim * sim
    mean = (sim @ gf) / n_g
    var = (sim_sq @ gf) / n_g - mean * mean
    scale = 1.0 / (np.sqrt(np.maximum(var, 1e-12)) * temperature)
    # exp(z / T) up to a per-row factor, which cancels in every ratio below. Subtracting the
    # row maximum over guessable cards keeps the exponent <= 0 (no overflow); cards that
    # cannot be guessed are clipped too and then weighted by zero.
    row_max = np.where(g, sim, -np.inf).max(axis=1)
    weights = np.exp(np.minimum(sim - row_max[:, None], 0.0) * scale[:, None])

    own_cols = np.flatnonzero(g & np.asarray(own, dtype=bool))
    bad = g & ~np.asarray(own, dtype=bool)
    bad_mass = weights @ bad.astype(np.float32)
    bad_cost = weights @ np.where(bad, cost, 0.0).astype(np.float32)

    own_w = weights[:, own_cols]
    own_v = np.broadcast_to(np.asarray(value, dtype=np.float32)[own_cols], own_w.shape)
    order = np.argsort(-own_w, axis=1, kind="stable")
    own_w = np.take_along_axis(own_w, order, axis=1)
    own_v = np.take_along_axis(own_v, order, axis=1)
    own_mass = own_w.sum(axis=1)
    own_value_mass = (own_w * own_v).sum(axis=1)

    found = np.zeros((n_rows, max_count), dtype=np.float32)
    spent = np.zeros((n_rows, max_count), dtype=np.float32)
    alive = np.ones(n_rows, dtype=np.float32)  # P(every guess so far was an own card)
    f_acc = np.zeros(n_rows, dtype=np.float32)
    c_acc = np.zeros(n_rows, dtype=np.float32)
    for j in range(max_count):
        denom = own_mass + bad_mass
        inv = np.divide(alive, denom, out=np.zeros_like(denom), where=denom > 0)
        f_acc += inv * own_value_mass
        c_acc += inv * bad_cost
        found[:, j] = f_acc
        spent[:, j] = c_acc
        alive = inv * own_mass
        if j < own_w.shape[1]:
            own_mass = np.maximum(own_mass - own_w[:, j], 0.0)
            own_value_mass = np.maximum(own_value_mass - own_w[:, j] * own_v[:, j], 0.0)
        else:
            own_mass = np.zeros_like(own_mass)
            own_value_mass = np.zeros_like(own_value_mass)
    return GuessOutcome(found, spent)
