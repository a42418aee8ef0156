"""Card identities and key cards, with seeded generation (standard library only).

Generation uses ``random.Random(seed)`` only, so the same seed gives the same board and
key in any process and on any platform (string seeds are hashed by ``random`` itself
with SHA-512, not with the salted ``hash``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Sequence


class Team(str, Enum):
    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> "Team":
        return Team.BLUE if self is Team.RED else Team.RED


class Identity(str, Enum):
    """What a classic/Pictures key card says a card is."""

    RED = "red"
    BLUE = "blue"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @staticmethod
    def of_team(team: Team) -> "Identity":
        return Identity(team.value)


class DuetIdentity(str, Enum):
    """What one side of the Duet key says a card is."""

    GREEN = "green"
    BLACK = "black"
    BYSTANDER = "bystander"


class Player(str, Enum):
    """The two Duet players; player A sees side A of the key, B sees side B."""

    A = "A"
    B = "B"

    @property
    def other(self) -> "Player":
        return Player.B if self is Player.A else Player.A


# Layouts: (cards, starting team agents, other team agents, bystanders, assassins).
CLASSIC_LAYOUT = (25, 9, 8, 7, 1)
PICTURES_LAYOUT = (20, 8, 7, 4, 1)
# Kim et al. 2019 protocol: one team alone on 8 own / 7 opponent / 9 bystanders / 1 assassin.
KIM2019_LAYOUT = (25, 8, 7, 9, 1)

# RULES.md §3: side A identity -> side B identity -> count. Exactly this table.
DUET_TABLE: dict[DuetIdentity, dict[DuetIdentity, int]] = {
    DuetIdentity.GREEN: {DuetIdentity.GREEN: 3, DuetIdentity.BLACK: 1, DuetIdentity.BYSTANDER: 5},
    DuetIdentity.BLACK: {DuetIdentity.GREEN: 1, DuetIdentity.BLACK: 1, DuetIdentity.BYSTANDER: 1},
    DuetIdentity.BYSTANDER: {DuetIdentity.GREEN: 5, DuetIdentity.BLACK: 1, DuetIdentity.BYSTANDER: 7},
}


@dataclass(frozen=True)
class ClassicKey:
    """A classic or Pictures key card: one identity per grid position, and who starts."""

    identities: tuple[Identity, ...]
    starting: Team

    def __post_init__(self) -> None:
        object.__setattr__(self, "identities", tuple(Identity(i) for i in self.identities))
        object.__setattr__(self, "starting", Team(self.starting))

    @property
    def size(self) -> int:
        return len(self.identities)

    def count(self, identity: Identity) -> int:
        return sum(1 for i in self.identities if i is identity)

    def validate(self, layout: Sequence[int] | None = None) -> None:
        """Raise ValueError unless the key matches a published layout (or ``layout``)."""
        counts = Counter(self.identities)
        start, other = Identity.of_team(self.starting), Identity.of_team(self.starting.other)
        found = (self.size, counts[start], counts[other], counts[Identity.BYSTANDER], counts[Identity.ASSASSIN])
        allowed = [tuple(layout)] if layout is not None else [CLASSIC_LAYOUT, PICTURES_LAYOUT]
        if found not in allowed:
            raise ValueError(
                f"key card has cards/start/other/bystanders/assassins = {found}; expected one of {allowed}"
            )

    def to_json(self) -> dict:
        return {"identities": [i.value for i in self.identities], "starting": self.starting.value}

    @classmethod
    def from_json(cls, data: dict) -> "ClassicKey":
        return cls(tuple(Identity(i) for i in data["identities"]), Team(data["starting"]))


@dataclass(frozen=True)
class DuetKey:
    """The double-sided Duet key: side A and side B, one identity per position on each."""

    side_a: tuple[DuetIdentity, ...]
    side_b: tuple[DuetIdentity, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "side_a", tuple(DuetIdentity(i) for i in self.side_a))
        object.__setattr__(self, "side_b", tuple(DuetIdentity(i) for i in self.side_b))

    def side(self, player: Player) -> tuple[DuetIdentity, ...]:
        return self.side_a if Player(player) is Player.A else self.side_b

    def table(self) -> dict[DuetIdentity, dict[DuetIdentity, int]]:
        """The side-A x side-B count table of this key."""
        out = {a: {b: 0 for b in DuetIdentity} for a in DuetIdentity}
        for a, b in zip(self.side_a, self.side_b):
            out[a][b] += 1
        return out

    def validate(self) -> None:
        """Raise ValueError unless the key is 25 cards matching RULES.md §3 exactly."""
        if len(self.side_a) != 25 or len(self.side_b) != 25:
            raise ValueError(f"a Duet key has 25 positions per side, got {len(self.side_a)}/{len(self.side_b)}")
        if self.table() != DUET_TABLE:
            raise ValueError(f"Duet key does not match the RULES.md §3 table: {self.table()}")

    @property
    def green_positions(self) -> frozenset[int]:
        """Positions green on at least one side: the 15 words to find."""
        return frozenset(
            i for i, (a, b) in enumerate(zip(self.side_a, self.side_b)) if DuetIdentity.GREEN in (a, b)
        )

    def to_json(self) -> dict:
        return {"side_a": [i.value for i in self.side_a], "side_b": [i.value for i in self.side_b]}

    @classmethod
    def from_json(cls, data: dict) -> "DuetKey":
        return cls(tuple(data["side_a"]), tuple(data["side_b"]))


def _rng(seed: int | str | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def generate_classic_key(
    seed: int | str | random.Random | None = None,
    layout: Sequence[int] = CLASSIC_LAYOUT,
    starting: Team | None = None,
) -> ClassicKey:
    """A random key with the given layout; the starting team is drawn unless given."""
    rng = _rng(seed)
    size, n_start, n_other, n_bystanders, n_assassins = layout
    if n_start + n_other + n_bystanders + n_assassins != size:
        raise ValueError(f"layout {tuple(layout)} does not add up to {size} cards")
    start = Team(starting) if starting is not None else rng.choice([Team.RED, Team.BLUE])
    cells = (
        [Identity.of_team(start)] * n_start
        + [Identity.of_team(start.other)] * n_other
        + [Identity.BYSTANDER] * n_bystanders
        + [Identity.ASSASSIN] * n_assassins
    )
    rng.shuffle(cells)
    return ClassicKey(tuple(cells), start)


def generate_duet_key(seed: int | str | random.Random | None = None) -> DuetKey:
    """A random double-sided key matching the RULES.md §3 table exactly."""
    rng = _rng(seed)
    pairs = [(a, b) for a, row in DUET_TABLE.items() for b, n in row.items() for _ in range(n)]
    rng.shuffle(pairs)
    return DuetKey(tuple(a for a, _ in pairs), tuple(b for _, b in pairs))


def deal_words(
    word_list: Sequence[str], n: int = 25, seed: int | str | random.Random | None = None
) -> tuple[str, ...]:
    """Draw ``n`` distinct words from ``word_list`` (duplicates in the list are ignored)."""
    pool = sorted(set(w.strip().lower() for w in word_list if w.strip()))
    if len(pool) < n:
        raise ValueError(f"need {n} distinct words, the list has {len(pool)}")
    return tuple(_rng(seed).sample(pool, n))


def quoted(word: str) -> str:
    """``word`` quoted for a message as ``repr`` quotes it, but with the zero-width joiner and
    non-joiner (Persian ZWNJ: کتاب‌ها) shown as themselves: repr writes them as ``\\u200c``."""
    return repr(str(word)).replace("\\u200c", "\u200c").replace("\\u200d", "\u200d")


def normalise_word(word: str) -> str:
    """Canonical form of a card or clue word: trimmed, lower case, single spaces."""
    return " ".join(str(word).strip().lower().split())
