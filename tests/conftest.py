"""Fixtures shared by several test files."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest


@pytest.fixture
def read_only(monkeypatch):
    """Folders added to the returned set refuse new files, as a read-only folder does for a
    user who is not root (the tests may run as root, for whom chmod would not do)."""
    folders: set = set()
    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kw):
        if dir is not None and Path(dir).resolve() in folders:
            raise PermissionError(13, "Permission denied", str(dir))
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    return folders


@pytest.fixture(autouse=True)
def _no_real_profile(monkeypatch, tmp_path_factory):
    """``play`` keeps the person's profile in the user's data folder: tests never touch it."""
    monkeypatch.setenv("SPYMASTER_AI_PROFILE", str(tmp_path_factory.mktemp("profile") / "profile.json"))


@contextmanager
def small_vocabulary_models(cache_dir, vocab_size: int):
    """Models that encode only the ``vocab_size`` commonest clue words, cached in
    ``cache_dir``, with the command line registered: for module fixtures of tests that play
    whole games (the full vocabularies are the benchmarks' to encode)."""
    from spymaster_ai.cli.app import _register
    from spymaster_ai.embeddings.registry import clear_loaded

    mp = pytest.MonkeyPatch()
    mp.setenv("SPYMASTER_AI_CACHE", str(cache_dir))
    mp.setenv("SPYMASTER_AI_VOCAB_SIZE", str(vocab_size))
    clear_loaded()
    _register()
    try:
        yield
    finally:
        clear_loaded()
        mp.undo()
