"""Rule 5 and Pictures word lists: words refused for what they are about, not for the board.

Why a module of its own: these lists are engine decisions (the checker cannot read intent),
shown to players and reused by agents and tests; each comment says why a word is listed.
"""

from __future__ import annotations


# Rule 5, positions: words whose common use at the table is a place in the grid or an order
# in it. The checker cannot read intent, so these are refused whatever the meaning (an AI
# loses "top" as in spinning top; no AI or human can point at a row with them). Inflections
# (rows, corners) are refused too.
POSITION_WORDS: frozenset[str] = frozenset(
    """middle centre center central left right top bottom corner row column diagonal horizontal
    vertical adjacent above below beside upper lower leftmost rightmost topmost uppermost
    bottommost lowermost first second third fourth fifth last grid""".split()
)
# Rule 5, distance in the grid: RULES.md §2 names "close: 3" as invalid. Refused as written
# (these forms only): "closed" or "closing" are about doors and shops, not places at the table.
DISTANCE_WORDS: frozenset[str] = frozenset("close closer closest near nearer nearest nearby next".split())
# Rule 5, letters: words about spelling rather than meaning (single letters are refused anyway).
LETTER_WORDS: frozenset[str] = frozenset(
    "vowel consonant syllable alphabet alphabetical alphabetically initial initials".split()
)
# Rule 5, the count: a number word equal to the clue's own number ("three: 3").
NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
        fifteen sixteen seventeen eighteen nineteen twenty""".split()
    )
} | {"nought": 0}
# Pictures (§2): clues about the colours of a picture are invalid. The checker cannot tell a
# colour clue from a content clue, so the colour names are refused in Pictures; shade words
# such as "dark" and "light" stay legal, as §2 says "dark" is valid for pictures of night.
COLOUR_WORDS: frozenset[str] = frozenset(
    """black white red green yellow blue brown purple pink orange grey gray beige crimson cyan
    magenta maroon scarlet turquoise colour color colourful colorful""".split()
)
# Pictures option "forbid shape words": shape names whose main sense is the shape (ambiguous
# words such as star, heart, cross, diamond are left legal).
SHAPE_WORDS: frozenset[str] = frozenset(
    """circle circular square triangle triangular rectangle rectangular oval hexagon hexagonal
    pentagon octagon polygon sphere spherical cube cubic cone cylinder cylindrical ellipse
    curve spiral zigzag shape""".split()
)

# Rule 4, acronyms (refused unless the game's acronym option is on). An acronym is recognised
# when it is written dotted (F.B.I.), typed in capitals (FBI, NASA: 2 to 5 capital letters that
# are not a word of the lexicon, so DOG or AIDS typed in capitals stay words), or is one of
# these well-known acronyms typed in lower case. wordfreq is case-folded and lemminflect lists
# no acronyms, so no lexicon says "fbi" is one: this short list is the whole source. None of
# its entries is a word of lemminflect's lexicon (tested); acronyms that became words (laser,
# radar, scuba) are words.
KNOWN_ACRONYMS: frozenset[str] = frozenset(
    """fbi cia nsa kgb nasa nato fifa uefa nba nfl nhl mlb nascar bbc cnn hbo mtv ibm bmw ufo
    dna rna tv dvd atm ceo cfo uk usa ussr eu uae gps usb html http www vip diy asap faq fyi
    rsvp hiv ptsd adhd mri cpu nyc ufc wwe unicef unesco opec imf wto ucla nyu lgbt ngo""".split()
)
