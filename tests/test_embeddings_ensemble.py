"""Ensembles and consensus: standardised per model, combined by mean or soft minimum."""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.embeddings import EmbeddingError, load_embedding
from spymaster_ai.embeddings.ensemble import CONSENSUS_TEMPERATURE, EnsembleEmbedding
from spymaster_ai.embeddings.registry import clear_loaded
from spymaster_ai.embeddings.vocabulary import load_vocabulary

WORDS = ["fruit", "apple", "orange", "car", "truck", "piano", "music", "river", "water", "king",
         "queen", "money", "bank", "school", "house", "dog", "cat", "food", "game", "city"]


def write_table(path, seed, dim=6, drop=()):
    rng = np.random.default_rng(seed)
    lines = [f"{w} {' '.join(f'{x:.5f}' for x in rng.standard_normal(dim))}\n" for w in WORDS if w not in drop]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    clear_loaded()
    yield
    clear_loaded()


@pytest.fixture
def two_models(tmp_path):
    a = write_table(tmp_path / "a.txt", seed=1)
    b = write_table(tmp_path / "b.txt", seed=2, drop=("king",))
    return f"vectors:{a}", f"vectors:{b}"


def _z(emb, rows, cols):
    mean, std = emb.similarity_stats()
    return (emb.similarity(rows, cols).astype(np.float64) - mean) / std


def test_ensemble_is_the_mean_of_standardised_similarities(two_models):
    a, b = (load_embedding(n, vocab_size=2000) for n in two_models)
    ens = load_embedding(f"ensemble:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    rows, cols = ["fruit", "car", "zebra crossing"], ["apple", "truck", "music", "ice cream"]
    got = ens.similarity(rows, cols)
    assert got.dtype == np.float32 and got.shape == (3, 4)
    expected = (_z(a, rows, cols) + _z(b, rows, cols)) / 2
    assert np.allclose(got, expected, atol=1e-5)


def test_standardisation_is_fixed_per_model(two_models):
    """A pair scores the same whatever else is in the query."""
    ens = load_embedding(f"ensemble:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    big = ens.similarity(["fruit", "car", "river"], ["apple", "truck"])
    small = ens.similarity(["car"], ["truck"])
    assert small[0, 0] == pytest.approx(big[1, 1], abs=1e-6)


def test_member_stats_standardise_to_zero_mean_unit_spread(two_models):
    a = load_embedding(two_models[0], vocab_size=2000)
    vocab = list(a.clue_vocabulary())
    z = _z(a, vocab, vocab)[~np.eye(len(vocab), dtype=bool)]
    assert z.mean() == pytest.approx(0, abs=1e-6) and z.std() == pytest.approx(1, abs=1e-6)


def test_consensus_is_a_soft_minimum(two_models):
    a, b = (load_embedding(n, vocab_size=2000) for n in two_models)
    cons = load_embedding(f"consensus:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    ens = load_embedding(f"ensemble:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    rows, cols = ["fruit", "car", "money"], ["apple", "truck", "bank", "dog"]
    za, zb = _z(a, rows, cols), _z(b, rows, cols)
    t = CONSENSUS_TEMPERATURE
    expected = -t * np.log((np.exp(-za / t) + np.exp(-zb / t)) / 2)
    got = cons.similarity(rows, cols)
    assert np.allclose(got, expected, atol=1e-4)
    assert np.all(got <= ens.similarity(rows, cols) + 1e-5)  # never above the mean
    assert np.all(got >= np.minimum(za, zb) - 1e-5)
    strict = EnsembleEmbedding([a, b], mode="consensus", temperature=1e-3).similarity(rows, cols)
    assert np.allclose(strict, np.minimum(za, zb), atol=1e-2)


def test_vocabulary_is_the_intersection_and_knows_needs_all(two_models):
    ens = load_embedding(f"ensemble:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    shared = load_vocabulary(2000).words
    assert ens.clue_vocabulary() == tuple(w for w in shared if w in WORDS and w != "king")
    assert ens.knows("queen") and not ens.knows("king")
    assert ens.similarity(ens.clue_vocabulary(), ["apple", "truck"]).shape == (len(ens.clue_vocabulary()), 2)


def test_hot_path_equals_row_by_row(two_models):
    ens = load_embedding(f"consensus:{two_models[0]}+{two_models[1]}", vocab_size=2000)
    vocab = ens.clue_vocabulary()
    board = ["apple", "truck", "loch ness"]
    full = ens.similarity(vocab, board)
    assert np.allclose(full[[0, -1]], ens.similarity([vocab[0], vocab[-1]], board), atol=1e-5)


@pytest.mark.parametrize("name, message", [
    ("ensemble:glove50", "at least two"),
    ("consensus:", "at least two"),
    ("ensemble:glove50+glove50", "twice"),
    ("ensemble:glove50+nosuchmodel", "unknown embedding"),
])
def test_bad_ensembles(name, message):
    with pytest.raises(EmbeddingError, match=message):
        load_embedding(name, vocab_size=500)


@pytest.mark.models
def test_real_ensemble_of_three_models():
    ens = load_embedding("ensemble:minilm+glove50+wordllama", vocab_size=300)
    cons = load_embedding("consensus:minilm+glove50+wordllama", vocab_size=300)
    board = ["car", "apple", "piano", "bank", "orange", "river", "engine", "doctor"]
    for model in (ens, cons):
        sims = model.similarity(["fruit"], board)[0]
        assert {board[i] for i in np.argsort(-sims)[:2]} == {"apple", "orange"}
    assert load_embedding("ENSEMBLE:MiniLM+glove50+wordllama", vocab_size=300) is ens
    assert not hasattr(ens, "vectors")  # similarity only
