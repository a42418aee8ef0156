"""German words: lemmas (simplemma), spelling folds (ä/ae, ß/ss), derivations and compounds
(``german-nouns``, WiktionaryDE), for RULES.md §4 on German boards.

Compounds are everywhere in German, and the splitter over-fires as every splitter does
(german-nouns reads "Sparren" as Par + Ren, "Geburtstag" as Geburt + Stag). A part counts only
when it is a common German word (wordfreq Zipf >= PART_ZIPF) of at least three letters, so
those false parts fall away; a compound whose first part the splitter misses because of a
linking sound ("Erdbeben": Erd(e) + Beben, "Fahrrad": fahr(en) + Rad) gets it back from the
left-over prefix.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from .normalise import de_fold, normalise
from .words import LangWord

PART_ZIPF = 3.0
FALLBACK_ZIPF = 3.5
FOREIGN_MARGIN = 1.0
FOREIGN_MARGIN_UNLISTED = 0.5
STEM_ZIPF = 3.0
_LETTERS = re.compile(r"[a-zäöüß]+")
# Derivational suffixes (Freundschaft -> Freund, Bäcker -> back(en), Häuschen -> Haus).
_SUFFIXES = ("schaft", "heit", "keit", "ung", "chen", "lein", "erin", "innen", "in", "er", "lich", "isch", "ig", "bar", "los")
_LINKS = ("", "e", "en", "n")
_UMLAUT_BACK = str.maketrans({"ä": "a", "ö": "o", "ü": "u"})


def _zipf(word: str) -> float:
    return zipf_frequency(word, "de")


@lru_cache(maxsize=1)
def _nouns():
    from german_nouns.lookup import Nouns

    return Nouns()


@lru_cache(maxsize=1 << 16)
def lemmas(word: str) -> frozenset[str]:
    """The word and its lemmas, read as any part of speech and as a noun (capitalised)."""
    import simplemma

    out = {word}
    for form in (word, word[:1].upper() + word[1:]):
        out.add(simplemma.lemmatize(form, lang="de").lower())
    return frozenset(out)


def _stems(word: str) -> set[str]:
    """Real words left after removing one derivational suffix (with umlaut undone)."""
    out = set()
    if word.endswith("end") and _zipf(word[:-1]) >= STEM_ZIPF:  # present participle: brechend -> brechen
        out.add(word[:-1])
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            for candidate in (stem, stem.translate(_UMLAUT_BACK)):
                for link in _LINKS:
                    if _zipf(candidate + link) >= STEM_ZIPF:
                        out.add(candidate + link)
    return out


_NAMES = ("Vorname", "Nachname", "Familienname", "Eigenname", "Toponym")
_LINK_CUTS = ("", "s", "es", "n", "en", "e")


def _is_name(word: str) -> bool:
    """England, Berlin: names are not compounds (ENGLAND -> "land" stays legal)."""
    entries = _nouns()[word[:1].upper() + word[1:]] or ()
    return any(any(n in p for p in e.get("pos") or () for n in _NAMES) for e in entries)


def is_noun(word: str) -> bool:
    """A common noun by german-nouns (a Wiktionary extract): Brot, Zitat, Leben; not Kühn (a
    surname), umso or typisch. The play partner's clues are nouns, as people's mostly are."""
    entries = _nouns()[word[:1].upper() + word[1:]] or ()
    return any("Substantiv" in (e.get("pos") or ()) and not any(n in (e.get("pos") or ()) for n in _NAMES)
               for e in entries)


def _fallback_split(word: str) -> set[str]:
    """When german-nouns finds no good split (Krankenhaus: Kranke + Hau): the longest common
    noun at the end, and a common word before it once a linking sound is taken off."""
    for cut in range(3, len(word) - 2):
        head, tail = word[:cut], word[cut:]
        if _zipf(tail) < FALLBACK_ZIPF or not _nouns()[tail[:1].upper() + tail[1:]]:
            continue
        for link in _LINK_CUTS:
            base = head[: -len(link)] if link and head.endswith(link) else head
            if link and not head.endswith(link):
                continue
            for candidate in (base, base + "e"):
                if len(candidate) >= 3 and _zipf(candidate) >= FALLBACK_ZIPF:
                    return {candidate, tail}
    return set()


@lru_cache(maxsize=1 << 16)
def compound_parts(word: str) -> frozenset[str]:
    """The common-word parts of a compound (lower case), the word itself excluded."""
    if len(word) < 6 or _is_name(word):
        return frozenset()
    found = [p.lower() for p in _nouns().parse_compound(word[:1].upper() + word[1:])]
    parts = {p for p in found if p != word and len(p) >= 3 and _zipf(p) >= PART_ZIPF}
    if found and word.endswith(found[-1]) and found[-1] in parts:
        prefix = word[: -len(found[-1])]
        if len(prefix) >= 3 and not any(prefix.startswith(p) for p in parts if p != found[-1]):
            for cut in ("", "s", "es", "n", "en", "e"):
                base = prefix[: -len(cut)] if cut and prefix.endswith(cut) else prefix
                for candidate in (base, base + "e", base + "en"):
                    if len(candidate) >= 3 and _zipf(candidate) >= PART_ZIPF:
                        parts.add(candidate)
                        break
                else:
                    continue
                break
    if not found or found[-1] not in parts or not word.endswith(found[-1]):  # a false head (Kranke + Hau)
        parts |= _fallback_split(word)
    return frozenset(parts)


def _is_german(word: str) -> bool:
    """A German word: a noun of german-nouns (Computer, Baby), or a word German uses nearly as
    much as English does (wordfreq's German corpora hold much English: "dog" 3.7, "kitchen" 3.2).
    A word simplemma's German dictionary lacks must come closer (FOREIGN_MARGIN_UNLISTED):
    "banana" (3.1 in German, 4.0 in English) is no everyday German, "cool" (4.8, 5.2) is."""
    if _nouns()[word[:1].upper() + word[1:]]:
        return True
    import simplemma

    margin = FOREIGN_MARGIN if simplemma.is_known(word, lang="de") else FOREIGN_MARGIN_UNLISTED
    return _zipf(word) > 0 and _zipf(word) >= zipf_frequency(word, "en") - margin


def _folded(words) -> frozenset[str]:
    return frozenset(de_fold(w) for w in words)


def _forms(word: str) -> frozenset[str]:
    roots = set(lemmas(word))
    for root in list(roots):
        for stem in _stems(root):
            roots |= lemmas(stem)
    return _folded(roots)


@lru_cache(maxsize=1 << 17)
def analyse(text: str) -> LangWord:
    shown = normalise("de", text)
    tokens = tuple(t for t in re.split(r"[ \-]+", shown) if t)
    key = "".join(tokens)
    forms = _forms(key) if _LETTERS.fullmatch(key or "-") else frozenset({key})
    parts: set[str] = set()
    for lemma in lemmas(key):
        for part in compound_parts(lemma):
            parts |= _forms(part)
    if len(tokens) > 1:
        for token in tokens:
            parts |= _forms(token)
    return LangWord(shown, key, tokens, forms, frozenset(parts - forms), len(tokens) == 1, _is_german(key),
                    spelling=de_fold(key))
