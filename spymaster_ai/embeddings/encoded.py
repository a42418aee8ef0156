"""Shared machinery for backends that compute vectors by running an encoder.

Words are encoded when first asked for, with a progress bar when that takes a while, and
(for slow encoders) kept on disk in the model's word store, so a first game encodes only the
words it reads (a human reader's 7,000 common words, not the 30,000 of the clue vocabulary)
and a later start, or a game in another language, reads them back. The whole clue vocabulary
is encoded (and cached as one matrix) only when an agent asks for all of it. Subclasses must encode each word independently of the others in
its batch, so a word's vector is bit-for-bit the same whether it came from the cache, a
board batch or a lone call: that is what keeps seeded games reproducible across processes.
"""

from __future__ import annotations

import sys
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from .base import CALIBRATION_SAMPLE, VectorEmbedding, clean_words, unit_rows
from .cache import cache_paths, load_or_build, load_rows, save_rows
from .vocabulary import Vocabulary, words_key

# Bumped whenever the way words are turned into vectors changes (invalidates caches).
ENCODER_VERSION = 1
# Encodes of at least this many words show a progress bar on stderr.
PROGRESS_THRESHOLD = 2000

# A request for at most this many unknown words may be a board's cards (and their senses):
# it loads (or builds) the card list they come from; a longer one is a vocabulary.
CARD_REQUEST_MAX = 128

Advance = Callable[[int], None]


def shipped_card_lists() -> dict[str, tuple[str, ...]]:
    """Each shipped board word list by name, its words sorted."""
    from ..rules.wordlists import available_lists, load_words

    return {name: tuple(sorted(set(load_words(name)))) for name in available_lists()}


@contextmanager
def progress_bar(label: str, total: int) -> Iterator[Advance]:
    """A rich progress bar on stderr for long encodes; a no-op callback for short ones."""
    if total < PROGRESS_THRESHOLD:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(file=sys.stderr)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.advance(task, n)


