"""The space a spymaster chooses in: its clue vocabulary and, per board, the similarity matrices.

Why: the vocabulary is fixed for an agent's lifetime and the board for a game, so the
clue-vocabulary x board similarities of every model the agent consults are computed once
per board (on its first clue) and every later clue is a masked selection over them. Agents
of one process that consult the same models with the same vocabulary share them
(:func:`shared_board`): in Duet both players' spymasters are separate instances of one spec.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Optional, Sequence

import numpy as np

from ..rules.moves import Clue
from ..views import SpymasterView
from .legal_clues import LegalClueMask, is_legal
from .vocabulary import (
    DEFAULT_MIN_ZIPF,
    SimilarityModel,
    cannot_read,
    clue_candidates,
    lemmas,
    model_language,
    zipf_prior,
)


def _spread(model: SimilarityModel, sims: np.ndarray) -> float:
    """The model's own similarity scale if it publishes one, else the spread of this matrix
    (clue words x board cards: overwhelmingly unrelated pairs, so close to the same thing)."""
    stats = getattr(model, "similarity_stats", None)
    if callable(stats):
        spread = float(stats()[1])
    else:
        spread = float(sims.std())
    return spread if spread > 0 else 1.0


class BoardMatrices:
    """Candidate clues x board similarities for one board, the legality of each clue, and the
    cards some of the models cannot read (``unreadable``)."""

    def __init__(
        self,
        words: tuple[str, ...],
        visible: Sequence[str],
        vocab: tuple[str, ...],
        models: Sequence[SimilarityModel],
        hub_correction: bool = False,
    ) -> None:
        """``hub_correction``: standardise each card's similarities over the whole clue
        vocabulary (as the embedding guesser does against common words), so a card close to
        every word is not predicted to win every clue."""
        self.words = words
        self.column = {w: i for i, w in enumerate(words)}
        self.sims: list[np.ndarray] = []
        self.sims_sq: list[np.ndarray] = []
        # each model's scale, worked out when first asked (``spread``): the human agents never
        # ask, and an encoded model's scale costs 1,000 encoded words on a fresh install
        self._spreads: list[Optional[float]] = []
        self._spread_models: list[SimilarityModel] = []
        self._spread_lock = threading.Lock()
        done: dict[int, int] = {}
        for m in models:
            if id(m) not in done:
                s = np.asarray(m.similarity(vocab, list(words)), dtype=np.float32)
                if s.shape != (len(vocab), len(words)):
                    raise ValueError(f"similarity returned shape {s.shape}, expected {(len(vocab), len(words))}")
                s = np.ascontiguousarray(s.T)  # cards-major: reductions over cards are contiguous
                if hub_correction:
                    s = (s - s.mean(axis=1, keepdims=True)) / np.maximum(s.std(axis=1, keepdims=True), 1e-9)
                    spread = 1.0  # every card now has unit spread over the vocabulary
                else:
                    spread = None
                done[id(m)] = len(self.sims)
                sq = s * s
                s.setflags(write=False)  # shared between agents (shared_board): never written
                sq.setflags(write=False)
                self.sims.append(s)
                self.sims_sq.append(sq)
                self._spreads.append(spread)
                self._spread_models.append(m)
        self.index = [done[id(m)] for m in models]
        self.legal = LegalClueMask(vocab, visible, model_language(models[0]))
        self.unreadable = frozenset(w for w in words if any(cannot_read(m, w) for m in models))

    def sim(self, k: int) -> np.ndarray:
        """(cards, candidates) similarities under model ``k`` (0: the agent's own model)."""
        return self.sims[self.index[k]]

    def sim_sq(self, k: int) -> np.ndarray:
        return self.sims_sq[self.index[k]]

    def spread(self, k: int) -> float:
        """Model ``k``'s similarity scale (what one standard deviation of similarity means)."""
        i = self.index[k]
        with self._spread_lock:
            if self._spreads[i] is None:
                self._spreads[i] = _spread(self._spread_models[i], self.sims[i])
            return self._spreads[i]


# The boards built most recently in this process, by what they were built from: two cover
# a game of two sides (and the one before it, while a worker switches games).
_SHARED: "OrderedDict[tuple, tuple[tuple[str, ...], tuple[SimilarityModel, ...], BoardMatrices]]" = OrderedDict()
_SHARED_SIZE = 2
_SHARED_LOCK = threading.Lock()


def shared_board(
    words: tuple[str, ...],
    visible: Sequence[str],
    vocab: tuple[str, ...],
    models: Sequence[SimilarityModel],
    hub_correction: bool,
) -> BoardMatrices:
    """The :class:`BoardMatrices` of this board for these models and vocabulary, built once
    per process for every agent that asks for the same: its arrays are never written after
    they are built, and its legality mask follows whatever visible set it is asked about."""
    models = tuple(models)
    key = (words, hash(vocab), tuple(id(m) for m in models), bool(hub_correction))
    with _SHARED_LOCK:
        hit = _SHARED.get(key)
        # The entry keeps its models and vocabulary alive, so an id() in the key is never reused
        # by another model while it is here; equal content is still checked.
        if hit is not None and hit[0] == vocab and all(a is b for a, b in zip(hit[1], models)):
            _SHARED.move_to_end(key)
            return hit[2]
        board = BoardMatrices(words, visible, vocab, models, hub_correction)
        _SHARED[key] = (vocab, models, board)
        while len(_SHARED) > _SHARED_SIZE:
            _SHARED.popitem(last=False)
        return board


class ClueVocabularyAgent:
    """Shared by the spymasters: the filtered clue vocabulary and the per-board matrices."""

    def __init__(
        self,
        embedding: SimilarityModel,
        partners: Sequence[SimilarityModel],
        vocabulary_size: Optional[int],
        min_zipf: Optional[float] = DEFAULT_MIN_ZIPF,
        hub_correction: bool = False,
        nouns_only: bool = False,
    ) -> None:
        """``nouns_only``: give only common nouns (German boards: people's clues are mostly
        nouns, and a German playtest found UMSO, GEHÖRIG and TYPISCH unusable)."""
        if vocabulary_size is not None and vocabulary_size < 1:
            raise ValueError(f"vocabulary_size must be positive, got {vocabulary_size}")
        if min_zipf is not None and not 0.0 <= min_zipf <= 8.0:  # no word is more frequent than Zipf 8
            raise ValueError(f"min_zipf must be in [0, 8] (wordfreq's Zipf scale: THE is 7.7, common words 4 to 6), got {min_zipf}")
        self.embedding = embedding
        self.partners = list(partners)
        self.lang = model_language(embedding)
        if any(model_language(p) != self.lang for p in self.partners):
            raise ValueError(f"partner models of another language than the spymaster's own ({self.lang})")
        self.nouns_only = bool(nouns_only)
        self._not_noun: Optional[np.ndarray] = None
        self.vocabulary_size = vocabulary_size
        self.min_zipf = min_zipf
        self.hub_correction = bool(hub_correction)
        self._by_lemma: dict[str, list[int]] = {}
        self._vocab: Optional[tuple[str, ...]] = None
        self._vocab_index: dict[str, int] = {}
        self._prior: Optional[np.ndarray] = None
        self._board: Optional[BoardMatrices] = None

    def reset(self, seed: int) -> None:
        self._board = None  # the vocabulary stays: it does not depend on the game

    @property
    def vocabulary(self) -> tuple[str, ...]:
        if self._vocab is None:
            self._vocab = clue_candidates([self.embedding, *self.partners], self.vocabulary_size, self.min_zipf)
            self._vocab_index = {w: i for i, w in enumerate(self._vocab)}
            self._by_lemma = {}
            for i, w in enumerate(self._vocab):
                for lemma in lemmas(w, self.lang):
                    self._by_lemma.setdefault(lemma, []).append(i)
            self._prior = zipf_prior(self._vocab, lang=self.lang)
            if self.nouns_only:
                if self.lang != "de":  # checked here: a spec is checked before its models load
                    raise ValueError(f"nouns_only needs German clue words (german-nouns), not {self.lang!r}")
                from ..rules.lang.german import is_noun

                self._not_noun = np.array([not is_noun(w) for w in self._vocab], dtype=bool)
        return self._vocab

    def _matrices(self, view: SpymasterView) -> BoardMatrices:
        words = tuple(view.words)
        if self._board is None or self._board.words != words:
            self._board = shared_board(words, view.visible, self.vocabulary, [self.embedding, *self.partners], self.hub_correction)
        return self._board

    def _banned(self, view: SpymasterView) -> np.ndarray:
        """Clue words already given this game, and every other form of them ("prototype" after
        "prototypes"): repeating a clue (above all one that failed) is wasted, and a form of it
        reads as the same clue. With ``nouns_only``, every word that is not a noun too."""
        out = np.zeros(len(self.vocabulary), dtype=bool) if self._not_noun is None else self._not_noun.copy()
        for entry in view.history:
            word = entry.clue.word
            i = self._vocab_index.get(word)
            if i is not None:
                out[i] = True
            for lemma in lemmas(word, self.lang):
                out[self._by_lemma.get(lemma, [])] = True
        return out

    def _emit(self, clues: Sequence[Clue], view: SpymasterView) -> Clue:
        """The first clue the single-clue checker also accepts (a guard on the batch mask)."""
        for clue in clues:
            if is_legal(clue, view.visible, self.lang):
                return clue
        raise RuntimeError("no legal clue left in the vocabulary for this board")
