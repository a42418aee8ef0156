"""The WordNet backend: a similarity model built from a knowledge graph, read offline.

Skipped where Debian's WordNet database or NLTK is missing (``.ci/run`` installs both)."""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.embeddings.base import EmbeddingError
from spymaster_ai.embeddings.registry import available_embeddings
from spymaster_ai.embeddings.vocabulary import load_vocabulary
from spymaster_ai.embeddings.wordnet_backend import WORDNET_ENV, WordNetEmbedding, wordnet_installed

pytestmark = pytest.mark.skipif(not wordnet_installed(),
                                reason="WordNet is not installed (apt-get install wordnet-base wordnet-sense-index)")


@pytest.fixture(scope="module")
def wordnet():
    return WordNetEmbedding(load_vocabulary(2000))


def sim(model, a: str, b: str) -> float:
    return float(model.similarity([a], [b])[0, 0])


def test_related_words_are_closer_than_unrelated_ones(wordnet):
    assert sim(wordnet, "piano", "keyboard") > 5 * sim(wordnet, "piano", "moon")
    assert sim(wordnet, "berlin", "germany") > 5 * sim(wordnet, "berlin", "piano")
    assert sim(wordnet, "sea", "pirate") > 5 * sim(wordnet, "sea", "piano")
    assert sim(wordnet, "dog", "puppy") > sim(wordnet, "dog", "bank")
    # the clue "music" reads PIANO and GUITAR above MOON and BANK
    board = ["piano", "guitar", "moon", "bank"]
    scores = wordnet.similarity(["music"], board)[0]
    assert set(np.argsort(-scores)[:2]) == {0, 1}


def test_similarities_are_a_cosine_scale(wordnet):
    words = ["piano", "moon", "dog", "ice cream"]
    matrix = wordnet.similarity(words, words)
    assert matrix.dtype == np.float32
    np.testing.assert_allclose(np.diag(matrix), 1.0, rtol=1e-5)
    np.testing.assert_allclose(matrix, matrix.T, atol=1e-6)
    assert (matrix >= 0).all() and (matrix <= 1.0 + 1e-6).all()
    mean, std = wordnet.similarity_stats()
    assert 0 <= mean < 0.2 and std > 0


def test_cards_of_several_words_and_unknown_words(wordnet):
    # "ice cream" is a WordNet compound; "sea monster" is not, and is read from its parts
    assert wordnet.knows("ice cream") and wordnet.reads("ice cream")
    assert sim(wordnet, "dessert", "ice cream") > sim(wordnet, "dessert", "moon")
    assert not wordnet.knows("sea monster") and wordnet.reads("sea monster")
    assert sim(wordnet, "ocean", "sea monster") > sim(wordnet, "ocean", "moon")
    # a made-up card: nothing to read, so no similarity at all, and agents are told so
    assert not wordnet.reads("zingwub") and wordnet.unreadable("zingwub")
    assert not wordnet.similarity(["sea", "music"], ["zingwub"]).any()


def test_a_word_scores_the_same_alone_in_a_batch_and_from_the_vocabulary(wordnet):
    vocab = wordnet.clue_vocabulary()
    board = ["piano", "ice cream", "berlin", "sea monster"]
    full = wordnet.similarity(vocab, board)
    picked = [vocab[0], vocab[len(vocab) // 2], vocab[-1]]
    alone = np.vstack([wordnet.similarity([w], board) for w in picked])
    np.testing.assert_array_equal(full[[0, len(vocab) // 2, len(vocab) - 1]], alone)
    np.testing.assert_array_equal(wordnet.similarity(picked + ["zebra"], board)[:3], alone)


def test_clue_vocabulary_is_the_words_wordnet_knows(wordnet):
    vocabulary = load_vocabulary(2000).words
    vocab = wordnet.clue_vocabulary()
    assert 0.6 * len(vocabulary) < len(vocab) < len(vocabulary)
    assert set(vocab) <= set(vocabulary)
    assert all(wordnet.knows(w) for w in vocab[:200])
    left_out = [w for w in vocabulary if w not in set(vocab)][:50]
    assert left_out and not any(wordnet.knows(w) for w in left_out)


def test_a_missing_database_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(WORDNET_ENV, str(tmp_path))
    assert not wordnet_installed()
    row = next(r for r in available_embeddings() if r.name == "wordnet")
    assert not row.installed and "wordnet-base" in row.install
    with pytest.raises(EmbeddingError, match="apt-get install wordnet-base"):
        WordNetEmbedding(load_vocabulary(2000), source=tmp_path)


def test_a_robust_spymaster_with_a_wordnet_partner_gives_a_clue_its_guesser_reads(wordnet):
    from spymaster_ai.agents.guesser import EmbeddingGuesser
    from spymaster_ai.agents.spymaster import EmbeddingSpymaster
    from spymaster_ai.views import GuesserView, SpymasterView

    cards = ("piano", "guitar", "violin", "moon", "bank", "knife", "apple", "ship", "dog")
    own = ("piano", "guitar", "violin")
    view = SpymasterView(game="classic", me="red", words=cards, visible=cards, own=own,
                         opponent=("moon", "bank", "apple"), bystanders=("ship", "dog"), assassins=("knife",))
    spymaster = EmbeddingSpymaster(wordnet, partner=[wordnet], vocabulary_size=None, hub_correction=False)
    clue = spymaster.give_clue(view)
    assert clue.count >= 2
    guesser = EmbeddingGuesser(wordnet, hub_correction=0.0)
    guess_view = GuesserView(game="classic", me="red", words=cards, visible=cards, revealed=(), clue=clue,
                             guesses_made=0, max_guesses=clue.count + 1, can_stop=False)
    assert guesser.rank_cards(guess_view)[0].word in own


def test_a_word_reads_the_same_in_every_process():
    # NLTK keeps a sense's links in sets, iterated in an order that Python's string hashing
    # changes per process: unsorted, "military" had 137 to 144 concepts, and a seeded game's
    # guesses differed between two runs.
    import os
    import subprocess
    import sys

    code = (
        "import hashlib, warnings; warnings.simplefilter('ignore')\n"
        "from spymaster_ai.embeddings.wordnet_backend import WordNetEmbedding\n"
        "from spymaster_ai.embeddings.vocabulary import load_vocabulary\n"
        "e = WordNetEmbedding(load_vocabulary(300))\n"
        "m = e.similarity(['military', 'sea', 'music'], ['sailor', 'magician', 'piano', 'ice cream'])\n"
        "print(hashlib.sha256(m.tobytes()).hexdigest(), len(e._bag('military')))\n"
    )
    outputs = {
        subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                       capture_output=True, text=True, check=True).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1, outputs
