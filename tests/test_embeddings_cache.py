"""The on-disk vocabulary cache: keyed by model and vocabulary, rebuilt when damaged."""

from __future__ import annotations

import json

import numpy as np
import pytest

from spymaster_ai.embeddings.cache import CacheWarning, cache_root
from spymaster_ai.embeddings.encoded import EncodedEmbedding
from spymaster_ai.embeddings.keyed_vectors import hashed_vector
from spymaster_ai.embeddings.vocabulary import load_vocabulary


class CountingEncoder(EncodedEmbedding):
    """A tiny deterministic encoder that counts the words it encodes."""

    def __init__(self, vocabulary, version="1"):
        self.encoded = 0
        super().__init__("counting", vocabulary, {"version": version}, 16, "test encoder")

    def _encode(self, words, advance):
        self.encoded += len(words)
        advance(len(words))
        return np.stack([hashed_vector(w, 16) * 3.0 for w in words])


@pytest.fixture(autouse=True)
def tmp_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def vocab():
    return load_vocabulary(200)


def test_cache_root_follows_environment(tmp_cache, monkeypatch):
    assert cache_root() == tmp_cache
    monkeypatch.delenv("SPYMASTER_AI_CACHE")
    assert cache_root().parts[-2:] == (".cache", "spymaster_ai")


def test_built_once_then_read_back(vocab, tmp_cache):
    first = CountingEncoder(vocab)
    matrix = first.vocabulary_vectors()
    assert first.encoded == 200 and matrix.shape == (200, 16)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-6)
    path = first.cache_file()
    assert path.parent.parent == tmp_cache and path.exists()
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["key"] == first.cache_key() and meta["shape"] == [200, 16] and len(meta["sha256"]) == 64

    second = CountingEncoder(vocab)
    assert np.array_equal(second.vocabulary_vectors(), matrix)
    assert second.encoded == 0, "a valid cache must not be re-encoded"


def test_key_changes_with_model_and_vocabulary(vocab):
    base = CountingEncoder(vocab).cache_file()
    assert CountingEncoder(vocab).cache_file() == base
    assert CountingEncoder(vocab, version="2").cache_file() != base
    assert CountingEncoder(load_vocabulary(150)).cache_file() != base


def _damage_truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _damage_flip_value(path):
    array = np.load(path)
    array[3, 5] += 0.25
    np.save(path, array)  # same shape and dtype: only the checksum can tell


def _damage_meta(path):
    path.with_suffix(".json").write_text("{not json", encoding="utf-8")


def _damage_wrong_shape(path):
    np.save(path, np.zeros((10, 16), dtype=np.float32))


@pytest.mark.parametrize("damage", [_damage_truncate, _damage_flip_value, _damage_meta, _damage_wrong_shape])
def test_damaged_cache_is_detected_and_rebuilt(vocab, damage):
    good = CountingEncoder(vocab)
    reference = good.vocabulary_vectors().copy()
    path = good.cache_file()
    damage(path)

    fresh = CountingEncoder(vocab)
    with pytest.warns(CacheWarning, match="rebuilding"):
        rebuilt = fresh.vocabulary_vectors()
    assert fresh.encoded == 200
    assert np.array_equal(rebuilt, reference)

    healed = CountingEncoder(vocab)
    assert np.array_equal(healed.vocabulary_vectors(), reference) and healed.encoded == 0


def test_vectors_do_not_depend_on_cache_or_batch(vocab):
    emb = CountingEncoder(vocab)
    words = ["apple", vocab.words[7], "ice cream"]
    before = emb.vectors(words)  # vocabulary not built yet: encoded on demand
    emb.vocabulary_vectors()
    after = emb.vectors(words)
    assert np.array_equal(before, after)
    assert np.array_equal(after[1], emb.vocabulary_vectors()[7])
    memo = emb.encoded
    emb.vectors(["ice cream"])
    assert emb.encoded == memo, "words are encoded once per process"


def test_unwritable_cache_still_returns_vectors(vocab, tmp_cache):
    tmp_cache.parent.mkdir(parents=True, exist_ok=True)
    tmp_cache.write_text("a file where the cache folder should be", encoding="utf-8")
    emb = CountingEncoder(vocab)
    with pytest.warns(CacheWarning, match="could not write"):
        matrix = emb.vocabulary_vectors()
    assert matrix.shape == (200, 16)


