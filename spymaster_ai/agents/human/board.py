"""What the human spymaster reads of one board once: the reader's board-fixed features over its
whole clue vocabulary, and its readings of the clues it may give.

Why: the board is fixed for a game, and most of what the human reader looks at is too: each
card's yardstick over the vocabulary, how strongly each card calls each clue to mind
(``evoke``, and the median model's, which both of the spymaster's link tests read), the
spelling and phrase links. Only the board z-scores and leads change as cards are covered.
Computing all of it for 7,000 clue words at every clue took 70-150 ms; here the fixed part is
computed on a board's first clue, and each clue reads the changing part only for the clue
words that can pass the spymaster's tests (see ``HumanSpymaster._candidates``).

Exactness: every row of :func:`.features.features_from_sims` is computed from that clue
word's own similarities (and the cards silent over the whole vocabulary), in the same memory
layout as for the whole vocabulary, so a reading of some rows holds the same numbers as those
rows of a reading of all of them (``tests/test_agents_human_speed.py``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Optional

import numpy as np

from ..clue_space import BoardMatrices
from .features import (
    evoke_from_sims,
    features_from_sims,
    median_of_models,
    phrase_degrees,
    phrase_matrix,
    silent_cards,
    spelled_matrix,
)

__all__ = ["HumanBoard", "human_board", "MIN_ROWS"]

# A reading of fewer rows than this takes this many: a matrix of one row is laid out as a
# matrix of one column too, and numpy may then sum its cards in another order (a last-bit
# difference from the same row among many).
MIN_ROWS = 16


class HumanBoard:
    """The board-fixed part of the human reader's features for a spymaster's clue vocabulary.

    ``board``: the spymaster's :class:`~..clue_space.BoardMatrices` (its models in the reader's
    order); ``vocab``: the clue vocabulary (the board matrices' rows); ``lang``: the board's
    language (no spelling or English phrase links elsewhere).
    """

    def __init__(self, board: BoardMatrices, vocab: tuple[str, ...], n_models: int, lang: str = "en") -> None:
        self.board = board
        self.words = board.words
        self.vocab = vocab
        self.lang = lang
        self.n_models = n_models
        self.cards_major = [board.sim(k) for k in range(n_models)]  # (cards, vocabulary), contiguous
        self.sims = [s.T for s in self.cards_major]  # (vocabulary, cards) views, as the reader reads them
        # each card's yardstick: its similarity mean and spread over the clue vocabulary
        self.means = [s.mean(axis=1).astype(np.float32) for s in self.cards_major]
        self.stds = [s.std(axis=1).astype(np.float32) for s in self.cards_major]
        self.silent = [silent_cards(s) for s in self.sims]
        # spelling: the features read it in English only, but no clue spelled like a visible card
        # is given in any language (ZIELT beside ZIEGE); English phrases link English words only
        self.spelled, self.phrase = _card_links(vocab, self.words, phrases=lang == "en")
        self.phrase_degree = phrase_degrees(vocab) if lang == "en" else np.zeros(len(vocab), dtype=np.float32)
        # each model's evoke, zeroed where the model is silent, as the features hold it
        self.evoke = []
        for k, s in enumerate(self.sims):
            e = evoke_from_sims(s, self.means[k], self.stds[k])
            mute = np.all(s == 0, axis=1, keepdims=True) | self.silent[k][None, :]
            self.evoke.append(np.where(mute, 0.0, e).astype(np.float32, copy=False) if mute.any() else e)
        self.median_evoke = median_of_models(self.evoke)  # (vocabulary, cards)
        self._readings: "OrderedDict[tuple, tuple[np.ndarray, np.ndarray]]" = OrderedDict()
        self._lock = threading.Lock()

    def features(self, guessable: np.ndarray, rows: Optional[np.ndarray] = None) -> np.ndarray:
        """(rows, cards, features): the reader's features of clue words ``rows`` (all: None)
        with the ``guessable`` cards in play."""
        if rows is None:
            return features_from_sims(self.sims, self.means, self.stds, guessable, self.vocab, self.words,
                                      self.spelled, self.phrase, lang=self.lang, phrase_degree=self.phrase_degree)
        sims = [np.ascontiguousarray(s[:, rows]).T for s in self.cards_major]  # the same layout, fewer rows
        return features_from_sims(sims, self.means, self.stds, guessable, _Rows(len(rows)), self.words,
                                  self.spelled[rows], self.phrase[rows], lang=self.lang, silent=self.silent,
                                  phrase_degree=self.phrase_degree[rows])

    def reading(self, guessable: np.ndarray, rows: Optional[np.ndarray], params) -> tuple[np.ndarray, np.ndarray]:
        """(features, float32 logits) of clue words ``rows`` (sorted, at least ``MIN_ROWS``; all:
        None), kept for the last few (guessable, rows) asked: a repeat of a clue (and the play
        session's second look at the clue just given) reads nothing again."""
        key = (guessable.tobytes(), None if rows is None else rows.tobytes(), id(params))
        with self._lock:
            hit = self._readings.get(key)
            if hit is not None:
                self._readings.move_to_end(key)
                return hit
        x = self.features(guessable, rows)
        logits = params.logits(x).astype(np.float32)
        with self._lock:
            self._readings[key] = (x, logits)
            while len(self._readings) > 4:
                self._readings.popitem(last=False)
        return x, logits


class _Rows:
    """A stand-in for the clue words of a part of the vocabulary: features read only their
    number (the spelling and phrase links and the phrase degrees come precomputed)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


# Each card's spelling and phrase links to a clue vocabulary, kept across boards: a deck of
# 400 cards comes back board after board, and a link of a clue to a card is the pair's alone.
_CARD_LINKS: "OrderedDict[tuple[int, str], tuple[np.ndarray, np.ndarray]]" = OrderedDict()
_CARD_LINKS_SIZE = 1000
_CARD_LINKS_LOCK = threading.Lock()
_VOCABS: dict[int, tuple[bool, tuple[str, ...]]] = {}  # (phrases?, vocabulary) behind each tag


def _card_links(vocab: tuple[str, ...], cards: tuple[str, ...], phrases: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(vocabulary, cards) :func:`.features.spelled_matrix` and :func:`.features.phrase_matrix`
    (zeros without ``phrases``), computed for the cards not seen with this vocabulary before."""
    def compute(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        phrase = phrase_matrix(vocab, words) if phrases else np.zeros((len(vocab), len(words)), dtype=np.float32)
        return spelled_matrix(vocab, words), phrase

    with _CARD_LINKS_LOCK:
        tag = next((t for t, v in _VOCABS.items() if v[0] == phrases and (v[1] is vocab or v[1] == vocab)), None)
        if tag is None:
            if len(_VOCABS) >= 4:  # another vocabulary: start over
                _VOCABS.clear()
                _CARD_LINKS.clear()
            tag = len(_VOCABS)
            while tag in _VOCABS:
                tag += 1
            _VOCABS[tag] = (phrases, vocab)
        missing = [c for c in dict.fromkeys(cards) if (tag, c) not in _CARD_LINKS]
    if missing:
        spelled, phrase = compute(missing)
        with _CARD_LINKS_LOCK:
            for j, c in enumerate(missing):
                _CARD_LINKS[(tag, c)] = (spelled[:, j].copy(), phrase[:, j].copy())
    with _CARD_LINKS_LOCK:
        columns = []
        for c in cards:
            hit = _CARD_LINKS.get((tag, c))
            if hit is None:  # pushed out meanwhile by another board's cards
                one = compute([c])
                hit = (one[0][:, 0], one[1][:, 0])
            else:
                _CARD_LINKS.move_to_end((tag, c))
            columns.append(hit)
        while len(_CARD_LINKS) > _CARD_LINKS_SIZE:
            _CARD_LINKS.popitem(last=False)
    return np.stack([c[0] for c in columns], axis=1), np.stack([c[1] for c in columns], axis=1)


_BOARDS: "OrderedDict[tuple, tuple[BoardMatrices, HumanBoard]]" = OrderedDict()
_BOARDS_LOCK = threading.Lock()


def human_board(board: BoardMatrices, vocab: tuple[str, ...], n_models: int, lang: str) -> HumanBoard:
    """The :class:`HumanBoard` of ``board`` for every human spymaster of the process that reads
    it (in Duet, both players' spymasters share the board matrices and so this)."""
    key = (id(board), n_models, lang)
    with _BOARDS_LOCK:
        hit = _BOARDS.get(key)
        # the board matrices were built for one vocabulary (shared_board keys them by it)
        if hit is not None and hit[0] is board:
            _BOARDS.move_to_end(key)
            return hit[1]
    built = HumanBoard(board, vocab, n_models, lang)
    with _BOARDS_LOCK:
        _BOARDS[key] = (board, built)  # the entry keeps the board alive: its id is not reused meanwhile
        while len(_BOARDS) > 2:
            _BOARDS.popitem(last=False)
    return built
