"""What a probabilistic guesser is expected to do with each candidate clue, for every count.

Why: a spymaster that assumes its guesser reads the board exactly as it does wins every
self-play game and almost none with another model. So a clue is scored by how a *partner
model* would guess: for every candidate clue at once, a softmax over the clue's standardised
similarities to the cards the partner may still guess (z-scored across that board, divided
by a temperature), guessed one card at a time until the count or the first wrong card.

Standardising by the *model's* similarity spread rather than by each clue's own spread
over the board is the default of the spymaster: dividing a clue by its own spread makes a
word unrelated to every card (all similarities near zero, small random differences) look
as sharp as "fruit" for APPLE and ORANGE, and the spymaster then says obscure words for
four cards. On the human Duet validation split both forms fit first guesses about equally
(log-likelihood -1.70 vs -1.71 for MiniLM, -2.38 vs -2.41 for GloVe, at T ~ 0.75).

The expectation is a short vectorised sequential approximation: guess j is own with
probability (own mass left) / (mass left); after an own guess the heaviest own card is taken
off (the partner's likeliest pick), so later steps are estimated slightly pessimistically.
The first step is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# The smallest normal float32: a guess probability's denominator below it loses precision.
_TINY = np.float32(np.finfo(np.float32).tiny)


@dataclass(frozen=True)
class GuessOutcome:
    """Per candidate clue (rows) and count 1..K (columns): what the guesses are expected to yield.

    ``found``: expected total value of own cards guessed before the first wrong card.
    ``cost``: expected cost of the first wrong card (zero if none is guessed within the count).
    """

    found: np.ndarray
    cost: np.ndarray


def expected_outcome(
    sim_t: np.ndarray,
    guessable: np.ndarray,
    own: np.ndarray,
    value: np.ndarray,
    cost: np.ndarray,
    max_count: int,
    temperature: float = 0.3,
    sim_sq_t: np.ndarray | None = None,
    spread: float | None = None,
) -> GuessOutcome:
    """Expected finds and costs for counts 1..``max_count``, for every candidate clue.

    ``sim_t``: (n, V) similarity of each board card (rows) to each candidate clue (columns),
    under the partner's model; cards-major so that every reduction over cards runs along
    contiguous rows (no BLAS call with a tiny inner dimension). ``guessable``: (n,) cards the
    partner may still guess. ``own``: (n,) the spymaster's cards (guessing one is not a
    mistake); ``value``: (n,) what finding each own card is worth; ``cost``: (n,) what
    guessing each wrong card costs. ``sim_sq_t``: ``sim_t**2`` if precomputed.
    ``spread``: the model's similarity scale; each clue's similarities are centred on their
    mean over the guessable cards and divided by it. ``None`` divides by each clue's own
    spread over those cards instead (a plain z-score).
    Returns arrays of shape (V, max_count).
    """
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    if max_count < 1:
        raise ValueError(f"max_count must be at least 1, got {max_count}")
    g = np.flatnonzero(np.asarray(guessable, dtype=bool))
    n_rows = sim_t.shape[1]
    if g.size == 0:
        zero = np.zeros((n_rows, max_count), dtype=np.float32)
        return GuessOutcome(zero, zero.copy())
    own_b = np.asarray(own, dtype=bool)[g]
    sims = sim_t[g]  # (n_g, V)
    if spread is None:
        mean = sims.mean(axis=0)
        sq = sim_sq_t[g] if sim_sq_t is not None else sims * sims
        var = sq.mean(axis=0) - mean * mean
        scale = np.float32(1.0 / temperature) / np.sqrt(np.maximum(var, np.float32(1e-12)))
    else:
        if spread <= 0:
            raise ValueError(f"spread must be positive, got {spread}")
        scale = np.float32(1.0 / (temperature * spread))
    # exp(z / T) up to a per-clue factor (the centring included), which cancels in every
    # ratio below; subtracting the clue's maximum keeps every exponent <= 0 (no overflow).
    weights = np.exp((sims - sims.max(axis=0)) * scale)

    bad_w = weights[~own_b]
    bad_mass = bad_w.sum(axis=0)
    bad_cost = np.einsum("i,iv->v", np.asarray(cost, dtype=np.float32)[g][~own_b], bad_w)
    own_w = weights[own_b]
    own_mass = own_w.sum(axis=0)
    own_value_mass = np.einsum("i,iv->v", np.asarray(value, dtype=np.float32)[g][own_b], own_w)
    ranked = np.sort(own_w, axis=0)[::-1]  # the partner's likeliest own pick first

    found = np.zeros((n_rows, max_count), dtype=np.float32)
    spent = np.zeros((n_rows, max_count), dtype=np.float32)
    alive = np.ones(n_rows, dtype=np.float32)  # P(every guess so far was an own card)
    f_acc = np.zeros(n_rows, dtype=np.float32)
    c_acc = np.zeros(n_rows, dtype=np.float32)
    for j in range(max_count):
        denom = own_mass + bad_mass
        inv = np.divide(alive, denom, out=np.zeros_like(denom), where=denom >= _TINY)
        step_found, step_cost, next_alive = inv * own_value_mass, inv * bad_cost, inv * own_mass
        faint = np.flatnonzero((denom > 0) & (denom < _TINY))
        if faint.size:
            # Every card left is e^-87 less likely than the clue's best card was: alive/denom
            # would overflow, so take the same ratios the other way round, in float64.
            share = alive[faint].astype(np.float64) / denom[faint].astype(np.float64)
            step_found[faint] = share * own_value_mass[faint]
            step_cost[faint] = share * bad_cost[faint]
            next_alive[faint] = share * own_mass[faint]
        f_acc += step_found
        c_acc += step_cost
        found[:, j] = f_acc
        spent[:, j] = c_acc
        alive = next_alive
        if j < ranked.shape[0]:
            # the picked card's value is taken as the mean value left (exact when all are equal)
            mean_value = np.divide(own_value_mass, own_mass, out=np.zeros_like(own_mass), where=own_mass > 0)
            own_mass = np.maximum(own_mass - ranked[j], 0.0)
            own_value_mass = np.maximum(own_value_mass - ranked[j] * mean_value, 0.0)
        else:
            own_mass = np.zeros_like(own_mass)
            own_value_mass = np.zeros_like(own_value_mass)
    return GuessOutcome(found, spent)


def mirror_outcome(
    z: np.ndarray,
    guessable: np.ndarray,
    own: np.ndarray,
    value: np.ndarray,
    cost: np.ndarray,
    max_count: int,
    stop_threshold: float = 0.5,
    margin: float = 0.0,
) -> GuessOutcome:
    """Finds and costs for counts 1..``max_count`` when the guesser is known: a mirror.

    Why: a guesser of the spymaster's own model reads a clue deterministically (the embedding
    guesser takes the card whose board z-score ``z`` is highest and stops below
    ``stop_threshold``), so a softmax's doubt about it only makes the clues timid. Here every
    candidate's guesses are played out: the guessable cards in order of ``z`` (cards, candidates),
    own cards taken while they clear the threshold, up to the count; the first wrong card that
    clears it costs its ``cost``. ``margin``: a wrong card counts as ranked ``margin`` higher
    than it is, to keep a gap where the spymaster's reading and the guesser's may differ
    slightly (their hub corrections use different reference words).
    Returns arrays of shape (candidates, max_count), as :func:`expected_outcome`.
    """
    if max_count < 1:
        raise ValueError(f"max_count must be at least 1, got {max_count}")
    own_b = np.asarray(own, dtype=bool)
    g = np.asarray(guessable, dtype=bool)
    n_rows = z.shape[1]
    eff = np.where(own_b[:, None], z, z + np.float32(margin))
    eff = np.where(g[:, None], eff, -np.inf)
    order = np.argsort(-eff, axis=0, kind="stable")  # (cards, candidates), best first
    ranked_z = np.take_along_axis(eff, order, axis=0)
    ranked_own = own_b[order]
    ranked_value = np.asarray(value, dtype=np.float32)[order]
    ranked_cost = np.asarray(cost, dtype=np.float32)[order]
    clears = ranked_z >= stop_threshold
    found = np.zeros((n_rows, max_count), dtype=np.float32)
    spent = np.zeros((n_rows, max_count), dtype=np.float32)
    alive = np.ones(n_rows, dtype=bool)  # every guess so far was an own card
    acc = np.zeros(n_rows, dtype=np.float32)
    cards = z.shape[0]
    for j in range(max_count):
        if j >= cards:
            found[:, j], spent[:, j] = acc, spent[:, j - 1]
            continue
        takes = alive & clears[j]
        hit = takes & ranked_own[j]
        miss = takes & ~ranked_own[j]
        acc = acc + np.where(hit, ranked_value[j], 0.0)
        found[:, j] = acc
        spent[:, j] = (spent[:, j - 1] if j else 0.0) + np.where(miss, ranked_cost[j], 0.0)
        alive = hit
    return GuessOutcome(found, spent)


def guesser_reading(model, clues, words, reference: int = 2000) -> np.ndarray:
    """(clues, cards): how the embedding guesser of ``model`` reads each clue on a board: each
    card's similarity standardised against its similarities to the ``reference`` most common
    clue-shaped words (the guesser's hub correction), then z-scored across the whole board.

    Why here: a spymaster that knows its guesser (``mirror``) or learns which model reads like
    it (``learners``) must read clues exactly as that guesser does."""
    from .vocabulary import is_clue_shaped

    words = list(words)
    common = [w for w in model.clue_vocabulary() if is_clue_shaped(w)][:reference]
    ref = np.asarray(model.similarity(common, words), dtype=np.float64)
    mu, sd = ref.mean(axis=0), np.maximum(ref.std(axis=0), 1e-9)
    rows = (np.asarray(model.similarity(list(clues), words), dtype=np.float64) - mu) / sd
    return (rows - rows.mean(axis=1, keepdims=True)) / np.maximum(rows.std(axis=1, keepdims=True), 1e-12)
