"""Which words a person clues with, and which links they name: helpers of the human spymaster.

Why apart: these are facts about words (an inflected verb is no clue word; which words people
gave for a cue in the Edinburgh Associative Thesaurus), cached once per process, not parts of
the clue search; :mod:`.spymaster` uses them.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["eat_links", "verb_form"]


@lru_cache(maxsize=4)
def eat_links(min_strength: float) -> dict[str, frozenset[str]]:
    """Word -> the words people gave for it, or gave it for, in the Edinburgh Associative
    Thesaurus at ``min_strength`` or more (the share of a cue's responses: about 100 people
    answered each cue, so 0.02 is two of them). SEAL -> WALRUS (5 of 100) is a link a person
    names from the clue alone; FAIRY -> TURTLE is in no one's answers."""
    from ...embeddings.association_backend import association_path, read_counts

    rows, _ = read_counts(association_path())
    totals: dict[str, int] = {}
    for cue, _, count in rows:
        totals[cue] = totals.get(cue, 0) + count
    links: dict[str, set[str]] = {}
    for cue, response, count in rows:
        if count >= min_strength * totals[cue] and cue != response:
            links.setdefault(cue, set()).add(response)
            links.setdefault(response, set()).add(cue)
    return {w: frozenset(v) for w, v in links.items()}


@lru_cache(maxsize=100_000)
def _forms(word: str) -> tuple[str, ...]:
    """The word (lower case) and its lemmas: WALRUSES reaches WALRUS's links."""
    from ..vocabulary import lemmas

    w = word.lower().strip()
    return tuple(sorted(lemmas(w) | {w}))


@lru_cache(maxsize=100_000)
def verb_form(word: str) -> bool:
    """An inflected verb (PLACED, WANTED, COOKING): a person clues with PLACE or COOK; these
    pass the base-form test only because lemminflect also lists them as adjectives."""
    from lemminflect import getAllLemmas

    from wordfreq import zipf_frequency

    w = word.lower()
    if not w.endswith(("ed", "ing")):
        return False
    found = getAllLemmas(w)
    verbs = [v for v in found.get("VERB", ()) if v != w]
    if not verbs or w in found.get("NOUN", ()) or w in found.get("VERB", ()):
        return False  # BUILDING, WEDDING: nouns of their own
    # an adjective people use in its own right (TIRED, ARMED, USED) is about as common as its
    # verb; PLACED (4.6) is a form of PLACE (5.9)
    return zipf_frequency(w, "en") < max(zipf_frequency(v, "en") for v in verbs) - 0.5
