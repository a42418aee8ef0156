"""A spymaster for people: clues a person follows, counts a person can find.

Why: the embedding spymasters aim at what a model finds (":4" clues with one real link, GRAB
with CRAB on the board); people aim at 1.28 cards per clue and find what they can name.
This spymaster's partner model is the human reader (:mod:`.reader`), fitted to people's
guesses, and a clue must pass a person's tests before it is scored:

* **followable**: for a count k, the k cards a person is likeliest to take, one after
  another, are all mine, and the k-th still leads the likeliest wrong card by
  ``follow_margin`` (in the reader's log odds). A ":2" whose second card no person would
  find is no ":2";
* **not read by its spelling**: no clue that shares its first four letters with a visible
  card, contains it or lies within edit distance 1-2 of it (:func:`.features.spelled_like`);
* **a word people know**: common base forms (Zipf >= ``min_zipf``) that every reader model
  reads; no zero clues;
* a wrong card costs what it costs a person: the assassin (Duet: a black card) loses the
  game, a Duet bystander ends the turn and misleads their next reads (``bystander_cost``).

Among what passes, the score is the expected number of my cards the person finds before a
wrong card minus the weighted cost of that card (:func:`..partner_model.expected_outcome`
on the reader's log odds), so the count is what a person is expected to find.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...views import SpymasterView
from ..partner_model import expected_outcome
from ..spymaster import ClueOption, EmbeddingSpymaster
from .board import MIN_ROWS, HumanBoard, human_board
from .clue_words import _forms, eat_links, verb_form
from .reader import REFERENCE_MIN_ZIPF, HumanReader

__all__ = ["HumanSpymaster", "eat_links", "verb_form"]


class HumanSpymaster(EmbeddingSpymaster):
    """Clues scored by how a person reads them (the human reader), with people's limits.

    ``max_count``: the largest count (3: people rarely find more). ``follow_margin``: how far
    (log odds) the last target must lead the likeliest wrong card. ``follow_p``: the chance
    each later target must have of being a person's next pick once the earlier ones are taken.
    ``min_evoke``: how strongly (standard deviations, the median reader model) each target
    must call the clue to mind; no black card may call it to mind as strongly as
    ``black_evoke`` (None: half a deviation below ``min_evoke``).
    ``max_aims``: a card my clues aimed at this many times without its being found is not
    aimed at again (a person who missed CHESS for SOFTBALL and ATHLETE will not find it
    for DANCE either). ``assassin_cost``,
    ``opponent_cost``, ``bystander_cost``: what a wrong card costs, in cards found.
    ``risk``: as in :class:`..spymaster.EmbeddingSpymaster` (0.5 weighs a miss at its cost).
    ``prefer_common``: bonus, in cards, for the commonest clue words (wordfreq's prior).
    ``no_verb_forms``: no inflected verb as a clue word (PLACED, POINTED: :func:`verb_form`).

    Levers of issue 39, off by default (each screened in ``experiments/results/human_count_levers.md``):
    ``assoc_strength``: each target from the ``assoc_from``-th on must be linked to the clue in
    the Edinburgh Associative Thesaurus (either way, at this share of the cue's responses, any
    lemma: :func:`eat_links`), or read at ``assoc_eat_evoke`` by the ``eat`` model alone, or at
    ``agree_evoke`` by every reader model; ``unlinked_cost`` (cards): a target without that
    evidence is charged instead of not counted (0: the links only widen the bars below).
    ``linked_evoke`` / ``linked_margin``: the evoke bar and the lead a linked target needs.
    ``finish_evoke`` / ``finish_margin``: a clue for all my last cards (2-3 left) may clear
    these lower bars (``finish_linked``: only for linked targets). ``short_penalty``: what a
    count below the clock's need costs (cards).

    Why ``no_verb_forms`` (issue 39): PLACED: 1 is no word a person clues with (POINTED: 1 became
    SHOT: 1, CONTROLLING: 1 LINK: 1); it changed a clue in 3 of 200 paired Duet games with the
    ``human`` guesser and no game's result there, nor with mpnet or minilm (100 each). Why the
    thesaurus levers stay off: a person names SEAL -> WALRUS, not FAIRY -> TURTLE, but asking
    each later target for a link cut the counts (1.60 -> 1.21-1.48 cards a clue) and the games
    were lost on the clock (with the ``human`` guesser 52.5% -> 7.5-27.5% on 40 paired games).
    Why the finishing levers stay off: they won on the clock (43.0% -> 62.0% on 200 paired
    games, 38 won only there, none only here; mpnet 34 -> 36%, minilm 53 -> 57%) with 2-card
    clues for the last cards whose second link is private (ENERGY: 2 for RICE and STABLE,
    MESSIAH: 2 for ZOMBIE and CRATER, where BIKE: 1 for WHEEL or SEA: 1 for SHELL stood), the
    kind of clue issue 39 is about.

    Why ``min_evoke`` 1.25, ``black_evoke`` 1.5 and ``prefer_common`` 0.3
    (the table of ``experiments/results/human_count_levers.md`` as of 03bd7b5, 200 paired Duet games with the ``human``
    guesser, the reader with ``eat``): at 2.0 the evoke test held the clues back and the clock
    ran out (20.5% won, 90% of games in sudden death, 1.46 cards a clue); this setting won
    44.0% [37.3, 50.9] (55 games won only here, 8 only there), 67% in sudden death, 1.58 cards a
    clue, assassin losses 22 -> 13, clue Zipf median 4.37 -> 4.55. With mpnet, a guesser the
    reader does not contain, it won 34.0% against 18.0% (23 / 7 paired). ``black_evoke`` keeps
    the black-card guard where it was at 2.0 (1.5 sd) while targets need only 1.25. The earlier
    screen on the reader without ``eat`` (blind audit in ``human_count_audit/``) found the count
    tests (``follow_p``, ``follow_margin``) barely matter and a raised ``min_zipf`` loses games.
    """

    def __init__(self, reader: HumanReader, *, max_count: int = 3, follow_margin: float = 0.7, follow_p: float = 0.35,
                 min_evoke: float = 1.25, black_evoke: Optional[float] = 1.5, max_aims: int = 2,
                 risk: float = 0.5, assassin_cost: float = 6.0, opponent_cost: float = 1.0,
                 bystander_cost: float = 0.5, min_zipf: float = REFERENCE_MIN_ZIPF,
                 prefer_common: float = 0.3, assoc_strength: Optional[float] = None, assoc_from: int = 2,
                 assoc_eat_evoke: Optional[float] = None, no_verb_forms: bool = True,
                 short_penalty: float = 0.25, linked_evoke: Optional[float] = None,
                 agree_evoke: Optional[float] = None, unlinked_cost: Optional[float] = None,
                 finish_evoke: Optional[float] = None, finish_margin: Optional[float] = None,
                 linked_margin: Optional[float] = None, finish_linked: bool = False) -> None:
        models = reader.models
        if follow_margin < 0:
            raise ValueError(f"follow_margin must be >= 0, got {follow_margin}")
        super().__init__(models[0], partner=list(models[1:]) or None, risk=risk, max_count=max_count,
                         vocabulary_size=None, min_zipf=min_zipf, hub_correction=False, shortlist=None,
                         assassin_cost=assassin_cost, opponent_cost=opponent_cost, bystander_cost=bystander_cost,
                         prefer_common=prefer_common, countdown=True, warn_cards=0)
        self.reader = reader
        self.follow_margin = float(follow_margin)
        if not 0.0 <= follow_p < 1.0:
            raise ValueError(f"follow_p must be in [0, 1), got {follow_p}")
        self.follow_p = float(follow_p)
        self.min_evoke = float(min_evoke)
        # no black card may call the clue to mind this strongly (None: half a deviation under min_evoke)
        self.black_evoke = float(black_evoke) if black_evoke is not None else self.min_evoke - 0.5
        if max_aims < 1:
            raise ValueError(f"max_aims must be at least 1, got {max_aims}")
        self.max_aims = int(max_aims)
        if assoc_strength is not None and not 0.0 < assoc_strength <= 1.0:
            raise ValueError(f"assoc_strength must be in (0, 1], got {assoc_strength}")
        self.assoc_strength = None if assoc_strength is None else float(assoc_strength)
        if assoc_from < 1:
            raise ValueError(f"assoc_from must be at least 1, got {assoc_from}")
        self.assoc_from = int(assoc_from)
        self.assoc_eat_evoke = None if assoc_eat_evoke is None else float(assoc_eat_evoke)
        self.no_verb_forms = bool(no_verb_forms)
        self.short_penalty = float(short_penalty)
        self.linked_evoke = None if linked_evoke is None else float(linked_evoke)
        self.agree_evoke = None if agree_evoke is None else float(agree_evoke)
        self.finish_evoke = None if finish_evoke is None else float(finish_evoke)
        self.linked_margin = None if linked_margin is None else float(linked_margin)
        self.finish_linked = bool(finish_linked)
        if finish_linked and assoc_strength is None:
            raise ValueError("finish_linked needs assoc_strength (the thesaurus links it asks for)")
        self.finish_margin = None if finish_margin is None else float(finish_margin)
        if unlinked_cost is not None and unlinked_cost < 0:
            raise ValueError(f"unlinked_cost must be >= 0, got {unlinked_cost}")
        self.unlinked_cost = None if unlinked_cost is None else float(unlinked_cost)
        self._links: Optional[tuple[tuple[str, ...], np.ndarray]] = None
        self._vocab_forms: Optional[dict[str, list[int]]] = None
        self._verb_forms: Optional[np.ndarray] = None
        self._aims: dict[str, int] = {}  # this game: how often each card was a target of mine
        self._pending: tuple[str, ...] = ()  # the last clue's targets, counted when the next is asked
        self._pending_clue = ""

    def _linked(self, board) -> np.ndarray:
        """(vocabulary, cards) bool: the clue word and the card are linked in the thesaurus
        (either way, at ``assoc_strength``; any of their lemmas)."""
        if self._links is None or self._links[0] != board.words:
            links = eat_links(self.assoc_strength)
            if self._vocab_forms is None:
                by_form: dict[str, list[int]] = {}
                for i, w in enumerate(self.vocabulary):
                    for f in _forms(w):
                        by_form.setdefault(f, []).append(i)
                self._vocab_forms = by_form
            out = np.zeros((len(self.vocabulary), len(board.words)), dtype=bool)
            for j, card in enumerate(board.words):
                for form in _forms(card):
                    for word in links.get(form, ()):
                        out[self._vocab_forms.get(word, []), j] = True
            self._links = (board.words, out)
        return self._links[1]

    def _verb_mask(self) -> np.ndarray:
        if self._verb_forms is None:
            self._verb_forms = np.array([verb_form(w) for w in self.vocabulary], dtype=bool)
        return self._verb_forms

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self._aims = {}
        self._pending = ()
        self._pending_clue = ""

    def best_option(self, view: SpymasterView) -> ClueOption:
        # the last clue's targets count from the next clue on, so that asking rank_clues about
        # the clue just given (as play does, to show its targets) gives the same answer
        for card in self._pending:
            self._aims[card] = self._aims.get(card, 0) + 1
        for card in self._declined(view):
            # passed over when my clue plainly meant it: likely black on the partner's side
            # (a person avoids those), so it will not be taken for a later clue either
            self._aims[card] = max(self._aims.get(card, 0), self.max_aims)
        option = super().best_option(view)
        self._pending = tuple(option.targets)
        self._pending_clue = option.word
        return option

    def _declined(self, view: SpymasterView) -> list[str]:
        """My last clue's targets that the partner passed over: they ended the turn with fewer
        of my cards than its count, without this one, by stopping or by taking a wrong card
        the reader ranks below it (a playtester avoided LEAF, black on their side, for BARK: 2
        and WHEEL for BICYCLE: 1, and was clued WHEEL again). A wrong card the reader ranks
        above a target is a misreading, not a refusal."""
        if not self._pending or not self._pending_clue:
            return []
        for entry in reversed(view.history):
            if entry.clue.word != self._pending_clue:
                continue
            if entry.clue.unlimited or entry.found >= entry.clue.count:
                return []
            left = [c for c in self._pending if c not in entry.guesses and c in view.visible]
            if not left or not entry.outcomes or entry.outcomes[-1] in ("green", "own"):
                return left  # they stopped with my cards still meant
            wrong = entry.guesses[-1]
            then = set(view.visible) | set(entry.guesses)
            cards = [w for w in view.words if w in then]
            p = dict(zip(cards, self.reader.probabilities(cards, entry.clue.word)))
            return [c for c in left if p.get(c, 0.0) > p.get(wrong, 0.0)]
        return []

    def warning(self, view: SpymasterView) -> Optional[ClueOption]:
        return None  # a zero clue helps no person here: never give one

    def _reading_board(self, view: SpymasterView) -> HumanBoard:
        """The reader's board-fixed features of this board (:mod:`.board`), shared with every
        human spymaster of the process that reads it."""
        return human_board(self._matrices(view), self.vocabulary, len(self.partners) + 1, self.reader.lang)

    def _allowed(self, view: SpymasterView, hb: HumanBoard, visible: np.ndarray) -> np.ndarray:
        """(vocabulary,) the clue words I may say: legal, not given before, not spelled like a
        visible card, no inflected verb."""
        allowed = hb.board.legal.mask(view.visible) & ~self._banned(view) & ~hb.spelled[:, visible].any(axis=1)
        if self.no_verb_forms and self.reader.lang == "en":
            allowed &= ~self._verb_mask()
        return allowed

    def _candidates(self, view: SpymasterView, hb: HumanBoard, targets: tuple[str, ...], guessable: np.ndarray,
                    own: np.ndarray, allowed: np.ndarray) -> Optional[np.ndarray]:
        """The clue words (sorted rows) that can pass the tests of :meth:`rank_clues`, found
        from the board-fixed features alone; None: read every word.

        A clue is followable only if a person's first pick is a card of mine that calls it to
        mind (the median model's evoke at the lowest of the bars ``min_evoke``,
        ``finish_evoke``, ``linked_evoke``) and no black card calls it to mind at
        ``black_evoke``, and it is given only if allowed: every other word scores minus
        infinity whatever its reading, so reading only these gives the same clues."""
        if len(self.vocabulary) <= 4 * MIN_ROWS:
            return None
        mine = own & guessable
        if not mine.any():
            return np.zeros(0, dtype=np.intp)  # no first pick can be mine: nothing is followable
        bar = min(v for v in (self.min_evoke, self.finish_evoke, self.linked_evoke) if v is not None)
        evoke = hb.median_evoke
        keep = allowed & (evoke[:, mine] >= bar).any(axis=1)
        col = hb.board.column
        black_cols = [col[w] for w in view.assassins if w not in targets and guessable[col[w]]]
        if black_cols:
            keep &= evoke[:, black_cols].max(axis=1) < self.black_evoke
        rows = np.flatnonzero(keep)
        if 0 < rows.size < MIN_ROWS:  # a few more (scored minus infinity too) keep the layout of many rows
            rows = np.union1d(rows, np.flatnonzero(~keep)[: MIN_ROWS - rows.size])
        return rows

    def rank_clues(self, view: SpymasterView, top: int = 1) -> list[ClueOption]:
        """The ``top`` best clues a person can follow, best first, each with its count.

        Only the clue words that can pass the tests are read (:meth:`_candidates`); when none
        of them passes, every word is (the fallback then scores them all)."""
        board = self._matrices(view)
        hb = self._reading_board(view)
        targets = self._targets(view)
        col = board.column
        visible, guessable, own = self._masks(view, targets, col, len(board.words))
        allowed = self._allowed(view, hb, visible)
        rows = self._candidates(view, hb, targets, guessable, own, allowed)
        if rows is None:
            return self._rank(view, top, hb, targets, visible, guessable, own, allowed, None)
        if rows.size:
            options = self._rank(view, top, hb, targets, visible, guessable, own, allowed, rows)
            if options is not None:
                return options
        return self._rank(view, top, hb, targets, visible, guessable, own, allowed, None, plain=True)

    def rank_clues_everywhere(self, view: SpymasterView, top: int = 1) -> list[ClueOption]:
        """:meth:`rank_clues` reading every clue word of the vocabulary (the reference the
        candidates' shortcut is tested against)."""
        board = self._matrices(view)
        hb = self._reading_board(view)
        targets = self._targets(view)
        visible, guessable, own = self._masks(view, targets, board.column, len(board.words))
        return self._rank(view, top, hb, targets, visible, guessable, own, self._allowed(view, hb, visible), None)

    def _first_picks(self, hb: HumanBoard, rows: np.ndarray, logits: np.ndarray, guessable: np.ndarray,
                     own: np.ndarray) -> Optional[np.ndarray]:
        """Which of the read ``rows`` (positions) can pass the tests of :meth:`_rank`; None: none.

        A followable clue's first pick (the likeliest guessable card, the first in board order
        among equals) is mine, not aimed at too often, calls the clue to mind at the lowest
        evoke bar, and leads the likeliest wrong card by at least the smallest margin a clue
        may have (a later target, no likelier than the first, leads by no more)."""
        g_idx = np.flatnonzero(guessable)
        if not g_idx.size:
            return None
        lg = logits[:, g_idx]
        pick = np.argmax(lg, axis=1)
        first = g_idx[pick]
        best_bad = np.where(~own[g_idx][None, :], lg, -np.inf).max(axis=1)
        margins = [self.follow_margin] + [m for m in (self.finish_margin, self.linked_margin) if m is not None]
        bar = min(v for v in (self.min_evoke, self.finish_evoke, self.linked_evoke) if v is not None)
        words = hb.words
        tired = np.array([self._aims.get(w, 0) >= self.max_aims for w in words], dtype=bool)
        keep = own[first] & ~tired[first] & (lg[np.arange(len(lg)), pick] - best_bad >= min(margins)) \
            & (hb.median_evoke[rows, first] >= bar)
        at = np.flatnonzero(keep)
        if not at.size:
            return None
        if at.size < MIN_ROWS:  # a few more (scored minus infinity too) keep the layout of many rows
            at = np.union1d(at, np.flatnonzero(~keep)[: MIN_ROWS - at.size])
        return at

    def _plain_scores(self, out, weight: float, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nothing a person can follow: the safest single card, said plainly (every word)."""
        assert self._prior is not None
        score = np.where(allowed, out.found[:, 0] - weight * out.cost[:, 0] + self.prefer_common * self._prior, -np.inf)
        if not np.isfinite(score).any():
            raise RuntimeError("no legal clue left in the vocabulary for this board")
        return score, np.zeros(len(score), dtype=np.intp)

    @staticmethod
    def _masks(view: SpymasterView, targets: tuple[str, ...], col: dict[str, int], n: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(visible, guessable: visible and not marked by the partner, own: the targets)."""
        visible = np.zeros(n, dtype=bool)
        visible[[col[w] for w in view.visible]] = True
        guessable = visible.copy()
        for w in view.partner_marked:
            guessable[col[w]] = False
        own = np.zeros(n, dtype=bool)
        own[[col[w] for w in targets]] = True
        return visible, guessable, own

    def _rank(self, view: SpymasterView, top: int, hb: HumanBoard, targets: tuple[str, ...], visible: np.ndarray,
              guessable: np.ndarray, own: np.ndarray, allowed_all: np.ndarray,
              rows: Optional[np.ndarray], plain: bool = False) -> Optional[list[ClueOption]]:
        """The ``top`` best clues among the clue words ``rows`` (all: None); None when ``rows``
        are some of the words and none of them can be followed (the caller reads them all).
        ``plain``: known that no word can be followed: only the fallback's scores."""
        board = hb.board
        col = board.column
        own_cols = np.array(sorted(col[w] for w in targets), dtype=np.intp)
        vocab = self.vocabulary
        n_models = len(self.partners) + 1

        x, logits = hb.reading(guessable, rows, self.reader.params_for(board.words))  # (rows, cards, ...)
        if rows is not None:  # a second look, now that they are read: keep the rows whose first pick can pass
            keep = self._first_picks(hb, rows, logits, guessable, own)
            if keep is None:
                return None
            rows, x, logits = rows[keep], x[keep], logits[keep]
        ids = np.arange(len(vocab)) if rows is None else rows
        sel = (lambda a: a) if rows is None else (lambda a: a[rows])  # noqa: E731
        n_rows = len(ids)
        cap = max(1, min(self.max_count, len(own_cols), view.clue_number_cap or self.max_count))
        cost = self._card_costs(view, board, targets)
        value = np.zeros(len(board.words), dtype=np.float32)
        value[own_cols] = 1.0
        out = expected_outcome(np.ascontiguousarray(logits.T), guessable, own, value, cost, cap, 1.0, None, 1.0)
        min_count, miss_factor = self._ambition(view, len(own_cols))
        weight = 2.0 * (1.0 - self.risk) * miss_factor
        util = out.found - weight * out.cost  # (vocabulary, counts)

        # followable counts: the person's k likeliest picks are all mine, the k-th leading the
        # likeliest wrong card by the margin
        g_idx = np.flatnonzero(guessable)
        lg = logits[:, g_idx]
        if plain:  # nothing can be followed (the candidates said so): straight to the fallback
            order = None
            score, best_k = self._plain_scores(out, weight, allowed_all)
        else:
            order = np.argsort(-lg, axis=1, kind="stable")
            sorted_own = own[g_idx][order]  # (vocabulary, guessable) mine, in the person's order
            sorted_lg = np.take_along_axis(lg, order, axis=1)
            bad = ~own[g_idx]
            best_bad = np.where(bad[None, :], lg, -np.inf).max(axis=1)
            leading_own = np.cumprod(sorted_own, axis=1)[:, :cap].astype(bool)  # first k all mine
            margin_ok = (sorted_lg[:, :cap] - best_bad[:, None]) >= self.follow_margin
            # a clue for all my last cards (k of k left): any card of mine a person takes is one meant,
            # so it may lead the wrong cards by less and call the clue to mind less strongly
            # (``finish_margin``, ``finish_evoke``) rather than spend a turn on each leftover
            finishing = 2 <= len(own_cols) <= cap and (self.finish_margin is not None or self.finish_evoke is not None)
            last = len(own_cols) - 1
            # (``finish_linked``: only for targets linked to the clue in the thesaurus)
            link_sorted = None
            if self.assoc_strength is not None and (self.linked_margin is not None or self.finish_linked
                                                    or self.linked_evoke is not None):
                link_sorted = np.take_along_axis(sel(self._linked(board))[:, g_idx], order[:, :cap], axis=1)
            if finishing and self.finish_margin is not None:
                ok = (sorted_lg[:, last] - best_bad) >= self.finish_margin
                margin_ok[:, last] |= (ok & link_sorted[:, last]) if self.finish_linked else ok
            if self.linked_margin is not None and link_sorted is not None:
                # a target linked to the clue in the thesaurus may lead the wrong cards by less
                margin_ok |= link_sorted & ((sorted_lg[:, :cap] - best_bad[:, None]) >= self.linked_margin)
            # and each later target is a person's likely next pick once the earlier ones are taken
            shifted = sorted_lg - sorted_lg[:, :1]
            tail_mass = np.cumsum(np.exp(shifted)[:, ::-1], axis=1)[:, ::-1]  # mass of picks k.. onwards
            next_p = np.exp(shifted[:, :cap]) / tail_mass[:, :cap]
            followable = leading_own & margin_ok & (next_p >= self.follow_p)
            followable[:, 0] = leading_own[:, 0] & margin_ok[:, 0]
            tired = np.array([self._aims.get(board.words[c], 0) >= self.max_aims for c in g_idx])
            if tired.any():  # aimed at too often: no clue counts on it any more
                followable &= ~np.cumsum(tired[order[:, :cap]], axis=1).astype(bool)
            # and every target calls the clue to mind for most reader models (the median model's
            # "evoke": standard deviations of that card's similarity to every clue word), so one
            # model's quirk (TRANSPARENT for CANVAS) is no link: PENCIL is among the words ERASER
            # brings to mind, TRANSPARENT is not
            evoke = sel(hb.median_evoke)  # (rows, cards)
            sorted_evoke = np.take_along_axis(evoke[:, g_idx], order[:, :cap], axis=1)
            evoked = sorted_evoke >= self.min_evoke
            if finishing and self.finish_evoke is not None:
                weak = sorted_evoke[:, : last + 1] >= self.finish_evoke
                if self.finish_linked:
                    weak &= link_sorted[:, : last + 1] | (sorted_evoke[:, : last + 1] >= self.min_evoke)
                evoked[:, : last + 1] |= np.all(weak, axis=1)[:, None]
            if self.linked_evoke is not None and link_sorted is not None:
                # a target linked to the clue in the thesaurus (CATTLE -> RANCH) needs a weaker reading
                evoked |= link_sorted & (sorted_evoke >= self.linked_evoke)
            followable &= np.logical_and.accumulate(evoked, axis=1)
            # and no black card (the assassin) calls it to mind nearly as strongly
            black_cols = [col[w] for w in view.assassins if w not in targets and guessable[col[w]]]
            if black_cols:
                followable &= (evoke[:, black_cols].max(axis=1) < self.black_evoke)[:, None]
            # and each target from the ``assoc_from``-th on has evidence a person would name it: a
            # direct link in the thesaurus (SEAL -> WALRUS) or a strong reading on it alone
            # (or every reader model reads it at ``agree_evoke``); ``unlinked_cost``: instead of
            # not counting a target without evidence, each one costs that many cards
            unlinked = None
            if self.assoc_strength is not None or self.assoc_eat_evoke is not None:
                from .features import PER_MODEL

                evidence = np.zeros((n_rows, len(board.words)), dtype=bool)
                if self.assoc_strength is not None:
                    evidence |= sel(self._linked(board))
                if self.assoc_eat_evoke is not None and "eat" in self.reader.model_names:
                    k_eat = self.reader.model_names.index("eat") * len(PER_MODEL) + PER_MODEL.index("evoke")
                    evidence |= x[:, :, k_eat] >= self.assoc_eat_evoke
                if self.agree_evoke is not None:
                    step, first = len(PER_MODEL), PER_MODEL.index("evoke")
                    evidence |= x[:, :, first : step * n_models : step].min(axis=-1) >= self.agree_evoke
                sorted_ev = np.take_along_axis(evidence[:, g_idx], order[:, :cap], axis=1)
                sorted_ev[:, : self.assoc_from - 1] = True
                if self.unlinked_cost is None:
                    followable &= np.logical_and.accumulate(sorted_ev, axis=1)
                else:
                    unlinked = np.cumsum(~sorted_ev, axis=1) * self.unlinked_cost
            util = np.where(followable, util, -np.inf)
            if unlinked is not None:
                util = util - unlinked
            if min_count > 1:
                # behind the clock, a count below what it needs is worth less, never forbidden:
                # a person would rather find one card than none
                util[:, : min(min_count, cap) - 1] -= self.short_penalty

            allowed = sel(allowed_all)
            best_k = np.argmax(util, axis=1)
            at = np.arange(n_rows)
            assert self._prior is not None
            prior = sel(self._prior)
            score = util[at, best_k] + self.prefer_common * prior
            score = np.where(allowed & np.isfinite(util[at, best_k]), score, -np.inf)
            if not np.isfinite(score).any():
                if rows is not None:
                    return None  # nothing followable among these: every word is read
                score, best_k = self._plain_scores(out, weight, allowed_all)
        n_ok = int(np.isfinite(score).sum())
        top = max(1, min(int(top), n_ok))
        chosen = np.argsort(-score, kind="stable")[:top]
        bad_cols = [col[w] for w in view.bad]
        options = []
        for i in chosen:
            k = int(best_k[i]) + 1
            first = order[i] if order is not None else np.argsort(-lg[i], kind="stable")  # the same row order
            picks = [int(g_idx[j]) for j in first[:k]]
            if not all(own[c] for c in picks):  # the fallback: the likeliest of my cards
                picks = [max(own_cols.tolist(), key=lambda c: float(logits[i, c]))]
            if bad_cols:
                worst = max(bad_cols, key=lambda c: (float(logits[i, c]) if guessable[c] else -np.inf, board.words[c]))
                bad_word, bad_p = board.words[worst], float(logits[i, worst])
            else:
                bad_word, bad_p = None, None
            options.append(ClueOption(
                word=vocab[ids[i]], count=k, targets=tuple(board.words[c] for c in picks), score=float(score[i]),
                expected_found=float(out.found[i, k - 1]), expected_cost=float(out.cost[i, k - 1]),
                closest_bad=bad_word, closest_bad_similarity=bad_p,
            ))
        return options
