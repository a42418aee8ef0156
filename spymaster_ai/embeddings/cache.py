"""On-disk cache of encoded clue vocabularies (``.npy`` + a small JSON with key and checksum).

Encoding 30,000 words with a sentence model takes tens of seconds, so it happens once per
machine. The file name is a hash of everything that determines the vectors (model identity,
encoder version, vocabulary hash), so a new model or vocabulary never reads a stale file;
a corrupted or truncated file fails its shape/checksum test and is rebuilt with a warning.
Writes go through a temporary file and ``os.replace``, so parallel workers never read a
half-written cache.

Besides whole matrices there is one *word store* per model (:func:`load_rows` /
:func:`save_rows`): every word the model encoded, keyed by the model alone. A first game
encodes only the words it asks for (a reader's 7,000 common words, a glossary's English
senses), and a game in another language reuses the English words an earlier one encoded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

CACHE_ENV = "SPYMASTER_AI_CACHE"
CACHE_FORMAT = 1


class CacheWarning(UserWarning):
    """A cache file was unreadable or did not match its checksum and is being rebuilt."""


def cache_root() -> Path:
    """``$SPYMASTER_AI_CACHE`` or ``~/.cache/spymaster_ai`` (not created here)."""
    override = os.environ.get(CACHE_ENV)
    return Path(override).expanduser() if override else Path.home() / ".cache" / "spymaster_ai"


def key_digest(key: Mapping[str, Any]) -> str:
    """Stable hash of a JSON-able cache key."""
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode("utf-8")).hexdigest()


def array_checksum(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def cache_paths(label: str, key: Mapping[str, Any]) -> tuple[Path, Path]:
    """(.npy path, .json path) for this key; ``label`` only makes names readable."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")[:60] or "vectors"
    stem = cache_root() / "vectors" / f"{slug}-{key_digest(key)[:20]}"
    return stem.with_suffix(".npy"), stem.with_suffix(".json")


def _read(npy: Path, meta_path: Path, key: Mapping[str, Any], shape: tuple[int, int]) -> np.ndarray:
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("format") != CACHE_FORMAT or meta.get("key") != json.loads(json.dumps(key)):
        raise ValueError("cache key mismatch")
    array = np.load(npy, allow_pickle=False)
    if array.dtype != np.float32 or array.shape != tuple(shape):
        raise ValueError(f"shape {array.shape} {array.dtype}, expected {tuple(shape)} float32")
    if array_checksum(array) != meta.get("sha256"):
        raise ValueError("checksum mismatch")
    return array


