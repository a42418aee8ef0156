"""RULES.md §4 on boards in other languages: a foreign word is legal only if it is used in the
everyday speech of the game's language. A German playtest's "banana" was accepted on a German
board; loanwords German uses (Computer, Team, Baby) stay legal. A refusal names the rule."""

from __future__ import annotations

import pytest

from spymaster_ai.rules.legality import LegalityOptions, check_clue
from spymaster_ai.rules.legality.verdicts import RULE_FOREIGN_WORD

BOARDS = {"de": ["HUND", "KATZE", "SCHIFF"], "vi": ["CHÓ", "MÈO", "TÀU"], "fa": ["سگ", "گربه", "کشتی"]}

CASES = [
    # German: English words German does not use every day
    ("de", "banana", False), ("de", "happy", False), ("de", "tree", False), ("de", "kitchen", False),
    ("de", "smile", False), ("de", "water", False),
    # German: loanwords German uses, and German words spelled like English ones
    ("de", "computer", True), ("de", "team", True), ("de", "baby", True), ("de", "party", True),
    ("de", "cool", True), ("de", "internet", True), ("de", "pizza", True), ("de", "handy", True),
    ("de", "banane", True), ("de", "will", True), ("de", "gift", True),
    # Vietnamese and Persian: English words their dictionaries do not hold
    ("vi", "banana", False), ("vi", "tree", False), ("vi", "video", True), ("vi", "chuối", True),
    ("fa", "banana", False), ("fa", "computer", False), ("fa", "موز", True),
]


@pytest.mark.parametrize("lang, clue, legal", CASES, ids=[f"{l}-{c}" for l, c, _ in CASES])
def test_foreign_word_table(lang: str, clue: str, legal: bool) -> None:
    verdict = check_clue(clue, BOARDS[lang], options=LegalityOptions(lang=lang))
    assert verdict.legal is legal, verdict.reason
    if not legal:
        assert verdict.rule == RULE_FOREIGN_WORD
        assert "rule 4, foreign words" in verdict.reason and "everyday" in verdict.reason


def test_english_boards_keep_their_own_rule() -> None:
    """English verdicts are unchanged: banana is an English word there."""
    assert check_clue("banana", ["DOG", "CAT"]).legal
