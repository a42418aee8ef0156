"""Every clue example the rule books give, as RULES.md quotes or cites them, in one table.

Each row's id names the rule book's language (en: the published English games; fa: the
Persian rules; vi: the Vietnamese Duet and Pictures rules), the section of RULES.md ("s4.3"
is §4.3), and the example as quoted. Rows the checker cannot meet yet are strict xfails that say why.
"""

from __future__ import annotations

import pytest

from spymaster_ai.rules.legality import (
    RULE_COMPOUND_PART,
    RULE_FOREIGN_WORD,
    RULE_LETTERS_OR_POSITION,
    RULE_NOT_ONE_WORD,
    RULE_VISIBLE_WORD,
    RULE_WORD_FORM,
    LegalityOptions,
    check_clue,
)

FILLER = ["piano", "tiger", "violin", "octopus", "blanket"]
PICTURE_BOARD = ["pic:moon", "pic:knight", "pic:night_sky", *FILLER]
PICTURES = LegalityOptions(pictures=True)
LEGAL = None  # the expected rule of a legal clue


def row(example: str, clue: str, cards: list[str], rule: str | None, collides: str | None = None, *,
        options: LegalityOptions | None = None, count: int | None = None, marks=()):
    return pytest.param(clue, cards, options, count, rule, collides, id=example, marks=marks)


KNOWN_LIMIT = pytest.mark.xfail(strict=True, reason="known limit, see the row's id")

