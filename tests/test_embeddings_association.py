"""The association model (``eat``): people's free associations as graph vectors."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from spymaster_ai.agents.human.features import features_from_sims
from spymaster_ai.embeddings.association_backend import (AssociationEmbedding, association_vectors, graph_words,
                                                         read_counts)
from spymaster_ai.embeddings.base import EmbeddingError
from spymaster_ai.embeddings.vocabulary import load_vocabulary


def _write(path: Path, rows: list[tuple[str, str, int]]) -> Path:
    path.write_bytes(gzip.compress("".join(f"{c}\t{r}\t{n}\n" for c, r, n in rows).encode()))
    return path


# two clusters that never meet: pets and vehicles
TOY = [(a, b, 5) for a in ("cat", "dog", "mouse", "pet") for b in ("cat", "dog", "mouse", "pet") if a != b] + \
      [(a, b, 5) for a in ("car", "truck", "road", "wheel") for b in ("car", "truck", "road", "wheel") if a != b] + \
      [("cat", "whiskers", 1)]


def test_bad_files_get_clear_errors(tmp_path):
    with pytest.raises(EmbeddingError, match="no association counts"):
        read_counts(tmp_path / "absent.tsv.gz")
    bad = tmp_path / "bad.tsv.gz"
    bad.write_bytes(gzip.compress(b"cat\tdog\n"))
    with pytest.raises(EmbeddingError, match="line 1 is not cue<TAB>response<TAB>count"):
        read_counts(bad)
    with pytest.raises(EmbeddingError, match="no association counts"):
        AssociationEmbedding(load_vocabulary(100), tmp_path / "absent.tsv.gz")
    with pytest.raises(EmbeddingError, match="line 1 is not"):
        AssociationEmbedding(load_vocabulary(100), bad)
    broken = tmp_path / "broken.tsv.gz"
    broken.write_bytes(b"not gzip at all")
    with pytest.raises(EmbeddingError, match="cannot read"):
        read_counts(broken)


def test_graph_keeps_linked_words_and_vectors_separate_the_clusters(tmp_path):
    rows, digest = read_counts(_write(tmp_path / "toy.tsv.gz", TOY))
    assert len(digest) == 64
    words, counts = graph_words(rows, min_degree=3)
    assert "whiskers" not in words and {"cat", "car"} <= set(words)  # one link: dropped
    v = association_vectors(counts, dims=3)
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    sim = v @ v.T
    at = {w: i for i, w in enumerate(words)}
    assert sim[at["cat"], at["dog"]] > sim[at["cat"], at["car"]] + 0.5
    assert sim[at["truck"], at["road"]] > sim[at["truck"], at["mouse"]] + 0.5


def test_shipped_thesaurus_reads_as_people_do():
    model = AssociationEmbedding(load_vocabulary(2000))
    board = ["CRAB", "MOUSE", "CAR", "STABLE", "HOSE", "SNOW", "PLANET", "KITE"]
    top = {clue: board[int(np.argmax(model.similarity([clue], board)[0]))]
           for clue in ("cat", "horses", "white", "fly")}
    assert top == {"cat": "MOUSE", "horses": "STABLE", "white": "SNOW", "fly": "KITE"}
    # a word it lacks reads as no association at all, not as noise, and is still "read"
    assert not model.knows("qzxwvq") and model.reads("qzxwvq")
    assert np.all(model.similarity(["qzxwvq"], board) == 0)
    # a two-word card people answered with has its own place; another is the mean of its parts
    assert model.similarity(["sweet"], ["ICE CREAM"])[0, 0] > 0.3
    assert model.knows("fire truck") and model.similarity(["car"], ["FIRE TRUCK"])[0, 0] > 0.3


def test_a_silent_model_says_nothing_in_the_reader_features():
    rng = np.random.default_rng(0)
    cards = ["A", "B", "C", "D"]
    talking = rng.normal(size=(2, 4)).astype(np.float32)
    silent = np.zeros((2, 4), dtype=np.float32)
    silent[1] = [0.5, 0.1, 0.0, 0.2]  # the second clue is known; card C is not
    silent[1, 2] = 0.0
    stats = [np.full(4, 0.1, dtype=np.float32), np.full(4, 0.1, dtype=np.float32)]
    spread = [np.full(4, 0.2, dtype=np.float32), np.full(4, 0.2, dtype=np.float32)]
    x = features_from_sims([talking, silent], stats, spread, np.ones(4, bool), ["p", "q"], cards,
                           spelled=np.zeros((2, 4), bool))
    assert np.all(x[0, :, 3:6] == 0)  # unknown clue: the second model's block is 0
    assert np.all(x[1, 2, 3:6] == 0) and np.any(x[1, 0, 3:6] != 0)  # unknown card only
    assert np.any(x[0, :, 0:3] != 0)  # the first model still reads it
