"""The classic and Pictures game's state and the questions it answers (RULES.md §1-2),
standard library only.

Why a module of its own: the engine (:mod:`.classic`) changes this state through its moves;
the record (:mod:`.classic_record`) and the per-role views (:mod:`.classic_views`) only read
it. :class:`ClassicState` holds the kinds of board, the constructor (its checks), the
read-only properties, the queries every other job asks (cards left of an identity, a card's
identity) and the solo score. It is a base of :class:`.classic.ClassicGame`, never played on
its own.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from .cards import CLASSIC_LAYOUT, KIM2019_LAYOUT, PICTURES_LAYOUT, ClassicKey, Identity, Team, normalise_word, quoted
from .moves import Clue, LossCause, NotOnBoardError, Phase

KINDS: dict[str, tuple[int, int, int, int, int]] = {
    "classic": CLASSIC_LAYOUT,
    "pictures": PICTURES_LAYOUT,
    "kim2019": KIM2019_LAYOUT,
}
LEGALITY_MODES = ("strict", "penalty", "off")


def _options_json(options: object | None) -> dict | None:
    if options is None:
        return None
    if isinstance(options, dict):
        return dict(options)
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        data = dataclasses.asdict(options)
        if data.get("lang") == "en":  # English records stay as they were before languages
            del data["lang"]
        return data
    raise ValueError(f"legality_options must be None, a dict or a LegalityOptions, got {type(options).__name__}")



class ClassicState:
    """The state of one classic / Pictures game and its read-only queries (see :class:`.classic.ClassicGame`)."""

    def __init__(
        self,
        words: Sequence[str],
        key: ClassicKey,
        *,
        solo: bool = False,
        three_player: bool = False,
        assassin_ending: bool = False,
        legality: str = "strict",
        legality_options: object | None = None,
        pictures: Sequence[bool] | None = None,
        kind: str | None = None,
    ) -> None:
        if isinstance(words, (str, bytes)) or not isinstance(words, Sequence):
            raise ValueError("words must be a sequence of card words, not a single string")
        normalised = tuple(normalise_word(w) for w in words)
        size = len(normalised)
        if size not in (25, 20):
            raise ValueError(f"a classic board has 25 cards and a Pictures board 20; got {size}")
        if any(not w for w in normalised):
            raise ValueError("card words must not be empty")
        if len(set(normalised)) != size:
            seen: set[str] = set()
            dupes = sorted({w for w in normalised if w in seen or seen.add(w)})
            raise ValueError(f"card words must be distinct; repeated: {', '.join(dupes)}")
        if kind is None:
            kind = "classic" if size == 25 else "pictures"
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
        layout = KINDS[kind]
        if size != layout[0]:
            raise ValueError(f"a {kind} board has {layout[0]} cards; got {size}")
        if not isinstance(key, ClassicKey):
            raise ValueError(f"key must be a ClassicKey, got {type(key).__name__}")
        if key.size != size:
            raise ValueError(f"the key card has {key.size} positions but the board has {size} cards")
        key.validate(layout)
        if pictures is None:
            flags = (kind == "pictures",) * size
        else:
            flags = tuple(pictures)
            if len(flags) != size or not all(isinstance(f, bool) for f in flags):
                raise ValueError(f"pictures must be {size} booleans, one per card")
        if legality not in LEGALITY_MODES:
            raise ValueError(f"legality must be one of {', '.join(LEGALITY_MODES)}; got {legality!r}")
        _options_json(legality_options)  # refuse unusable options now, not at the first clue

        self._words = normalised
        self._index = {w: i for i, w in enumerate(normalised)}
        self._key = key
        self._kind = kind
        self._pictures = flags
        self._solo = bool(solo)
        self._three_player = bool(three_player)
        self._assassin_ending = bool(assassin_ending)
        self._legality = legality
        self._legality_options = legality_options

        self._phase = Phase.CLUE
        self._team = key.starting
        self._clue: Clue | None = None
        self._guesses_made = 0
        self._max_guesses: int | None = None
        self._winner: Team | None = None
        self._loss_cause: LossCause | None = None
        self._turns = {Team.RED: 0, Team.BLUE: 0}
        self._covered: dict[str, Identity] = {}  # in the order covered
        self._history: list[dict] = []  # one entry per accepted clue
        self._actions: list[dict] = []

    # ----------------------------------------------------------------- state
    @property
    def words(self) -> tuple[str, ...]:
        return self._words

    @property
    def key(self) -> ClassicKey:
        return self._key

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def pictures(self) -> tuple[bool, ...]:
        return self._pictures

    @property
    def solo(self) -> bool:
        return self._solo

    @property
    def three_player(self) -> bool:
        return self._three_player

    @property
    def assassin_ending(self) -> bool:
        return self._assassin_ending

    @property
    def legality(self) -> str:
        return self._legality

    @property
    def single_team(self) -> bool:
        """Only the starting team plays turns (solo variant, Kim et al. 2019 protocol)."""
        return self._solo or self._kind == "kim2019"

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_team(self) -> Team:
        return self._team

    @property
    def clue(self) -> Clue | None:
        return self._clue

    @property
    def guesses_made(self) -> int:
        return self._guesses_made

    @property
    def max_guesses(self) -> int | None:
        return self._max_guesses

    @property
    def winner(self) -> Team | None:
        return self._winner

    @property
    def loser(self) -> Team | None:
        return None if self._winner is None else self._winner.other

    @property
    def loss_cause(self) -> LossCause | None:
        return self._loss_cause

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def turns(self) -> dict[Team, int]:
        return dict(self._turns)

    @property
    def covered(self) -> dict[str, Identity]:
        return dict(self._covered)

    @property
    def actions(self) -> list[dict]:
        return [dict(a) for a in self._actions]

    def visible_words(self) -> tuple[str, ...]:
        return tuple(w for w in self._words if w not in self._covered)

    def remaining(self, identity: Identity) -> tuple[str, ...]:
        identity = Identity(identity)
        return tuple(
            w for w, i in zip(self._words, self._key.identities) if i is identity and w not in self._covered
        )

    def identity_of(self, word: str) -> Identity:
        """The key identity of a card (engine-side helper; never shown to a guesser)."""
        return self._key.identities[self._position(word)]

    def score(self) -> int | None:
        """Solo variant: opponent agents not yet covered, on a win; otherwise None."""
        if not self._solo or self._winner is not self._key.starting:
            return None
        return len(self.remaining(Identity.of_team(self._key.starting.other)))

    def _position(self, word: str) -> int:
        card = normalise_word(word)
        if card not in self._index:
            raise NotOnBoardError(f"{quoted(word)} is not a card on this board")
        return self._index[card]
