"""The clue vocabularies in other languages hold headwords a person would give as a clue: no
inflected form, proper name or interjection (a German playtest met HAHA, GABRIEL, ZIELT, LANGEM)."""

from __future__ import annotations

import simplemma
import pytest

from spymaster_ai.rules.lang.normalise import normalise
from spymaster_ai.rules.lang.words import clue_words


def test_german_playtest_words_are_gone():
    words = set(clue_words("de"))
    assert not {"haha", "gabriel", "zielt", "langem", "berlin", "deutschland"} & words
    # base forms and the loanwords German uses stay
    assert {"haus", "lagern", "essen", "computer", "team", "schön", "strasse"} <= words


def test_german_clue_words_are_their_own_lemma():
    """simplemma gives each word (or, for a noun, its capitalised form) as its own lemma."""
    words = clue_words("de")
    assert len(words) == 12_000

    def own_lemma(w: str) -> bool:
        spellings = {w, w.replace("ss", "ß")}
        return any(normalise("de", simplemma.lemmatize(f, lang="de")) == s
                   for s in spellings for f in (s, s[:1].upper() + s[1:]))

    assert all(own_lemma(w) for w in words)


@pytest.mark.parametrize("lang, inflected", [("fa", "دوستان"), ("fa", "افراد")])
def test_persian_plurals_are_gone(lang, inflected):
    assert normalise(lang, inflected) not in set(clue_words(lang))


def test_german_surnames_are_gone_and_words_that_are_also_names_stay():
    """scripts/build_lang_data.py drops a common German first name or surname (names-dataset)
    that no lexicon reads as another word; a word that is also a name stays."""
    german = set(clue_words("de"))
    assert not {"kerber", "maier", "wieland", "kästner", "lindemann"} & german
    assert {"koch", "klein", "bauer", "haus"} <= german
