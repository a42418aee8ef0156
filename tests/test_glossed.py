"""Reading other languages by meaning: a speaker's glossary carries each word to English senses
(spymaster_ai/embeddings/glossed.py), so spelling never links two words (issue 40)."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest

from spymaster_ai.embeddings import glossed
from spymaster_ai.embeddings.base import EmbeddingError, VectorEmbedding
from spymaster_ai.embeddings.glossed import GLOSSED_LANGUAGES, GlossedEmbedding, glossary, glossary_key, parse_glossary
from spymaster_ai.rules.lang.normalise import normalise


class ToyEnglish(VectorEmbedding):
    """A few English words on their own axes ("trophy" leans to "cup")."""

    name = "toy"
    dim = 5
    AXES = {"tiger": [1, 0, 0, 0, 0], "cat": [0, 1, 0, 0, 0], "cup": [0, 0, 1, 0, 0], "trophy": [0, 0, 0.6, 0.8, 0],
            "luck": [0, 0, 0, 0, 1], "lion": [0.7, 0.7, 0, 0, 0]}

    def vectors(self, words):
        rows = np.array([self.AXES.get(w, [0] * 5) for w in words], dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)

    def _vocabulary_matrix(self):
        return self.vectors(self.clue_vocabulary())

    def clue_vocabulary(self):
        return tuple(self.AXES)

    def knows(self, word):
        return word in self.AXES


VI = "hổ\tcard\ttiger\ncúp\tcard\ttrophy|cup\nmèo\tcard\tcat\ncọp\tclue\ttiger\nphúc\tclue\tluck\n"


def test_meaning_links_and_spelling_does_not():
    model = GlossedEmbedding(ToyEnglish(), parse_glossary("vi", VI))
    sims = model.similarity(["cọp", "phúc"], ["hổ", "cúp", "mèo"])
    assert sims[0, 0] == pytest.approx(1.0)  # CỌP and HỔ are both "tiger"
    assert sims[1].max() == pytest.approx(0.0)  # PHÚC shares letters with CÚP, no meaning
    assert model.knows("cọp") and not model.knows("xyz")


def test_later_senses_count_a_little_less_and_unknown_words_are_silent(monkeypatch):
    monkeypatch.setattr(glossed, "SENSE_BLEND", 0.0)  # each sense alone
    model = GlossedEmbedding(ToyEnglish(), parse_glossary("vi", VI + "chén\tclue\tcup\n"))
    sims = model.similarity(["chén", "không có"], ["cúp", "hổ"])
    assert sims[0, 0] == pytest.approx(1.0 - 0.05)  # CÚP's "cup" is its second sense
    assert np.all(sims[1] == 0)  # a word outside the glossary says nothing


def test_a_sense_leans_towards_its_words_other_senses(monkeypatch):
    # "trophy|cup" and a clue "cup|luck": their shared "cup" is a pun when each word's other
    # sense pulls away (SENDER "channel|station" and ZUG "train" met through "station")
    gloss = parse_glossary("vi", VI + "chén\tclue\tluck|cup\n")
    monkeypatch.setattr(glossed, "SENSE_BLEND", 0.0)
    alone = GlossedEmbedding(ToyEnglish(), gloss).similarity(["chén", "cọp"], ["cúp", "hổ"])
    monkeypatch.setattr(glossed, "SENSE_BLEND", 0.5)
    blended = GlossedEmbedding(ToyEnglish(), gloss).similarity(["chén", "cọp"], ["cúp", "hổ"])
    assert blended[0, 0] < alone[0, 0] - 0.1  # the pun weakens
    assert blended[1, 1] == pytest.approx(alone[1, 1]) == pytest.approx(1.0)  # one sense each: unchanged



def test_a_phrase_sense_may_be_left_to_the_models_that_read_phrases(monkeypatch):
    # the lever of lang_clue_judge.md round 4 (off): "tiger cat" read as its words' average links
    # to CAT through "cat"; with the lever on, a word model leaves phrase senses out
    class Averaging(ToyEnglish):  # a phrase as its words' mean, as word vectors read it
        def vectors(self, words):
            return np.stack([ToyEnglish.vectors(self, w.split()).mean(axis=0) for w in words])

    gloss = parse_glossary("vi", VI + "báo\tclue\ttiger cat|luck\n")
    monkeypatch.setattr(glossed, "SENSE_BLEND", 0.0)
    averaged = GlossedEmbedding(Averaging(), gloss).similarity(["báo"], ["mèo"])
    assert averaged[0, 0] == pytest.approx(0.5)  # "tiger cat" half way to "cat"
    monkeypatch.setattr(glossed, "PHRASES_ONLY_IN_PHRASE_MODELS", True)
    words_only = GlossedEmbedding(Averaging(), gloss).similarity(["báo", "cọp"], ["mèo", "hổ"])
    assert words_only[0, 0] <= 0.0 and words_only[1, 1] == pytest.approx(1.0)  # only "luck" is left
    phrases = Averaging()
    phrases.reads_phrases = True  # a sentence model reads the phrase itself (here: as the toy does)
    assert GlossedEmbedding(phrases, gloss).similarity(["báo"], ["mèo"])[0, 0] == pytest.approx(averaged[0, 0])

def test_read_only_words_are_understood_but_never_given_as_clues():
    gloss = parse_glossary("vi", VI.replace("cọp\tclue", "cọp\tread"))
    model = GlossedEmbedding(ToyEnglish(), gloss)
    assert "cọp" in gloss and "cọp" not in model.clue_vocabulary()
    assert model.similarity(["cọp"], ["hổ"])[0, 0] == pytest.approx(1.0)


def test_malformed_glossary_lines_are_named():
    with pytest.raises(EmbeddingError, match="line 2"):
        parse_glossary("vi", "hổ\tcard\ttiger\ncọp\ttiger\n")
    with pytest.raises(EmbeddingError, match="listed twice"):
        parse_glossary("vi", "hổ\tcard\ttiger\nhổ\tclue\ttiger\n")
    with pytest.raises(EmbeddingError, match="at least one English sense"):
        parse_glossary("vi", "hổ\tcard\t|\n")


def test_forms_and_keyboard_spellings_reach_their_glossary_word():
    assert glossary("de").senses_of("Hunde") == glossary("de").senses_of("hund") != ()
    # plurals simplemma reads as verbs, reached by their noun reading (a playtester's TRÄNEN)
    assert glossary("de").senses_of("Tränen") == glossary("de").senses_of("träne") != ()
    assert glossary("de").senses_of("Bäume") == glossary("de").senses_of("baum") != ()
    fa = glossary("fa")
    book = "کتاب"
    assert fa.senses_of(book) and fa.senses_of(book + "ها") == fa.senses_of(book)
    assert fa.senses_of("كتاب") == fa.senses_of(book)  # Arabic kaf typed


@pytest.mark.parametrize("lang", GLOSSED_LANGUAGES)
def test_shipped_glossaries_are_a_speakers_card_list(lang):
    """400 cards, each with a distinct first sense (no two cards of one meaning on a board),
    no card inside another, the board list identical to the glossary's cards."""
    g = glossary(lang)
    assert len(g.cards) == 400 and len(set(g.cards)) == 400
    firsts = [g.senses_of(c)[0] for c in g.cards]
    assert len(set(firsts)) == 400
    assert all(unicodedata.is_normalized("NFC", w) for w in g.words)
    if lang == "vi":  # no card is a whole run of syllables of another
        for a in g.cards:
            for b in g.cards:
                assert a == b or f" {a} " not in f" {b} ", (a, b)
    from spymaster_ai.rules.wordlists import load_words

    assert tuple(normalise(lang, w) for w in load_words(lang)) == g.cards
    assert all(glossary_key(lang, c) in g.senses for c in g.cards)


def test_vietnamese_typed_without_marks_prefers_a_card_or_clue_word_to_a_read_word():
    gloss = parse_glossary("vi", "bút\tcard\tpen\nbụt\tread\tbuddha\ncọp\tread\ttiger\n")
    assert gloss.senses_of("but") == ("pen",)  # BỤT, a read word, does not hide the card BÚT
    assert gloss.senses_of("cop") == ("tiger",)  # a read word alone is still reached
    assert gloss.senses_of("bụt") == ("buddha",)


def test_either_vietnamese_tone_mark_placement_reads_the_same_word():
    vi = glossary("vi")
    assert vi.senses_of("hoà bình") == vi.senses_of("hòa bình") != ()  # old and new placement
    assert vi.senses_of("but") == vi.senses_of("bút")  # typed without marks: the card, not a read word
