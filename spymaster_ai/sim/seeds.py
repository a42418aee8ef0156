"""Seed derivation: every game of a run gets its own seed from (master seed, game index).

Seeds come from SHA-256 of a text label, so they are the same in every process, on every
platform and in every Python version (no salted ``hash``), and game ``i`` of a run can be
replayed alone without playing games ``0..i-1``. Boards, keys and agent seeds of one game are
all derived from that game's seed.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed", "game_seed"]

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
