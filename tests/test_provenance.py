"""spymaster_ai.provenance: the versions a result file records beside its figures."""

from __future__ import annotations

import platform

import numpy as np

from spymaster_ai import provenance


def test_environment_names_every_figure_package_with_its_installed_version():
    env = provenance.environment()
    assert env["python"] == platform.python_version()
    assert list(env["packages"]) == list(provenance.FIGURE_PACKAGES)
    assert env["packages"]["numpy"] == np.__version__
    assert env["packages"]["torch"].startswith("2.13.0")  # the pinned CPU build


def test_an_absent_package_is_recorded_as_none(monkeypatch):
    monkeypatch.setattr(provenance, "FIGURE_PACKAGES", ("numpy", "no-such-distribution-xyz"))
    assert provenance.environment()["packages"] == {"numpy": np.__version__, "no-such-distribution-xyz": None}


def test_versions_line_names_python_and_the_present_packages_only():
    env = {"python": "3.11.7", "machine": "Linux x86_64", "packages": {"numpy": "2.4.6", "gensim": None, "torch": "2.13.0+cpu"}}
    assert provenance.versions_line(env) == "Python 3.11.7 (Linux x86_64); numpy 2.4.6, torch 2.13.0+cpu"
    assert provenance.versions_line().startswith(f"Python {provenance.environment()['python']} (")
