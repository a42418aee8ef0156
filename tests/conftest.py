"""Fixtures shared by several test files."""

from __future__ import annotations

import tempfile
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
