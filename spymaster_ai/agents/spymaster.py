"""The embedding spymaster: every legal clue word, every count, scored by what a partner would do.

Why this shape: the board is fixed for a game, so the clue-vocabulary x board similarity
matrices (the spymaster's own model and each partner model) are computed once, on the first
clue of a board; every clue after that is a masked, vectorised selection over them. The
score of a clue with count k is the expected number of own cards a probabilistic partner
finds before its first wrong card, minus the risk-weighted expected cost of that wrong card
(see :mod:`.partner_model`), plus a small preference for common words.

Where to look: this module holds the class, its parameters and the order of a clue's steps
(:meth:`EmbeddingSpymaster.rank_clues`); :mod:`.clue_search` the candidates and the choice of
the best clues (and zero-clue warnings), :mod:`.count_rule` the costs, values and counts, and
:mod:`.partner_reading` how the partner models read a clue. The names those modules held here
before the split are imported from here still.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..rules.moves import Clue
from ..views import SpymasterView
from .clue_search import ClueOption, ClueSearch, Shortlist, shares_letters
from .clue_space import ClueVocabularyAgent, _spread
from .count_rule import DEFAULT_COSTS, DUET_EXTRA_TURN_COST, CountRule
from .partner_reading import (
    _ADAPT_TEMPERATURE,
    AGREEMENT_CLUES,
    MIRROR_MEMORY,
    MIRROR_REFERENCE,
    PartnerReading,
    agreement_shares,
)
from .vocabulary import DEFAULT_MIN_ZIPF, SimilarityModel

__all__ = [
    "AGREEMENT_CLUES",
    "DEFAULT_COSTS",
    "DUET_EXTRA_TURN_COST",
    "MIRROR_MEMORY",
    "MIRROR_REFERENCE",
    "ClueOption",
    "EmbeddingSpymaster",
    "PartnerSpec",
    "Shortlist",
    "agreement_shares",
    "shares_letters",
]

_Shortlist = Shortlist  # its name before the split

PartnerSpec = Union[None, SimilarityModel, Sequence[SimilarityModel]]


class EmbeddingSpymaster(ClueSearch, CountRule, PartnerReading, ClueVocabularyAgent):
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

        # The candidates (clue_search), what the partner models expect of each clue and count
        # (partner_reading), the counts this spymaster will give (count_rule), the best clues.
        short, allowed = self._candidates(view, board, aim_cols)
        util, found, spent = self._partner_utilities(view, board, short, guessable, own, value, cost, cap, weight)
        util = self._association(view, board, short, targets, aim_cols, util, cap)
        util = self._count_rule(util, min_count, board, short.columns, aim_cols, visible, own, cap, allowed)
        return self._top_options(view, board, short, aim_cols, util, found, spent, allowed, top)

    def best_option(self, view: SpymasterView) -> ClueOption:
        """The option this spymaster gives its clue from: the best one the single-clue checker
        also accepts, with what it expects of the clue; or a zero-clue warning (:meth:`warning`)."""
        warning = self.warning(view)
        if warning is not None:
            return warning
        options = self.rank_clues(view, top=8)
        clue = self._emit([o.clue for o in options], view)
        return next(o for o in options if o.clue == clue)

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
