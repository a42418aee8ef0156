"""Rule 3: compound parts (HORSESHOE -> horse, shoe) and words built on them.

Why a module of its own: splitting a word into meaningful parts is the riskiest heuristic of
the checker (car+pet, spar+row are no compounds), so the splitter, its guards and its
exception tables are kept together and documented where they act.
"""

from __future__ import annotations

from functools import lru_cache

from .forms import _roots
from .lexicon import _FUNCTION_WORDS, _MIN_PART, _lemmas, _lexical, _zipf

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

_PART_ZIPF = 3.0  # a compound part is a common word (wordfreq Zipf >= 3, ~1 per million words)


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


# Unlisted compounds (RULES.md §4.3, the reverse direction: a compound that contains a visible
# word whole as one of its parts). lemminflect does not list every compound English writes as
# one word (firetruck, housecat, smartwatch), nor invented ones (moonsquid, snowthing), so
# _compound_parts never splits them. Such a word
# is split once, at its best split into two words; the rules then refuse it when one half is a
# visible word (or the same word in another form: "trucks") and the other half is a common
# word (_is_part). A visible half may be rarer than a part (IGLOO, WALRUS: Zipf 2.5 or more).
# Letter sequences that are not two words stay whole: "category" is no cat + egory, "party"
# no p + art + y, and the guards of _compound_parts apply (kit+ten, con+tent, flags|hip).
_HALF_ZIPF = 2.5


def _open_half(part: str) -> bool:
    return len(part) >= _MIN_PART and part not in _FUNCTION_WORDS and _zipf(part) >= _HALF_ZIPF and _lexical(part)


@lru_cache(maxsize=1 << 17)
def _open_split(word: str) -> tuple[str, str] | None:
    """(head, tail): the best split of a word the lexicon does not list into two words, else
    None: a compound English writes (firetruck -> fire, truck) or an invented one (moonsquid ->
    moon, squid; the Persian rules: "you may never invent compounds").

    The split follows
    _compound_parts: both halves are lexicon words of 3+ letters (Zipf 2.5 or more here), the
    head is a dictionary form, no suffix or prefix homograph, and of several splits the one with
    the most frequent rarer half wins (super|bowl over superb|owl).
    """
    if _lexical(word) or word in NOT_COMPOUNDS or len(word) < 2 * _MIN_PART:
        return None
    best: tuple[float, str, str] | None = None
    for i in range(_MIN_PART, len(word) - _MIN_PART + 1):
        head, tail = word[:i], word[i:]
        if tail in _SUFFIX_HOMOGRAPHS or head in _PREFIX_HOMOGRAPHS or _lemmas(head):
            continue
        if _open_half(head) and _open_half(tail):
            score = min(_zipf(head), _zipf(tail))
            if best is None or score > best[0]:
                best = (score, head, tail)
    return best[1:] if best else None
