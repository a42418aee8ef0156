"""Clue legality (RULES.md §4, and §2 for Pictures): may this clue be given with these words visible?

The rules forbid *forms* and *compound parts* of visible words, yet explicitly allow letter
sequences that are not meaningful parts ("hearth" with EARTHQUAKE, "sparrow" with ROW). So
nothing here tests substrings. Every word is reduced to two sets:

* its **roots**: the word, its lemmas (lemminflect), its British/American spelling variants,
  and the stems left after removing a derivational affix when that stem is a real word
  (wordfreq), closed over a few steps (unhorsed -> unhorse -> horse);
* its **morphemes**: its roots plus the roots of the two real-word parts of every root that is
  a compound (horseshoe -> horse, shoe; snowshoe -> snow, shoe).

A clue collides with a visible word when the two are the same word (rule 1), share a root
(rule 2: another form), or share a morpheme (rule 3: a compound part, or a word built on one).
Each word's analysis is cached, so checking a whole vocabulary against a board is a few set
intersections per candidate (see :func:`legal_mask`).

Splitting and affix stripping over-fire on pseudo-compounds (car+pet, spar+row) and pseudo
derivations (corn+er, lad+y). The guards, each chosen because it removes a class of false
hits while keeping the rule book's examples, are documented where they act
(:func:`_compound_parts`, :func:`_open_split`, :func:`_derivational_stems`, :func:`_variants`); the word tables
(NOT_COMPOUNDS, COMPOUND_PARTS, NOT_DERIVED) list the remaining known exceptions, found by
checking the shipped board list against the 50,000 most frequent English words.

Engine readings (all tested in tests/test_legality.py; every rule-book example is a row of
tests/test_legality_rulebook.py):

* Same spelling, same word (RULES.md §4): inflections come from lemminflect whatever the
  sense, so "better" is a form of GOOD, "number" of NUMB, "dove" of DIVER's "dive".
* Pseudo-compounds stay whole: carpet, handsome, sparrow, panda, kitten, message, season.
  Partly opaque compounds keep their meaningful part only: butterfly -> fly (as dragonfly),
  peacock -> cock, submarine -> marine.
* A compound clue built on a visible word is illegal (snowman with SNOW), and two compounds
  sharing a part collide (footprint with FOOTBALL), as snowshoe does with HORSESHOE.
  Compounds lemminflect does not list are split too, once, at their best split into two
  words (firetruck -> fire + truck, housecat, smartwatch): one half the visible word or the
  same word inflected ("trucks"), the other a common word. Accidental letter sequences stay
  legal ("category" with CAT, "party" with ART), and names built visibly on a board word are
  refused like any other spelling (liverpool with POOL, batman with BAT). An invented word is
  split the same way (fa: "you may never invent compounds"): "moonsquid" with MOON, its
  verdict saying "invented compound"; a string that is no two words ("zqab") stays legal.
* Rule 5 cannot read intent, so POSITION_WORDS and LETTER_WORDS are refused whatever the
  meaning. DISTANCE_WORDS ("close: 3", RULES.md §2) are refused as written only: "closed"
  stays legal. Colours are illegal only when they describe the pictures' appearance (vi: "Dark: 2"
  for the two darkest pictures; fine for night scenes), which no checker can see, so the
  blanket refusal of COLOUR_WORDS is the option ``forbid_colours``: by default on for picture
  cards (as before) and off for word cards; set it to turn it off in Pictures or on for
  words. Shade words such as "dark" are never refused.
* Letters and numbers are clues when they are about meaning (fa: "X: 1" for RAY; vi Duet:
  "B: 2" for FLAT and LETTER), so a single letter or a number in digits ("7", "007") is
  legal from people; a number is refused only as the count itself ("3: 3", as "three: 3"),
  and a letter is a part of a card like X-RAY. In Pictures a single letter stays refused
  (§2: "S: 3" is about the letters of a name; a picture shows no written word). Mixes of
  letters and digits ("r2d2", "3.5") are refused. AI agents never emit letters or digits
  (spymaster_ai.agents.vocabulary.is_clue_shaped).
* Foreign words (§4: legal only if used in everyday English): a word outside the English
  lexicon, rare in English, that another language uses far more is refused, naming the
  language (gato, chien, merci); loanwords and names English uses stay legal (pizza, karma,
  hamburg), and so does a string no language attests (a researcher's agent may speak a code).
* Translations (rule 6) are not matched against the board: there is no translator. They
  are refused only as foreign words of the six CHECKED_LANGUAGES (Spanish, French, German,
  Italian, Portuguese, Dutch): "Apfel" and "pomme" with APPLE are refused (whatever the board),
  "ringo" and "yabloko" with APPLE, "neko" with CAT, and "chat" (French, and English) with CAT
  pass. A later issue widens this.
* Pictures captions are annotations, not words on the table: legal unless strict_captions.
* Acronyms (rule 4: refused unless the ``acronyms`` option is on) are recognised when written
  dotted (F.B.I.), typed in capitals (FBI, NASA: 2 to 5 capitals that are no lexicon word, so
  DOG or AIDS typed in capitals stay words), or listed in KNOWN_ACRONYMS (fbi, uk typed in
  lower case: wordfreq is case-folded and lemminflect lists no acronyms, so that short list
  is the only source). Limit: a name typed in capitals (PARIS) reads as an acronym; the
  verdict says it was typed in capitals. Acronyms that became words (laser, radar) are words.
* Rule 4's exceptions: a multi-word place name (fa: "New York") is one word without any
  option; PLACE_NAMES, a short list, is the only gazetteer (nothing offline knows places of
  several words). With ``proper_names`` (vi Pictures: James Bond, North Dakota) a phrase
  written as a name, each word capitalised as typed (particles such as "da", "of" aside),
  is one word too: no offline lexicon knows proper names, so the spelling decides ("Ice
  Cream" written as a name passes; "james bond" typed in lower case does not). Both still
  obey the board (New York with YORK visible is illegal). One-word names are ordinary clues.
* Boards in other languages (RULES.md §4: de, vi, fa) are checked by
  :mod:`spymaster_ai.rules.lang` when ``LegalityOptions(lang=...)`` says so; this English
  checker folds accents (café = cafe) and is never asked about them.

The package's modules, one job each: :mod:`.verdicts` (rule ids and the verdict),
:mod:`.options` (game options), :mod:`.word_tables` (rule 5 and Pictures word lists),
:mod:`.lexicon` (wordfreq and lemminflect access), :mod:`.forms` (rule 2), :mod:`.compounds`
(rule 3), :mod:`.foreign` (foreign words), :mod:`.place_names`
(rule 4's place-name exception), :mod:`.analysis` (reading a clue or a board) and
:mod:`.checks` (the rules in order, :func:`check_clue`, :func:`legal_mask`). The rules layer
uses only the standard library, lemminflect and wordfreq.
"""

