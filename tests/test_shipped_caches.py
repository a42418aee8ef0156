"""The ``eat`` vectors shipped in the package: used for the shipped counts, never for others.

Why: building them took 25-40 CPU seconds of a first game (issue 40); the shipped file is keyed
by the counts' sha256 and the settings, so changed counts or settings never read stale vectors.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil

import numpy as np
import pytest

from spymaster_ai.embeddings import association_backend as ab
from spymaster_ai.embeddings.cache import CacheWarning, read_shipped


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(ab.ASSOCIATION_ENV, raising=False)
    ab._table.cache_clear()
    yield
    ab._table.cache_clear()


def _no_build(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the vectors were built although the shipped ones apply")

    monkeypatch.setattr(ab, "association_vectors", refuse)
    monkeypatch.setattr(ab, "graph_words", refuse)


def test_shipped_vectors_match_the_shipped_counts_and_settings():
    digest = hashlib.sha256(ab.DATA_PATH.read_bytes()).hexdigest()
    shipped = read_shipped(ab.SHIPPED_PATH, ab.shipped_key(digest))
    assert shipped is not None, "data/eat_vectors.npz is stale: run scripts/build_eat_vectors.py"
    assert shipped["vectors"].dtype == np.float32 and shipped["vectors"].shape == (len(shipped["words"]), ab.DIMS)


def test_a_first_start_reads_the_shipped_vectors_without_building(monkeypatch, tmp_path):
    _no_build(monkeypatch)
    emb = ab.AssociationEmbedding(vocabulary=_vocab())
    sims = emb.similarity(["cat"], ["dog", "mouse"])
    assert sims.shape == (1, 2) and sims[0, 0] > 0.3
    assert not (tmp_path / "cache" / "vectors").exists(), "nothing to cache when the shipped file applies"


def test_other_counts_build_their_own_vectors(monkeypatch, tmp_path):
    """A changed word list (one pair more) is another key: built, not read from the shipped file."""
    text = gzip.decompress(ab.DATA_PATH.read_bytes()).decode("utf-8")
    changed = tmp_path / "counts.tsv"
    changed.write_text(text + "zebra\tstripes\t7\n", encoding="utf-8")
    monkeypatch.setenv(ab.ASSOCIATION_ENV, str(changed))
    built = []
    real = ab.association_vectors
    monkeypatch.setattr(ab, "association_vectors", lambda *a, **k: built.append(1) or real(*a, **k))
    table, meta = ab._table(str(changed))
    assert built == [1] and meta["counts_sha256"] != hashlib.sha256(ab.DATA_PATH.read_bytes()).hexdigest()


def test_other_settings_build_their_own_vectors(monkeypatch):
    built = []
    monkeypatch.setattr(ab, "association_vectors", lambda counts, dims, walk: built.append(dims) or np.ones(
        (counts.shape[0], dims), dtype=np.float32))
    ab._table(str(ab.DATA_PATH), ab.MIN_DEGREE, 7, ab.WALK)
    assert built == [7]


def test_a_damaged_shipped_file_warns_and_is_rebuilt(monkeypatch, tmp_path):
    copy = tmp_path / "eat_vectors.npz"
    shutil.copy(ab.SHIPPED_PATH, copy)
    data = copy.read_bytes()
    copy.write_bytes(data[: len(data) // 2])  # a partial download or copy
    monkeypatch.setattr(ab, "SHIPPED_PATH", copy)
    built = []
    monkeypatch.setattr(ab, "association_vectors", lambda counts, dims, walk: built.append(dims) or np.ones(
        (counts.shape[0], dims), dtype=np.float32))
    with pytest.warns(CacheWarning, match="not using the shipped cache"):
        ab._table(str(ab.DATA_PATH))
    assert built == [ab.DIMS]


def _vocab():
    from spymaster_ai.embeddings.vocabulary import load_vocabulary

    return load_vocabulary(200)
