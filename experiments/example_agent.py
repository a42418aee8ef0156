"""Minimal researcher's agents, to copy when writing your own (see docs/agents.md).

Benchmark them by spec, from the repository root:

    spymaster-ai bench duet --games 20 --seed 0 \\
        --spymaster experiments.example_agent:WordListSpymaster \\
        --guesser experiments.example_agent:LetterOverlapGuesser:limit=2

An agent sees only its role's view (``spymaster_ai.views``), is reset with the game's seed
before every game, and keeps whatever memory it likes in between. ``CountingGuesser`` learns
across the games of a match (``--match K``) through ``start_match`` and ``end_game``:

    spymaster-ai bench kim2019 --games 40 --match 20 --seed 0 --spymaster glove50 \\
        --guesser experiments.example_agent:CountingGuesser
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from spymaster_ai.agents.legal_clues import is_legal
from spymaster_ai.rules.record import clue_turns
from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import GuesserView, SpymasterView


class WordListSpymaster:
    """Says the first word of a fixed list that is legal on the board, always with count 1."""

    def __init__(self, words: str = "animal+music+water+city+food+space+weapon+tree") -> None:
        # "+"-separated: a spec's parameters are themselves separated by commas
        self.words = [w.strip().lower() for w in words.split("+") if w.strip()]
        if not self.words:
            raise ValueError("words: give at least one clue word")

    def reset(self, seed: int) -> None:
        pass  # nothing random, nothing remembered

    def give_clue(self, view: SpymasterView) -> Clue:
        said = {entry.clue.word for entry in view.history}
        for word in self.words:
            clue = Clue(word, 1)
            if word not in said and is_legal(clue, view.visible):
                return clue
        raise RuntimeError("every word of the list is used or illegal on this board")


class LetterOverlapGuesser:
    """Guesses the card sharing the most letters with the clue; stops after ``limit`` guesses.

    Ties are broken by a seeded random draw, so the agent shows how to use ``reset(seed)``.
    """

    def __init__(self, limit: int = 1) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self._rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def next_guess(self, view: GuesserView) -> Optional[str]:
        cards = sorted(w for w in view.visible if w not in view.marked_by_me)
        if not cards or view.clue is None or (view.can_stop and view.guesses_made >= self.limit):
            return None
        letters = set(view.clue.word)
        overlap = np.array([len(letters & set(w)) for w in cards], dtype=float)
        best = np.flatnonzero(overlap == overlap.max())
        return cards[int(self._rng.choice(best))]


class CountingGuesser(LetterOverlapGuesser):
    """A letter-overlap guesser that learns, over the games of a match, how many guesses a clue
    of this partner is worth: it guesses as many as its partner's clues yielded on average
    (at least one). ``start_match`` forgets (a new partner); ``end_game`` learns from the
    finished game's record; ``reset`` clears only the one game's state.
    """

    def __init__(self) -> None:
        super().__init__(limit=1)
        self.clues_seen = 0
        self.hits_seen = 0

    def start_match(self, seed: int) -> None:
        self.clues_seen = self.hits_seen = 0
        self.limit = 1

    def end_game(self, record: dict) -> None:
        for turn in clue_turns(record):
            self.clues_seen += 1
            self.hits_seen += sum(turn.hits)
        self.limit = max(1, round(self.hits_seen / self.clues_seen)) if self.clues_seen else 1


class SimilarityGuesser:
    """The worked example of docs/agents.md ("Writing your own"): guesses the visible card
    closest to the clue under a packaged model, and reads zero clues as the default
    spymasters mean them.

    Zero clues: the registry's spymasters open every Kim-protocol and classic game with
    "word: 0" (``warn_cards``), meaning "none of my cards relates to this word" (it points at
    the assassin). A guesser that takes it as an ordinary clue picks the card closest to the
    word, often the assassin. Here a zero clue's word is kept for the rest of the game: in its
    own turn the guesser takes the card furthest from it (a zero clue allows unlimited guesses
    but must be guessed at least once) and stops; later, every card loses its similarity to
    the remembered words.
    """

    def __init__(self, model: str = "glove50", stop_below: float = 0.25) -> None:
        from spymaster_ai.embeddings import load_embedding

        self.model = load_embedding(model)  # .similarity(rows, cols): cosine matrix, rows x cols
        self.stop_below = stop_below

    def reset(self, seed: int) -> None:
        pass  # deterministic; the zero clues are read from view.history each turn

    def next_guess(self, view: GuesserView) -> Optional[str]:
        cards = [w for w in view.visible if w not in view.marked_by_me]
        if not cards or view.clue is None:
            return None
        zeros = {e.clue.word for e in view.history if e.clue.is_zero} | ({view.clue.word} if view.clue.is_zero else set())
        avoid = self.model.similarity(sorted(zeros), cards).max(axis=0) if zeros else np.zeros(len(cards))
        if view.clue.is_zero:
            if view.guesses_made >= 1 and view.can_stop:
                return None
            return cards[int(np.argmin(avoid))]  # the card least like the warning
        score = self.model.similarity([view.clue.word], cards)[0] - np.maximum(avoid, 0.0)
        best = int(np.argmax(score))
        if view.can_stop and (view.guesses_made >= view.clue.count or
                              (view.guesses_made > 0 and score[best] < self.stop_below)):
            return None
        return cards[best]
