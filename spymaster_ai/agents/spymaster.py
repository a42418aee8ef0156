"""The embedding spymaster: every legal clue word, every count, scored by what a partner would do.

Why this shape: the board is fixed for a game, so the clue-vocabulary x board similarity
matrices (the spymaster's own model and each partner model) are computed once, on the first
clue of a board; every clue after that is a masked, vectorised selection over them. The
score of a clue with count k is the expected number of own cards a probabilistic partner
finds before its first wrong card, minus the risk-weighted expected cost of that wrong card
(see :mod:`.partner_model`), plus a small preference for common words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

from ..rules.moves import Clue
from ..views import SpymasterView
from .clue_space import BoardMatrices, ClueVocabularyAgent
from .duet_clock import DUET_GREENS
from .partner_model import expected_outcome, guesser_reading, mirror_outcome
from .clue_space import _spread
from .vocabulary import DEFAULT_MIN_ZIPF, SimilarityModel

# The softmax temperature under which the partner's past guesses are scored when ``adapt``
# weighs the partner models: 0.75 fits a guesser of an unseen model (transfer study part B)
# and real people (human Duet split) best, so no model is ruled out by one misread.
_ADAPT_TEMPERATURE = 0.75

# What guessing a wrong card costs, in own cards, beyond the guesses it cuts short (those are
# already missing from the expected finds): the assassin (Duet: a black card) loses the game,
# an opponent agent gives the other team a card and ends the turn, a bystander ends the turn.
# A Duet bystander costs nothing more while a bystander-face timer token is left: its mark is
# the token the turn takes anyway (see EmbeddingSpymaster._duet_bystander_cost).
DEFAULT_COSTS: dict[str, dict[str, float]] = {
    "classic": {"assassin": 10.0, "opponent": 1.0, "bystander": 0.25},
    "duet": {"assassin": 10.0, "opponent": 1.0, "bystander": 0.0},
}
# Duet missions, once their bystander-face tokens are spent: a bystander takes two tokens, one
# more turn (about what a turn finds, in own cards).
DUET_EXTRA_TURN_COST = 1.5
# How many of a board's clearest candidate clues ``agreement_weight`` compares the partner models on.
AGREEMENT_CLUES = 300


def agreement_shares(sims: np.ndarray, n_clues: int) -> np.ndarray:
    """(models,): for each model of ``sims`` (models, cards, clues), the share of the
    ``n_clues`` clearest clues (best card furthest above the second under the models' mean
    reading) for which its likeliest card is another model's too, averaged over the others."""
    top2 = np.partition(sims.mean(axis=0), -2, axis=0)[-2:]
    clear = np.argsort(top2[0] - top2[1], kind="stable")[: min(n_clues, sims.shape[2])]
    tops = sims[:, :, clear].argmax(axis=1)
    same = (tops[:, None, :] == tops[None, :, :]).mean(axis=2)
    return (same.sum(axis=1) - 1.0) / max(len(sims) - 1, 1)


@dataclass(frozen=True)
class ClueOption:
    """One scored clue: what it aims at, what it is expected to yield, its worst neighbour.

    ``closest_bad_similarity`` is in the spymaster's own scoring units: with
    ``hub_correction`` (the default), how many standard deviations the clue stands above the
    closest bad card's mean similarity over the clue vocabulary; without it, the model's raw
    similarity. Compare it with ``embedding.similarity`` only in the second case.
    """

    word: str
    count: int
    targets: tuple[str, ...]
    score: float
    expected_found: float
    expected_cost: float
    closest_bad: Optional[str]
    closest_bad_similarity: Optional[float]

    @property
    def clue(self) -> Clue:
        return Clue(self.word, self.count)

    def to_json(self) -> dict:
        return {
            "word": self.word,
            "count": self.count,
            "targets": list(self.targets),
            "score": self.score,
            "expected_found": self.expected_found,
            "expected_cost": self.expected_cost,
            "closest_bad": self.closest_bad,
            "closest_bad_similarity": self.closest_bad_similarity,
        }


PartnerSpec = Union[None, SimilarityModel, Sequence[SimilarityModel]]


# The embedding guesser's own weight on my unfinished clues (its ``history_weight``): what a
# mirror partner remembers (``mirror``).
MIRROR_MEMORY = 1.0
# ... and the common words its hub correction measures each card against (``hub_reference``).
MIRROR_REFERENCE = 2000


class _Shortlist:
    """The candidate columns worth scoring on one board, with their similarity sub-matrices.

    Why: of ~30,000 words only a few hundred per own card stand out for it at all; scoring
    just their union keeps a clue at a few milliseconds. A word is kept when it is among the
    ``size`` words with the highest board-standardised similarity to some own card, under
    the own model or any partner model.
    """

    def __init__(self, board: BoardMatrices, own_cols: np.ndarray, n_models: int, size: Optional[int], per_clue_spread: bool) -> None:
        self.board = board
        self.own = frozenset(own_cols.tolist())
        n_vocab = board.sims[0].shape[1]
        if size is None or size >= n_vocab:
            self.columns = np.arange(n_vocab)
        else:
            keep = np.zeros(n_vocab, dtype=bool)
            for sim in board.sims:
                z = sim - sim.mean(axis=0)  # ranked within a card's row: the model's scale is moot
                if per_clue_spread:
                    z /= np.maximum(sim.std(axis=0), 1e-6)
                top = np.argpartition(-z[own_cols], size - 1, axis=1)[:, :size]
                keep[top.ravel()] = True
            self.columns = np.flatnonzero(keep)
        self.sims = [np.ascontiguousarray(board.sim(k)[:, self.columns]) for k in range(n_models)]
        self.sims_sq = [x * x for x in self.sims]
        self._evocation: dict[int, np.ndarray] = {}
        self._agreement: Optional[np.ndarray] = None

    def agreement(self, n_partners: int, n_clues: int) -> np.ndarray:
        """:func:`agreement_shares` of the partner models on this board's candidates, built once."""
        if self._agreement is None:
            self._agreement = agreement_shares(np.stack([self.sims[k] for k in range(1, n_partners + 1)]), n_clues)
        return self._agreement

    def evocation(self, k: int) -> np.ndarray:
        """(cards, candidates) under model ``k``: each card's similarity to each candidate clue in
        standard deviations of that card's similarity to the whole clue vocabulary (how strongly
        the card calls the clue to mind). Built once per board, on first use."""
        z = self._evocation.get(k)
        if z is None:
            full = self.board.sim(k)
            mu = full.mean(axis=1, keepdims=True)
            sd = np.maximum(full.std(axis=1, keepdims=True), 1e-9)
            z = self._evocation[k] = (self.sims[k] - mu) / sd
        return z


