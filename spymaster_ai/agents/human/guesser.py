"""A guesser that reads a person's clue as people do, and stops as a careful person would.

Why: the embedding guesser reads a clue as one model does and guesses on past the count when
the clock is short; with a person as its spymaster it took half the cards they meant, and
twice hit a black card on a guess past a clue it had already finished. This one ranks the
cards by the human reader (:mod:`.reader`) and guesses only while a guess is worth what a
wrong card costs:

* the chance that the likeliest card is one the giver meant comes from the stop rule fitted
  to whether people's guesses were right (``ReaderParams.p_correct``); in Duet it is combined
  with what my own key side says of the partner's (:mod:`..duet_prior`);
* a guess is made while ``p`` minus the chance of an assassin (Duet: a black card) times
  ``assassin_cost``, minus the chance of any other wrong card times ``wrong_cost``, is
  positive; the first guess of a clue is always made (the rules ask for one);
* after the first guess of a clue (outside Duet), a card is taken only if it calls the clue
  to mind at least a little (``min_evoke``): a careful person does not take a card with no
  link at all because nothing better is left; in Duet its chance of green decides alone;
* never past the count, except on a leftover of an earlier clue the reader is sure of
  (``bonus_p``): a careful person does not gamble on a fourth card;
* in classic, a later card of a clue is right at most as often as the clue meant it:
  min(1, k p), k the cards it still asks for, p the reader's share of the card (the
  confidence the session shows): see :meth:`_classic_meant`.

Duet sudden death, where no clue is current, is its own module (:mod:`.sudden_death`).
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ...views import GuesserView
from ..duet_clock import black_cost_of_view
from ..duet_prior import partner_side_probabilities
from ..guesser import CardScore
from .features import median_evoke
from .reader import HumanReader, shared_reader
from .sudden_death import _BASE_BLACK, _BASE_GREEN, SuddenDeathReading

__all__ = ["HumanGuesser"]

# The chance that a person takes a card a clue of mine clearly meant (people's first guess
# hits the giver's target 0.86 of the time on the human Duet data): what makes a card they
# passed over evidence of a black card on their side.
DECLINE_FIND = 0.8


class HumanGuesser(SuddenDeathReading):
    """Guesses the cards a person would take for the clue, while they are worth the risk.

    ``assassin_cost``: what an assassin (Duet: a black card) costs, in cards found; the game
    is lost, so a careful person weighs it heavily. ``wrong_cost``: what any other wrong card
    costs in classic and in Duet's sudden death (the turn or the game ends);
    ``duet_wrong_cost``: a Duet bystander's before sudden death (see :meth:`worth`).
    ``read_declines``: in Duet, read a card my partner passed over on my own clues as
    likelier black on their side (:meth:`declines`). ``max_black``: after a
    clue's first guess, no card whose chance of being the assassin (Duet: black on the
    partner's side) is above this.
    ``bonus_p``: past the count, an earlier clue's leftover is guessed only at this chance.
    ``leftovers_first`` (False: the card likeliest green, as before 2026-12-04) and
    ``leftover_min``: in sudden death, a card a partner's clue still means with this chance
    and that calls it to mind at least ``leftover_evoke`` (as ``min_evoke``) is an open
    leftover; the plainest open leftover (``plainest_first``; else the one likeliest green) is
    taken before any card no clue points to. ``clued_first``: when no open leftover is plain
    enough, a card a clue still means with ``leftover_min`` chance comes before the key table.
    ``memory``: how much an earlier unfinished clue's reading adds to a card (as a share of
    the current clue's probability). ``min_evoke``: after a clue's first guess, how strongly
    (standard deviations, the median reader model) a card must call the clue to mind; on
    the judged human guesses, picks below 2.0 were right 69% of the time, above it 83%. 1.0
    rather than 2.0: a person's second card is often one the models barely link (ELEPHANT
    for PEANUT: 0.4), and a Duet turn ends with a token whether it stops or marks a
    bystander, so only the black-card risk of ``worth`` should stop it (human pair, 60 Duet
    games: 25.0% won at 1.0, 21.7% at 2.0).
    ``classic_meant``: in classic, cap a later card's chance of being right by how much the
    clue meant it (:meth:`_classic_meant`); false gives the stop rule's chance alone.
    ``duet_meant``: the same cap in Duet. An English playtest of 2026-12-05: five second
    guesses on people's 2-clues at 1-21% by the reader, none right, two of them assassins
    (BANDIT for MUSIC, STORM for ISLAND), where a person stops.
    ``unmeant_green``: with ``duet_meant``, a card the clue did not mean may still be green
    on the partner's side, as the key table says (:meth:`_meant_or_unclued`); false reads
    the capped chance as the chance of green (before 2026-12-05, round 4).
    ``met_by_rank``: in sudden death, how much of a clue's count its found cards used up
    (:meth:`_found_meant`). ``duet_min_evoke``: ``min_evoke`` in Duet, where the chance of
    green decides (0: English playtests of round 4 stopped on HOGWARTS: 3 before RIDDLE,
    value +0.38, and TORCH: 2 before BATTERY, both meant, at evoke 0.79 and 0.84).
    ``first_by_value`` (on): in Duet the guess I must make (a clue's first) is the card worth
    most once my side of the key has moved the reading (:meth:`_first_by_value`), not the
    likeliest card alone; human pair, 800 Duet games: 326 won off, 325 on; the minilm spymaster
    with this guesser, 400: 180 off, 183 on; English playtest round 13 (on): 1 of 8 won.
    ``duet_clock`` (off): in Duet before sudden death a black card costs at most what the clock
    makes it cost (:meth:`_black_cost`), so that a pair far behind takes the second card (round 9:
    9 of 12 games went to sudden death, the AI having stopped after one card on most of the
    person's 2-card clues). Off because the clock's model leaves sudden death out, where games
    with people are decided: English playtest round 10, played with it on, lost seed 10002 on
    ONION, black on the person's side, taken as SWEET: 2's second card with 2 tokens left at a
    third of a card's cost, where the AI had stopped before (2 of 12 games won that round). Human
    pair, 800 Duet games: 326 won off, 330 on.
    """

    def __init__(self, reader: Optional[HumanReader] = None, *, assassin_cost: float = 6.0,
                 wrong_cost: float = 0.4, duet_wrong_cost: float = 0.4, bonus_p: float = 0.85, memory: float = 0.3,
                 min_evoke: float = 1.0, read_declines: bool = True, max_black: float = 1.0,
                 leftovers_first: bool = True, plainest_first: bool = True, leftover_min: float = 0.3,
                 leftover_evoke: float = 1.0, clued_first: bool = True, duet_meant: bool = True,
                 classic_meant: bool = True, unmeant_green: bool = True, met_by_rank: bool = True,
                 duet_min_evoke: float = 0.0, duet_clock: bool = False, first_by_value: bool = True) -> None:
        for name, value in (("assassin_cost", assassin_cost), ("wrong_cost", wrong_cost),
                            ("duet_wrong_cost", duet_wrong_cost), ("memory", memory)):
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value}")
        if not 0.0 < bonus_p <= 1.0:
            raise ValueError(f"bonus_p must be in (0, 1], got {bonus_p}")
        self._reader = reader
        self.assassin_cost = float(assassin_cost)
        self.wrong_cost = float(wrong_cost)
        self.duet_wrong_cost = float(duet_wrong_cost)
        self.read_declines = bool(read_declines)
        if not 0.0 <= max_black <= 1.0:
            raise ValueError(f"max_black must be in [0, 1], got {max_black}")
        self.max_black = float(max_black)
        if not 0.0 < leftover_min <= 1.0:
            raise ValueError(f"leftover_min must be in (0, 1], got {leftover_min}")
        self.leftovers_first = bool(leftovers_first)
        self.plainest_first = bool(plainest_first)
        self.leftover_min = float(leftover_min)
        self.leftover_evoke = float(leftover_evoke)
        self.clued_first = bool(clued_first)
        self.duet_meant = bool(duet_meant)
        self.unmeant_green = bool(unmeant_green)
        self.met_by_rank = bool(met_by_rank)
        self.duet_min_evoke = float(duet_min_evoke)
        self.duet_clock = bool(duet_clock)
        self.first_by_value = bool(first_by_value)
        self.bonus_p = float(bonus_p)
        self.memory = float(memory)
        self.min_evoke = float(min_evoke)
        self.classic_meant = bool(classic_meant)

    @property
    def reader(self) -> HumanReader:
        if self._reader is None:
            self._reader = shared_reader()
        return self._reader

    @property
    def embedding(self):
        """The reader's first model (what ``eval human`` asks to tell a readable clue)."""
        return self.reader.models[0]

    def reset(self, seed: int) -> None:
        pass

    def for_picture_cards(self, wrap) -> "HumanGuesser":
        """A twin reading picture cards: the same weights over ``wrap``-ped models (the
        simulator's caption backend scores each card id through its captions)."""
        import copy

        twin = copy.copy(self)
        reader = self.reader
        twin._reader = HumanReader(reader.params, {n: wrap(m) for n, m in zip(reader.model_names, reader.models)})
        return twin

    # -- reading ----------------------------------------------------------------------------

    def _guessable(self, view: GuesserView) -> np.ndarray:
        marked = set(view.marked_by_me)
        visible = set(view.visible)
        return np.array([w in visible and w not in marked for w in view.words], dtype=bool)

    def probabilities(self, view: GuesserView, clue: Optional[str] = None) -> np.ndarray:
        """(cards,) the reader's chance that a person takes each card next for ``clue`` (the
        current one by default), 0 for cards that cannot be guessed; an unreadable clue gives
        every guessable card the same chance."""
        mask = self._guessable(view)
        word = clue if clue is not None else (view.clue.word if view.clue is not None else "")
        if not word or not self.reader.reads(word):
            return mask / max(mask.sum(), 1)
        return self.reader.probabilities(view.words, word, mask)

    def evoke(self, view: GuesserView, card: str, clue: str) -> float:
        """How strongly ``card`` calls ``clue`` to mind: the median reader model's similarity
        in standard deviations of the card's similarity to every clue word."""
        if not self.reader.reads(clue):
            return 0.0
        return float(median_evoke(self.reader.features([card], [clue])[0, 0], len(self.reader.model_names)))

    def _with_memory(self, view: GuesserView, p: np.ndarray) -> np.ndarray:
        """The current clue's reading plus ``memory`` times the best reading of any earlier
        clue that still has cards to find (renormalised)."""
        earlier = [e for e in view.history if e.unfinished and e.clue != view.clue and e.clue.count > 0]
        if not earlier or self.memory == 0:
            return p
        extra = np.max([self.probabilities(view, e.clue.word) for e in earlier], axis=0)
        q = p + self.memory * extra * (p > 0)
        return q / q.sum()

    def rank_cards(self, view: GuesserView) -> list[CardScore]:
        """Every visible card, likeliest first (ties: board order); ``score`` is the log of the
        reader's probability, so a softmax of the scores gives the probabilities back."""
        p = self.probabilities(view)
        order = np.argsort(-p, kind="stable")
        visible = set(view.visible)
        return [CardScore(view.words[i], float(p[i]), 0.0, float(np.log(max(p[i], 1e-12))))
                for i in order if view.words[i] in visible]

    def reading(self, view: GuesserView) -> list[tuple[str, float]]:
        """(card, probability) for the current clue, likeliest first: what ``why`` shows."""
        return [(c.word, c.similarity) for c in self.rank_cards(view)]

    # -- deciding ---------------------------------------------------------------------------

    def _risks(self, view: GuesserView, card: str, p_right: float,
               table: Optional[dict[str, tuple[float, float]]] = None) -> tuple[float, float, float]:
        """(P(right), P(assassin or black), P(other wrong)) for guessing ``card``; ``table``:
        :meth:`_partner_side` of ``view``, when the caller weighs many cards on one view."""
        if view.game == "duet":
            table = self._partner_side(view) if table is None else table
            pg, pb = table.get(card, (_BASE_GREEN, _BASE_BLACK))
            if pg <= 0.0:
                return 0.0, pb / max(1.0 - pg, 1e-9), 1.0 - pb / max(1.0 - pg, 1e-9)
            # the key table's odds move the reader's odds (my side tells me about the partner's)
            odds = p_right / max(1.0 - p_right, 1e-9) * (pg / (1.0 - pg)) / (_BASE_GREEN / (1 - _BASE_GREEN)) if pg < 1 else math.inf
            right = 1.0 if math.isinf(odds) else odds / (1.0 + odds)
            black_share = pb / max(1.0 - pg, 1e-9)
            return right, (1.0 - right) * black_share, (1.0 - right) * (1.0 - black_share)
        wrong = 1.0 - p_right
        unknown = max(len(view.visible) - (view.own_left or 0), 1)
        assassin_share = 1.0 / unknown if view.game != "duet" else _BASE_BLACK
        return p_right, wrong * assassin_share, wrong * (1.0 - assassin_share)

    def worth(self, view: GuesserView, card: str, p_right: float) -> float:
        """What guessing ``card`` is worth, in cards found. In Duet (before sudden death) a
        bystander costs ``duet_wrong_cost``. Every Duet turn costs a timer token however it
        ends, so 0 would guess on to the count unless a black card threatens; a playtest round
        with 0 lost two games of five on a black card taken as a clue's second card (SCARF for
        TOWEL: 2, VELVET for WEDDING: 2), so it stays at ``wrong_cost`` (0.4): a second card
        must be likely, not merely safe."""
        return self._value(view, self._risks(view, card, p_right))

    def _meant_or_unclued(self, view: GuesserView, card: str, meant: float) -> tuple[float, float, float]:
        """(P(right), P(black), P(bystander)) of a Duet later card the clue meant with chance
        ``meant``: right if it is a target; if not, green, black or a bystander on the
        partner's side as often as the key table reads it from mine.

        Why: ``meant`` is the chance the card is a target, and the odds rule of :meth:`_risks`
        read it as the chance it is green, though a card the giver did not aim at is still
        green for them about a third of the time. On people's Duet clues (after a right first
        card, `experiments/results/duet_second_card.md`) the cap read 0.44 on average where
        the next card was green 0.62 of the time; target-or-unclued-green reads 0.58. The AI
        stopped after one right card on 5 of a playtester's 8 clues of 2 or more, and every
        game ran out of tokens. Human pair, 800 Duet games (seeds 0, 1000, 2000, 3000): 31.4%
        won before, 38.6% with this reading, 35.1% with ``meant`` first moved by the key's
        odds, 30.8% with the odds rule's black risk kept (`CHANGELOG.md`)."""
        pg, pb = self._partner_side(view).get(card, (_BASE_GREEN, _BASE_BLACK))
        if pg <= 0.0:
            return self._risks(view, card, meant)
        right = meant + (1.0 - meant) * pg
        black = (1.0 - meant) * pb
        return right, black, max(1.0 - right - black, 0.0)

    def _value(self, view: GuesserView, risks: tuple[float, float, float]) -> float:
        right, black, other = risks
        wrong = self.duet_wrong_cost if view.game == "duet" and not view.sudden_death else self.wrong_cost
        return right - self._black_cost(view) * black - wrong * other

    def _black_cost(self, view: GuesserView) -> float:
        """What a black card costs, in cards found: ``assassin_cost``; in Duet with
        ``duet_clock``, at most what the clock makes it cost (:mod:`..duet_clock`: the game the
        pair would have won anyway over the chance that one more green decides it), so that a
        pair behind the clock takes the second card a person would."""
        if not (self.duet_clock and view.game == "duet" and not view.sudden_death and view.tokens_left is not None):
            return self.assassin_cost
        return min(self.assassin_cost, black_cost_of_view(view))

    def _partner_side(self, view: GuesserView) -> dict[str, tuple[float, float]]:
        """(P(green), P(black)) on the partner's side for each card I may guess: the key
        table (:func:`..duet_prior.partner_side_probabilities`), with the black odds of the
        cards they passed over on my clues raised (:meth:`declines`)."""
        table = partner_side_probabilities(view)
        if not self.read_declines:
            return table
        for card, factor in self.declines(view).items():
            if card not in table:
                continue
            pg, pb = table[card]
            odds = pb / max(1.0 - pb, 1e-9) * factor
            black = odds / (1.0 + odds)
            table[card] = (pg * (1.0 - black) / max(1.0 - pb, 1e-9), black)
        return table

    def declines(self, view: GuesserView) -> dict[str, float]:
        """Cards my partner passed over on my own clues, and by how much that multiplies the
        odds that each is black on their side.

        Why: a person avoids the black cards of their side, so a card of mine that my clue
        plainly meant and that they passed over (they stopped short of the count, or took a
        wrong card instead) is likelier black for them. A playtest lost on LEAF: the person
        had refused it for BARK: 2 (LEAF, BADGER), and the AI took it on their AMBER: 2. The
        clue meant card i with chance min(1, k p_i), k the cards it still asked for and p read
        among the cards left (as in sudden death); a meant card that is not black for them is
        taken with chance ``DECLINE_FIND``, so passing it over is 1 / (1 - DECLINE_FIND * meant)
        times likelier if it is black.
        """
        if view.game != "duet" or not view.given or view.own_side is None or len(view.own_side) != len(view.words):
            return {}
        mask = self._guessable(view)
        mine = np.array([s == "green" for s in view.own_side]) & mask
        factor = np.ones(len(view.words))
        for entry in view.given:
            clue = entry.clue
            if clue.is_zero or clue.unlimited or entry.found >= clue.count or not self.reader.reads(clue.word):
                continue  # nothing asked, or they took as many of mine as I asked
            # when they stopped, the cards they had taken were gone: what was still meant is
            # read among the cards left, for the cards the count still asked for
            left = clue.count - entry.found
            meant = np.minimum(1.0, left * self.reader.probabilities(view.words, clue.word, mask)) * mine
            factor /= 1.0 - DECLINE_FIND * meant
        return {view.words[i]: float(f) for i, f in enumerate(factor) if f > 1.0 + 1e-9}

    def next_guess(self, view: GuesserView) -> Optional[str]:
        if view.sudden_death:
            return self._sudden_death(view)
        clue = view.clue
        if clue is None:
            return None
        mask = self._guessable(view)
        if not mask.any():
            return None
        if clue.is_zero:  # "none of ours relates to this": avoid it, guess only when made to
            if view.can_stop and view.guesses_made > 0:
                return None
            p = self.probabilities(view)
            p = np.where(mask, p, np.inf)
            return view.words[int(np.argmin(p))]
        if not self.reader.reads(clue.word):
            return self._unread_guess(view) if view.guesses_made == 0 or not view.can_stop else None
        p = self._with_memory(view, self.probabilities(view))
        best = int(np.argmax(p))
        card = view.words[best]
        p_right = self.reader.params_for(view.words).p_correct(p[mask], int(np.flatnonzero(mask).tolist().index(best)))
        within = clue.unlimited or view.guesses_made < clue.count
        if view.guesses_made == 0 or not view.can_stop:
            if self.first_by_value and view.game == "duet":
                return self._first_by_value(view, p, mask)
            return card
        if self.evoke(view, card, clue.word) < (self.duet_min_evoke if view.game == "duet" else self.min_evoke):
            return None
        capped = within and (self.classic_meant if view.game != "duet" else self.duet_meant)
        if capped:
            p_right = min(p_right, self._classic_meant(view, best, clue))
        # once: in Duet it reads every refusal
        risks = (self._meant_or_unclued(view, card, p_right) if capped and view.game == "duet" and self.unmeant_green
                 else self._risks(view, card, p_right))
        if risks[1] > self.max_black:
            return None  # a careful person takes no later card that may end the game
        if within:
            return card if self._value(view, risks) > 0 else None
        p_right = min(p_right, self._earlier_meant(view, best))
        risks = self._risks(view, card, p_right)
        return card if p_right >= self.bonus_p and self._value(view, risks) > 0 else None

    def _first_by_value(self, view: GuesserView, p: np.ndarray, mask: np.ndarray) -> str:
        """Duet, a guess I must make: the card worth most once my side of the key has moved
        the reader's odds (:meth:`_risks`), not the likeliest card alone.

        Why: a person reads their own key before the first guess. The AI took CAVE (36%, black
        on both sides) over LAGOON (25%) for SCUBA: 2, and SAIL, black on both sides, as
        SUBMARINE's leftover at the first pick of LITTLE: 3 (English playtest rounds 11 and 12):
        a card black on my side is black on the partner's one time in three, a bystander of mine
        one time in thirteen."""
        params = self.reader.params_for(view.words)
        table = self._partner_side(view)  # once per view: it reads every clue of mine the partner declined
        live = np.flatnonzero(mask)
        shown = p[mask]
        best, best_value = int(live[0]), -np.inf
        for k, i in enumerate(live):
            value = self._value(view, self._risks(view, view.words[i], params.p_correct(shown, k), table))
            if value > best_value + 1e-12:
                best, best_value = int(i), value
        return view.words[best]

    def _earlier_meant(self, view: GuesserView, best: int) -> float:
        """Past the count, the chance that an earlier clue still open meant card ``best``:
        min(1, k p), k the cards it still asks for, p the reader's share of the card for it.

        Why: a guess past the count is only for an earlier clue's leftover, yet the stop
        rule's chance reads high for whatever card tops the current clue's reading once its
        cards are gone (a Vietnamese playtest: TRÁI CÂY: 2 found BƯỞI and NHO, then a third
        guess took the assassin KHOAI TÂY, which the AI's own reading gave 2%)."""
        chances = [min(1.0, max(e.clue.count - e.found, 0) * float(self.probabilities(view, e.clue.word)[best]))
                   for e in self._open_clues(view)]
        return max(chances, default=0.0)

    def _open_clues(self, view: GuesserView) -> list:
        """Earlier clues (not the current one) that still ask for cards, and that I can read."""
        return [e for e in view.history
                if e.unfinished and e.clue != view.clue and e.clue.count > 0 and self.reader.reads(e.clue.word)]

    def _unread_guess(self, view: GuesserView) -> Optional[str]:
        """The guess the rules force for a clue I cannot read: the card my side of the key
        makes likeliest green and least likely black on the partner's side (Duet), else an
        earlier clue's likeliest card; then stop.

        Why: a clue outside the models and the glossary reads as nothing, and the first card
        in board order was taken for it (a Persian playtest lost on the assassin for لابی).
        A person who does not know the word plays safe and says so; the play session tells
        the person (``reads`` is public for that)."""
        mask = self._guessable(view)
        if not mask.any():
            return None
        table = self._partner_side(view)
        earlier = self._open_clues(view)
        p = np.max([self.probabilities(view, e.clue.word) for e in earlier], axis=0) if earlier else mask / mask.sum()
        best, value = None, -np.inf
        for i in np.flatnonzero(mask):
            green, black = table.get(view.words[i], (_BASE_GREEN, _BASE_BLACK))
            v = green - self.assassin_cost * black + float(p[i])
            if v > value:
                best, value = view.words[i], v
        return best

    def reads(self, word: str) -> bool:
        """Whether this guesser can read ``word`` as a clue at all."""
        return self.reader.reads(word)

    def _classic_meant(self, view: GuesserView, best: int, clue) -> float:
        """The chance that the giver meant card ``best`` for the clue: min(1, k p), k the
        cards the clue still asks for, p the reader's share of the card among those left.

        Why: the stop rule (``p_correct``) was fitted on people's own picks, which they make
        only when a card fits; it reads 0.76 for nearly any top card, so the guesser went on
        to the count on cards it barely read (a playtest: LAVA and LIGHTER at 25-26%, both
        wrong). On the judged human guesses a pick the reader gives under 15% was right 52%
        of the time, above 70% 93%. A card is right at most as often as the clue meant it,
        the reading the sudden-death and refusal rules here already use.
        The first guess is not capped (the rules ask for it); unlimited clues are not."""
        if clue.unlimited:
            return 1.0
        k = max(clue.count - view.guesses_made, 0)
        p = self.probabilities(view)
        return float(min(1.0, k * p[best]))
