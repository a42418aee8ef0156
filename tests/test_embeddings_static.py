"""Static vectors: hand-made files through ``vectors:PATH`` and the packaged GloVe 50d."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from spymaster_ai.embeddings import EmbeddingError, VectorEmbedding, load_embedding
from spymaster_ai.embeddings.keyed_vectors import hashed_vector
from spymaster_ai.embeddings.registry import clear_loaded
from spymaster_ai.embeddings.vocabulary import load_vocabulary

# Axes: fruit, vehicle, music, water. "ice" and "cream" make a dessert when averaged.
TABLE = {
    "fruit": [1, 0, 0, 0], "apple": [0.9, 0.1, 0, 0], "orange": [0.8, 0, 0.1, 0.1],
    "car": [0, 1, 0, 0], "truck": [0.05, 0.95, 0, 0], "piano": [0, 0, 1, 0],
    "river": [0, 0.1, 0, 1], "ice": [0.2, 0, 0, 0.9], "cream": [0.9, 0, 0, 0.1],
    "music": [0, 0, 1, 0.1],
}


def write_glove(path, table=TABLE):
    path.write_text("".join(f"{w} {' '.join(map(str, v))}\n" for w, v in table.items()), encoding="utf-8")
    return path


def write_word2vec(path, table=TABLE):
    dim = len(next(iter(table.values())))
    lines = [f"{len(table)} {dim}\n"] + [f"{w} {' '.join(map(str, v))}\n" for w, v in table.items()]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    clear_loaded()
    yield
    clear_loaded()


def unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("writer", [write_glove, write_word2vec])
def test_text_files_with_and_without_header(tmp_path, writer):
    emb = load_embedding(f"vectors:{writer(tmp_path / 'tiny.txt')}", vocab_size=500)
    assert isinstance(emb, VectorEmbedding) and emb.dim == 4
    sims = emb.similarity(["fruit", "car"], ["apple", "truck", "piano"])
    assert sims.dtype == np.float32 and sims.shape == (2, 3)
    expected = unit(TABLE["fruit"]) @ unit(TABLE["apple"])
    assert sims[0, 0] == pytest.approx(expected, abs=1e-6)
    assert sims[0].argmax() == 0 and sims[1].argmax() == 1


def test_clue_vocabulary_is_shared_vocabulary_and_table(tmp_path):
    emb = load_embedding(f"vectors:{write_glove(tmp_path / 'tiny.txt')}", vocab_size=2000)
    vocab = emb.clue_vocabulary()
    # Only table words that are in the shared vocabulary, in vocabulary order.
    shared = load_vocabulary(2000).words
    assert vocab == tuple(w for w in shared if w in TABLE)
    assert {"music", "car", "river", "apple"} <= set(vocab) and "cream" not in shared
    assert emb.knows("apple") and emb.knows("  Apple ") and not emb.knows("banana")


def test_gensim_native_format(tmp_path):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=4)
    kv.add_vectors(list(TABLE), np.array(list(TABLE.values()), dtype=np.float32))
    kv.save(str(tmp_path / "tiny.kv"))
    emb = load_embedding(f"vectors:{tmp_path / 'tiny.kv'}", vocab_size=500)
    assert emb.similarity(["fruit"], ["apple", "car"])[0].argmax() == 0


def test_fasttext_builds_oov_words_from_ngrams(tmp_path):
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model

    sentences = [["apple", "banana", "fruit", "orange"], ["car", "truck", "engine", "wheel"]] * 50
    model = FastText(vector_size=8, window=3, min_count=1, epochs=3, seed=1, workers=1,
                     min_n=3, max_n=4, bucket=1000)
    model.build_vocab(sentences)
    model.train(sentences, total_examples=len(sentences), epochs=3)
    save_facebook_model(model, str(tmp_path / "tiny.bin"))
    emb = load_embedding(f"vectors:{tmp_path / 'tiny.bin'}", vocab_size=500)
    assert not emb.knows("apples")
    got = emb.vectors(["apples"])[0]
    assert np.linalg.norm(got) == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(got, unit(model.wv.get_vector("apples")), atol=1e-5)


def test_multi_word_and_unknown_cards_get_vectors(tmp_path):
    emb = load_embedding(f"vectors:{write_glove(tmp_path / 'tiny.txt')}", vocab_size=500)
    vecs = emb.vectors(["ice cream", "ice-cream", "loch ness", "xqzzyv"])
    assert vecs.shape == (4, 4)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    mean_parts = unit(unit(TABLE["ice"]) + unit(TABLE["cream"]))
    assert np.allclose(vecs[0], mean_parts, atol=1e-6) and np.allclose(vecs[1], mean_parts, atol=1e-6)
    assert not emb.knows("ice cream")
    # No part known: the hashed fallback, identical on every call.
    assert np.array_equal(vecs[2], hashed_vector("loch ness", 4))
    assert np.array_equal(emb.vectors(["xqzzyv"])[0], vecs[3])


def test_only_a_word_with_no_known_part_is_unreadable(tmp_path):
    """The stand-in vector carries spelling, not meaning: the CLI warns about such cards."""
    emb = load_embedding(f"vectors:{write_glove(tmp_path / 'tiny.txt')}", vocab_size=500)
    assert not emb.unreadable("apple") and not emb.unreadable("ice cream") and not emb.unreadable("ice-cream")
    assert emb.unreadable("loch ness") and emb.unreadable("xqzzyv")


def test_hashed_fallback_is_stable_across_processes():
    here = hashed_vector("zorblax", 50)
    code = ("from spymaster_ai.embeddings.keyed_vectors import hashed_vector;"
            "import sys; sys.stdout.write(hashed_vector('zorblax', 50).tobytes().hex())")
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert there == here.tobytes().hex()
    # Nearly orthogonal to an unrelated fallback: it carries no meaning.
    assert abs(float(here @ hashed_vector("quintessential", 50))) < 0.6


def test_bad_words_and_files_give_clear_errors(tmp_path):
    emb = load_embedding(f"vectors:{write_glove(tmp_path / 'tiny.txt')}", vocab_size=500)
    with pytest.raises(EmbeddingError, match="empty"):
        emb.similarity(["fruit"], ["  "])
    with pytest.raises(EmbeddingError, match="string"):
        emb.similarity("fruit", ["apple"])
    with pytest.raises(EmbeddingError, match="no such file"):
        load_embedding(f"vectors:{tmp_path / 'missing.txt'}")
    (tmp_path / "junk.txt").write_text("this is not\na vector file at all\n", encoding="utf-8")
    with pytest.raises(EmbeddingError, match="gensim"):
        load_embedding(f"vectors:{tmp_path / 'junk.txt'}")


@pytest.mark.models
def test_glove50_ranks_fruit_first():
    emb = load_embedding("glove50", vocab_size=2000)
    assert emb.dim == 50 and emb.name == "glove50"
    board = ["car", "apple", "piano", "bank", "orange", "river", "engine", "doctor", "moon", "bridge"]
    sims = emb.similarity(["fruit"], board)[0]
    assert {board[i] for i in np.argsort(-sims)[:2]} == {"apple", "orange"}
    assert load_embedding("glove50", vocab_size=2000) is emb


@pytest.mark.models
def test_glove50_hot_path_is_the_cached_vocabulary():
    emb = load_embedding("glove50", vocab_size=3000)
    vocab = emb.clue_vocabulary()
    assert len(vocab) > 2900 and "the" not in vocab
    board = ["apple", "ice cream", "loch ness", "scuba diver", "new york"]
    sims = emb.similarity(vocab, board)
    assert sims.shape == (len(vocab), 5) and sims.dtype == np.float32
    direct = emb.vectors(list(vocab[:50])) @ emb.vectors(board).T
    assert np.allclose(sims[:50], direct, atol=1e-6)
    assert emb.vocabulary_vectors().flags.writeable is False
    subset = tuple(vocab[::2])  # an agent's filtered vocabulary: gathered once, then reused
    assert emb._matrix(subset) is emb._matrix(subset)
    assert np.allclose(emb.similarity(subset, board), sims[::2], atol=1e-6)
    assert emb.similarity(["dessert"], board)[0].argmax() == 1  # ice cream, from its parts


@pytest.mark.parametrize("fill, message", [("nan", "NaN or infinite"), ("0.0", "all zeros")])
def test_a_vectors_file_of_nan_or_zero_vectors_is_refused(tmp_path, fill, message):
    from spymaster_ai.embeddings import EmbeddingError

    path = tmp_path / "bad.txt"
    path.write_text("".join(f"{w} {fill} {fill} {fill}\n" for w in ("apple", "fruit", "car", "road")))
    with pytest.raises(EmbeddingError, match=message):
        load_embedding(f"vectors:{path}", vocab_size=500)
