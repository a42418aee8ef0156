"""Issue 42 item 1: every output says what made it: the code (commit and dirty flag from a
checkout, else the version), each agent's resolved parameters, user files' sha256 and the
library versions; older results files still resume, and game content is unchanged."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import spymaster_ai
from spymaster_ai import provenance
from spymaster_ai.agents import registry
from spymaster_ai.agents.registry import AgentSpecError, resolve_spec
from spymaster_ai.cli.app import _register, app
from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import ResultsFileError, dump_result_line, in_process_factory, run_games

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "experiments" / "example_agent.py"
SPY = f"{EXAMPLE}:WordListSpymaster"
GUESS = f"{EXAMPLE}:LetterOverlapGuesser:limit=2"


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def test_code_version_names_this_checkouts_commit_and_whether_the_package_differs_from_it():
    code = provenance.code_version()
    assert code["version"] == spymaster_ai.__version__
    assert code["commit"] == _git("rev-parse", "HEAD")
    changed = _git("status", "--porcelain", "--untracked-files=all", "--", "spymaster_ai", "pyproject.toml")
    assert code["dirty"] is any(not line.endswith(".pyc") for line in changed.splitlines())


def test_outside_a_checkout_only_the_version_is_known(monkeypatch):
    monkeypatch.setattr(provenance, "_git", lambda root, *args: None)
    provenance._code.cache_clear()
    try:
        assert provenance.code_version() == {"version": spymaster_ai.__version__}
        assert provenance.code_line() == f"spymaster_ai {spymaster_ai.__version__} (installed package, no checkout)"
    finally:
        provenance._code.cache_clear()


def test_the_version_is_one_in_pyproject_the_package_and_the_citation_file():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert project["version"] == spymaster_ai.__version__ == str(citation["version"])
    assert citation["cff-version"] == "1.2.0" and citation["license"] == project["license"]
    assert citation["authors"] == [{"name": "spymaster_ai contributors"}]
    assert "repository-code" not in citation
    titles = " ".join(ref["title"] for ref in citation["references"])
    assert "Codenames Duet" in titles and "Cooperation and Codenames" in titles
    assert f"## {spymaster_ai.__version__} (" in (ROOT / "CHANGELOG.md").read_text()


def test_resolved_parameters_are_the_registry_defaults_not_the_constructors():
    robust = resolve_spec("spymaster", "robust")
    assert robust["class"] == "spymaster_ai.agents.spymaster.EmbeddingSpymaster"
    p = robust["parameters"]
    assert p["warn_cards"] == registry.WARN_CARDS and p["backward_strength"] == registry.BACKWARD_STRENGTH
    assert p["embedding"] == "minilm" and p["partner"] == registry.DEFAULT_PARTNER
    assert resolve_spec("spymaster", "robust:risk=0.25")["parameters"]["risk"] == 0.25  # the spec's value wins
    assert resolve_spec("spymaster", "glove50:bold=true")["parameters"]["warn_cards"] == 0  # bold's values
    assert resolve_spec("guesser", "glove50")["parameters"]["embedding"] == "glove50"
    learner = resolve_spec("spymaster", "learner")["parameters"]  # a subclass taking **kwargs lists its base's
    assert {"carry", "risk", "warn_cards"} <= set(learner)


def test_resolving_a_bad_spec_fails_as_checking_it_does():
    with pytest.raises(AgentSpecError, match="unknown parameter"):
        resolve_spec("guesser", "glove50:nonsense=1")


def test_a_plug_in_resolves_in_its_own_process_with_its_constructors_defaults():
    # Isolated: computed by the child that checks the spec (the module is never imported here).
    assert resolve_spec("guesser", GUESS) == {"class": "_spymaster_agent_example_agent.LetterOverlapGuesser",
                                              "parameters": {"limit": 2}}


def _run(path, spy=SPY, guesser=GUESS, games=3, **kw):
    return run_games("kim2019", lineup("kim2019", spy, guesser), games=games, seed=5, results_path=path,
                     factory=in_process_factory, **kw)


def test_every_results_line_and_the_summary_carry_the_code_and_resolved_parameters(tmp_path):
    path = tmp_path / "r.jsonl"
    run = _run(path)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for line in lines:
        made = line["provenance"]
        assert made["code"] == provenance.code_version()
        assert made["parameters"]["guesser"]["parameters"] == {"limit": 2}
        assert made["parameters"]["spymaster"]["parameters"]["words"].startswith("animal+")
        assert line["sources"] == {f"{EXAMPLE}:WordListSpymaster": provenance.file_sha256(EXAMPLE),
                                   f"{EXAMPLE}:LetterOverlapGuesser": provenance.file_sha256(EXAMPLE)}
    summary = run.summary()["provenance"]
    assert summary["environment"] == provenance.environment()
    assert summary["played_by"] == [{"code": provenance.code_version(), "games": 3}]


def _as_older_file(path: Path) -> None:
    """Rewrite a results file as one from before provenance was kept (its checksums recomputed)."""
    old = []
    for text in path.read_text().splitlines():
        data = json.loads(text)
        del data["provenance"]
        old.append(dump_result_line(data))
    path.write_text("\n".join(old) + "\n")


def test_an_older_results_file_resumes_and_its_games_content_is_unchanged(tmp_path):
    fresh = tmp_path / "fresh.jsonl"
    _run(fresh, games=5)
    older = tmp_path / "older.jsonl"
    _run(older, games=3)
    _as_older_file(older)
    resumed = _run(older, games=5)
    assert resumed.played == 2 and resumed.resumed == 3
    a = [json.loads(x) for x in fresh.read_text().splitlines()]
    b = [json.loads(x) for x in older.read_text().splitlines()]
    assert ["provenance" in x for x in b] == [False, False, False, True, True]  # old lines stay as written
    strip = lambda x: {k: v for k, v in x.items() if k not in ("provenance", "checksum")}  # noqa: E731
    assert [strip(x) for x in a] == [strip(x) for x in b]  # the games themselves: identical
    assert resumed.summary()["provenance"]["played_by"] == [{"code": None, "games": 3},
                                                            {"code": provenance.code_version(), "games": 2}]


def test_a_resume_under_another_commit_is_kept_but_changed_parameters_are_refused(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    _run(path, spy="closest:min_zipf=3.0", guesser="random", games=2)
    monkeypatch.setattr(provenance, "_code", lambda: (("version", "9.9.9"), ("commit", "f" * 40), ("dirty", False)))
    again = _run(path, spy="closest:min_zipf=3.0", guesser="random", games=3)
    assert again.played == 1 and len(again.summary()["provenance"]["played_by"]) == 2
    before = path.read_bytes()
    monkeypatch.setattr(registry, "_resolved", lambda cls, values, models=None: provenance.resolved_parameters(
        cls, {**values, "vocabulary_size": 123}, models or {}))
    with pytest.raises(ResultsFileError, match=r"spymaster's vocabulary_size is 123 \(was 30000\)"):
        _run(path, spy="closest:min_zipf=3.0", guesser="random", games=4)
    assert path.read_bytes() == before


runner = CliRunner()
_register()  # the commands are registered on app by importing their modules


def test_bench_json_carries_commit_parameters_and_versions(tmp_path):
    out = tmp_path / "b.json"
    got = runner.invoke(app, ["bench", "kim2019", "--games", "2", "--spymaster", SPY, "--guesser", GUESS,
                              "--out", str(out), "--json", "--no-progress"])
    assert got.exit_code == 0, got.output
    report = json.loads(out.read_text())
    made = report["provenance"]
    assert made["code"]["commit"] == _git("rev-parse", "HEAD")
    assert made["parameters"]["guesser"]["parameters"] == {"limit": 2}
    assert made["environment"]["packages"]["numpy"] == provenance.environment()["packages"]["numpy"]


def test_tournament_markdown_ends_with_the_code_versions_and_each_agents_parameters(tmp_path):
    md, out = tmp_path / "t.md", tmp_path / "t.json"
    got = runner.invoke(app, ["tournament", "--game", "kim2019", "--spymasters", SPY, "--guessers", f"{GUESS},random",
                              "--games", "2", "--markdown", str(md), "--out", str(out), "--no-progress",
                              "--allow-errors"])  # the word list may run out: an agent error, not the subject here
    assert got.exit_code == 0, got.output
    text = md.read_text()
    assert f"commit {_git('rev-parse', 'HEAD')[:12]}" in text and "numpy " in text
    assert f"- guesser `{GUESS}`: `LetterOverlapGuesser(limit=2)`" in text
    assert "- guesser `random`: `RandomGuesser(seed=0)`" in text
    assert f"sha256 `{provenance.file_sha256(EXAMPLE)}`" in text
    report = json.loads(out.read_text())
    assert report["provenance"]["parameters"]["guessers"]["random"]["class"].endswith("RandomGuesser")


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_a_sweep_plot_file_carries_its_provenance(tmp_path, suffix):
    plot, out = tmp_path / f"s{suffix}", tmp_path / "s.json"
    got = runner.invoke(app, ["sweep", "--game", "kim2019", "--spymaster", SPY, "--guesser", GUESS.rsplit(":", 1)[0], "--grid",
                              "limit=1,3", "--games", "2", "--plot", str(plot), "--out", str(out), "--no-progress"])
    assert got.exit_code == 0, got.output
    commit = _git("rev-parse", "HEAD")
    if suffix == ".png":
        from PIL import Image

        meta = json.loads(Image.open(plot).text["Description"])
    else:
        raw = plot.read_bytes()
        assert commit.encode() in raw  # the JSON sits in the SVG's Description or the PDF's Subject
        report = json.loads(out.read_text())
        meta = {"provenance": report["provenance"], "parameters": [p["parameters"] for p in report["points"]]}
    assert meta["provenance"]["code"]["commit"] == commit
    assert [p["guesser"]["parameters"]["limit"] for p in meta["parameters"]] == [1, 3]