from __future__ import annotations

from .analysis import PICTURE_ID_PREFIX, card_texts  # noqa: F401 (importable as before)
from .checks import check_clue, legal_mask
from .foreign import CHECKED_LANGUAGES
from .options import LegalityOptions
from .verdicts import (
    RULE_COMPOUND_PART,
    RULE_FOREIGN_WORD,
    RULE_LETTERS_OR_POSITION,
    RULE_NOT_A_WORD,
    RULE_NOT_ONE_WORD,
    RULE_PICTURE_APPEARANCE,
    RULE_TRANSLATION,
    RULE_VISIBLE_WORD,
    RULE_WORD_FORM,
    Verdict,
)
from .compounds import COMPOUND_PARTS, NOT_COMPOUNDS  # noqa: F401 (importable as before)
from .forms import DERIVED_FROM, NOT_DERIVED  # noqa: F401
from .word_tables import (
    COLOUR_WORDS,
    DISTANCE_WORDS,
    KNOWN_ACRONYMS,
    LETTER_WORDS,
    NUMBER_WORDS,
    POSITION_WORDS,
    SHAPE_WORDS,
)



def options_for_language(lang: str) -> "LegalityOptions | None":
    """The legality options of a board in ``lang``: None for English (the engines' defaults,
    so English runs and saves read as before languages came)."""
    return None if lang == "en" else LegalityOptions(lang=lang)


__all__ = [
    "options_for_language",
    "LegalityOptions",
    "Verdict",
    "check_clue",
    "legal_mask",
    "RULE_NOT_A_WORD",
    "RULE_VISIBLE_WORD",
    "RULE_WORD_FORM",
    "RULE_COMPOUND_PART",
    "RULE_NOT_ONE_WORD",
    "RULE_LETTERS_OR_POSITION",
    "RULE_PICTURE_APPEARANCE",
    "RULE_FOREIGN_WORD",
    "RULE_TRANSLATION",
    "POSITION_WORDS",
    "DISTANCE_WORDS",
    "LETTER_WORDS",
    "NUMBER_WORDS",
    "COLOUR_WORDS",
    "SHAPE_WORDS",
    "KNOWN_ACRONYMS",
    "CHECKED_LANGUAGES",
]
