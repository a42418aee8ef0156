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
(:func:`_compound_parts`, :func:`_derivational_stems`, :func:`_variants`); the word tables
(NOT_COMPOUNDS, COMPOUND_PARTS, NOT_DERIVED) list the remaining known exceptions, found by
checking the shipped board list against the 50,000 most frequent English words.

Engine readings (all tested in tests/test_legality.py):

* Same spelling, same word (RULES.md §4): inflections come from lemminflect whatever the
  sense, so "better" is a form of GOOD, "number" of NUMB, "dove" of DIVER's "dive".
* Pseudo-compounds stay whole: carpet, handsome, sparrow, panda, kitten, message, season.
  Partly opaque compounds keep their meaningful part only: butterfly -> fly (as dragonfly),
  peacock -> cock, submarine -> marine.
* A compound clue built on a visible word is illegal (snowman with SNOW), and two compounds
  sharing a part collide (footprint with FOOTBALL), as snowshoe does with HORSESHOE.
* Rule 5 cannot read intent, so POSITION_WORDS and LETTER_WORDS are refused whatever the
  meaning, and in Pictures the COLOUR_WORDS (shade words such as "dark" stay legal).
  DISTANCE_WORDS ("close: 3", RULES.md §2) are refused as written only: "closed" stays legal.