class EmbeddingSpymaster(ClueVocabularyAgent):
    """Clues scored by the expected finds of a partner model, minus the risk-weighted cost of a miss.

    ``embedding``: the spymaster's own model (chooses and reports the targets of a clue).
    ``partner``: the model(s) that predict the guesser: ``None`` for the own model (a mirror),
    one model, or several (the score is averaged over them: the guesser is one of these, or
    the worst case with ``partner_mode="min"``). ``risk`` in [0, 1]: 0 weighs a miss double,
    0.5 at its cost, 1 ignores it. ``temperature``: the partner's softmax temperature in
    standardised units: 0.3 (default) models a sharp machine guesser (20 seeded Duet games:
    mirror self-play and ``robust`` with either packaged guesser win 20/20 at 0.3, far fewer
    at 0.5 or 0.75); 0.75 fits the first guesses of the human Duet validation split best
    (GloVe and MiniLM alike), so use it for a human partner. ``prefer_common``: bonus, in own cards, for the most common words.
    ``leftover_value``: what re-finding a card an earlier clue still points at is worth.
    ``assassin_cost``, ``opponent_cost``, ``bystander_cost``: override :data:`DEFAULT_COSTS`.
    ``shortlist``: per board, only the words among the ``shortlist`` most distinctive for
    some own card (under any of the models) are scored; ``None`` scores every word.
    ``standardise``: how the partner standardises a clue's similarities over the visible
    board: ``"model"`` centres them and divides by the model's similarity scale (a clue
    unrelated to every card then gives a flat, uninformative guess distribution);
    ``"board"`` divides by the clue's own spread over the board (a plain z-score).
    ``disagreement``: with several partner models, the score is their mean utility minus
    ``disagreement`` times its standard deviation across them: a clue (and above all a count)
    the models read differently is one a guesser of yet another model may misread.
    ``min_zipf``: clue words are common base forms at least this frequent (see
    :func:`.vocabulary.is_common_word`); ``None`` allows every word the models know.
    ``countdown``: in the solo variant, aim higher when the turns left (the opponent's
    uncovered agents) are fewer than the remaining cards need at the pace so far.

    ``hub_correction``: predict a guesser that discounts hub cards (close to every word), as
    :class:`.guesser.EmbeddingGuesser` does by default.
    ``backward_strength``: bonus, in own cards per standard deviation, for clues that the
    targets themselves evoke strongly (backward association: the clue is among the words the
    card is most similar to, under the partner models), for the weakest of the ``count``
    targets. A clue tied to its target in both directions is read the same way by models the
    spymaster never saw: 0.3 won 5-6 points more Kim-protocol games with the guesser's model
    held out (4 models x 200 games, seeds 7 and 11), see ``experiments/studies/transfer_study.py``.
    It costs tempo with a partner of the same model (mirror Duet with GloVe: 92.5% instead of
    97.7%), so it is off in the class. The registry sets 0.3 for every spymaster it builds,
    ``robust`` or one model, since each plays for partners whose model it does not know: the
    20 single-model cross-play pairs of five models won 59.0% / 58.4% of Kim-protocol games
    with it and ``assassin_backward`` instead of 47.1% / 45.5% (200 games each, seeds 11 / 7).
    ``assassin_backward``: penalty, in own cards per standard deviation, for clues an assassin
    (Duet: a black card of my side) itself calls to mind, measured the same way: a model the
    spymaster never saw is likelier to take the assassin for such a clue even when the
    partner models rank the assassin low. 1.0 in ``robust`` (Kim protocol, guesser's model
    held out, 4 models x 200 games: +4.5, +1.0 and +1.6 points on seeds 11, 7 and 13; 0.3 and
    2.0 gained less, 4.0 lost), off in the class, 1.0 from the registry.
    ``duet_backward_strength``, ``duet_assassin_backward``: the two above for Duet games
    (``None``: the same as in the other games). Duet's clock needs tempo and each side has
    three black cards, so both cost more there than they save: the registry sets them to 0
    (5 models, the guesser's model held out, 200 games per model: 5.7 -> 8.8%, 5.0 -> 9.2%
    and 5.3 -> 8.1% of Duet games won on seeds 11, 7 and 13; the assassin term alone off:
    7.2%, the backward term alone off: 4.2%, seed 11).

    ``adapt``: with several partner models, weigh them by how well each predicted the guesses
    the partner has already made for this spymaster's clues in this game (weights proportional
    to the likelihood raised to ``adapt``, each guess a softmax over the cards then guessable at
    temperature 0.75); 0 (default) keeps the plain mean. A spymaster learns its partner the way
    a person does, from public play only: the first clue of a game is unchanged.

    ``memory_weight``: the partner model remembers my unfinished clues as the embedding
    guesser does (``history_weight``): within the count each card gains this many times its
    best positive z-score for an earlier clue of mine that still has cards to find, so the
    spymaster expects a leftover to be taken, or a card an old clue misled toward to tempt
    again. 0 (the class default) predicts from the current clue alone; the registry's robust
    spymaster uses 1.0 (the guesser's own weight) outside Duet: Kim protocol, the guesser's
    model held out, 5 models x 300 games, 12.05 -> 11.79 turns and 90.5 -> 91.2% wins (seed
    11), 12.14 -> 11.87 and 91.0 -> 91.3% (seed 7); 0.5 gave 11.69 / 11.91 / 12.03 turns
    (seeds 11 / 7 / 13, base 12.17 on 13), 2.0 12.07 (seed 11). Single-model spymasters keep
    0: with 1.0 their cross-play lost wins (67.7 -> 66.2%, 20 pairs x 500 games; tournament
    67.4 -> 65.5%, 15.34 -> 15.42 turns); mirror pairs were unchanged. ``duet_memory_weight``
    replaces it in Duet (``None``: the same): there it lost games, 13.7 -> 11.5% (1.0) and
    12.2% (0.5), seed 11, so the registry sets 0.

    ``partner_prior``: a fixed weight per partner model (``"1+1+0.5"`` in a spec, in the
    order of ``partner``; normalised): their expected outcomes are averaged with these weights
    instead of equally. ``agreement_weight``: on each board, weigh each partner model by how
    often it takes the same card as the other partner models for the board's
    :data:`AGREEMENT_CLUES` clearest candidate clues (:func:`agreement_shares`), proportional
    to exp(``agreement_weight`` x (its share - the best share)): a lone reading has less say.
    0 (default) is off. Both multiply into ``adapt``'s weights. Neither is on in the registry.
    Duet, the robust spymaster with the guesser's model G held out, mean over 5 models as G
    (200 games on seeds 11 and 7, 500 on seed 0, the headline table's boards):
    ``agreement_weight=20`` won 14.8% (seed 11) and 14.7% (seed 0) against 12.9% and 13.9%; a
    prior from table 10's pairwise agreement of the pool models, exp(10 x (mean agreement -
    best)), won 17.7 / 16.0 / 16.1% (seeds 11 / 7 / 0) against 12.9 / 13.2 / 13.9%. Both gain
    where G's near-twin is in the pool (MiniLM, mpnet), and lose a little or nothing for the
    other three; and table 10 chose its clues by all five models' reading, G's included.

    ``warn_cards``: once, on the first turn with at most this many own cards left, warn
    instead of clueing: a zero clue for the assassin (:meth:`warning`); 0 (the class
    default) never. ``zero_weight``: how far the partner is expected to keep away from what
    such a warning points at (the guesser's own ``zero_weight``), in standard deviations.

    ``mirror``: the partner is known to be the embedding guesser of the partner model with its
    default reading (a mirror, as in self-play): every candidate clue's guesses are played out
    as that guesser takes them (:func:`.partner_model.mirror_outcome`: highest board z-score
    first, stopping below ``mirror_stop``, remembering my unfinished clues and my warnings)
    instead of a softmax's doubt, so clues aim at as many cards as the guesser will surely
    take. ``mirror_margin``: how far below the last target, in board z-scores, the first wrong
    card must stay. Off in the class; ``bold`` in the registry.
    ``margin``: a clue and count are given only if, under the own model and every partner
    model, each of the ``count`` cards the model ranks first among my targets stands out from
    every visible card that is not mine by at least this much (z-scores of the clue's
    similarities across the visible cards); 0 (default) is off. A person finds a card a
    clue points at clearly, not the fourth of four that merely edge out a bystander (a German
    playtest lost three Duet games on clues such as LAGERN: 4). Where no clue clears it,
    clues for one card are chosen as without it.
    ``avoid_lookalikes``: never give a clue spelled like a visible card
    (:func:`.human.features.spelled_matrix`: ZIELT beside ZIEGE), which a person reads as
    that card whatever the models say.
    ``shared_letters``: with ``avoid_lookalikes``, also never a clue that shares this many
    letters in a row with a visible card, or its first three letters, accents and umlauts
    set aside (0: off). A model that reads words by their pieces, as e5small does in German,
    links GUCKEN to KÜKEN and VOLUMEN to VOLLMOND; a person sees no meaning there.
    ``nouns_only``: clue words that are common nouns only (German boards; the play partner's).

    Assassin Ending: once every own agent is covered, the assassin is the target.
    """

    def __init__(
        self,
        embedding: SimilarityModel,
        *,
        partner: PartnerSpec = None,
        risk: float = 0.5,
        max_count: int = 4,
        vocabulary_size: Optional[int] = 30000,
        prefer_common: float = 0.1,
        temperature: float = 0.3,
        partner_mode: str = "mean",
        leftover_value: float = 0.5,
        assassin_cost: Optional[float] = None,
        opponent_cost: Optional[float] = None,
        bystander_cost: Optional[float] = None,
        shortlist: Optional[int] = 400,
        standardise: str = "model",
        disagreement: float = 0.0,
        min_zipf: Optional[float] = DEFAULT_MIN_ZIPF,
        countdown: bool = True,
        hub_correction: bool = True,
        backward_strength: float = 0.0,
        assassin_backward: float = 0.0,
        duet_backward_strength: Optional[float] = None,
        duet_assassin_backward: Optional[float] = None,
        adapt: float = 0.0,
        mirror: bool = False,
        mirror_margin: float = 0.0,
        mirror_stop: float = 0.5,
        warn_cards: int = 0,
        zero_weight: float = 1.0,
        memory_weight: float = 0.0,
        duet_memory_weight: Optional[float] = None,
        partner_prior: Union[None, str, Sequence[float]] = None,
        agreement_weight: float = 0.0,
        margin: float = 0.0,
        avoid_lookalikes: bool = False,
        shared_letters: int = 0,
        nouns_only: bool = False,
    ) -> None:
        if partner is None:
            partners: list[SimilarityModel] = [embedding]
        elif hasattr(partner, "similarity"):
            partners = [partner]  # type: ignore[list-item]
        else:
            partners = list(partner)  # type: ignore[arg-type]
        if not partners:
            raise ValueError("partner: give at least one model (or None for the own model)")
        super().__init__(embedding, partners, vocabulary_size, min_zipf, hub_correction, nouns_only)
        if not 0.0 <= risk <= 1.0:
            raise ValueError(f"risk must be in [0, 1], got {risk}")
        if max_count < 1:
            raise ValueError(f"max_count must be at least 1, got {max_count}")
        if temperature <= 0:
            raise ValueError(f"temperature must be positive, got {temperature}")
        if shortlist is not None and shortlist < 1:
            raise ValueError(f"shortlist must be positive (or None for every word), got {shortlist}")
        if standardise not in ("model", "board"):
            raise ValueError(f"standardise must be 'model' or 'board', got {standardise!r}")
        if disagreement < 0:
            raise ValueError(f"disagreement must be >= 0, got {disagreement}")
        if backward_strength < 0:
            raise ValueError(f"backward_strength must be >= 0, got {backward_strength}")
        if assassin_backward < 0:
            raise ValueError(f"assassin_backward must be >= 0, got {assassin_backward}")
        for key, value in (("duet_backward_strength", duet_backward_strength), ("duet_assassin_backward", duet_assassin_backward)):
            if value is not None and value < 0:
                raise ValueError(f"{key} must be >= 0, got {value}")
        if adapt < 0:
            raise ValueError(f"adapt must be >= 0, got {adapt}")
        if partner_mode not in ("mean", "min"):
            raise ValueError(f"partner_mode must be 'mean' or 'min', got {partner_mode!r}")
        costs = {"assassin": assassin_cost, "opponent": opponent_cost, "bystander": bystander_cost}
        for kind, value in costs.items():
            if value is not None and value < 0:
                raise ValueError(f"{kind}_cost must be >= 0, got {value}")
        self.risk = float(risk)
        self.max_count = int(max_count)
        self.prefer_common = float(prefer_common)
        self.temperature = float(temperature)
        self.partner_mode = partner_mode
        self.leftover_value = float(leftover_value)
        self.costs = {k: float(v) for k, v in costs.items() if v is not None}
        self.shortlist = shortlist
        self.standardise = standardise
        self.disagreement = float(disagreement)
        self.countdown = bool(countdown)
        self.backward_strength = float(backward_strength)
        self.assassin_backward = float(assassin_backward)
        self.duet_backward_strength = None if duet_backward_strength is None else float(duet_backward_strength)
        self.duet_assassin_backward = None if duet_assassin_backward is None else float(duet_assassin_backward)
        self.adapt = float(adapt)
        if mirror_margin < 0:
            raise ValueError(f"mirror_margin must be >= 0, got {mirror_margin}")
        self.mirror = bool(mirror)
        self.mirror_margin = float(mirror_margin)
        self.mirror_stop = float(mirror_stop)
        if margin < 0:
            raise ValueError(f"margin must be >= 0, got {margin}")
        self.margin = float(margin)
        self.avoid_lookalikes = bool(avoid_lookalikes)
        if shared_letters < 0:
            raise ValueError(f"shared_letters must be >= 0, got {shared_letters}")
        self.shared_letters = int(shared_letters)
        if warn_cards < 0:
            raise ValueError(f"warn_cards must be >= 0, got {warn_cards}")
        if zero_weight < 0:
            raise ValueError(f"zero_weight must be >= 0, got {zero_weight}")
        for label, weight in (("memory_weight", memory_weight), ("duet_memory_weight", duet_memory_weight)):
            if weight is not None and weight < 0:
                raise ValueError(f"{label} must be >= 0, got {weight}")
        self.warn_cards = int(warn_cards)
        self.zero_weight = float(zero_weight)
        self.memory_weight = float(memory_weight)
        self.duet_memory_weight = None if duet_memory_weight is None else float(duet_memory_weight)
        self._short: Optional[_Shortlist] = None
        if agreement_weight < 0:
            raise ValueError(f"agreement_weight must be >= 0, got {agreement_weight}")
        self.agreement_weight = float(agreement_weight)
        if isinstance(partner_prior, str):
            partner_prior = [float(x) for x in partner_prior.split("+")]
        if partner_prior is not None:
            prior = np.asarray(partner_prior, dtype=np.float64)
            # (a spec is first checked without its models: the count is checked when they load)
            if prior.ndim != 1 or not np.all(prior > 0) or (partner is not None and prior.shape != (len(partners),)):
                raise ValueError(f"partner_prior: one positive weight per partner model ({len(partners)}), got {partner_prior!r}")
            self._prior_weights: Optional[np.ndarray] = prior / prior.sum()
        else:
            self._prior_weights = None

    # -- the per-clue arrays -------------------------------------------------------------------

    def _card_costs(self, view: SpymasterView, board: BoardMatrices, targets: tuple[str, ...]) -> np.ndarray:
        costs = dict(DEFAULT_COSTS["duet" if view.game == "duet" else "classic"])
        if view.game == "duet":
            costs["bystander"] = self._duet_bystander_cost(view, costs)
        costs.update(self.costs)
        out = np.zeros(len(board.words), dtype=np.float32)
        aimed = set(targets)
        for kind, cards in (("bystander", view.bystanders), ("opponent", view.opponent), ("assassin", view.assassins)):
            for w in cards:
                if w not in aimed:
                    out[board.column[w]] = costs[kind]
        return out

    @staticmethod
    def _duet_bystander_cost(view: SpymasterView, costs: dict[str, float]) -> float:
        """Duet: a bystander's mark is paid with a bystander-face timer token, the turn's own
        token, so it costs nothing beyond the turn while one is left (the standard game: every
        token). A mission that has spent them pays two marked-face tokens instead (one more
        turn: :data:`DUET_EXTRA_TURN_COST`), and loses with fewer than two left."""
        if int(view.extra.get("bystander_tokens_left", 1)) > 0:
            return costs["bystander"]
        if int(view.extra.get("marked_tokens_left", 0)) >= 2:
            return DUET_EXTRA_TURN_COST
        return costs["assassin"]

    @staticmethod
    def _targets(view: SpymasterView) -> tuple[str, ...]:
        """The cards to clue: the own ones; in Assassin Ending, once they are all covered, the assassin."""
        if view.own:
            return view.own
        if view.extra.get("assassin_ending") and view.assassins:
            return view.assassins
        raise ValueError("no own card left to clue")

    def _ambition(self, view: SpymasterView, n_targets: int) -> tuple[int, float]:
        """Countdown: (the smallest count worth giving, the factor on the cost of a miss).

        Solo: each turn that does not win costs one opponent agent, and the last one covered
        loses, so the turns left are the opponent's uncovered agents and the cards to find are
        our own. Duet: every turn takes a timer token, and sudden death after the last one is
        nearly always lost, so the turns left are the tokens and the cards to find are all the
        greens of both sides. When the cards left need more per turn than the pace so far
        (cards found per turn; 2 before any turn), the count rises to what the deadline needs
        and a miss weighs less (it costs a turn that would be lost anyway).
        """
        if not self.countdown:
            return 1, 1.0
        if view.extra.get("solo") and view.opponent:
            turns_left = len(view.opponent)
            turns_played = int(view.extra.get("turns", {}).get(view.me, 0))
            found = sum(1 for e in view.history for o in e.outcomes if o == "own")
            cards_left = n_targets
        elif view.game == "duet" and view.tokens_left and "greens_left" in view.extra:
            turns_left = int(view.tokens_left)
            turns_played = int(view.extra.get("turns_played", 0))
            cards_left = int(view.extra["greens_left"])
            found = DUET_GREENS - cards_left
        else:
            return 1, 1.0
        pace = found / turns_played if turns_played and found else 2.0
        need = cards_left / turns_left
        if need <= pace:
            return 1, 1.0
        return int(np.ceil(need)), float(min(1.0, pace / need))

    def _backward_weights(self, game: str) -> tuple[float, float]:
        """(``backward_strength``, ``assassin_backward``) for this game: Duet has its own."""
        backward, assassin = self.backward_strength, self.assassin_backward
        if game == "duet":
            if self.duet_backward_strength is not None:
                backward = self.duet_backward_strength
            if self.duet_assassin_backward is not None:
                assassin = self.duet_assassin_backward
        return backward, assassin

    def _standardised_rows(self, short: _Shortlist, cards: np.ndarray) -> list[np.ndarray]:
        """Per partner model, (cards, candidates): :meth:`_Shortlist.evocation` for ``cards``."""
        return [short.evocation(k)[cards] for k in range(1, len(self.partners) + 1)]

    def _evoked(self, short: _Shortlist, cards: np.ndarray) -> np.ndarray:
        """(cards, candidates): how strongly each card calls each clue to mind (see
        :meth:`_standardised_rows`), clipped to [0, 5] and averaged over the partner models."""
        return np.mean([np.clip(z, 0.0, 5.0) for z in self._standardised_rows(short, cards)], axis=0)

    def _backward(self, short: _Shortlist, own_cols: np.ndarray, cap: int) -> np.ndarray:
        """(candidates, counts 1..cap): how strongly the count-th most evocative own card evokes
        each clue, in standard deviations of that card's similarity to the whole vocabulary,
        averaged over the partner models and clipped to [0, 5].

        Each own card's similarities are standardised over the full clue vocabulary (a no-op
        when ``hub_correction`` already did it), so a high value means the clue is one of the
        few words the card calls to mind, not merely the closest card to the clue.
        """
        per_model = [-np.sort(-z, axis=0)[:cap].T for z in self._standardised_rows(short, own_cols)]
        return np.clip(np.mean(per_model, axis=0), 0.0, 5.0)

    def _card_values(self, view: SpymasterView, board: BoardMatrices, own_cols: np.ndarray) -> np.ndarray:
        """1 per own card, ``leftover_value`` for those an unfinished earlier clue still points at."""
        value = np.zeros(len(board.words), dtype=np.float32)
        value[own_cols] = 1.0
        for entry in view.history:
            clue = entry.clue
            if clue.unlimited or clue.count == 0:
                continue
            left = clue.count - entry.found
            if left <= 0:
                continue
            i = self._vocab_index.get(clue.word)
            if i is not None:
                row = np.mean([board.sim(k)[:, i] for k in range(1, len(self.partners) + 1)], axis=0)
            else:
                row = np.asarray(self.embedding.similarity([clue.word], list(board.words)), dtype=np.float32)[0]
            order = sorted(own_cols.tolist(), key=lambda c: (-float(row[c]), board.words[c]))
            pending = np.array(order[:left], dtype=np.intp)
            value[pending] = np.minimum(value[pending], self.leftover_value)
        return value

    def partner_weights(self, view: SpymasterView) -> np.ndarray:
        """Weight of each partner model, from how well it predicted this partner's guesses so far.

        Each earlier clue of mine (a word of the clue vocabulary, count above 0) and each guess
        made for it: the log probability of that card under the model's softmax over the cards
        still guessable then (the cards visible now plus every card guessed at or after that
        point, in order), summed, times ``adapt``, then normalised. Uniform without history.
        """
        n = len(self.partners)
        uniform = np.full(n, 1.0 / n)
        if self.adapt == 0 or n < 2 or not view.history:
            return uniform
        board = self._matrices(view)
        col = board.column
        guessed = [w for e in view.history for w in e.guesses if w in col]
        pool = set(col[w] for w in view.visible) | set(col[w] for w in guessed)
        loglik = np.zeros(n)
        used = False
        for entry in view.history:
            clue = entry.clue
            i = self._vocab_index.get(clue.word)
            usable = i is not None and (clue.unlimited or clue.count > 0)
            for word in entry.guesses:
                c = col.get(word)
                if c is None:
                    continue
                if usable and c in pool and len(pool) > 1:
                    rows = np.fromiter(sorted(pool), dtype=np.intp)
                    for k in range(n):
                        sims = board.sim(k + 1)[rows, i].astype(np.float64)
                        logits = (sims - sims.max()) / (_ADAPT_TEMPERATURE * board.spread(k + 1))
                        loglik[k] += logits[int(np.searchsorted(rows, c))] - np.log(np.exp(logits).sum())
                    used = True
                pool.discard(c)
        if not used:
            return uniform
        z = self.adapt * (loglik - loglik.max())
        w = np.exp(z)
        return w / w.sum()

    # -- public ----------------------------------------------------------------------------------

    def rank_clues(self, view: SpymasterView, top: int = 1) -> list[ClueOption]:
        """The ``top`` best clues for this view, best first (each with its best count)."""
        targets = self._targets(view)
        board = self._matrices(view)
        col = board.column
        own_cols = np.array(sorted(col[w] for w in targets), dtype=np.intp)
        # Aim only at cards every model reads while there are any: a card one of them knows
        # no part of has noise for similarities, so a clue "for" it would be read by no one.
        aim_cols = np.array(sorted(col[w] for w in targets if w not in board.unreadable), dtype=np.intp)
        if not aim_cols.size:
            aim_cols = own_cols
        visible = np.zeros(len(board.words), dtype=bool)
        visible[[col[w] for w in view.visible]] = True
        guessable = visible.copy()
        for w in view.partner_marked:  # the partner will not guess these again
            guessable[col[w]] = False
        own = np.zeros(len(board.words), dtype=bool)
        own[own_cols] = True
        cap = min(self.max_count, len(aim_cols), view.clue_number_cap or self.max_count)
        cap = max(cap, 1)
        cost = self._card_costs(view, board, targets)
        value = self._card_values(view, board, own_cols)
        value[np.setdiff1d(own_cols, aim_cols)] = 0.0  # found by chance, never aimed at
        min_count, miss_factor = self._ambition(view, len(own_cols))
        min_count = min(min_count, cap)
        weight = 2.0 * (1.0 - self.risk) * miss_factor

        short = self._short
        if short is None or short.board is not board or not set(aim_cols.tolist()) <= short.own:
            short = self._short = _Shortlist(board, aim_cols, len(self.partners) + 1, self.shortlist, self.standardise == "board")
        cols = short.columns
        allowed = board.legal.mask(view.visible)[cols] & ~self._banned(view)[cols]
        if not allowed.any():
            raise RuntimeError("no legal clue left in the vocabulary for this board")
        if self.avoid_lookalikes:
            unlike = allowed & ~self._lookalikes(view, cols)
            if unlike.any():
                allowed = unlike

        warned = self._warned_rows(view, board)
        remembered = self._remembered_rows(view, board)
        reader = None if self.mirror or self.standardise != "model" else self._reader_weights()
        readings = []  # each partner model's reading in its own units (for a fitted reader)
        utilities = []
        if self.mirror:
            read = self._remembered_rows(view, board, MIRROR_MEMORY)
        for k in range(1, len(self.partners) + 1):
            if self.mirror:  # the guesser is known: play its guesses out (see the class docstring)
                z = self._mirror_z(board, k, short.columns)
                if warned is not None:
                    z = z - warned[k - 1][:, None]
                if read is not None:
                    z = z + read[k - 1][:, None]
                out = mirror_outcome(z, guessable, own, value, cost, cap, self.mirror_stop, self.mirror_margin)
                utilities.append((out.found - weight * out.cost, out.found, out.cost))
                continue
            spread = board.spread(k) if self.standardise == "model" else None
            sims_k, sims_sq_k = short.sims[k], short.sims_sq[k]
            if warned is not None:  # the partner keeps away from what my zero clues pointed at
                sims_k = sims_k - (warned[k - 1] * board.spread(k))[:, None]
                sims_sq_k = sims_k * sims_k
            if remembered is not None:  # and is drawn to what my unfinished clues point at
                sims_k = sims_k + (remembered[k - 1] * board.spread(k))[:, None]
                sims_sq_k = sims_k * sims_k
            out = expected_outcome(sims_k, guessable, own, value, cost, cap, self.temperature, sims_sq_k, spread)
            utilities.append((out.found - weight * out.cost, out.found, out.cost))
            if reader is not None:
                readings.append(sims_k / np.float32(board.spread(k)))
        if len(utilities) == 1:
            util, found, spent = utilities[0]
        else:
            stacked = np.stack([u[0] for u in utilities])
            factors = [self.partner_weights(view)] if self.adapt > 0 else []
            if self._prior_weights is not None:
                factors.append(self._prior_weights)
            if self.agreement_weight > 0:
                share = short.agreement(len(self.partners), AGREEMENT_CLUES)
                factors.append(np.exp(self.agreement_weight * (share - share.max())))
            weights = None
            if factors:
                product = np.prod(factors, axis=0)
                weights = (product / product.sum()).astype(np.float32)

            def average(arrays: list[np.ndarray]) -> np.ndarray:
                """The partner models' mean, or their weighting (``adapt``, ``partner_prior``,
                ``agreement_weight``)."""
                return np.mean(arrays, axis=0) if weights is None else np.tensordot(weights, np.stack(arrays), axes=1)

            util = stacked.min(axis=0) if self.partner_mode == "min" else average([u[0] for u in utilities])
            if self.disagreement > 0:
                util = util - self.disagreement * stacked.std(axis=0)
            found = average([u[1] for u in utilities])
            spent = average([u[2] for u in utilities])
        if reader is not None:  # a reader fitted to this partner: logits sum_k w_k z_k (see _reader_weights)
            mixed = np.tensordot(reader[1:].astype(np.float32), np.stack(readings), axes=1)
            out = expected_outcome(mixed, guessable, own, value, cost, cap, 1.0, None, 1.0)
            share = float(reader[0])
            util = (1 - share) * util + share * (out.found - weight * out.cost)
            found = (1 - share) * found + share * out.found
            spent = (1 - share) * spent + share * out.cost
        backward, assassin_backward = self._backward_weights(view.game)
        if backward > 0:
            util = util + backward * self._backward(short, aim_cols, cap)
        assassin_cols = np.array(sorted(col[w] for w in view.assassins if w not in targets), dtype=np.intp)
        if assassin_backward > 0 and assassin_cols.size:
            evoked = self._evoked(short, assassin_cols).max(axis=0)
            util = util - assassin_backward * evoked[:, None]
        if min_count > 1:
            util = util.copy()
            util[:, : min_count - 1] = -np.inf
        if self.margin > 0:
            clear = self._clear(board, cols, aim_cols, visible, own, cap)
            if not (clear & allowed[:, None]).any():
                clear[:, 0] = True  # nothing clears the margin: one card, scored as without it
            util = np.where(clear, util, -np.inf)

        best_k = np.argmax(util, axis=1)  # first maximum: the smaller count on a tie
        rows = np.arange(util.shape[0])
        assert self._prior is not None
        score = util[rows, best_k] + self.prefer_common * self._prior[cols]
        bonus = self._clue_bonus(cols)
        if bonus is not None:
            score = score + bonus
        score = np.where(allowed, score, -np.inf)
        n_ok = int(allowed.sum())
        top = max(1, min(int(top), n_ok))
        if top < n_ok:
            cut = np.partition(score, -top)[-top]
            chosen = np.flatnonzero(score >= cut)
        else:
            chosen = np.flatnonzero(allowed)
        vocab = self.vocabulary
        chosen = sorted(chosen.tolist(), key=lambda i: (-float(score[i]), vocab[cols[i]]))[:top]

        own_sim = short.sims[0].T  # (candidates, cards) view
        bad_cols = [col[w] for w in view.bad]
        options = []
        for i in chosen:
            k = int(best_k[i]) + 1
            ranked_own = sorted(aim_cols.tolist(), key=lambda c: (-float(own_sim[i, c]), board.words[c]))
            if bad_cols:
                worst = max(bad_cols, key=lambda c: (float(own_sim[i, c]), board.words[c]))
                bad_word, bad_sim = board.words[worst], float(own_sim[i, worst])
            else:
                bad_word, bad_sim = None, None
            options.append(
                ClueOption(
                    word=vocab[cols[i]],
                    count=k,
                    targets=tuple(board.words[c] for c in ranked_own[:k]),
                    score=float(score[i]),
                    expected_found=float(found[i, k - 1]),
                    expected_cost=float(spent[i, k - 1]),
                    closest_bad=bad_word,
                    closest_bad_similarity=bad_sim,
                )
            )
        return options

    def _reader_weights(self) -> Optional[np.ndarray]:
        """A reader fitted to this partner, or ``None`` (here: none): [share, w_1..w_n], the
        guess logits being sum_k w_k z_k (z_k: partner model k's similarity in its own units)
        and ``share`` how much its expected outcome counts next to the partner models' own."""
        return None

    def _clue_bonus(self, columns: np.ndarray) -> Optional[np.ndarray]:
        """What each candidate clue (vocabulary ``columns``) earns beyond its expected
        outcome, in own cards: nothing here; a learner adds what it knows of its partner."""
        return None

    def _lookalikes(self, view: SpymasterView, cols: np.ndarray) -> np.ndarray:
        """(candidates,) bool: the candidate clue is spelled like a visible card."""
        from .human.features import spelled_matrix

        vocab = self.vocabulary
        clues = [vocab[c] for c in cols]
        out = spelled_matrix(clues, list(view.visible)).any(axis=1)
        if self.shared_letters:
            out |= np.array([shares_letters(c, view.visible, self.shared_letters) for c in clues], dtype=bool)
        return out

    def _clear(self, board: BoardMatrices, cols: np.ndarray, aim_cols: np.ndarray, visible: np.ndarray,
               own: np.ndarray, cap: int) -> np.ndarray:
        """(candidates, cap) bool: whether, under every model (own and partners), the ``count``
        best of my aimed-at cards each lead every visible card not mine by ``margin`` (z-scores
        of the clue's similarities across the visible cards)."""
        shown = np.flatnonzero(visible)
        is_aim = np.isin(shown, aim_cols)
        is_bad = ~own[shown]
        clear = np.ones((len(cols), cap), dtype=bool)
        for k in range(len(self.partners) + 1):
            s = board.sim(k)[np.ix_(shown, cols)]
            z = (s - s.mean(axis=0)) / np.maximum(s.std(axis=0), 1e-9)
            best_bad = z[is_bad].max(axis=0) if is_bad.any() else np.full(len(cols), -np.inf)
            ranked = -np.sort(-z[is_aim], axis=0)  # (aimed cards, candidates), best first
            n = min(cap, ranked.shape[0])
            gaps = np.full((len(cols), cap), -np.inf)
            gaps[:, :n] = (ranked[:n] - best_bad).T
            clear &= gaps >= self.margin
        return clear

    def best_option(self, view: SpymasterView) -> ClueOption:
        """The option this spymaster gives its clue from: the best one the single-clue checker
        also accepts, with what it expects of the clue; or a zero-clue warning (:meth:`warning`)."""
        warning = self.warning(view)
        if warning is not None:
            return warning
        options = self.rank_clues(view, top=8)
        clue = self._emit([o.clue for o in options], view)
        return next(o for o in options if o.clue == clue)

    # -- zero-clue warnings ----------------------------------------------------------------------

    @staticmethod
    def _zero_clues(view: SpymasterView) -> list[str]:
        return [e.clue.word for e in view.history if e.clue.is_zero]

    @staticmethod
    def _board_z(board: BoardMatrices, k: int, columns: Union[np.ndarray, slice]) -> np.ndarray:
        """(cards, columns) under partner model ``k``: each clue's similarities z-scored across
        the whole board, as the embedding guesser reads a clue (how far a card stands out)."""
        s = board.sim(k)[:, columns]
        return (s - s.mean(axis=0)) / np.maximum(s.std(axis=0), 1e-9)

    def _mirror_z(self, board: BoardMatrices, k: int, columns: np.ndarray) -> np.ndarray:
        """(cards, columns): each candidate clue's board z-scores exactly as the embedding
        guesser of partner model ``k`` reads them (its hub correction against its
        ``MIRROR_REFERENCE`` most common clue words, then z across the whole board), cached per
        board. The spymaster's own matrices standardise over its whole vocabulary instead,
        which ranks a few cards differently: enough to send a bold clue to the assassin."""
        cache = getattr(self, "_mirror_cache", None)
        if cache is not None and cache[0] is board and cache[1] == k and np.array_equal(cache[2], columns):
            return cache[3]
        vocab = self.vocabulary
        z = guesser_reading(self.partners[k - 1], [vocab[c] for c in columns], board.words, MIRROR_REFERENCE).T
        z = np.ascontiguousarray(z, dtype=np.float32)
        self._mirror_cache = (board, k, columns, z)
        return z

    def _remembered_rows(
        self, view: SpymasterView, board: BoardMatrices, weight: Optional[float] = None
    ) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): how far the partner's memory of my unfinished clues lifts
        each card within the count (``memory_weight``, or ``duet_memory_weight`` in Duet, times
        its best positive z for them, as :class:`.guesser.EmbeddingGuesser` adds with its
        ``history_weight``); None without any."""
        if weight is None:
            weight = self.memory_weight
            if view.game == "duet" and self.duet_memory_weight is not None:
                weight = self.duet_memory_weight
        unfinished = [e.clue.word for e in view.history if e.unfinished]
        return self._positive_z_rows(board, unfinished, weight, np.max)

    def _warned_rows(self, view: SpymasterView, board: BoardMatrices) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): how far my earlier zero clues push each card down in
        the partner's eyes (``zero_weight`` times its positive z for them); None without any."""
        return self._positive_z_rows(board, self._zero_clues(view), self.zero_weight, np.sum)

    def _positive_z_rows(self, board: BoardMatrices, words: list[str], weight: float, reduce) -> Optional[list[np.ndarray]]:
        """Per partner model, (cards,): ``weight`` times ``reduce`` (over ``words``, those in
        the vocabulary) of each card's positive z-score for them; None when nothing counts."""
        words = [w for w in words if w in self._vocab_index]
        if not words or weight == 0:
            return None
        columns = np.array([self._vocab_index[w] for w in words])
        return [
            (weight * reduce(np.maximum(self._board_z(board, k, columns), 0.0), axis=1)).astype(np.float32)
            for k in range(1, len(self.partners) + 1)
        ]

    def warning(self, view: SpymasterView) -> Optional[ClueOption]:
        """A zero clue ("word: 0": none of ours relates to it) that points at the assassin,
        given once, on the first turn with at most ``warn_cards`` own cards left.

        Why: a guesser of another model now and then takes a clue for the assassin where none
        of the partner models would (they put its chance near 0.1%). A warning costs one turn,
        in which the partner still guesses once, and from then on the partner keeps away from
        the cards the word points at (:class:`.guesser.EmbeddingGuesser` ``zero_weight``).
        The word is the legal one the assassin stands out most for under the partner models,
        minus twice how much any own card does. Classic rules and the Kim protocol only: the
        clocks of Duet and of the solo variant cannot spare the turn.
        """
        if not self.warn_cards or view.game == "duet" or view.extra.get("solo"):
            return None
        if not view.own or len(view.own) > self.warn_cards:
            return None
        assassins = [w for w in view.assassins if w not in view.own]
        if not assassins or self._zero_clues(view):
            return None
        board = self._matrices(view)
        a_rows = [board.column[w] for w in assassins]
        own_rows = [board.column[w] for w in view.own]
        z = np.mean([self._board_z(board, k, slice(None)) for k in range(1, len(self.partners) + 1)], axis=0)
        score = z[a_rows].max(axis=0) - 2.0 * np.maximum(z[own_rows].max(axis=0), 0.0)
        assert self._prior is not None
        score = score + self.prefer_common * self._prior
        allowed = board.legal.mask(view.visible) & ~self._banned(view)
        score = np.where(allowed, score, -np.inf)
        top = [j for j in np.argsort(-score)[:8] if np.isfinite(score[j])]
        try:
            clue = self._emit([Clue(self.vocabulary[j], 0) for j in top], view)
        except RuntimeError:  # no legal word among the best: no warning
            return None
        j = self._vocab_index[clue.word]
        worst = assassins[int(np.argmax(z[a_rows, j]))]
        return ClueOption(clue.word, 0, (), float(score[j]), 0.0, 0.0, worst, float(z[a_rows, j].max()))

    def give_clue(self, view: SpymasterView) -> Clue:
        return self.best_option(view).clue

    def choose_cover(self, view: SpymasterView, candidates: Sequence[str]) -> str:
        """Which card to cover when the rules let this spymaster choose.

        Solo: an opponent agent; the one our guesser is likeliest to confuse with our remaining
        targets goes, so later clues have fewer traps. Penalty cover (our own agents): the
        one hardest to clue, i.e. the least related to any other own card. Similarity is the
        mean over the own and partner models, each divided by its model's similarity scale.
        """
        if not candidates:
            raise ValueError("no card to cover")
        cands = sorted(candidates)
        own = set(view.own)
        if set(cands) <= own:
            others = sorted(own)
            if len(others) < 2:
                return cands[0]
            sims = self._card_similarity(cands, others)
            for i, w in enumerate(cands):
                sims[i, others.index(w)] = -np.inf
            score = -sims.max(axis=1)
        else:
            if not own:
                return cands[0]
            score = self._card_similarity(cands, sorted(own)).max(axis=1)
        return cands[int(np.argmax(score))]  # first maximum: alphabetical on a tie

    def _card_similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        total = np.zeros((len(rows), len(cols)), dtype=np.float64)
        models = {id(m): m for m in [self.embedding, *self.partners]}
        for m in models.values():
            s = np.asarray(m.similarity(list(rows), list(cols)), dtype=np.float64)
            total += s / _spread(m, s)
        return total / len(models)


def _plain(word: str) -> str:
    """Lower case without accents, umlauts or tone marks (GUCKEN and KÜKEN: gucken, kuken)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c)).replace(" ", "")


def shares_letters(clue: str, cards: Sequence[str], n: int) -> bool:
    """Whether ``clue`` shares ``n`` letters in a row, or its first three, with one of ``cards``
    (accents set aside): a spelling link a reader takes for no meaning."""
    a = _plain(clue)
    grams = {a[i:i + n] for i in range(len(a) - n + 1)}
    for card in cards:
        b = _plain(card)
        if a[:3] == b[:3] or any(b[i:i + n] in grams for i in range(len(b) - n + 1)):
            return True
    return False
