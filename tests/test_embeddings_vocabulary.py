"""The shared clue vocabulary: frequent real words, no stopwords, no offensive words, stable."""

from __future__ import annotations

import re

import numpy as np
import pytest
from wordfreq import top_n_list, zipf_frequency

from spymaster_ai.embeddings import vocabulary
from spymaster_ai.embeddings.vocabulary import (
    DEFAULT_VOCAB_SIZE,
    STOPWORDS,
    VOCAB_SIZE_ENV,
    blocklist,
    default_vocab_size,
    is_candidate_clue,
    load_vocabulary,
    words_key,
    zipf_frequencies,
)


@pytest.fixture(scope="module")
def vocab5k():
    return load_vocabulary(5000)


def test_size_counts_the_words_kept(vocab5k):
    assert len(vocab5k) == 5000
    assert len(set(vocab5k.words)) == 5000


def test_words_are_plain_lower_case_words(vocab5k):
    assert all(re.fullmatch(r"[a-z]{2,}", w) for w in vocab5k.words)


@pytest.mark.parametrize("word", ["the", "his", "her", "their", "a", "an", "and", "of", "you",
                                  "this", "which", "would", "dont", "yeah", "mr", "ll"])
def test_stopwords_and_fragments_never_appear(vocab5k, word):
    assert word not in vocab5k.words
    assert not is_candidate_clue(word)


@pytest.mark.parametrize("word", ["fire", "system", "back", "water", "king", "apple"])
def test_content_words_are_kept_even_if_a_stoplist_has_them(vocab5k, word):
    assert word in vocab5k.words


def test_blocklist_applies(vocab5k):
    blocked = blocklist()
    assert "fuck" in blocked and "shit" in blocked
    frequent = set(top_n_list("en", 20000))
    assert blocked & frequent, "the blocklist should hit words that wordfreq actually ranks"
    assert not blocked & set(vocab5k.words)


def test_order_is_frequency_order_and_deterministic(vocab5k):
    ranked = [w for w in top_n_list("en", 20000) if is_candidate_clue(w)][:5000]
    assert list(vocab5k.words) == ranked
    vocabulary._load_vocabulary.cache_clear()  # really rebuild it
    again = load_vocabulary(5000)
    assert again.words == vocab5k.words and again.key == vocab5k.key


def test_smaller_vocabulary_is_a_prefix(vocab5k):
    small = load_vocabulary(300)
    assert small.words == vocab5k.words[:300]
    assert small.key != vocab5k.key == words_key(vocab5k.words)


def test_zipf_aligned_with_words(vocab5k):
    assert vocab5k.zipf.dtype == np.float32 and vocab5k.zipf.shape == (5000,)
    for i in (0, 1234, 4999):
        assert vocab5k.zipf[i] == pytest.approx(zipf_frequency(vocab5k.words[i], "en"), abs=1e-4)
    assert vocab5k.zipf[0] > vocab5k.zipf[-1]
    assert zipf_frequencies(["qzxqzxq"])[0] == 0.0


def test_stopword_list_is_a_real_one():
    assert len(STOPWORDS) > 300
    assert {"the", "his", "hers", "whom", "themselves"} <= STOPWORDS


def test_size_from_environment(monkeypatch):
    monkeypatch.delenv(VOCAB_SIZE_ENV, raising=False)
    assert default_vocab_size() == DEFAULT_VOCAB_SIZE
    monkeypatch.setenv(VOCAB_SIZE_ENV, "1234")
    assert default_vocab_size() == 1234
    assert len(load_vocabulary()) == 1234
    monkeypatch.setenv(VOCAB_SIZE_ENV, "321")
    assert len(load_vocabulary()) == 321  # read at each call, not frozen by the memo
    monkeypatch.setenv(VOCAB_SIZE_ENV, "lots")
    with pytest.raises(ValueError, match=VOCAB_SIZE_ENV):
        default_vocab_size()


def test_bad_size_refused():
    with pytest.raises(ValueError):
        load_vocabulary(0)