* Foreign words (§4: legal only if used in everyday English): a word outside the English
  lexicon, rare in English, that another language uses far more is refused, naming the
  language (gato, chien, merci); loanwords and names English uses stay legal (pizza, karma,
  hamburg), and so does a string no language attests (a researcher's agent may speak a code).
* Pictures captions are annotations, not words on the table: legal unless strict_captions.
* Acronyms are recognised only when written dotted (F.B.I.). ``proper_names`` is accepted for
  the Pictures option but not enforced: no offline proper-noun lexicon exists here (wordfreq
  is case-folded), so proper names are legal, as in classic Codenames.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import lemminflect
import wordfreq

from .cards import normalise_word

__all__ = [
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
    "POSITION_WORDS",
    "DISTANCE_WORDS",
    "LETTER_WORDS",
    "NUMBER_WORDS",
    "COLOUR_WORDS",
    "SHAPE_WORDS",
]

# ---------------------------------------------------------------------------------------------
# Public types

RULE_NOT_A_WORD = "not-a-word"  # empty, or characters other than letters
RULE_VISIBLE_WORD = "visible-word"  # §4.1
RULE_WORD_FORM = "word-form"  # §4.2: inflection, derivation, spelling variant
RULE_COMPOUND_PART = "compound-part"  # §4.3
RULE_NOT_ONE_WORD = "not-one-word"  # §4.4: spaces, hyphens, acronyms
RULE_LETTERS_OR_POSITION = "letters-or-position"  # §4.5: letters, digits, positions, the count
RULE_PICTURE_APPEARANCE = "picture-appearance"  # §2: colours (and shapes, as an option) in Pictures
RULE_FOREIGN_WORD = "foreign-word"  # §4: foreign words only if used in everyday English


@dataclass(frozen=True)
class LegalityOptions:
    """House rules and game variants that change what is legal (all off by default)."""

    multi_word: bool = False  # allow spaces/hyphens (New York, James Bond, x-ray)
    acronyms: bool = False  # allow dotted acronyms (F.B.I.), checked as the joined letters
    proper_names: bool = False  # Pictures option; accepted, not enforced (see the module docstring)
    pictures: bool = False  # Pictures rules: one word, no colours; captions not forbidden
    forbid_shapes: bool = False  # Pictures option: forbid shape words (circle, rectangle...)
    strict_captions: bool = False  # Pictures house option: a visible card's caption words are forbidden


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: legal or not, which rule, which visible word, and why in words."""

    legal: bool
    rule: str | None
    collides_with: str | None
    reason: str

    def to_json(self) -> dict:
        return {"legal": self.legal, "rule": self.rule, "collides_with": self.collides_with, "reason": self.reason}


_DEFAULT_OPTIONS = LegalityOptions()

# ---------------------------------------------------------------------------------------------
# Word tables (all lower case). The rule 5 lists are engine decisions; each comment says why.

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

# Function words are never compound parts nor derivational stems: "her" is no part of herring,
# nor "some" of handsome, nor "less" of unless.
_FUNCTION_WORDS: frozenset[str] = frozenset(
    """the and but nor for per was were are has had did does who whom whose what which how why
    when where her hers his him she they them their theirs our ours your yours its you me my
    mine not this that these those than then some any each every all both either neither
    with from into onto upon unto via less more most much many few such same other own
    very too also just only ever never yet still here there thus hence whether while whilst
    till until since upon amid among against toward towards beneath within without""".split()
)

# Compound guard (1): a second part that is a homograph of a derivational suffix is a suffix,
# not a word: man+age, pass+ion, kit+ten, men+ace, pal+ace, ten+ant, ham+let, war+den, per+son.
# -ship, -hood, -wise, -like, -ward are suffixes too (friendship is a derivation of friend, not
# a kind of ship); real ship compounds are listed in COMPOUND_PARTS.
_SUFFIX_HOMOGRAPHS: frozenset[str] = frozenset(
    """age ant ate ace ice ion ions ten den son sons let lets ling ish est ism ent ure ive ous
    ess able ability ally tic tory ting ding ping ton lion lions ship ships hood hoods wise
    like ward wards""".split()
)
# Compound guard (1b): prefixes that happen to be words (con+tent, pen+insular, dis+play, pro+test).
_PREFIX_HOMOGRAPHS: frozenset[str] = frozenset("con pen ref sub sup dis mis non pre pro anti semi uni tri bio".split())

# Compound guard (2): known pseudo-compounds whose two halves are real words but are not
# meaningful parts (the word is not a kind of its second half, nor about its first).
NOT_COMPOUNDS: frozenset[str] = frozenset(
    """carpet carpets handsome sparrow barrow marrow furrow burrow harrow narrow understand
    target budget legend legends bargain warrant pantry hatred ashore warden restrain ransack
    scarlet hamlet pageant tenant herring menace notice office father feather heather person
    season cotton garden puppet kitten mansion pension passion million champion message
    damage manage bandage package passage sausage cabbage village voyage savage rampage
    courage plumage manager bullet bucket ticket pocket rocket hammer summer button cannon
    canyon canon carrot parrot pilot ballot mascot rabbit bandit orbit habit hobbit island
    england carton cartoon cartel sandal scandal vandal mandate senate pirate palate
    together forget however whatever whenever wherever moreover tonight today tomorrow
    airy fairy ferry berry jelly belly bully kitty penny bunny party carry ready honey
    mustang mushroom sandwich nightmare nightingale catalog catalogue category caterpillar
    partner partners pardon portion potion ration nation notion lotion motion station
    organ organic organism origin mistress fortress butler cutlery
    rampart standard bastard mustard custard leopard wizard lizard hazard buzzard
    stalemate checkmate pinafore pincushion kidnap kidney turnip parsnip tulip
    oval overt pillow willow window widow meadow shadow arrow
    cowardice cowardly donkey camera tornado hammock archive console contractor constable
    earnest flagrant potash dampen supplant slippage stoppage medallist medalist vaseline
    regrettable forgettable hypertrophy radiological crystalline judgemental caprice lavatory
    shamrock hottie portfolio portray rapport hemlock warlock wedlock paddock minimum stubborn""".split()
)

# Compound override: words whose meaningful parts are fewer than the split finds. A butterfly is
# a kind of fly (as dragonfly, firefly), but "butter" is opaque: only "fly" is forbidden.
COMPOUND_PARTS: dict[str, tuple[str, ...]] = {
    "butterfly": ("fly",),
    "butterflies": ("fly",),
    "peanut": ("nut",),
    "pineapple": ("pine", "apple"),
    "strawberry": ("straw", "berry"),
    "blackberry": ("black", "berry"),
    "blueberry": ("blue", "berry"),
    "raspberry": ("berry",),
    "cranberry": ("berry",),
    "gooseberry": ("goose", "berry"),
    "earring": ("ear", "ring"),
    "peacock": ("cock",),
    "submarine": ("marine",),  # sub- is a prefix (substance, subway): only "marine" is a part
    **{
        w: (w[:-4], "ship")
        for w in "spaceship starship steamship airship flagship battleship warship gunship mothership".split()
    },  # a peacock is the male (cock) of the peafowl; "pea" is opaque
}

# Derivation guard: known pseudo-derivations (the shorter word is a real word, the longer is
# not built on it). Most such pairs are already filtered because the "derivative" is more
# frequent than its supposed base (corner/corn, lady/lad, early/ear, business/busy).
NOT_DERIVED: frozenset[str] = frozenset(
    """display dismiss mistake mischief relay remark resort reply panic topic tonic comic metal
    petal medal pedal sandal canal fatal portal kitten kitty penny bunny belly bully party carry
    ready manner banner bitter hamster starling siren assist consist insist scarlet hamlet
    planet ticket pocket rocket bullet tablet toilet carrot parrot cannon canyon button
    cotton garden warden pardon hammer dinner finger letter matter bitten mitten
    seal seals sealing ceiling sibling darling sterling
    organ organic wizard lizard mustard custard mortal plural spiral coral moral rural
    cabinet helmet pilot wallet mallet ballot valet
    vanish varnish perish punish parish polish finish radish relish
    pilgrim pillar collar cellar dollar
    hollow follow mellow pillow willow
    scandal sandy candy handy dandy shady lady ruby baby
    portion passion passive organize organise organism organist porter portable holly irony
    ironic paddy cavity poppy pageant badger penal topical cornish potion taper stationery
    polity saucer potable ravenous waver batten casement reefer fallible cower bower penance
    gator fanny chipper station stations stationary onion seize seizure flower flowers fairy
    fairies offense offence armor armour liter litre""".split()
)

# Spelling variants. Patterns rewrite a British ending into the American one (or back); a
# rewrite counts only when both spellings are attested words (wordfreq) and the pair is not
# a pair of different words (timber/timbre) listed in _NOT_VARIANTS.
_SPELLING_END_PATTERNS: tuple[tuple[str, str], ...] = (
    ("tre", "ter"),  # theatre/theater, centre, metre, litre
    ("bre", "ber"),  # fibre/fiber, sabre, calibre
    ("gre", "ger"),  # meagre/meager
    ("our", "or"),  # colour/color (also before the suffixes below)
    ("ise", "ize"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ising", "izing"),
    ("isation", "ization"),
    ("isations", "izations"),
    ("iser", "izer"),
    ("isers", "izers"),
    ("yse", "yze"),
    ("ysed", "yzed"),
    ("ysing", "yzing"),
    ("ence", "ense"),  # defence/defense, licence/license
    ("ogue", "og"),  # catalogue/catalog, dialogue/dialog
    ("ller", "ler"),  # traveller/traveler
    ("llers", "lers"),
    ("lled", "led"),
    ("lling", "ling"),
)
_OUR_SUFFIXES = ("", "s", "ed", "ing", "ful", "ite", "ites", "able", "ably", "less", "er", "ers", "ist", "hood", "y")


def _ending_rewrites() -> dict[str, tuple[tuple[str, int], ...]]:
    """Word ending -> (replacement, shortest stem kept): both directions of every pattern."""
    table: dict[str, list[tuple[str, int]]] = {}
    for gb, us in _SPELLING_END_PATTERNS:
        table.setdefault(gb, []).append((us, 2))  # me-tre, fi-bre
        table.setdefault(us, []).append((gb, 2))
    for suffix in _OUR_SUFFIXES:
        table.setdefault("our" + suffix, []).append(("or" + suffix, 3))
        table.setdefault("or" + suffix, []).append(("our" + suffix, 3))
    return {end: tuple(rewrites) for end, rewrites in table.items()}


_ENDING_REWRITES = _ending_rewrites()
_LONGEST_ENDING = max(map(len, _ENDING_REWRITES))
_OUR_FORMS = frozenset(r for rs in _ENDING_REWRITES.values() for r, n in rs if n == 3)
_NOT_VARIANTS: frozenset[frozenset[str]] = frozenset(
    frozenset(p.split("/"))
    for p in """four/for hour/hor tour/tor pour/por sour/sor flour/flor your/yor dour/dor
    timber/timbre tiger/tigre filler/filer filled/filed filling/filing tiller/tiler
    rogue/rog vogue/vog prize/prise fence/fense sense/sence dense/dence tense/tence
    hence/hense ogre/oger prized/prised prizes/prises prizing/prising""".split()
)
# Irregular British/American pairs no pattern covers.
_SPELLING_PAIRS: tuple[tuple[str, str], ...] = tuple(
    tuple(p.split("/"))  # type: ignore[misc]
    for p in """grey/gray aluminium/aluminum tyre/tire tyres/tires plough/plow mould/mold
    cheque/check kerb/curb pyjamas/pajamas sceptic/skeptic sceptical/skeptical
    moustache/mustache programme/program cosy/cozy jewellery/jewelry draught/draft
    storey/story doughnut/donut whisky/whiskey sulphur/sulfur axe/ax ageing/aging
    judgement/judgment manoeuvre/maneuver artefact/artifact aeroplane/airplane mum/mom
    practise/practice gaol/jail disc/disk annexe/annex omelette/omelet gramme/gram
    enquiry/inquiry enquire/inquire smoulder/smolder moult/molt foetus/fetus
    oestrogen/estrogen encyclopaedia/encyclopedia anaemia/anemia mediaeval/medieval
    archaeology/archeology yoghurt/yogurt chilli/chili liquorice/licorice woollen/woolen
    pyjama/pajama paediatric/pediatric orthopaedic/orthopedic haemorrhage/hemorrhage
    leukaemia/leukemia oesophagus/esophagus kilometre/kilometer sceptre/scepter odour/odor
    odours/odors glamour/glamor""".split()
)

# Derivational suffixes: (suffix, stem restorations). A restoration turns what is left into
# the candidate stem: "" keeps it, "e" adds e (creation -> create), "y" turns a final i into y
# (happiness -> happy), "-" undoubles a final consonant (runner -> run), "er" restores the e of
# a final -er (monstrous -> monster), "+x" appends x (librarian -> library, orchestral ->
# orchestra, volcanic -> volcano).
_SUFFIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("age", ("", "e")),  # breakage, storage
    ("ness", ("", "y")),
    ("less", ("", "y")),
    ("ful", ("", "y")),
    ("ly", ("", "e", "y")),
    ("ment", ("", "e")),
    ("able", ("", "e", "-", "y")),
    ("ible", ("", "e")),
    ("ation", ("", "e")),
    ("ition", ("",)),
    ("ion", ("", "e")),
    ("er", ("", "e", "-", "y")),
    ("or", ("", "e")),
    ("ee", ("", "e")),
    ("ist", ("", "e", "y")),
    ("ism", ("", "e")),
    ("ity", ("", "e")),
    ("ish", ("", "e", "-")),
    ("y", ("", "e", "-")),
    ("en", ("", "e", "-")),
    ("ous", ("", "e", "y", "er")),
    ("al", ("", "e", "+a")),
    ("ic", ("", "e", "y", "+o")),
    ("ian", ("", "e", "+y")),
    ("ical", ("", "e", "y")),
    ("hood", ("", "y")),
    ("ship", ("",)),
    ("dom", ("", "e")),
    ("let", ("",)),
    ("ling", ("", "e")),
    ("ette", ("",)),
    ("ess", ("", "e")),
    ("ery", ("", "e", "-")),
    ("ry", ("",)),
    ("ive", ("", "e")),
    ("ize", ("", "e", "y")),
    ("ise", ("", "e", "y")),
    ("ify", ("", "e", "y")),
    ("ance", ("", "e")),
    ("ence", ("", "e")),
    ("ant", ("", "e")),
    ("ward", ("",)),
    ("wards", ("",)),
    ("like", ("",)),
)
# Suffixes that leave a transparent stem: with a stem of _TRANSPARENT_STEM letters or more, the
# derivative may be more frequent than its base (detective/detect, magnetic/magnet,
# organization/organize), which the frequency guard below would otherwise keep apart.
_TRANSPARENT_SUFFIXES = frozenset({"ive", "ic", "ical", "ian", "ation"})
_TRANSPARENT_STEM = 5


def _transparent(suffix: str, stem: str) -> bool:
    """A long stem under a transparent suffix; "-ion" only after -ct (detection, election:
    question is no derivation of quest, nor version of verse)."""
    if len(stem) < _TRANSPARENT_STEM:
        return False
    return suffix in _TRANSPARENT_SUFFIXES or (suffix == "ion" and stem.endswith("ct"))

# Derivations no affix rule reaches (an irregular stem change).
DERIVED_FROM: dict[str, tuple[str, ...]] = {
    "heroine": ("hero",),
    "heroines": ("hero",),
    "skeletal": ("skeleton",),
    "galactic": ("galaxy",),
}
# Derivational prefixes. A prefixed word nearly as frequent as its base is usually lexicalised
# (display, mistake, report, disease), so a prefix only strips when the prefixed word is at
# least _PREFIX_MARGIN Zipf units rarer than the stem (unhorse 1.5 vs horse 4.8).
_PREFIXES: tuple[str, ...] = ("un", "non", "dis", "mis", "re", "pre", "anti", "semi", "im", "em", "en")
_OPEN_ADJECTIVES = ("able", "ible", "ed", "ing", "ful")

_MIN_PART = 3  # letters in a compound part or a stem ("ear" + "thquake" is no split)
_PART_ZIPF = 3.0  # a compound part is a common word (wordfreq Zipf >= 3, ~1 per million words)
_STEM_ZIPF = 3.0  # so is a derivational stem
_VARIANT_ZIPF = 1.5  # both spellings of a variant pair must be attested at least this often
_PREFIX_MARGIN = 1.0
_ROOT_DEPTH = 3  # unhorsed -> unhorse -> horse; enough for lemma + derivation + variant

# Foreign words (§4: legal only if used in everyday English). A word outside lemminflect's
# English lexicon, rare in English (wordfreq Zipf below _EVERYDAY_ZIPF), is foreign when
# another language uses it far more (Zipf at least _FOREIGN_MARGIN higher): gato, chien,
# merci, danke are refused; pizza, karma, schadenfreude, and names English uses (paris,
# hamburg, kant, vader) stay legal.
_FOREIGN_LANGUAGES: tuple[tuple[str, str], ...] = (
    ("es", "Spanish"),
    ("fr", "French"),
    ("de", "German"),
    ("it", "Italian"),
    ("pt", "Portuguese"),
    ("nl", "Dutch"),
)
_FOREIGN_MARGIN = 2.0
_EVERYDAY_ZIPF = 3.0

_JUNK = re.compile(r"[^a-z \-]")
_DOTTED_ACRONYM = re.compile(r"^(?:[a-z]\.){1,}[a-z]\.?$")

# ---------------------------------------------------------------------------------------------
# Lexicon helpers (cached; wordfreq's table is loaded once, lazily)


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, float]:
    return wordfreq.get_frequency_dict("en")


def _zipf(word: str) -> float:
    """wordfreq's Zipf frequency of a lower-case word (0 when unattested)."""
    f = _frequencies().get(word)
    return round(math.log10(f) + 9.0, 2) if f else 0.0


@lru_cache(maxsize=1 << 17)
def _lexicon_lemmas(word: str) -> frozenset[str] | None:
    """All lemmas lemminflect knows for ``word`` (None when it is not in the lexicon).

    Cached: lemminflect deep-copies its entry on every call, the main cost of a cold check.
    """
    found = lemminflect.getAllLemmas(word)
    if not found:
        return None
    return frozenset(f.lower() for forms in found.values() for f in forms if f.isalpha())


def _is_lemma(word: str) -> bool:
    """A dictionary form in lemminflect's lexicon ("dive" yes; "lit", a form of light, no)."""
    lemmas = _lexicon_lemmas(word)
    return word not in _FUNCTION_WORDS and lemmas is not None and word in lemmas


def _lexical(word: str) -> bool:
    """A content word of lemminflect's English lexicon (not a function word)."""
    return word not in _FUNCTION_WORDS and _lexicon_lemmas(word) is not None


@lru_cache(maxsize=1 << 16)
def _foreign(word: str) -> tuple[str, str] | None:
    """(rule, reason) when a one-word clue is a foreign word (§4), else None.

    A string no language here attests ("zqab") is not refused: the rules have no dictionary
    test, and a researcher's agent may speak a code.
    """
    if word in _FUNCTION_WORDS or _lexicon_lemmas(word) is not None:
        return None
    english = _zipf(word)
    if english >= _EVERYDAY_ZIPF:
        return None
    zipf, language = max((wordfreq.zipf_frequency(word, code), name) for code, name in _FOREIGN_LANGUAGES)
    if english < _EVERYDAY_ZIPF and zipf >= english + _FOREIGN_MARGIN:
        reason = f'"{word}" is a {language} word, not one in everyday English use (foreign words are legal only if they are)'
        return RULE_FOREIGN_WORD, reason
    return None


def _fold(text: str) -> str:
    """Drop accents (café -> cafe) so spelling with or without diacritics matches."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# ---------------------------------------------------------------------------------------------
# Morphology: neighbours of a word (lemmas, spelling variants, derivational stems)


# Lemma links in lemminflect's data that no dictionary gives (taxes is not a plural of taxi).
_BAD_LEMMAS: dict[str, frozenset[str]] = {"taxes": frozenset({"taxis", "taxi"}), "dive": frozenset({"diva"})}


@lru_cache(maxsize=1 << 17)
def _lemmas(word: str) -> frozenset[str]:
    """Dictionary forms of an inflected word (broken -> break), without the word itself."""
    lemmas = _lexicon_lemmas(word)
    if not lemmas:
        return frozenset()
    return lemmas - {word} - _BAD_LEMMAS.get(word, frozenset())


def _variant_pairs() -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for a, b in _SPELLING_PAIRS:
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return table


_IRREGULAR_VARIANTS = _variant_pairs()


@lru_cache(maxsize=1 << 17)
def _variants(word: str) -> frozenset[str]:
    """Other spellings of the same word (British/American).

    Pattern rewrites count only when both spellings are in lemminflect's English lexicon and
    attested in wordfreq: that keeps theatre/theater and drops French forms (lettre, chambre).
    """
    out: set[str] = set()
    for n in range(2, _LONGEST_ENDING + 1):
        for dst, min_stem in _ENDING_REWRITES.get(word[-n:], ()):
            stem = word[:-n]
            if len(stem) >= min_stem and (dst not in _OUR_FORMS or stem[-1] not in "aeou"):
                out.add(stem + dst)  # col-our, behavi-our; not flo-or (floor)
    found = {
        v
        for v in out
        if v != word
        and _zipf(v) >= _VARIANT_ZIPF
        and _zipf(word) >= _VARIANT_ZIPF
        and _lexical(v)
        and _lexical(word)
        and frozenset((word, v)) not in _NOT_VARIANTS
        and _doubled_l_ok(word, v)
    }
    return frozenset(found | _IRREGULAR_VARIANTS.get(word, set()))


def _doubled_l_ok(a: str, b: str) -> bool:
    """travelled/traveled yes (an -el/-al verb), refilled/refiled or controlled/controled no."""
    if "ll" not in a and "ll" not in b:
        return True
    double = a if len(a) > len(b) else b
    base = double[: double.rindex("ll") + 1]
    return base.endswith(("el", "al")) and len(re.findall(r"[aeiou]+", base)) >= 2  # trav-el, not bal


def _restore(base: str, how: str) -> str | None:
    if how == "":
        return base
    if how == "e":
        return base + "e"
    if how == "y":
        return base[:-1] + "y" if base.endswith("i") else None
    if how == "-":
        return base[:-1] if len(base) >= 2 and base[-1] == base[-2] and base[-1] not in "aeiou" else None
    if how == "er":
        return base[:-1] + "er" if base.endswith("r") else None
    if how.startswith("+"):
        return base + how[1:]
    raise ValueError(how)


def _is_stem(stem: str) -> bool:
    """A common dictionary form: words derive from lemmas (litter is not lit + er)."""
    return len(stem) >= _MIN_PART and _zipf(stem) >= _STEM_ZIPF and _is_lemma(stem)


_CVC = re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$")  # hat, pot: doubles before a vowel (hatter)


@lru_cache(maxsize=1 << 17)
def _derivational_stems(word: str) -> frozenset[str]:
    """Real words this word is built on by one affix (breakage -> break, unhorse -> horse).

    Guards: both words are in lemminflect's lexicon (no "casey" -> case); only dictionary
    forms are stripped, inflected ones reach their stems through their lemma (polling is
    poll + ing, not pole + ling); a one-syllable stem ending vowel-consonant would have doubled
    its consonant (hat -> hatter, so hater is not hat + er); and see the frequency guards below.
    """
    if word in DERIVED_FROM:
        return frozenset(DERIVED_FROM[word])
    if word in NOT_DERIVED or not _lexical(word) or _lemmas(word):
        return frozenset()
    z = _zipf(word)
    out: set[str] = set()
    for suffix, restorations in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < _MIN_PART - 1:
            continue
        base = word[: -len(suffix)]
        for how in restorations:
            if how == "" and suffix[0] in "aeiouy" and _CVC.match(base):
                continue
            stem = _restore(base, how)
            # A derivative is rarer than its base; one that is more frequent is a word of its
            # own (corner/corn, lady/lad, early/ear, business/busy), unless the suffix is a
            # transparent one on a long stem (detective/detect).
            if not stem or stem == word or not _is_stem(stem):
                continue
            if z < _zipf(stem) or _transparent(suffix, stem):
                out.add(stem)
    for prefix in _PREFIXES:
        if word.startswith(prefix):
            stem = word[len(prefix) :]
            if _is_stem(stem) and z <= _zipf(stem) - _PREFIX_MARGIN:
                out.add(stem)
            elif prefix in ("un", "non") and stem.endswith(_OPEN_ADJECTIVES) and _is_lemma(stem):
                # un- + a participle or -able adjective is fully productive and transparent
                # (unbreakable, unpainted), however frequent the whole; the stem must itself
                # be common or built on a common word (breakable -> break).
                if _zipf(stem) >= _STEM_ZIPF or _derivational_stems(stem):
                    out.add(stem)
    return frozenset(out)


@lru_cache(maxsize=1 << 17)
def _root_paths(word: str) -> dict[str, frozenset[str]]:
    """Each root of ``word`` with the kinds of step that reach it (inflection/derivation/spelling)."""
    paths: dict[str, frozenset[str]] = {word: frozenset()}
    frontier = [word]
    for _ in range(_ROOT_DEPTH):
        nxt: list[str] = []
        for w in frontier:
            steps = (
                (_lemmas(w), "inflection"),
                (_variants(w), "spelling"),
                (_derivational_stems(w), "derivation"),
            )
            for targets, kind in steps:
                for t in targets:
                    if t not in paths:
                        paths[t] = paths[w] | {kind}
                        nxt.append(t)
        frontier = nxt
    return paths


def _roots(word: str) -> frozenset[str]:
    return frozenset(_root_paths(word))


def _is_part(part: str) -> bool:
    return len(part) >= _MIN_PART and _zipf(part) >= _PART_ZIPF and _lexical(part)


@lru_cache(maxsize=1 << 17)
def _compound_parts(word: str) -> frozenset[str]:
    """The meaningful parts of a two-part compound (horseshoe -> horse, shoe), else empty.

    Guards, beyond "both halves are common lexicon words of 3+ letters": only dictionary
    forms split (starring is star + ring + ing, so it reaches "star" through its lemma);
    a frequent word missing from the lexicon is a name or brand, not a compound (washington,
    liverpool); the first half is a dictionary form too (flag|ship, not flags|hip); a second
    half that is a suffix homograph is a suffix (kit+ten, suit+able, rebel+lion); a first half
    that is a Latin prefix homograph is a prefix (con+tent, pen+ultimate); of several splits
    the one with the most frequent rarer half wins (nut|shell over nuts|hell).
    """
    if word in COMPOUND_PARTS:
        return frozenset(COMPOUND_PARTS[word])
    if word in NOT_COMPOUNDS or len(word) < 2 * _MIN_PART or _lemmas(word) or not _lexical(word):
        return frozenset()
    best: tuple[float, str, str] | None = None
    for i in range(_MIN_PART, len(word) - _MIN_PART + 1):
        head, tail = word[:i], word[i:]
        if tail in _SUFFIX_HOMOGRAPHS or head in _PREFIX_HOMOGRAPHS or _lemmas(head):
            continue
        if tail.endswith(("ed", "ing")) and _lemmas(tail):
            continue  # unrest+rained: a verb form is no compound head
        if _is_part(head) and _is_part(tail):
            score = min(_zipf(head), _zipf(tail))
            if best is None or score > best[0]:
                best = (score, head, tail)
    return frozenset(best[1:]) if best else frozenset()


@lru_cache(maxsize=1 << 17)
def _morphemes(word: str) -> frozenset[str]:
    """Roots of the word and of the parts of each root that is a compound."""
    out = set(_roots(word))
    for root in list(out):
        for part in _compound_parts(root):
            out |= _roots(part)
    return frozenset(out)


# ---------------------------------------------------------------------------------------------
# Analysis of one clue or card (cached per text)


@dataclass(frozen=True)
class _Text:
    """A normalised clue or card: its words, and the keys the rules compare."""

    shown: str  # normalised text, as given (for messages)
    tokens: tuple[str, ...]  # accent-folded words
    problem: tuple[str, str] | None  # (rule, reason) when it is no word at all
    acronym: bool  # written as a dotted acronym (F.B.I.)
    key: str  # the tokens joined: "ice cream", "ice-cream" and "icecream" are one card
    forms: frozenset[str]  # a one-word text with its lemmas and spellings ("rows" -> row); rule 5
    roots: frozenset[str]
    morphemes: frozenset[str]
    foreign: tuple[str, str] | None = None  # (rule, reason): a one-word clue that is a foreign word


_NONE: frozenset[str] = frozenset()


@lru_cache(maxsize=1 << 17)
def _analyse(raw: str) -> _Text:
    shown = normalise_word(raw)
    text = _fold(shown)
    acronym = bool(_DOTTED_ACRONYM.match(text))
    if acronym:
        text = text.replace(".", "")
    if not text:
        return _Text(shown, (), (RULE_NOT_A_WORD, "the clue is empty"), False, "", _NONE, _NONE, _NONE)
    if any(c.isdigit() for c in text):
        reason = f'"{shown}" contains digits: a clue is a word, not a number or a code (rule 5)'
        return _Text(shown, (), (RULE_LETTERS_OR_POSITION, reason), False, "", _NONE, _NONE, _NONE)
    bad = _JUNK.search(text)
    tokens = tuple(re.split(r"[ \-]+", text))
    if bad or any(not t for t in tokens):
        what = f"the character {bad.group()!r}" if bad else "a stray hyphen"
        reason = f'"{shown}" is not a word: it contains {what}; a clue is made of letters only'
        return _Text(shown, (), (RULE_NOT_A_WORD, reason), False, "", _NONE, _NONE, _NONE)
    key = "".join(tokens)
    foreign = None
    if len(tokens) == 1:
        forms = frozenset({key}) | _lemmas(key) | _variants(key)
        roots, morphemes = _roots(key), _morphemes(key)
        foreign = None if acronym else _foreign(key)
    else:
        content = [t for t in tokens if len(t) > 1 and t not in _FUNCTION_WORDS]
        # A phrase made only of position words ("top left") is about positions as a whole.
        forms = frozenset(tokens[:1]) if all(t in POSITION_WORDS for t in tokens) else _NONE
        roots = frozenset({key})
        morphemes = frozenset({key}).union(*(_morphemes(t) for t in content))
    return _Text(shown, tokens, None, acronym, key, forms, roots, morphemes, foreign)


@dataclass(frozen=True)
class _Board:
    """The visible words, indexed by key, root and morpheme (first board word wins)."""

    words: tuple[str, ...]
    by_key: dict[str, int]
    by_root: dict[str, int]
    by_morpheme: dict[str, int]
    roots: frozenset[str]
    morphemes: frozenset[str]


PICTURE_ID_PREFIX = "pic:"


def card_texts(card: str) -> tuple[str, ...]:
    """The words a card stands for. A picture card id ``pic:CAPTION`` (spaces written ``_``,
    a combined card's captions joined by ``+``) stands for its captions, so the Pictures
    house option ``strict_captions`` can forbid them; any other card stands for itself."""
    text = str(card)
    if not text.lower().startswith(PICTURE_ID_PREFIX):
        return (text,)
    return tuple(part.replace("_", " ") for part in text[len(PICTURE_ID_PREFIX):].split("+") if part)


@lru_cache(maxsize=256)
def _board(visible: tuple[str, ...]) -> _Board:
    by_key: dict[str, int] = {}
    by_root: dict[str, int] = {}
    by_morpheme: dict[str, int] = {}
    for i, card in enumerate(visible):
        for word in card_texts(card):
            a = _analyse(word)
            if a.problem:
                continue
            by_key.setdefault(a.key, i)
            for r in a.roots:
                by_root.setdefault(r, i)
            for m in a.morphemes:
                by_morpheme.setdefault(m, i)
    return _Board(visible, by_key, by_root, by_morpheme, frozenset(by_root), frozenset(by_morpheme))


# ---------------------------------------------------------------------------------------------
# The checks


def _describe_form(clue: _Text, card: _Text, shared: str) -> str:
    kinds = _root_paths(clue.key).get(shared, frozenset()) | _root_paths(card.key).get(shared, frozenset())
    if kinds == {"spelling"}:
        return "a spelling variant"
    if kinds <= {"inflection", "spelling"}:
        return "an inflected form"
    return "a derived form"


def _first(keys: Iterable[str], index: dict[str, int]) -> tuple[int, str]:
    return min((index[k], k) for k in keys)


def _board_violation(clue: _Text, board: _Board) -> Verdict | None:
    if clue.key in board.by_key:
        word = board.words[board.by_key[clue.key]]
        card = normalise_word(word)
        return Verdict(
            False,
            RULE_VISIBLE_WORD,
            word,
            f'"{clue.shown}" is the visible board word {card.upper()} (rule 1: a visible word is not a clue)',
        )
    shared = clue.roots & board.roots
    if shared:
        i, root = _first(shared, board.by_root)
        word = board.words[i]
        card = _analyse(word)
        if card.key in shared:
            root = card.key  # "organization" and ORGANIZE: name the board word, not "organise"
        how = _describe_form(clue, card, root)
        via = "" if root in (clue.key, card.key) else f' (both come from "{root}")'
        return Verdict(
            False,
            RULE_WORD_FORM,
            word,
            f'"{clue.shown}" is {how} of the visible board word {card.shown.upper()}{via} '
            f"(rule 2: no form of a visible word)",
        )
    shared = clue.morphemes & board.morphemes
    if shared:
        i, part = _first(shared, board.by_morpheme)
        word = board.words[i]
        card = _analyse(word)
        board_word = card.shown.upper()
        if part == clue.key:
            what = f"is a part of the visible compound {board_word}"
        elif part in clue.roots:
            what = f'is a form of "{part}", a part of the visible compound {board_word}'
        elif part in card.roots:
            what = f"is built on the visible board word {board_word}"
        else:
            what = f'shares the part "{part}" with the visible board word {board_word}'
        return Verdict(
            False,
            RULE_COMPOUND_PART,
            word,
            f'"{clue.shown}" {what} (rule 3: no part of a compound, nor a word built on one)',
        )
    return None


def _letters_violation(clue: _Text, options: LegalityOptions, count: int | None) -> Verdict | None:
    shown = clue.shown
    if len(clue.tokens) == 1 and len(clue.key) == 1:
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is a single letter (rule 5: clues about letters are not allowed)',
        )
    forms = clue.forms
    if forms & LETTER_WORDS:
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is about letters (rule 5: clues about spelling are not allowed)',
        )
    if forms & POSITION_WORDS or clue.key in DISTANCE_WORDS:
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is a position word (rule 5: clues about positions on the table are not allowed)',
        )
    if count is not None and any(NUMBER_WORDS.get(f) == count for f in forms | {clue.key}):
        return Verdict(
            False,
            RULE_LETTERS_OR_POSITION,
            None,
            f'"{shown}" is the clue\'s own number {count} (rule 5: the count cannot be the clue)',
        )
    if options.pictures:
        if forms & COLOUR_WORDS:
            return Verdict(
                False,
                RULE_PICTURE_APPEARANCE,
                None,
                f'"{shown}" is a colour word (Pictures §2: clues about the colours of the pictures are invalid)',
            )
        if options.forbid_shapes and forms & SHAPE_WORDS:
            return Verdict(
                False,
                RULE_PICTURE_APPEARANCE,
                None,
                f'"{shown}" is a shape word (Pictures option: shape words are forbidden)',
            )
    return None


def _violation(clue: _Text, board: _Board, options: LegalityOptions, count: int | None) -> Verdict | None:
    """The first rule the clue breaks (rules in RULES.md order), or None when it is legal."""
    if clue.problem:
        rule, reason = clue.problem
        return Verdict(False, rule, None, reason)
    if clue.acronym and not options.acronyms:
        return Verdict(
            False,
            RULE_NOT_ONE_WORD,
            None,
            f'"{clue.shown}" is an acronym (rule 4: acronyms are allowed only as a game option)',
        )
    if not options.pictures or options.strict_captions:
        found = _board_violation(clue, board)
        if found:
            return found
    if len(clue.tokens) > 1 and not options.multi_word:
        return Verdict(
            False,
            RULE_NOT_ONE_WORD,
            None,
            f'"{clue.shown}" is not one word (rule 4: no spaces or hyphens unless the game allows multi-word clues)',
        )
    if clue.foreign:
        rule, reason = clue.foreign
        return Verdict(False, rule, None, reason)
    return _letters_violation(clue, options, count)


def _visible_tuple(visible_words: Sequence[str]) -> tuple[str, ...]:
    if isinstance(visible_words, str):
        raise TypeError("visible_words must be a sequence of words, not one string")
    return tuple(str(w) for w in visible_words)


def check_clue(
    clue: str,
    visible_words: Sequence[str],
    options: LegalityOptions | None = None,
    count: int | None = None,
) -> Verdict:
    """Whether ``clue`` may be given while ``visible_words`` are uncovered, and if not, why.

    ``count`` is the clue's number when known (to refuse "three: 3"); covered words are simply
    left out of ``visible_words`` and so become legal again.
    """
    options = options or _DEFAULT_OPTIONS
    found = _violation(_analyse(str(clue)), _board(_visible_tuple(visible_words)), options, count)
    if found:
        return found
    return Verdict(True, None, None, f'"{normalise_word(clue)}" is a legal clue')


def legal_mask(
    candidates: Sequence[str],
    visible_words: Sequence[str],
    options: LegalityOptions | None = None,
) -> list[bool]:
    """``check_clue(c, visible_words, options).legal`` for every candidate, fast.

    Each candidate's analysis is cached across calls and the board is indexed once, so a fixed
    clue vocabulary costs a few set operations per candidate per board.
    """
    options = options or _DEFAULT_OPTIONS
    board = _board(_visible_tuple(visible_words))
    check_board = not options.pictures or options.strict_captions
    pos_or_letter = POSITION_WORDS | LETTER_WORDS
    if options.pictures:
        pos_or_letter = pos_or_letter | COLOUR_WORDS | (SHAPE_WORDS if options.forbid_shapes else frozenset())
    out: list[bool] = []
    append = out.append
    for raw in candidates:
        a = _analyse(raw)
        # Fast path: a plain single word that touches no board key, root or morpheme.
        if (
            a.problem is None
            and a.foreign is None
            and not a.acronym
            and len(a.tokens) == 1
            and len(a.key) > 1
            and (not check_board or (a.key not in board.by_key and a.morphemes.isdisjoint(board.morphemes)))
            and a.forms.isdisjoint(pos_or_letter)
            and a.key not in DISTANCE_WORDS
        ):
            append(True)
        else:
            append(_violation(a, board, options, None) is None)
    return out
