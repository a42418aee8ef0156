"""Key cards and boards: the RULES.md distributions, seeded reproducibility, dealing words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from spymaster_ai.rules.cards import (
    CLASSIC_LAYOUT,
    DUET_TABLE,
    KIM2019_LAYOUT,
    PICTURES_LAYOUT,
    ClassicKey,
    DuetIdentity,
    DuetKey,
    Identity,
    Player,
    Team,
    deal_words,
    generate_classic_key,
    generate_duet_key,
    normalise_word,
)


def _layout_of(key: ClassicKey) -> tuple[int, int, int, int, int]:
    counts = Counter(key.identities)
    return (
        key.size,
        counts[Identity.of_team(key.starting)],
        counts[Identity.of_team(key.starting.other)],
        counts[Identity.BYSTANDER],
        counts[Identity.ASSASSIN],
    )


# ---------------------------------------------------------------- classic / Pictures / Kim keys
def test_published_layouts_add_up() -> None:
    assert CLASSIC_LAYOUT == (25, 9, 8, 7, 1)
    assert PICTURES_LAYOUT == (20, 8, 7, 4, 1)
    assert KIM2019_LAYOUT == (25, 8, 7, 9, 1)
    for size, *parts in (CLASSIC_LAYOUT, PICTURES_LAYOUT, KIM2019_LAYOUT):
        assert sum(parts) == size


@pytest.mark.parametrize("layout", [CLASSIC_LAYOUT, PICTURES_LAYOUT, KIM2019_LAYOUT])
def test_generated_keys_have_the_exact_distribution(layout: tuple[int, ...]) -> None:
    starters = Counter()
    for seed in range(500):
        key = generate_classic_key(seed, layout)
        assert _layout_of(key) == tuple(layout)
        key.validate(layout)
        starters[key.starting] += 1
    # both teams start sometimes (a fixed starter would be a bug in the draw)
    assert starters[Team.RED] > 150 and starters[Team.BLUE] > 150


def test_classic_and_pictures_keys_validate_without_a_layout() -> None:
    generate_classic_key(1).validate()
    generate_classic_key(1, PICTURES_LAYOUT).validate()


def test_kim_layout_is_not_a_published_classic_layout() -> None:
    key = generate_classic_key(3, KIM2019_LAYOUT)
    with pytest.raises(ValueError, match="expected one of"):
        key.validate()
    key.validate(KIM2019_LAYOUT)


def test_starting_team_can_be_fixed() -> None:
    for seed in range(50):
        key = generate_classic_key(seed, starting=Team.BLUE)
        assert key.starting is Team.BLUE
        assert key.count(Identity.BLUE) == 9 and key.count(Identity.RED) == 8


def test_key_positions_vary_with_the_seed() -> None:
    keys = {generate_classic_key(seed).identities for seed in range(100)}
    assert len(keys) == 100


@pytest.mark.parametrize(
    "identities, starting",
    [
        ((Identity.RED,) * 9 + (Identity.BLUE,) * 8 + (Identity.BYSTANDER,) * 7 + (Identity.ASSASSIN,), Team.BLUE),
        ((Identity.RED,) * 9 + (Identity.BLUE,) * 8 + (Identity.BYSTANDER,) * 8, Team.RED),
        ((Identity.RED,) * 9 + (Identity.BLUE,) * 9 + (Identity.BYSTANDER,) * 6 + (Identity.ASSASSIN,), Team.RED),
        ((Identity.RED,) * 9 + (Identity.BLUE,) * 8 + (Identity.BYSTANDER,) * 7, Team.RED),
    ],
)
def test_wrong_keys_are_refused(identities: tuple[Identity, ...], starting: Team) -> None:
    with pytest.raises(ValueError, match="key card"):
        ClassicKey(identities, starting).validate()


def test_layout_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match="does not add up"):
        generate_classic_key(1, (25, 9, 8, 7, 2))


def test_classic_key_json_round_trip() -> None:
    key = generate_classic_key(11)
    data = json.loads(json.dumps(key.to_json()))
    assert ClassicKey.from_json(data) == key
    assert ClassicKey(tuple(i.value for i in key.identities), key.starting.value) == key


# ---------------------------------------------------------------- reproducibility across processes
_SNIPPET = """
import json
from spymaster_ai.rules.cards import *
words = [f"word{i}" for i in range(60)]
print(json.dumps({
    "classic": [generate_classic_key(s).to_json() for s in (0, 1, 2, 12345, "board-7")],
    "pictures": generate_classic_key(5, PICTURES_LAYOUT).to_json(),
    "duet": [generate_duet_key(s).to_json() for s in (0, 1, 999, "duet-x")],
    "deal": [list(deal_words(words, 25, s)) for s in (0, 42, "w")],
}))
"""


def _snapshot() -> dict:
    words = [f"word{i}" for i in range(60)]
    return json.loads(
        json.dumps(
            {
                "classic": [generate_classic_key(s).to_json() for s in (0, 1, 2, 12345, "board-7")],
                "pictures": generate_classic_key(5, PICTURES_LAYOUT).to_json(),
                "duet": [generate_duet_key(s).to_json() for s in (0, 1, 999, "duet-x")],
                "deal": [list(deal_words(words, 25, s)) for s in (0, 42, "w")],
            }
        )
    )


def test_seeded_generation_is_identical_in_another_process() -> None:
    # a fresh interpreter with a different hash seed must deal the same boards and keys
    env = {"PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", _SNIPPET],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    assert json.loads(out.stdout) == _snapshot()


# ---------------------------------------------------------------- Duet keys
def test_duet_keys_match_the_table_for_10000_seeds() -> None:
    greens = set()
    for seed in range(10_000):
        key = generate_duet_key(seed)
        key.validate()  # raises unless the side-A x side-B table is exactly DUET_TABLE
        assert len(key.green_positions) == 15
        if seed < 200:
            greens.add(key.green_positions)
    assert len(greens) == 200  # positions are shuffled, not a fixed pattern


def test_duet_table_rows_and_columns() -> None:
    key = generate_duet_key(7)
    for player in Player:
        side = Counter(key.side(player))
        assert side == {DuetIdentity.GREEN: 9, DuetIdentity.BLACK: 3, DuetIdentity.BYSTANDER: 13}
    assert sum(n for row in DUET_TABLE.values() for n in row.values()) == 25


def test_duet_key_that_breaks_the_table_is_refused() -> None:
    key = generate_duet_key(3)
    a = list(key.side_a)
    b = list(key.side_b)
    # swap one side-B cell of a green/green pair with a bystander/bystander pair: sides keep
    # their totals but the link table changes
    i = next(k for k in range(25) if a[k] is DuetIdentity.GREEN and b[k] is DuetIdentity.GREEN)
    j = next(k for k in range(25) if a[k] is DuetIdentity.BYSTANDER and b[k] is DuetIdentity.BYSTANDER)
    b[i], b[j] = b[j], b[i]
    with pytest.raises(ValueError, match="table"):
        DuetKey(tuple(a), tuple(b)).validate()
    with pytest.raises(ValueError, match="25 positions"):
        DuetKey(tuple(a[:20]), tuple(b[:20])).validate()


def test_duet_key_json_round_trip() -> None:
    key = generate_duet_key(21)
    assert DuetKey.from_json(json.loads(json.dumps(key.to_json()))) == key


# ---------------------------------------------------------------- dealing words
def test_deal_words_draws_distinct_words_from_the_list() -> None:
    pool = [f"w{i}" for i in range(40)]
    for seed in range(50):
        words = deal_words(pool, 25, seed)
        assert len(words) == 25 and len(set(words)) == 25
        assert set(words) <= set(pool)
    assert len(deal_words(pool, 20, 1)) == 20


def test_deal_words_is_seeded() -> None:
    pool = [f"w{i}" for i in range(40)]
    assert deal_words(pool, 25, 9) == deal_words(pool, 25, 9)
    assert len({deal_words(pool, 25, s) for s in range(20)}) == 20


def test_deal_words_ignores_duplicates_case_and_blanks() -> None:
    pool = ["Apple", "apple", " APPLE ", "", "  "] + [f"w{i}" for i in range(24)]
    words = deal_words(pool, 25, 0)
    assert "apple" in words and len(set(words)) == 25
    assert all(w == w.strip().lower() for w in words)
    with pytest.raises(ValueError, match="need 26 distinct words"):
        deal_words(pool, 26, 0)


def test_deal_words_does_not_depend_on_list_order() -> None:
    pool = [f"w{i}" for i in range(40)]
    assert deal_words(pool, 25, 4) == deal_words(list(reversed(pool)), 25, 4)


@pytest.mark.parametrize(
    "raw, expected",
    [("  Ice   Cream ", "ice cream"), ("NEW\tYORK", "new york"), ("apple", "apple"), ("   ", "")],
)
def test_normalise_word(raw: str, expected: str) -> None:
    assert normalise_word(raw) == expected
