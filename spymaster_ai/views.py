"""What each role may see. Agents receive these views, never a game object.

A :class:`GuesserView` has no key-card field at all. In Duet a guesser does hold its *own*
side of the key (each player sees one side in the real game), given as ``own_side``; never
the partner's side.

Views are plain frozen dataclasses of tuples and strings so they can be serialised,
sent over a network, and compared in tests. The engines build every view with
:func:`detached`: the view holds fresh copies (its own tuples, strings, clues and dicts), so
no object in it is one of the game's, and following ``gc.get_referrers`` up from a view's
objects does not lead to the game.

What a view does not do is make an agent untrusted-safe. An agent running in the
simulator's process can walk ``sys._getframe()`` up to the simulator's frames (their locals
hold the game) and read the key: an agent in the same process is trusted. An untrusted agent
runs in its own process (``agents.isolation``, ``--isolate``) and receives each view as JSON
(``to_json`` / ``from_json``), so no object of the game exists where it runs.
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

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "ClueHistoryEntry":
        return cls(
            giver=_text(data["giver"]), clue=Clue.from_json(data["clue"]),
            guesses=_texts(data.get("guesses", ())), outcomes=_texts(data.get("outcomes", ())),
        )

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
    given: tuple[ClueHistoryEntry, ...] = ()  # Duet: the clues I gave and what my partner guessed (public)
    found_by_me: tuple[str, ...] = ()  # Duet: the cards I found in sudden death (green on my partner's side; public)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "GuesserView":
        """The view a ``to_json`` dict (after a JSON round trip) describes: what an agent in
        its own process receives (``agents.isolation``)."""
        return cls(**_view_fields(cls, data))


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

    @classmethod
    def from_json(cls, data: dict) -> "SpymasterView":
        """The view a ``to_json`` dict (after a JSON round trip) describes."""
        return cls(**_view_fields(cls, data))

    @property
    def bad(self) -> tuple[str, ...]:
        """Every visible card that is not one of this spymaster's targets."""
        return self.opponent + self.bystanders + self.assassins


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string in a serialised view, got {value!r}")
    return value


def _texts(values: Any) -> tuple[str, ...]:
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"expected a list of strings in a serialised view, got {values!r}")
    return tuple(_text(v) for v in values)


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples the engines put in a view."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def _view_fields(cls: type, data: dict) -> dict:
    """Keyword arguments of ``cls`` from its JSON form: lists back to tuples, clues and
    history entries back to their dataclasses; an unknown or missing field is refused."""
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise ValueError(f"{cls.__name__}: unknown field(s) {', '.join(sorted(unknown))}")
    out: dict = {}
    for name, value in data.items():
        if name == "clue":
            out[name] = None if value is None else Clue.from_json(value)
        elif name in ("history", "given"):
            out[name] = tuple(ClueHistoryEntry.from_json(h) for h in value)
        elif name == "revealed":
            out[name] = tuple((_text(w), _text(i)) for w, i in value)
        elif name == "extra":
            out[name] = {k: _tuples(v) for k, v in dict(value).items()}
        elif isinstance(value, list):
            out[name] = _texts(value)
        else:
            out[name] = value
    return out


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
