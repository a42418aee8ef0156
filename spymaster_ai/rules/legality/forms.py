"""Rule 2: the forms of a word (inflections, derivations, British/American spellings).

Why a module of its own: "another form of a visible word" is decided by reducing both words
to their *roots* (the word, its lemmas, its spelling variants and the stems left by one
derivational affix, closed over a few steps); the guards and exception tables that keep
pseudo-derivations apart (corn+er, lad+y) live next to the code they guard.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lexicon import _MIN_PART, _is_lemma, _lemmas, _lexical, _zipf


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

_STEM_ZIPF = 3.0  # so is a derivational stem
_VARIANT_ZIPF = 1.5  # both spellings of a variant pair must be attested at least this often
_PREFIX_MARGIN = 1.0
_ROOT_DEPTH = 3  # unhorsed -> unhorse -> horse; enough for lemma + derivation + variant


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


@lru_cache(maxsize=1 << 17)
def _same_word(word: str) -> frozenset[str]:
    """The word with its lemmas and spelling variants, no derivations: the spellings that are
    the same word (rows -> row, colours -> colour, color)."""
    return frozenset({word}) | _lemmas(word) | _variants(word)
