"""A resumed run never joins two models' games (issue 41 item 8): every result line records
the sha256 of the user files its specs name (``vectors:PATH``, ``file.py:Class``), and a
results file whose file changed since is refused, naming the spec."""

from __future__ import annotations

import json

import pytest
from test_sim_scripted import scripted_factory
from typer.testing import CliRunner

from spymaster_ai.provenance import file_sha256, source_hashes
from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import ResultsFileError, run_games

TINY = "apple 0.1 0.2 0.3\nbanana 0.2 0.1 0.0\n"


def any_spec_random(role: str, spec: str):
    """The scripted random agents, whatever file the spec names (the runner's checks are under test)."""
    return scripted_factory(role, "random")


def _files(tmp_path):
    vectors = tmp_path / "tiny.txt"
    vectors.write_text(TINY)
    plugin = tmp_path / "my_agent.py"
    plugin.write_text("class G:\n    pass\n")
    return vectors, plugin


def test_source_hashes_name_vector_files_and_plug_in_sources_in_any_position(tmp_path):
    vectors, plugin = _files(tmp_path)
    specs = {"spymaster": f"robust:partner=vectors:{vectors}+glove50", "guesser": f"{plugin}:G:risk=0.5",
             "other": f"ensemble:vectors:{vectors}+minilm", "builtin": "glove50"}
    assert source_hashes(specs) == {f"vectors:{vectors}": file_sha256(vectors), f"{plugin}:G": file_sha256(plugin)}
    assert source_hashes({"spymaster": "glove50", "guesser": "random"}) == {}


def _run(path, spy, guesser="random", games=4):
    return run_games("duet", lineup("duet", spy, guesser), games=games, seed=3, results_path=path,
                     factory=any_spec_random)


def test_every_line_records_the_files_hash_and_an_unchanged_file_resumes(tmp_path):
    vectors, _ = _files(tmp_path)
    path = tmp_path / "r.jsonl"
    _run(path, f"vectors:{vectors}", games=2)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert all(x["sources"] == {f"vectors:{vectors}": file_sha256(vectors)} for x in lines)
    assert _run(path, f"vectors:{vectors}").played == 2  # the same file: resumed
    plain = tmp_path / "plain.jsonl"
    _run(plain, "random", games=2)
    assert all("sources" not in json.loads(x) for x in plain.read_text().splitlines())  # built-ins: as before


@pytest.mark.parametrize("which", ["vectors", "plugin"])
def test_a_resume_after_the_file_changed_is_refused_naming_the_spec(tmp_path, which):
    vectors, plugin = _files(tmp_path)
    spy, guesser = (f"vectors:{vectors}", "random") if which == "vectors" else ("random", f"{plugin}:G")
    path = tmp_path / "r.jsonl"
    _run(path, spy, guesser, games=2)
    before = path.read_bytes()
    if which == "vectors":
        vectors.write_text(TINY.replace("0.3", "0.9"))  # another model under the same spec
    else:
        plugin.write_text("class G:\n    risk = 1\n")  # an edited plug-in
    named = spy if which == "vectors" else guesser
    with pytest.raises(ResultsFileError) as caught:
        _run(path, spy, guesser)
    message = str(caught.value)
    assert "\n" not in message and f"agent spec {named} changed" in message and str(path) in message
    assert path.read_bytes() == before  # left as it was


def test_bench_resume_after_a_vectors_file_changed_exits_2_in_one_line(tmp_path):
    from spymaster_ai.cli import bench_cmds  # noqa: F401  (registers the commands)
    from spymaster_ai.cli.app import app

    vectors, _ = _files(tmp_path)
    path = tmp_path / "r.jsonl"
    _run(path, f"vectors:{vectors}", games=2)  # as an interrupted bench run left it
    vectors.write_text(TINY + "cherry 0.3 0.3 0.3\n")
    result = CliRunner().invoke(app, ["bench", "duet", "--games", "4", "--seed", "3", "--spymaster",
                                      f"vectors:{vectors}", "--guesser", "random", "--results", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"agent spec vectors:{vectors} changed" in lines[0]