def _write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_build(label: str, key: Mapping[str, Any], shape: tuple[int, int],
                  build: Callable[[], np.ndarray]) -> tuple[np.ndarray, Path]:
    """The cached float32 matrix for ``key``, building and storing it when absent or bad.

    Returns the matrix and the path of its ``.npy`` file. A cache directory that cannot be
    written only costs the rebuild next time (with a warning), never the result.
    """
    npy, meta_path = cache_paths(label, key)
    if npy.exists() or meta_path.exists():
        try:
            return _read(npy, meta_path, key, shape), npy
        except Exception as exc:  # noqa: BLE001 - any unreadable cache is rebuilt
            warnings.warn(f"rebuilding embedding cache {npy}: {exc}", CacheWarning, stacklevel=3)
    array = np.ascontiguousarray(build(), dtype=np.float32)
    if array.shape != tuple(shape):
        raise RuntimeError(f"{label}: built matrix has shape {array.shape}, expected {tuple(shape)}")
    meta = {"format": CACHE_FORMAT, "key": key, "shape": list(array.shape),
            "dtype": "float32", "sha256": array_checksum(array)}
    try:
        # The .npy goes first: a reader needs both, and the JSON's checksum vouches for it.
        def save(tmp: Path) -> None:
            with tmp.open("wb") as handle:
                np.save(handle, array, allow_pickle=False)

        _write_atomic(npy, save)
        _write_atomic(meta_path, lambda tmp: tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8"))
    except OSError as exc:
        warnings.warn(f"could not write embedding cache {npy}: {exc}", CacheWarning, stacklevel=3)
    return array, npy


def load_or_build_json(label: str, key: Mapping[str, Any], build: Callable[[], Any]) -> Any:
    """Like :func:`load_or_build` for a JSON-able value (a filtered word list, say).

    Word filters (stopwords from scikit-learn, lemmas from lemminflect, 30,000 frequency
    look-ups) cost seconds at every start and give the same list every time, so the list is
    kept beside the vectors, under a key naming every library version it depends on.
    """
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")[:60] or "list"
    path = cache_root() / "lists" / f"{slug}-{key_digest(key)[:20]}.json"
    if path.exists():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            payload = json.dumps(stored["value"], sort_keys=True)
            if stored.get("format") != CACHE_FORMAT or stored.get("key") != json.loads(json.dumps(key)):
                raise ValueError("cache key mismatch")
            if hashlib.sha256(payload.encode("utf-8")).hexdigest() != stored.get("sha256"):
                raise ValueError("checksum mismatch")
            return stored["value"]
        except Exception as exc:  # noqa: BLE001 - any unreadable cache is rebuilt
            warnings.warn(f"rebuilding list cache {path}: {exc}", CacheWarning, stacklevel=3)
    value = build()
    payload = json.dumps(value, sort_keys=True)
    stored = {"format": CACHE_FORMAT, "key": key, "value": value,
              "sha256": hashlib.sha256(payload.encode("utf-8")).hexdigest()}
    try:
        _write_atomic(path, lambda tmp: tmp.write_text(json.dumps(stored), encoding="utf-8"))
    except OSError as exc:
        warnings.warn(f"could not write list cache {path}: {exc}", CacheWarning, stacklevel=3)
    return value


def load_or_build_arrays(label: str, key: Mapping[str, Any], build: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Like :func:`load_or_build` for several arrays of any shape (an index of word pairs),
    kept together in one ``.npz`` whose checksum is stored beside it."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")[:60] or "arrays"
    stem = cache_root() / "arrays" / f"{slug}-{key_digest(key)[:20]}"
    npz, meta_path = stem.with_suffix(".npz"), stem.with_suffix(".json")
    if npz.exists() or meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta.get("format") != CACHE_FORMAT or meta.get("key") != json.loads(json.dumps(key)):
                raise ValueError("cache key mismatch")
            if hashlib.sha256(npz.read_bytes()).hexdigest() != meta.get("sha256"):
                raise ValueError("checksum mismatch")
            with np.load(npz, allow_pickle=False) as stored:
                return {name: stored[name] for name in stored.files}
        except Exception as exc:  # noqa: BLE001 - any unreadable cache is rebuilt
            warnings.warn(f"rebuilding array cache {npz}: {exc}", CacheWarning, stacklevel=3)
    arrays = build()
    try:
        def save(tmp: Path) -> None:
            with tmp.open("wb") as handle:
                np.savez(handle, **arrays)

        _write_atomic(npz, save)
        meta = {"format": CACHE_FORMAT, "key": key, "sha256": hashlib.sha256(npz.read_bytes()).hexdigest()}
        _write_atomic(meta_path, lambda tmp: tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8"))
    except OSError as exc:
        warnings.warn(f"could not write array cache {npz}: {exc}", CacheWarning, stacklevel=3)
    return arrays


def _rows_path(label: str, key: Mapping[str, Any]) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")[:60] or "rows"
    return cache_root() / "words" / f"{slug}-{key_digest(key)[:20]}.npz"


def _rows_checksum(words: np.ndarray, vectors: np.ndarray) -> str:
    digest = hashlib.sha256("\n".join(words.tolist()).encode("utf-8"))
    digest.update(np.ascontiguousarray(vectors).tobytes())
    return digest.hexdigest()


def _read_rows(path: Path, key: Mapping[str, Any]) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as stored:
        meta = json.loads(str(stored["meta"]))
        words, vectors = stored["words"], stored["vectors"]
    if meta.get("format") != CACHE_FORMAT or meta.get("key") != json.loads(json.dumps(key)):
        raise ValueError("cache key mismatch")
    if vectors.dtype != np.float32 or vectors.ndim != 2 or len(vectors) != len(words):
        raise ValueError(f"{len(words)} words but vectors of shape {vectors.shape} {vectors.dtype}")
    if _rows_checksum(words, vectors) != meta.get("sha256"):
        raise ValueError("checksum mismatch")
    return dict(zip(words.tolist(), vectors))


def load_rows(label: str, key: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Word -> float32 row from the word store of ``key``; {} when there is none yet. A damaged
    or partial store warns that its words will be encoded again, and is replaced on the next
    :func:`save_rows` (nothing the caller asks for is lost: it is recomputed)."""
    path = _rows_path(label, key)
    if not path.exists():
        return {}
    try:
        return _read_rows(path, key)
    except Exception as exc:  # noqa: BLE001 - any unreadable store is rebuilt
        warnings.warn(f"rebuilding word store {path}: its words will be encoded again ({exc})",
                      CacheWarning, stacklevel=3)
        return {}


def save_rows(label: str, key: Mapping[str, Any], rows: Mapping[str, np.ndarray]) -> None:
    """Add ``rows`` to the word store of ``key`` (merged with what is on disk now) in one file,
    written to a temporary name and renamed: a process starting meanwhile reads the old store
    or the new one, never a mix. Two processes adding at once may each keep only their own
    words (the other's are encoded again later), but neither corrupts the store."""
    if not rows:
        return
    path = _rows_path(label, key)
    merged: dict[str, np.ndarray] = {}
    if path.exists():
        try:
            merged = _read_rows(path, key)
        except Exception:  # noqa: BLE001 - a damaged store is replaced by this one
            merged = {}
    merged.update(rows)
    words = np.array(list(merged), dtype=str)
    vectors = np.ascontiguousarray(np.stack(list(merged.values())), dtype=np.float32)
    meta = {"format": CACHE_FORMAT, "key": key, "shape": list(vectors.shape),
            "sha256": _rows_checksum(words, vectors)}

    def save(tmp: Path) -> None:
        with tmp.open("wb") as handle:
            np.savez(handle, words=words, vectors=vectors, meta=np.array(json.dumps(meta)))

    try:
        _write_atomic(path, save)
    except OSError as exc:
        warnings.warn(f"could not write word store {path}: {exc}", CacheWarning, stacklevel=3)


def _arrays_checksum(arrays: Mapping[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}\0{a.dtype.str}\0{a.shape}\n".encode("utf-8"))
        digest.update(a.tobytes())
    return digest.hexdigest()


def read_shipped(path: Path, key: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
    """The arrays of a cache file shipped inside the package (``write_shipped``), or None when
    there is none or it was built for another key (other source data or settings: the caller
    then builds its own). A damaged file warns and gives None, so it is rebuilt, not trusted."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as stored:
            meta = json.loads(str(stored["meta"]))
            if meta.get("format") != CACHE_FORMAT or meta.get("key") != json.loads(json.dumps(key)):
                return None
            arrays = {name: stored[name] for name in stored.files if name != "meta"}
        if _arrays_checksum(arrays) != meta.get("sha256"):
            raise ValueError("checksum mismatch")
        return arrays
    except Exception as exc:  # noqa: BLE001 - a damaged shipped file is rebuilt locally
        warnings.warn(f"not using the shipped cache {path} ({exc}); building it instead", CacheWarning, stacklevel=3)
        return None


def write_shipped(path: Path, key: Mapping[str, Any], arrays: Mapping[str, np.ndarray],
                  provenance: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``arrays`` (compressed) with their key, checksum and provenance; returns the meta."""
    meta = {"format": CACHE_FORMAT, "key": key, "sha256": _arrays_checksum(arrays), **provenance}

    def save(tmp: Path) -> None:
        with tmp.open("wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)

    _write_atomic(path, save)
    return meta