EXAMPLES = [
    # s4.1 a visible word; a covered word becomes legal again
    row("en s4.1: STORM visible -> 'storm' illegal", "storm", ["storm"], RULE_VISIBLE_WORD, "storm"),
    row("en s4.1: STORM covered -> 'storm' legal again", "storm", [], LEGAL),
    # s4.2 forms: BREAK -> broken, breaking, breakage; THEATER -> theatre
    row("en s4.2: BREAK -> no 'broken'", "broken", ["break"], RULE_WORD_FORM, "break"),
    row("en s4.2: BREAK -> no 'breaking'", "breaking", ["break"], RULE_WORD_FORM, "break"),
    row("en s4.2: BREAK -> no 'breakage'", "breakage", ["break"], RULE_WORD_FORM, "break"),
    row("en s4.2: THEATER -> no 'theatre'", "theatre", ["theater"], RULE_WORD_FORM, "theater"),
    # s4.3 compound parts, words built on them, and compounds built on a visible word
    row("en s4.3: HORSESHOE -> no 'horse'", "horse", ["horseshoe"], RULE_COMPOUND_PART, "horseshoe"),
    row("en s4.3: HORSESHOE -> no 'shoe'", "shoe", ["horseshoe"], RULE_COMPOUND_PART, "horseshoe"),
    row("en s4.3: HORSESHOE -> no 'unhorsed'", "unhorsed", ["horseshoe"], RULE_COMPOUND_PART, "horseshoe"),
    row("en s4.3: HORSESHOE -> no 'snowshoe'", "snowshoe", ["horseshoe"], RULE_COMPOUND_PART, "horseshoe"),
    row("en s4.3: EARTHQUAKE -> no 'earth'", "earth", ["earthquake"], RULE_COMPOUND_PART, "earthquake"),
    row("en s4.3: EARTHQUAKE -> no 'quake'", "quake", ["earthquake"], RULE_COMPOUND_PART, "earthquake"),
    row("fa s4.3: 'you may never invent compounds': MOON -> no 'moonsquid'", "moonsquid", ["moon"],
        RULE_COMPOUND_PART, "moon"),
    row("en s4.3: EARTHQUAKE -> 'ear' legal", "ear", ["earthquake"], LEGAL),
    row("en s4.3: EARTHQUAKE -> 'hearth' legal", "hearth", ["earthquake"], LEGAL),
    row("en s4.3: ROW -> 'sparrow' legal", "sparrow", ["row"], LEGAL),
    row("en s4.3: ENGLAND -> 'land' legal", "land", ["england"], LEGAL),
    row("en s4.3: ENGLAND -> 'island' legal", "island", ["england"], LEGAL),
    # s4.4 one word, and its exceptions
    row("fa s4.4: place names are allowed: 'New York'", "New York", [], LEGAL),
    row("vi Pictures s4.4: proper names option: 'James Bond'", "James Bond", PICTURE_BOARD, LEGAL,
        options=LegalityOptions(pictures=True, proper_names=True)),
    row("vi Pictures s4.4: proper names option: 'North Dakota'", "North Dakota", PICTURE_BOARD, LEGAL,
        options=LegalityOptions(pictures=True, proper_names=True)),
    row("en s4.4: acronyms option: 'FBI'", "FBI", [], LEGAL, options=LegalityOptions(acronyms=True)),
    row("en s4.4: acronyms option: 'FIFA'", "FIFA", [], LEGAL, options=LegalityOptions(acronyms=True)),
    row("en s4.4: undotted acronyms are refused unless the option is on: 'FBI'", "FBI", [], RULE_NOT_ONE_WORD),
    row("en s4.4: undotted acronyms are refused unless the option is on: 'FIFA'", "FIFA", [], RULE_NOT_ONE_WORD),
    # s4.5 positions and the count are refused; letters and numbers about meaning are legal
    row("en s4.5: 'middle' is about positions", "middle", [], RULE_LETTERS_OR_POSITION),
    row("en s4.5: 'top' is about positions", "top", [], RULE_LETTERS_OR_POSITION),
    row("en s4.5: the number used as the clue: '3: 3'", "3", [], RULE_LETTERS_OR_POSITION, count=3),
    row("en s4.5: the number used as the clue: 'three: 3'", "three", [], RULE_LETTERS_OR_POSITION, count=3),
    row("fa s4.5: 'X: 1' for RAY", "X", ["ray"], LEGAL, count=1),
    row("vi Duet s4.5: 'B: 2' for FLAT and LETTER", "B", ["flat", "letter"], LEGAL, count=2),
    # s4.6 translations: APPLE -> no "Apfel", "pomme", "ringo"
    row("fa s4.6: APPLE -> no 'Apfel' (German)", "Apfel", ["apple"], RULE_FOREIGN_WORD),
    row("fa s4.6: APPLE -> no 'pomme' (French)", "pomme", ["apple"], RULE_FOREIGN_WORD),
    row("fa s4.6: APPLE -> no 'ringo' (Japanese; only six European languages are checked)", "ringo", ["apple"],
        RULE_FOREIGN_WORD, marks=KNOWN_LIMIT),
    # s4 homophones, and Pictures colours
    row("en s4: homophones are different words: 'knight' with NIGHT", "knight", ["night"], LEGAL),
    row("vi s4: 'Dark: 2' is fine for night scenes (the darkest-pictures reading is intent)", "Dark",
        PICTURE_BOARD, LEGAL, options=PICTURES, count=2),
    # s2 Pictures
    row("en Pictures s2: 'close: 3' is about positions", "close", PICTURE_BOARD, RULE_LETTERS_OR_POSITION,
        options=PICTURES, count=3),
    row("en Pictures s2: 'S: 3' is about letters in a name", "S", PICTURE_BOARD, RULE_LETTERS_OR_POSITION,
        options=PICTURES, count=3),
    row("en Pictures s2: 'dark' is valid for pictures of night or evil things", "dark", PICTURE_BOARD, LEGAL,
        options=PICTURES, count=2),
    row("en Pictures s2: puns are allowed: 'knight' for a moon and an armoured man", "knight", PICTURE_BOARD,
        LEGAL, options=PICTURES, count=2),
    row("en Pictures s2: option forbid shape words: 'circle'", "circle", PICTURE_BOARD, "picture-appearance",
        options=LegalityOptions(pictures=True, forbid_shapes=True)),
    row("en Pictures s2: option forbid shape words: 'rectangle'", "rectangle", PICTURE_BOARD, "picture-appearance",
        options=LegalityOptions(pictures=True, forbid_shapes=True)),
    row("en Pictures s2: shape words are legal without the option: 'circle'", "circle", PICTURE_BOARD, LEGAL,
        options=PICTURES),
    # s3 Duet
    row("en Duet s3: zero clue 'word: 0' is allowed", "word", [], LEGAL, count=0),
    # Other languages
    # On a Vietnamese board (rules/lang): tone marks are spelling. English boards fold accents.
    row("vi s4 other languages: tone marks are spelling, 'ma' is not 'ma' with an acute accent", "m\u00e1", ["ma"],
        LEGAL, options=LegalityOptions(lang="vi")),
]


@pytest.mark.parametrize(("clue", "cards", "options", "count", "rule", "collides"), EXAMPLES)
def test_rule_book_example(clue, cards, options, count, rule, collides) -> None:
    board = cards if cards is PICTURE_BOARD else [*cards, *FILLER]
    v = check_clue(clue, board, options, count=count)
    assert (v.legal, v.rule, v.collides_with) == (rule is None, rule, collides), v
    if collides:
        assert collides.upper() in v.reason