def test_large_vocabulary_subsets_go_through_the_cache():
    vocab = load_vocabulary(400)
    CountingEncoder(vocab).vocabulary_vectors()  # build the cache
    emb = CountingEncoder(vocab)
    subset = tuple(w for i, w in enumerate(vocab.words) if i % 10 != 3)  # an agent's filtered list
    matrix = emb.vectors(subset)
    assert emb.encoded == 0, "a big slice of the vocabulary must come from the disk cache"
    assert np.array_equal(matrix[0], emb.vocabulary_vectors()[0])


# -- the word store: only the words asked for are encoded, kept for the next start ------------

def _store_files(tmp_cache):
    return sorted((tmp_cache / "words").glob("counting-words-*.npz"))


def test_a_first_request_encodes_only_its_words_and_keeps_them():
    vocab = load_vocabulary(400)
    asked = list(vocab.words[:300]) + ["sweet soup", "paper boat"]  # a reader's words, a glossary's senses
    first = CountingEncoder(vocab)
    matrix = first.vectors(asked)
    assert first.encoded == len(asked), "the other 100 vocabulary words are not needed yet"
    second = CountingEncoder(vocab)  # a later start
    assert np.array_equal(second.vectors(asked), matrix) and second.encoded == 0
    more = second.vectors([vocab.words[350], "sweet soup"])
    assert second.encoded == 1 and np.array_equal(more[1], matrix[300])
    # the whole vocabulary, when an agent asks for it, reuses what is stored: the same bits
    whole = CountingEncoder(vocab).vocabulary_vectors()
    assert np.array_equal(whole[:300], matrix[:300])
    assert np.array_equal(whole, CountingEncoder(vocab, version="2").vocabulary_vectors())


def test_similarity_stats_from_the_sample_alone_are_those_of_the_whole_vocabulary():
    vocab = load_vocabulary(2500)
    sampled = CountingEncoder(vocab)
    stats = sampled.similarity_stats()
    assert sampled.encoded == 1000, "only the 1,000 sampled words are encoded"
    whole = CountingEncoder(vocab, version="2")  # another cache key: encodes everything itself
    whole.vocabulary_vectors()
    assert whole.encoded == 2500 and whole.similarity_stats() == stats


def _damage_store_truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _damage_store_flip(path):
    with np.load(path) as stored:
        arrays = {k: stored[k] for k in stored.files}
    arrays["vectors"][2, 3] += 0.5
    with path.open("wb") as handle:
        np.savez(handle, **arrays)


def _damage_store_garbage(path):
    path.write_bytes(b"not a zip file at all")


@pytest.mark.parametrize("damage", [_damage_store_truncate, _damage_store_flip, _damage_store_garbage])
def test_a_damaged_word_store_warns_and_is_rebuilt(damage, tmp_cache):
    words = ["apple", "sweet soup", "river bank"]
    reference = CountingEncoder(load_vocabulary(200)).vectors(words).copy()
    (path,) = _store_files(tmp_cache)
    damage(path)
    fresh = CountingEncoder(load_vocabulary(200))
    with pytest.warns(CacheWarning, match="rebuilding word store"):
        again = fresh.vectors(words)
    assert fresh.encoded == 3 and np.array_equal(again, reference)
    healed = CountingEncoder(load_vocabulary(200))
    assert np.array_equal(healed.vectors(words), reference) and healed.encoded == 0


def _encode_in_child(cache, words, barrier):
    import os

    os.environ["SPYMASTER_AI_CACHE"] = str(cache)
    barrier.wait()
    for start in range(0, len(words), 5):  # several writes each, to interleave with the others
        CountingEncoder(load_vocabulary(200)).vectors(words[start:start + 5])


def test_concurrent_first_starts_leave_a_valid_store(tmp_cache):
    import multiprocessing
    import warnings

    ctx = multiprocessing.get_context("fork")
    groups = [[f"word{p}x{i}" for i in range(20)] for p in range(4)]
    barrier = ctx.Barrier(len(groups))
    procs = [ctx.Process(target=_encode_in_child, args=(tmp_cache, g, barrier)) for g in groups]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    (path,) = _store_files(tmp_cache)
    assert not [f for f in path.parent.iterdir() if f.suffix == ".tmp"], "no temporary file is left behind"
    reader = CountingEncoder(load_vocabulary(200))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)  # the store reads cleanly
        reader._load_store()
    stored = {w: row for w, row in reader._memo.items()}
    assert stored, "the store holds the words of at least the last writer"
    assert any(all(w in stored for w in g[-5:]) for g in groups)
    expected = CountingEncoder(load_vocabulary(200), version="other").vectors(sorted(stored))
    assert np.array_equal(np.stack([stored[w] for w in sorted(stored)]), expected), "every stored row is right"