class EncodedEmbedding(VectorEmbedding):
    """A VectorEmbedding whose vectors come from ``_encode`` (a model forward pass)."""

    # False for encoders fast enough that a disk cache would cost more than it saves.
    disk_cache = True

    def __init__(self, name: str, vocabulary: Vocabulary, identity: dict[str, Any],
                 dim: int, description: str) -> None:
        self.name = name
        self.identity = identity
        self.dim = int(dim)
        self.description = description
        native = self._native_mask(list(vocabulary.words))
        self._vocab = tuple(w for w, ok in zip(vocabulary.words, native) if ok)
        self._vocab_index = {w: i for i, w in enumerate(self._vocab)}
        self._vocab_matrix: np.ndarray | None = None
        self._cache_file: Path | None = None
        self._memo: dict[str, np.ndarray] = {}
        self._card_words: dict[str, tuple[str, ...]] | None = None
        self._vocab_key: str | None = None
        self._store_loaded = False  # the word store is read into the memo on first use

    @abstractmethod
    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        """float32 (n, dim) vectors, each row independent of the other words; calls
        ``advance(k)`` as rows are done."""

    def _native_mask(self, words: list[str]) -> list[bool]:
        """Which (normalised) words the model embeds natively; sentence models embed any
        text, so by default every word is native."""
        return [True] * len(words)

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocab

    def knows(self, word: str) -> bool:
        (word,) = clean_words([word])
        return word in self._vocab_index or self._native_mask([word])[0]

    def encode_unit(self, words: list[str]) -> np.ndarray:
        """Unit vectors of already-normalised words, with a progress bar for long lists."""
        if not words:
            return np.zeros((0, self.dim), dtype=np.float32)
        with progress_bar(f"encoding {len(words)} words with {self.name}", len(words)) as advance:
            matrix = self._encode(list(words), advance)
        return unit_rows(matrix)

    def cache_key(self) -> dict[str, Any]:
        if self._vocab_key is None:  # fixed once built; asked on every short request until then
            self._vocab_key = words_key(self._vocab)
        return {"model": self.name, "identity": self.identity, "encoder": ENCODER_VERSION,
                "backend": type(self).__name__, "dim": self.dim,
                "vocabulary": self._vocab_key, "words": len(self._vocab)}

    def cache_file(self) -> Path | None:
        """Where the encoded vocabulary is (or will be) cached; None for in-memory backends."""
        if not self.disk_cache:
            return None
        return self._cache_file or cache_paths(self.name, self.cache_key())[0]

    def _vocabulary_cached(self) -> bool:
        path = self.cache_file()
        return path is not None and path.exists()

    def _vocabulary_matrix(self) -> np.ndarray:
        if self._vocab_matrix is None:
            if self.disk_cache:
                matrix, self._cache_file = load_or_build(
                    self.name, self.cache_key(), (len(self._vocab), self.dim), self._encode_vocabulary)
            else:
                matrix = self.encode_unit(list(self._vocab))
            self._vocab_matrix = matrix
        return self._vocab_matrix

    def _encode_vocabulary(self) -> np.ndarray:
        self._load_store()
        return self._encode_reusing(self._vocab)

    def _encode_reusing(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``words``, encoding only those not already memoised (the same bits)."""
        if not words:
            return np.zeros((0, self.dim), dtype=np.float32)
        todo = [w for w in dict.fromkeys(words) if w not in self._memo]
        fresh = dict(zip(todo, self.encode_unit(todo)))
        return np.stack([fresh[w] if w in fresh else self._memo[w] for w in words])

    def similarity_stats(self) -> tuple[float, float]:
        """As the base class, but from the sampled words alone when the whole vocabulary has
        not been encoded (the same rows, so the same numbers): 1,000 words, not 30,000."""
        if (getattr(self, "_similarity_stats", None) is None and self._vocab_matrix is None
                and len(self._vocab) >= 2 and not self._vocabulary_cached()):
            step = max(1, len(self._vocab) // CALIBRATION_SAMPLE)
            self._similarity_stats = self._stats_of(self.vectors(list(self._vocab[::step][:CALIBRATION_SAMPLE])))
        return super().similarity_stats()

    def _store_key(self) -> dict[str, Any]:
        """What a word's vector depends on: the model and the encoder, not the vocabulary."""
        return {"model": self.name, "identity": self.identity, "encoder": ENCODER_VERSION,
                "backend": type(self).__name__, "dim": self.dim}

    def _load_store(self) -> None:
        if not self._store_loaded and self.disk_cache:
            self._store_loaded = True
            stored = load_rows(f"{self.name}-words", self._store_key())
            for word, row in stored.items():
                if row.shape == (self.dim,):
                    self._memo.setdefault(word, row)

    def _card_lists(self) -> dict[str, tuple[str, ...]]:
        if self._card_words is None:
            self._card_words = shipped_card_lists()
        return self._card_words

    def _memoise_cards(self, missing: list[str]) -> list[str]:
        """Put the shipped cards among ``missing`` into the memo from their list's disk cache
        (every card of that list, encoded once); return the words still to encode.

        Why: a new board's cards would otherwise load the model at a later start (HOT DOG is
        in no clue vocabulary; FENCE may be in none a reader asked for). Only the lists the
        cards come from are encoded (an English board never encodes the Persian cards), and
        only for a board-sized request (a long one is a vocabulary that happens to hold cards).
        """
        if not self.disk_cache or len(missing) > CARD_REQUEST_MAX:
            return missing  # a vocabulary, not a board: its words go to the word store
        wanted = set(missing)
        for name, ordered in self._card_lists().items():
            if not wanted.intersection(ordered):
                continue
            key = {**self.cache_key(), "vocabulary": words_key(ordered), "words": len(ordered),
                   "part": f"cards:{name}"}
            matrix, _ = load_or_build(f"{self.name}-cards-{name}", key, (len(ordered), self.dim),
                                      lambda: self._encode_reusing(ordered))
            self._memo.update(zip(ordered, matrix))
            wanted.difference_update(ordered)
        return [w for w in missing if w not in self._memo]

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        words = clean_words(words)
        out = np.empty((len(words), self.dim), dtype=np.float32)
        with self._lock:
            self._load_store()
            vocab_matrix = self._vocab_matrix
            if vocab_matrix is None:
                # A vocabulary matrix already on disk (an agent that reads all of it built it)
                # beats loading the model; otherwise only the words asked for are encoded.
                in_vocab = any(w in self._vocab_index and w not in self._memo for w in words)
                if in_vocab and self._vocabulary_cached():
                    vocab_matrix = self._vocabulary_matrix()
            if vocab_matrix is not None:
                rows = np.fromiter((self._vocab_index.get(w, -1) for w in words), dtype=np.int64,
                                   count=len(words))
            else:
                rows = np.full(len(words), -1, dtype=np.int64)
            from_vocab = rows >= 0
            others = np.flatnonzero(~from_vocab)
            missing = [w for w in dict.fromkeys(words[i] for i in others) if w not in self._memo]
            missing = self._memoise_cards(missing) if missing else missing
            if missing:
                encoded = self.encode_unit(missing)
                self._memo.update(zip(missing, encoded))
                if self.disk_cache:
                    save_rows(f"{self.name}-words", self._store_key(), dict(zip(missing, encoded)))
            if from_vocab.any():
                out[from_vocab] = vocab_matrix[rows[from_vocab]]
            for i in others:
                out[i] = self._memo[words[i]]
        return out

    def describe(self) -> dict[str, Any]:
        facts = {**super().describe(), "source": self.identity.get("path") or self.identity.get("package", "")}
        path = self.cache_file()
        facts["cache"] = str(path) if path else "in memory (fast encoder)"
        facts["cache_built"] = bool(path and path.exists())
        return facts
