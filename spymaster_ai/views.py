"""What each role may see. Agents receive these views, never a game object.

A :class:`GuesserView` has no key-card field at all. In Duet a guesser does hold its *own*
side of the key (each player sees one side in the real game), given as ``own_side``; never
the partner's side.

Views are plain frozen dataclasses of tuples and strings so they can be serialised,
sent over a network, and compared in tests. The engines build every view with
:func:`detached`: the view holds fresh copies (its own tuples, strings, clues and dicts), so
no object in it is one of the game's, and following ``gc.get_referrers`` up from a view's
objects does not lead to the game.

What a view does not do is make an agent untrusted-safe. An agent runs in the simulator's
process, and ``sys._getframe()`` walked up to the simulator's frames (its locals hold the
game) still reaches the game and its key. An agent running in the same process is trusted:
it could as well import the engine and read its memory. Running untrusted agents, each in
its own process and seeing only views sent to it, is a separate piece of work (the
``--isolate`` option of the research-ecosystem issue).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any, Optional

from .rules.moves import Clue

# Outcomes that found one of the clue giver's cards (classic "own", Duet "green").
_FOUND = frozenset({"own", "green"})


@dataclass(frozen=True)
class ClueHistoryEntry:
    """A clue already given to this guesser's side, and what was guessed for it.

    ``outcomes`` are the public results of each guess, in order ("own", "opponent",
    "bystander", "assassin" in classic; "green", "bystander", "black" in Duet).
    """

    giver: str
    clue: Clue
    guesses: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()

    @property
    def found(self) -> int:
        """How many guesses for this clue found one of the giver's cards."""
        return sum(1 for o in self.outcomes if o in _FOUND)

    @property
    def unfinished(self) -> bool:
        """The clue may still point at cards to find: fewer found than its count, or an
        unlimited clue whose last guess found one. A zero clue never is."""
        if self.clue.unlimited:
            return bool(self.outcomes) and self.outcomes[-1] in _FOUND
        return self.clue.count > self.found


@dataclass(frozen=True)
class GuesserView:
    """Everything a guesser may see: the table, the clues, never the key (but its own Duet side)."""

    game: str  # "classic", "pictures", "duet", "kim2019"
    me: str  # team ("red"/"blue") or Duet player ("A"/"B")
    words: tuple[str, ...]  # every card in grid order
    visible: tuple[str, ...]  # the cards this guesser may still guess, grid order
    revealed: tuple[tuple[str, str], ...]  # (word, public identity) for covered cards
    clue: Optional[Clue]  # the clue being guessed now
    guesses_made: int  # guesses already made on this clue
    max_guesses: Optional[int]  # None: no cap (unlimited clue, 0 clue, Duet)
    can_stop: bool  # whether STOP is a legal move now
    history: tuple[ClueHistoryEntry, ...] = ()  # earlier clues for this side, oldest first
    sudden_death: bool = False
    own_side: Optional[tuple[str, ...]] = None  # Duet only: my own key side ("green"/"black"/"bystander")
    marked_by_me: tuple[str, ...] = ()  # Duet: cards I already guessed as bystanders (not covered)
    tokens_left: Optional[int] = None  # Duet: timer tokens in the bank
    turns_played: Optional[int] = None  # Duet: turns finished so far (public: the tokens used)
    own_left: Optional[int] = None  # classic: my team's agents still hidden (public: the key's count minus the covered)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SpymasterView:
    """What a spymaster (classic) or a clue giver (Duet, its own side only) may see.

    The card sets hold only cards still *visible* (uncovered). Classic: ``own`` are this
    team's agents, ``opponent`` the other team's, ``assassins`` the assassin. Duet: ``own``
    are the giver's green cards the partner has not yet found, ``assassins`` its black cards,
    ``bystanders`` its bystanders, ``opponent`` is empty.
    """

    game: str
    me: str
    words: tuple[str, ...]
    visible: tuple[str, ...]
    own: tuple[str, ...]
    opponent: tuple[str, ...]
    bystanders: tuple[str, ...]
    assassins: tuple[str, ...]
    revealed: tuple[tuple[str, str], ...] = ()
    history: tuple[ClueHistoryEntry, ...] = ()  # clues this spymaster's partner has received
    partner_marked: tuple[str, ...] = ()  # Duet: cards the partner already guessed as bystanders
    tokens_left: Optional[int] = None
    clue_number_cap: Optional[int] = None  # e.g. cards left in play; None when free
    extra: dict = field(default_factory=dict)  # game-specific public facts (scores, turn numbers)

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def bad(self) -> tuple[str, ...]:
        """Every visible card that is not one of this spymaster's targets."""
        return self.opponent + self.bystanders + self.assassins


def _fresh_str(text: str) -> str:
    # Joining the characters builds a new string object (str(text) or text[:] would return
    # the same one). Strings of 0 or 1 character are the interpreter's shared singletons.
    return "".join(text)


def detached(value: Any) -> Any:
    """A copy of ``value`` (a view, a clue, or what a view holds) that shares no object with
    it: fresh strings, tuples, lists and dicts all the way down; ``None``, booleans, numbers
    (immutable, and small ones are shared by the whole interpreter) are kept.

    Why: an engine builds its views from its own state; without a copy, an agent could follow
    references from its view back to the game (``gc.get_referrers`` on ``view.words`` finds
    the game that holds the same tuple) and read the key.
    """
    if value is None or isinstance(value, (bool, int, float)) and not isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return _fresh_str(value)
    if isinstance(value, tuple):
        return tuple(detached(v) for v in value)
    if isinstance(value, list):
        return [detached(v) for v in value]
    if isinstance(value, dict):
        return {detached(k): detached(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return type(value)(**{f.name: detached(getattr(value, f.name)) for f in fields(value) if f.init})
    raise TypeError(f"a view holds only strings, numbers, tuples, dicts and dataclasses of them, not {type(value).__name__}")
