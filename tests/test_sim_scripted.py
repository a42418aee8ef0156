"""Scripted agents for the simulator tests (fast, no models), and tests of the agents themselves.

- ``CodebookSpymaster`` / ``CodebookGuesser``: a pair that plays perfectly by spelling the
  grid positions of its targets into the clue word ("zq" + one letter per position). The
  guesser never sees the key: it only decodes the clue. Outcomes are known in advance, so
  the simulator's bookkeeping can be checked against exact numbers.
- ``PoolSpymaster`` (count-1 clues from a fixed pool of words) and ``RandomGuesser`` (seeded
  random visible card): legal but aimless play, for games that end every possible way.
- Misbehaving agents, to check the simulator's guards.

``scripted_factory(role, spec)`` builds them from spec strings in any process (the runner
imports this module by name in its worker processes).
"""

from __future__ import annotations

import random
import string
from typing import Optional

from spymaster_ai.rules.moves import Clue
from spymaster_ai.views import GuesserView, SpymasterView

PREFIX = "zq"
LETTERS = string.ascii_lowercase[:25]
POOL = ("quixotic", "zenith", "ephemeral", "labyrinth", "serendipity", "melancholy", "nostalgia", "wanderlust")


def encode(positions: list[int]) -> str:
    return PREFIX + "".join(LETTERS[p] for p in positions)


def decode(word: str) -> list[int]:
    if not word.startswith(PREFIX):
        return []
    return [LETTERS.index(c) for c in word[len(PREFIX):] if c in LETTERS]


class CodebookSpymaster:
    """Clues its first ``per_clue`` remaining own cards (grid order), spelled into the clue word."""

    def __init__(self, per_clue: int = 1, cover: str = "first"):
        self.per_clue = per_clue
        self.cover = cover
        self.covers_chosen: list[str] = []

    def reset(self, seed: int) -> None:
        self.covers_chosen = []

    def give_clue(self, view: SpymasterView) -> Clue:
        own = [w for w in view.words if w in view.own][: self.per_clue]
        return Clue(encode([view.words.index(w) for w in own]), len(own))

    def choose_cover(self, view: SpymasterView, candidates: tuple[str, ...]) -> str:
        word = candidates[0] if self.cover == "first" else candidates[-1]
        self.covers_chosen.append(word)
        return word


class CodebookGuesser:
    """Guesses exactly the cards spelled in the clue, then stops; passes in sudden death."""

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        if view.clue is None:
            return None  # sudden death: this guesser has no information
        targets = [view.words[p] for p in decode(view.clue.word)]
        left = [w for w in targets if w in view.visible]
        if left:
            return left[0]
        if view.can_stop:
            return None
        return view.visible[0]


class PoolSpymaster:
    """Count-1 clues from a fixed word pool, in turn: legal, aimless."""

    def __init__(self) -> None:
        self.i = 0

    def reset(self, seed: int) -> None:
        self.i = 0

    def give_clue(self, view: SpymasterView) -> Clue:
        word = POOL[self.i % len(POOL)]
        self.i += 1
        return Clue(word, 1)


class RandomGuesser:
    """A seeded random visible card; stops once it made ``count`` guesses (if it may)."""

    def __init__(self, sudden_death_guesses: int = 1):
        self.rng = random.Random(0)
        self.sd = sudden_death_guesses
        self.sd_made = 0

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.sd_made = 0

    def next_guess(self, view: GuesserView) -> Optional[str]:
        if view.sudden_death and view.clue is None:
            if self.sd_made >= self.sd:
                return None
            self.sd_made += 1
        elif view.can_stop and view.clue is not None and view.guesses_made >= max(1, view.clue.count):
            return None
        return self.rng.choice(view.visible)


class LearningGuesser(RandomGuesser):
    """A random guesser whose draws follow every earlier game of its match (``end_game``):
    its seed mixes in the moves of the games it learned from, so a match replays only whole.
    ``learned`` lists the number of moves of each game it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.learned: list[int] = []
        self.matches_started = 0

    def start_match(self, seed: int) -> None:
        self.learned = []
        self.matches_started += 1

    def reset(self, seed: int) -> None:
        super().reset(f"{seed}:{self.learned}")

    def end_game(self, record: dict) -> None:
        self.learned.append(len(record["actions"]))


class ForgetfulLearner(RandomGuesser):
    """Learns (``end_game``) but never forgets (no ``start_match``): refused by the runner."""

    def end_game(self, record: dict) -> None:
        pass


class OffBoardGuesser:
    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        return "definitely-not-a-card"


class StopGuesser:
    """Returns STOP even when a guess is mandatory."""

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        return None


class BoardWordSpymaster:
    """Clues a visible board word: illegal under any legality mode that checks."""

    def reset(self, seed: int) -> None:
        pass

    def give_clue(self, view: SpymasterView) -> Clue:
        return Clue(view.visible[0], 1)


class CrashingSpymaster:
    def reset(self, seed: int) -> None:
        pass

    def give_clue(self, view: SpymasterView) -> Clue:
        raise RuntimeError("boom")


class StringSpymaster:
    """Returns a string instead of a Clue."""

    def reset(self, seed: int) -> None:
        pass

    def give_clue(self, view: SpymasterView):
        return "apple 2"


def scripted_factory(role: str, spec: str):
    """Spec -> scripted agent: ``codebook[:K]``, ``pool``, ``random``, ``learning``, ``forgetful``, ``offboard``, ``stop``, ``boardword``, ``crash``, ``string``."""
    name, _, arg = spec.partition(":")
    spymaster = role.endswith("spymaster")
    if name == "codebook":
        return CodebookSpymaster(int(arg or 1)) if spymaster else CodebookGuesser()
    if name in ("pool", "random"):
        return PoolSpymaster() if spymaster else RandomGuesser()
    if name == "learning":
        return PoolSpymaster() if spymaster else LearningGuesser()
    if name == "forgetful":
        return PoolSpymaster() if spymaster else ForgetfulLearner()
    if name == "offboard":
        return PoolSpymaster() if spymaster else OffBoardGuesser()
    if name == "stop":
        return PoolSpymaster() if spymaster else StopGuesser()
    if name == "boardword":
        return BoardWordSpymaster() if spymaster else RandomGuesser()
    if name == "crash":
        return CrashingSpymaster() if spymaster else RandomGuesser()
    if name == "string":
        return StringSpymaster() if spymaster else RandomGuesser()
    raise ValueError(f"unknown scripted agent {spec!r}")


# ----------------------------------------------------------------------------- tests of the helpers


def test_codebook_round_trip():
    assert decode(encode([0, 7, 24])) == [0, 7, 24]
    assert decode("apple") == []


def test_codebook_guesser_reads_only_the_clue():
    words = tuple(f"w{i}" for i in range(25))
    view = GuesserView(
        game="classic", me="red", words=words, visible=words, revealed=(), clue=Clue(encode([3, 5]), 2),
        guesses_made=0, max_guesses=3, can_stop=False,
    )
    assert CodebookGuesser().next_guess(view) == "w3"


def test_random_guesser_is_seeded():
    words = tuple(f"w{i}" for i in range(25))
    view = GuesserView(
        game="classic", me="red", words=words, visible=words, revealed=(), clue=Clue("x", 1),
        guesses_made=0, max_guesses=2, can_stop=False,
    )
    a, b = RandomGuesser(), RandomGuesser()
    a.reset(5)
    b.reset(5)
    assert [a.next_guess(view) for _ in range(5)] == [b.next_guess(view) for _ in range(5)]
