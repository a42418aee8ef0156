"""The embedding guesser: rank the cards by meaning, guess while confident, stop otherwise.

Why these rules: a card's raw similarity means little on its own (some words are close to
everything), so each clue's similarities are standardised across the whole board (z-scores:
how far a card stands out for this clue). The guesser guesses up to the count, spends the
classic bonus guess (or, in Duet, further guesses) only on leftovers of earlier clues it is
sure about, and stops when the best remaining card no longer stands out. Within the count it
also remembers: a card that an earlier, unfinished clue still points at is likelier to be
the one the spymaster means, so that clue's evidence is added to the current one's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..views import ClueHistoryEntry, GuesserView
from .duet_clock import black_cost_of_view
from .duet_prior import partner_side_probabilities
from .vocabulary import SimilarityModel, cannot_read, is_clue_shaped, model_language

# Unconditional partner-side rates on a full Duet board (RULES.md §3): 9 green, 3 black of 25.
_BASE_GREEN, _BASE_BLACK = 9 / 25, 3 / 25


def _non_negative(name: str, value: float) -> float:
    """``value``, or a ValueError naming the parameter when it is negative."""
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


@dataclass(frozen=True)
class CardScore:
    """One candidate card: raw similarity to the clue, its z-score on the board, final score."""

    word: str
    similarity: float
    z: float
    score: float


class EmbeddingGuesser:
    """Guesses the cards that stand out for the clue under one embedding.

    ``stop_threshold``: stop within the count when the best card's score (z units) is below it
    (never before the mandatory first guess). ``bonus_threshold``: the score a leftover of an
    earlier clue needs for a guess beyond the count. ``sudden_death_threshold``: the score a
    card needs in classic Assassin Ending sudden death when a stop were allowed (it never is).
    Duet sudden death: see :meth:`sudden_death_probabilities`; the guesser passes when the
    best card's chance of being green on the partner's side is at most ``sudden_death_min_prob``.
    ``duet_prior``: blend my own key side into the score (``prior_weight`` on the log green
    odds, ``black_weight`` on the black probability).
    ``history_weight``: within the count, each card's score is its z-score for the current
    clue plus this weight times its best positive z-score for an earlier clue that still has
    cards to find (0: the current clue alone). Against a spymaster of another model, whose
    clues this guesser misreads more often, 1.0 won 4 points more Kim-protocol games than 0
    (robust spymaster with the guesser's model held out, 4 models x 200 games, seeds 7 and
    11; 0.5 and 2.0 gained less); it changes nothing in a game without an unfinished clue.
    ``duet_extra_ratio``: Duet, past the count (or within it, where the clue alone would
    stop), guess on while the best card's odds of green to black (key table and clue
    evidence, :meth:`duet_odds`) reach this multiple of what the clock asks
    (:meth:`_clock_ratio`: a black costs the win the pair would have had anyway, a green the
    chance that it decides the game). 1.0 is the break-even. Past the count it won 1.7% and
    2.1% of Duet games instead of 0.4% and 0.2% with a robust spymaster that never saw the
    guesser's model (4 models x 200 games, seeds 11 and 13), within the count too 2.1% and
    2.8%, and left mirror pairs unchanged (300 games each, MiniLM and GloVe); 0 turns it off.
    ``extra_slope``: in those odds, the green log odds rise by this times the card's positive
    z-score (sudden death has its own ``sudden_death_slope``). 2.0 rather than 1.0 guesses
    on more often behind the clock: with a robust spymaster that never saw the guesser's model,
    11.4 / 9.9 / 9.9% of Duet games won instead of 9.2 / 8.3 / 7.5% (5 models x 300 games,
    seeds 11 / 7 / 13). Those extra guesses are green about 35% of the time and black about
    15%, but a pair that far behind the clock loses without them. 3 or 4 won no more and cost
    a mirror GloVe pair 3 points (98.0 -> 95.3 / 94.7%, 300 games); 2 cost it 0.7.
    ``endgame_cards``: classic and Kim protocol, while at most this many of my agents are
    hidden (``GuesserView.own_left``), the first guess of a clue adds the full z-scores of every
    clue given since my team last found an agent, instead of the memory above: each of those
    found nothing, so with one agent left they all point at it, while an older open clue may
    point at cards already covered. The robust spymaster's last cards take two clues each on
    average and carry most of its assassin losses (``experiments/studies/calibration_study.py``); at 1
    it won 83.6 / 81.9 / 85.2% of Kim-protocol games against 84.2 / 80.2 / 84.0% (5 models x
    200 games, G held out, seeds 11 / 7 / 13), 83.4% against 82.9% (500 games, seed 1) and
    83.2% against 82.8% (headline table, commits 69af0b9 -> 5cef5fe); 2 did no better (82.8 / 81.7 / 85.7%). 0 turns it off.
    ``kim_bonus_threshold``: ``bonus_threshold`` in the Kim protocol. No opponent plays
    there, so a wrong card past the count that is not the assassin costs only the turn that
    was ending anyway (an opponent agent would give the other team a card in classic); a
    leftover needs less evidence. 1.0 instead of 2.0 took 0.8 / 0.9 fewer turns on average
    (12.03 / 12.14 instead of 12.81 / 13.03, a loss counting 25) and won as many games
    (90.6 / 91.1% against 91.6 / 90.9%), robust spymaster with the guesser's model held out,
    5 models x 300 games, seeds 11 / 7; 0.5 took 0.3 turns fewer again but won 1-2 points less.
    ``zero_weight``: a zero clue ("word: 0", none of ours relates to it) is a warning for the
    rest of the game: each card's score loses this many times its positive z-score for every
    earlier zero clue (its own turn already steers away from it). The registry spymasters
    warn about the assassin this way on their first turn (see
    :meth:`.spymaster.EmbeddingSpymaster.warning`); 0 forgets a warning after its turn.
    """

    def __init__(
        self,
        embedding: SimilarityModel,
        *,
        stop_threshold: float = 0.5,
        bonus_threshold: float = 2.0,
        sudden_death_threshold: float = 2.5,
        use_history: bool = True,
        duet_prior: bool = True,
        prior_weight: float = 1.0,
        black_weight: float = 3.0,
        sudden_death_slope: float = 1.0,
        sudden_death_min_prob: float = 0.0,
        hub_correction: float = 1.0,
        hub_reference: int = 2000,
        history_weight: float = 1.0,
        duet_extra_ratio: float = 1.0,
        extra_slope: float = 2.0,
        endgame_cards: int = 1,
        zero_weight: float = 1.0,
        kim_bonus_threshold: float = 1.0,
    ) -> None:
        self.embedding = embedding
        self.stop_threshold = float(stop_threshold)
        self.bonus_threshold = float(bonus_threshold)
        self.kim_bonus_threshold = float(kim_bonus_threshold)
        self.sudden_death_threshold = float(sudden_death_threshold)
        self.use_history = bool(use_history)
        self.duet_prior = bool(duet_prior)
        self.prior_weight = float(prior_weight)
        self.black_weight = float(black_weight)
        if not 0.0 <= sudden_death_min_prob < 1.0:
            raise ValueError(f"sudden_death_min_prob must be in [0, 1), got {sudden_death_min_prob}")
        self.sudden_death_slope = float(sudden_death_slope)
        self.sudden_death_min_prob = float(sudden_death_min_prob)
        if not 0.0 <= hub_correction <= 1.0:
            raise ValueError(f"hub_correction must be in [0, 1], got {hub_correction}")
        if hub_reference < 2:
            raise ValueError(f"hub_reference must be at least 2, got {hub_reference}")
        self.hub_correction = float(hub_correction)
        self.hub_reference = int(hub_reference)
        self.history_weight = float(_non_negative("history_weight", history_weight))
        self.duet_extra_ratio = float(_non_negative("duet_extra_ratio", duet_extra_ratio))
        self.extra_slope = float(_non_negative("extra_slope", extra_slope))
        self.endgame_cards = int(_non_negative("endgame_cards", endgame_cards))
        self.zero_weight = float(_non_negative("zero_weight", zero_weight))
        self._reference_words: Optional[tuple[str, ...]] = None
        self._card_stats: Optional[tuple[np.ndarray, np.ndarray]] = None
        self._board: tuple[str, ...] = ()
        self._rows: dict[str, np.ndarray] = {}
        self._unread = np.zeros(0, dtype=bool)  # per card of the board: my model cannot read it

    def reset(self, seed: int) -> None:
        self._board = ()
        self._rows = {}
        self._card_stats = None

    # -- similarities -------------------------------------------------------------------

    def _reference(self) -> tuple[str, ...]:
        """The common words that measure how close each card is to words in general."""
        if self._reference_words is None:
            lang = model_language(self.embedding)
            vocab = [w for w in self.embedding.clue_vocabulary() if is_clue_shaped(w, lang)]
            self._reference_words = tuple(vocab[: self.hub_reference])
        return self._reference_words

    def _row(self, words: tuple[str, ...], clue: str) -> np.ndarray:
        """Similarity of ``clue`` to every card of the board (cached for the game).

        With ``hub_correction``, each card's similarity is first standardised against that
        card's similarities to ``hub_reference`` common words: a card close to everything (a
        hub, e.g. "scale" for some models) no longer wins clues it has no special tie to.
        A card my model knows no part of (an invented word for GloVe) gets the mean of the
        other cards: its similarities are noise, so no clue makes it stand out or sink.
        """
        if words != self._board:
            self._board, self._rows = words, {}
            self._card_stats = None
            self._unread = np.array([cannot_read(self.embedding, w) for w in words], dtype=bool)
            if self.hub_correction > 0:
                # the same tuple every board: the embedding keeps its vectors (its row cache)
                ref = np.asarray(self.embedding.similarity(self._reference(), list(words)), dtype=np.float64)
                self._card_stats = (ref.mean(axis=0), np.maximum(ref.std(axis=0), 1e-9))
        row = self._rows.get(clue)
        if row is None:
            row = np.asarray(self.embedding.similarity([clue], list(words)), dtype=np.float64)[0]
            if self._card_stats is not None:
                mu, sd = self._card_stats
                h = self.hub_correction
                row = (1.0 - h) * (row - row.mean()) / max(float(row.std()), 1e-12) + h * (row - mu) / sd
            if self._unread.any() and not self._unread.all():
                row = row.copy()
                row[self._unread] = row[~self._unread].mean()
            self._rows[clue] = row
        return row

    def _z(self, view: GuesserView, clue: str) -> dict[str, float]:
        row = self._row(tuple(view.words), clue)
        sd = float(row.std())
        z = (row - row.mean()) / sd if sd > 0 else np.zeros_like(row)
        return dict(zip(view.words, z.tolist()))

    # -- the parts of a score -------------------------------------------------------------

    @staticmethod
    def _earlier(view: GuesserView) -> tuple[ClueHistoryEntry, ...]:
        hist = view.history
        if hist and view.clue is not None and hist[-1].clue == view.clue and len(hist[-1].guesses) == view.guesses_made:
            hist = hist[:-1]  # the current clue, if the engine lists it already
        return hist

    def _leftovers(self, view: GuesserView) -> Optional[dict[str, float]]:
        """Best z-score of each card for any earlier clue that still has cards to find."""
        if not self.use_history:
            return None
        best: Optional[dict[str, float]] = None
        for entry in self._earlier(view):
            if not entry.unfinished:
                continue
            z = self._z(view, entry.clue.word)
            best = z if best is None else {w: max(best[w], z[w]) for w in best}
        return best

    def _since_last_find(self, view: GuesserView) -> tuple[ClueHistoryEntry, ...]:
        """Classic endgame (at most ``endgame_cards`` own agents hidden, first guess of a clue):
        the earlier clues given since my team last found an agent. Each found nothing, so each
        still points at one of these few agents; the current clue too. Empty otherwise."""
        if view.own_left is None or not 0 < view.own_left <= self.endgame_cards or view.guesses_made:
            return ()
        since: list[ClueHistoryEntry] = []
        for entry in reversed(self._earlier(view)):
            if entry.found:
                break
            if not entry.clue.unlimited and entry.clue.count > 0:
                since.append(entry)
        return tuple(since)

    def _remembered(self, view: GuesserView, current: dict[str, float], left: Optional[dict[str, float]]) -> dict[str, float]:
        """The current clue's z-scores plus ``history_weight`` times the unfinished earlier
        clues' positive ones (see the class docstring); in the classic endgame
        (:meth:`_since_last_find`), plus the full z-scores of every clue since the last find."""
        since = self._since_last_find(view)
        if since:
            total = dict(current)
            for entry in since:
                for w, z in self._z(view, entry.clue.word).items():
                    total[w] += z
            return total
        if left is None or self.history_weight == 0:
            return current
        h = self.history_weight
        return {w: z + h * max(left.get(w, 0.0), 0.0) for w, z in current.items()}

    def _warned(self, view: GuesserView) -> dict[str, float]:
        """Each card's penalty from earlier zero clues ("word: 0", my side's giver): the
        giver said none of ours relates to that word, so a card it points at (positive z) is
        one to keep away from for the rest of the game, not only in that clue's turn."""
        if self.zero_weight == 0:
            return {}
        out: dict[str, float] = {}
        for entry in self._earlier(view):
            if not entry.clue.is_zero:
                continue
            for w, z in self._z(view, entry.clue.word).items():
                if z > 0:
                    out[w] = out.get(w, 0.0) - self.zero_weight * z
        return out

    def _prior(self, view: GuesserView) -> dict[str, float]:
        """What each card's score gets on top of the clue evidence: the Duet key prior
        (``duet_prior``) and the warnings of earlier zero clues (``zero_weight``)."""
        out = self._warned(view)
        if not self.duet_prior:
            return out
        probs = partner_side_probabilities(view)
        for w, (pg, pb) in probs.items():
            out[w] = out.get(w, 0.0) + self.prior_weight * math.log(max(pg, 1e-9) / _BASE_GREEN) - self.black_weight * (pb - _BASE_BLACK)
        return out

    @staticmethod
    def _odds(table: dict[str, tuple[float, float]], evidence: dict[str, float], slope: float) -> dict[str, tuple[float, float]]:
        """Each card's (P(green), P(black)) on the partner's side: the key-table odds ``table``
        with the green log odds raised by ``slope`` times the card's positive ``evidence`` (a
        z-score); the non-green rest keeps its black/bystander proportions."""
        out = {}
        for w, (pg, pb) in table.items():
            if pg <= 0.0 or pg >= 1.0:
                out[w] = (pg, pb)
                continue
            logit = math.log(pg / (1.0 - pg)) + slope * max(evidence.get(w, 0.0), 0.0)
            g = 1.0 / (1.0 + math.exp(-logit))
            out[w] = (g, pb * (1.0 - g) / (1.0 - pg))
        return out

    def sudden_death_probabilities(self, view: GuesserView, left: Optional[dict[str, float]] = None) -> dict[str, float]:
        """Duet sudden death: each card's estimated chance of being green on the PARTNER's side.

        Only the partner's side judges my guess, so a card green on my own side is no better
        than its table odds (3 in 9). The log odds are the key-table prior (my side and what my
        guesses revealed, :mod:`.duet_prior`) plus ``sudden_death_slope`` times how far the card
        stands out (z) for the partner's clues that still have cards to find (``left``: their
        z-scores, if already computed).
        """
        candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
        probs = partner_side_probabilities(view)
        table = {w: probs.get(w, (_BASE_GREEN, _BASE_BLACK)) for w in candidates}
        evidence = (self._leftovers(view) or {}) if left is None else left
        return {w: g for w, (g, _) in self._odds(table, evidence, self.sudden_death_slope).items()}

    def duet_odds(self, view: GuesserView, left: Optional[dict[str, float]] = None) -> dict[str, tuple[float, float]]:
        """Duet, during a turn: each card's (P(green), P(black)) on the clue giver's side: the
        key-table odds with the green log odds raised by ``extra_slope`` times the card's best
        positive z-score for the current clue or an unfinished earlier one (``left``: those
        earlier ones' z-scores, if already computed)."""
        evidence = dict((self._leftovers(view) or {}) if left is None else left)
        if view.clue is not None and (view.clue.unlimited or view.clue.count > 0):  # a 0 clue points away
            for w, z in self._z(view, view.clue.word).items():
                evidence[w] = max(evidence.get(w, 0.0), z)
        return self._odds(partner_side_probabilities(view), evidence, self.extra_slope)

    @staticmethod
    def _clock_ratio(view: GuesserView) -> float:
        """Duet: the green-to-black odds an extra guess needs (:func:`.duet_clock.black_cost_of_view`)."""
        return black_cost_of_view(view)

    def _duet_extra(self, view: GuesserView, left: Optional[dict[str, float]]) -> Optional[str]:
        """Duet, past the count or where the clue alone would stop: a bystander only ends a
        turn that stopping would end too, so only a black card costs anything. Guess on while
        the likeliest green card's odds of green to black are at least ``duet_extra_ratio``
        times what the clock asks (:meth:`_clock_ratio`); 0: never."""
        if self.duet_extra_ratio <= 0:
            return None
        price = self.duet_extra_ratio * self._clock_ratio(view)
        if price == math.inf:  # far ahead of the clock: no odds are long enough
            return None
        odds = self.duet_odds(view, left)
        if not odds:
            return None
        word = min(odds, key=lambda w: (-odds[w][0] / max(odds[w][1], 1e-9), w))
        g, b = odds[word]
        return word if g >= price * b else None

    def _duet_sudden_death(self, view: GuesserView, candidates: list[str], left: Optional[dict[str, float]]) -> Optional[str]:
        """Guess the card likeliest green on the partner's side; pass when none reaches
        ``sudden_death_min_prob``. I am asked only while I still have cards to find, so a pass
        cannot win: the default 0 passes only when no card can be green at all."""
        probs = self.sudden_death_probabilities(view, left)
        if not probs:
            return None
        word = min(probs, key=lambda w: (-probs[w], w))
        return word if probs[word] > self.sudden_death_min_prob else None

    # -- public -------------------------------------------------------------------------------

    def rank_cards(self, view: GuesserView) -> list[CardScore]:
        """Every card this guesser may guess, best first, scored for the current clue."""
        candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
        prior = self._prior(view)
        if view.clue is None:
            left = self._leftovers(view) or {}
            sims = {w: 0.0 for w in candidates}
            z = {w: left.get(w, 0.0) for w in candidates}
        else:
            row = self._row(tuple(view.words), view.clue.word)
            sims = dict(zip(view.words, row.tolist()))
            z = self._z(view, view.clue.word)
            if not view.clue.unlimited and view.clue.count > 0 and view.guesses_made < view.clue.count:
                z = self._remembered(view, z, self._leftovers(view))
        out = [CardScore(w, sims[w], z[w], z[w] + prior.get(w, 0.0)) for w in candidates]
        out.sort(key=lambda c: (-c.score, c.word))
        return out

    def _bonus(self, view: GuesserView) -> float:
        """The score a leftover needs for a guess past the count: lower in the Kim protocol."""
        return self.kim_bonus_threshold if view.game == "kim2019" else self.bonus_threshold

    def next_guess(self, view: GuesserView) -> Optional[str]:
        candidates = [w for w in view.visible if w not in set(view.marked_by_me)]
        if not candidates:
            return None
        must = not view.can_stop
        prior = self._prior(view)
        left = self._leftovers(view)

        def best(scores: dict[str, float]) -> tuple[str, float]:
            word = min(candidates, key=lambda w: (-(scores[w] + prior.get(w, 0.0)), w))
            return word, scores[word] + prior.get(word, 0.0)

        clue = view.clue
        if view.sudden_death and view.game == "duet":
            return self._duet_sudden_death(view, candidates, left)
        if view.sudden_death:
            # Classic Assassin Ending: no stopping, unlimited guesses, any miss loses; every
            # clue of the game (the current one first) points at the agents still to find.
            scores = dict(left) if left is not None else {w: 0.0 for w in candidates}
            if clue is not None:
                current = self._z(view, clue.word)
                scores = {w: max(scores.get(w, 0.0), current[w]) for w in candidates}
            word, score = best(scores)
            return word if must or score >= self.sudden_death_threshold else None
        if clue is None:
            if left is None:
                return best({w: 0.0 for w in candidates})[0] if must else None
            word, score = best(left)
            return word if must or score >= self.sudden_death_threshold else None

        current = self._z(view, clue.word)
        if clue.is_zero:
            # "No card of ours relates to this word": steer away from it, or to leftovers.
            base = left or {w: 0.0 for w in candidates}
            if view.guesses_made == 0:
                return best({w: base[w] - current[w] for w in candidates})[0]
            word, score = best(base)
            return word if must or (left is not None and score >= self._bonus(view)) else None
        if clue.unlimited:
            merged = {w: max(current[w], left[w]) if left else current[w] for w in candidates}
            word, score = best(merged)
            ok = score >= (self.stop_threshold if view.guesses_made == 0 else self._bonus(view))
            return word if must or ok else None
        if view.guesses_made < clue.count:
            word, score = best(self._remembered(view, current, left))
            if must or score >= self.stop_threshold:
                return word
            return self._duet_extra(view, left) if view.game == "duet" else None
        if left is not None:
            word, score = best(left)  # the bonus guess: only a leftover of an earlier clue
            if must or score >= self._bonus(view):
                return word
        return self._duet_extra(view, left) if view.game == "duet" else None
