"""Seed derivation: every game of a run gets its own seed from (master seed, game index).

Seeds come from SHA-256 of a text label, so they are the same in every process, on every
platform and in every Python version (no salted ``hash``), and game ``i`` of a run can be
replayed alone without playing games ``0..i-1``. In a run of matches (K games with the same
partners, agents learning from game to game) the unit is the match: game j of match m has
its own seed from (master seed, m, j), and a match replays whole. Boards, keys and agent seeds of one game are
all derived from that game's seed.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed", "game_seed", "match_game_seed"]

# Seeds stay below 2**63 so they fit a signed 64-bit integer (numpy, JSON readers, databases).
_SEED_BITS = 63


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any sequence of labels (ints and strings), e.g. (seed, "a_spymaster")."""
    label = ":".join(str(p) for p in parts)
    digest = hashlib.sha256(label.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)


def game_seed(master_seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run started with ``master_seed``."""
    if index < 0:
        raise ValueError(f"game index must be >= 0, got {index}")
    return derive_seed("game", int(master_seed), int(index))


def match_game_seed(master_seed: int, match: int, game: int) -> int:
    """The seed of game ``game`` (0-based) of match ``match`` of a run started with ``master_seed``.

    A label of its own ("match"), so game j of a match never shares a board with game i of a
    run of single games."""
    if match < 0 or game < 0:
        raise ValueError(f"match and game indices must be >= 0, got match {match}, game {game}")
    return derive_seed("match", int(master_seed), int(match), int(game))
