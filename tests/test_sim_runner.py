"""run_games: byte-identical result files for any number of processes, resume after an
interruption (torn line, killed process), refusal of another run's file, agents built once."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import pytest
from test_sim_scripted import scripted_factory

from spymaster_ai import provenance
from spymaster_ai.sim import runner
from spymaster_ai.sim.backends import BackendError, ChunkJob, LocalBackend, play_chunk
from spymaster_ai.sim.play import PlayOptions, lineup
from spymaster_ai.sim.runner import ResultsFileError, dump_result_line, run_games

TESTS = Path(__file__).parent


def run(tmp: Path | None, name: str, game="duet", spec="random", games=24, seed=11, **kw):
    path = tmp / name if tmp else None
    out = run_games(game, lineup(game, spec, spec), games=games, seed=seed, results_path=path,
                    factory=scripted_factory, **kw)
    return out, path


@pytest.mark.parametrize("game", ["duet", "classic"])
def test_same_seed_byte_identical_files_with_1_and_2_processes(tmp_path, game):
    one, p1 = run(tmp_path, "one.jsonl", game=game, jobs=1)
    two, p2 = run(tmp_path, "two.jsonl", game=game, jobs=2, chunk_size=5)
    assert p1.read_bytes() == p2.read_bytes()
    assert [r.index for r in one.results] == list(range(24))
    assert one.summary()["win_rate"] == two.summary()["win_rate"]
    lines = p1.read_text().splitlines()
    assert len(lines) == 24 and [line for line in lines] == [dump_result_line(r) for r in one.results]


def test_other_seed_other_file(tmp_path):
    _, a = run(tmp_path, "a.jsonl", seed=1, games=6)
    _, b = run(tmp_path, "b.jsonl", seed=2, games=6)
    assert a.read_bytes() != b.read_bytes()


def test_resume_after_partial_run_and_torn_line_gives_the_same_file(tmp_path):
    full, p_full = run(tmp_path, "full.jsonl", games=30)
    part, p = run(tmp_path, "part.jsonl", games=30, indices=[0, 1, 2, 3, 4, 5, 6, 7, 8, 20])
    assert part.played == 10
    with p.open("a") as handle:  # an interrupted write leaves half a line
        handle.write(dump_result_line(full.results[9])[:57])
    resumed, _ = run(tmp_path, "part.jsonl", games=30, jobs=2)
    assert resumed.played == 20 and resumed.resumed == 10
    assert p.read_bytes() == p_full.read_bytes()
    assert resumed.summary()["win_rate"] == full.summary()["win_rate"]
    again, _ = run(tmp_path, "part.jsonl", games=30)
    assert again.played == 0 and p.read_bytes() == p_full.read_bytes()


def test_resume_after_killing_the_process(tmp_path):
    """A run killed midway (SIGKILL) and resumed ends with the uninterrupted run's file."""
    target = tmp_path / "killed.jsonl"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(TESTS)!r})
        import test_sim_scripted as s
        from spymaster_ai.sim.play import lineup
        from spymaster_ai.sim.runner import run_games
        def slow(role, spec):
            agent = s.scripted_factory(role, spec)
            if role.endswith("spymaster"):
                give = agent.give_clue
                def give_slowly(view):
                    time.sleep(0.01)
                    return give(view)
                agent.give_clue = give_slowly
            return agent
        run_games("duet", lineup("duet", "random", "random"), games=200, seed=11,
                  results_path={str(target)!r}, factory=slow)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if target.exists() and len(target.read_bytes().splitlines()) >= 8:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    saved = len(target.read_bytes().splitlines())
    assert 8 <= saved < 200, "the run should have been killed midway"
    assert target.with_name("killed.jsonl.lock").exists()  # the dead run's lock file stays, its lock does not
    resumed, _ = run(tmp_path, "killed.jsonl", games=200)
    assert resumed.played <= 200 - saved + 1  # at most a torn last line is played again
    full, p_full = run(tmp_path, "full.jsonl", games=200, jobs=2)
    assert target.read_bytes() == p_full.read_bytes()
    assert not target.with_name("killed.jsonl.lock").exists()
    assert resumed.summary()["wins"] == full.summary()["wins"]


def test_a_second_run_on_a_results_file_in_use_is_refused_and_nothing_is_lost(tmp_path, monkeypatch):
    """Two runs given one results file (seeds 1 and 2): while the first plays, the second is
    refused at once; the first keeps every game (a second writer used to erase them)."""
    monkeypatch.setattr(runner, "_AGENTS", {})
    path = tmp_path / "mix.jsonl"
    second = []

    def meddling(role, spec):  # builds the first run's agents, while it holds the file
        if not second:
            try:
                run_games("duet", lineup("duet", "random", "random"), games=4, seed=2, results_path=path,
                          factory=scripted_factory)
                second.append("accepted")
            except ResultsFileError as exc:
                second.append(str(exc))
        return scripted_factory(role, spec)

    first = run_games("duet", lineup("duet", "random", "random"), games=4, seed=1, results_path=path, factory=meddling)
    assert len(second) == 1 and second[0].startswith(f"{path} is in use by another run"), second
    alone, p_alone = run(tmp_path, "alone.jsonl", games=4, seed=1)
    assert path.read_bytes() == p_alone.read_bytes() and first.played == 4
    assert not path.with_name("mix.jsonl.lock").exists()  # released, and no lock file left behind
    again, _ = run(tmp_path, "mix.jsonl", games=4, seed=1)
    assert again.played == 0


def test_only_one_game_equals_that_game_of_the_full_run(tmp_path):
    full, _ = run(None, "", games=12)
    alone, _ = run(None, "", games=12, indices=[7])
    assert [r.index for r in alone.results] == [7]
    assert dump_result_line(alone.results[0]) == dump_result_line(full.results[7])


def test_results_file_of_another_run_is_refused_and_left_alone(tmp_path):
    _, p = run(tmp_path, "r.jsonl", games=4)
    before = p.read_bytes()
    with pytest.raises(ResultsFileError, match="another run"):
        run(tmp_path, "r.jsonl", games=4, seed=12)
    with pytest.raises(ResultsFileError, match="another run"):
        run(tmp_path, "r.jsonl", games=4, spec="codebook:2")
    with pytest.raises(ResultsFileError, match="another run"):
        run(tmp_path, "r.jsonl", games=4, options=PlayOptions(tokens=11))
    assert p.read_bytes() == before
    other = tmp_path / "notes.jsonl"
    other.write_text('{"a": 1}\nhello\n{"b": 2}\n')
    with pytest.raises(ResultsFileError, match="not a game result"):
        run(tmp_path, "notes.jsonl", games=4)
    assert other.read_text() == '{"a": 1}\nhello\n{"b": 2}\n'


def _rewrite(path: Path, change) -> None:
    """Rewrite every line of a results file through ``change`` (a dict -> None edit)."""
    lines = []
    for line in path.read_text().splitlines():
        data = json.loads(line)
        change(data)
        lines.append(dump_result_line(data))
    path.write_text("\n".join(lines) + "\n")


def test_every_game_records_the_versions_that_played_it(tmp_path):
    _, p = run(tmp_path, "r.jsonl", games=3, jobs=2, chunk_size=1)
    assert [json.loads(line)["environment"] for line in p.read_text().splitlines()] == [provenance.environment()] * 3


def test_a_file_played_under_other_library_versions_is_refused_and_left_alone(tmp_path):
    _, p = run(tmp_path, "r.jsonl", games=6, indices=[0, 1, 2])

    def older_numpy(data):
        data["environment"]["packages"]["numpy"] = "1.0.0"

    _rewrite(p, older_numpy)
    before = p.read_bytes()
    here = provenance.environment()["packages"]["numpy"]
    with pytest.raises(ResultsFileError, match=rf"other library versions: its game 0 has numpy 1\.0\.0 \(here {here}\)"):
        run(tmp_path, "r.jsonl", games=6)
    assert p.read_bytes() == before


def test_every_line_carries_the_sha256_of_the_rest_of_it(tmp_path):
    _, p = run(tmp_path, "r.jsonl", games=3)
    for line in p.read_text().splitlines():
        data = json.loads(line)
        digest = data.pop("checksum")
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert digest == hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def test_an_edited_result_line_is_refused_naming_the_file_and_line(tmp_path):
    """A hand edit (one game's "won" flipped) used to be resumed into the figures."""
    _, p = run(tmp_path, "r.jsonl", games=6, indices=[0, 1, 2])
    lines = p.read_text().splitlines()
    data = json.loads(lines[1])
    data["won"] = not data["won"]  # the checksum left as it was
    lines[1] = json.dumps(data, sort_keys=True, separators=(",", ":"))
    p.write_text("\n".join(lines) + "\n")
    before = p.read_bytes()
    with pytest.raises(ResultsFileError, match=rf"{re.escape(str(p))} line 2 does not match its checksum"):
        run(tmp_path, "r.jsonl", games=6)
    assert p.read_bytes() == before


def test_a_file_from_before_checksums_is_refused_with_a_rerun_hint(tmp_path):
    """Lines without a checksum (an older results file, or one written by hand) cannot be told
    from edited ones: refused, and left as they were."""
    _, p = run(tmp_path, "old.jsonl", games=6, indices=[0, 1, 2])
    old = []
    for line in p.read_text().splitlines():
        data = json.loads(line)
        data.pop("checksum", None)
        data.pop("environment")  # as written before environments were kept
        old.append(json.dumps(data, sort_keys=True, separators=(",", ":")))
    p.write_text("\n".join(old) + "\n")
    with pytest.raises(ResultsFileError, match=rf"{re.escape(str(p))} line 1 has no checksum.*rerun"):
        run(tmp_path, "old.jsonl", games=6)
    assert p.read_text().splitlines() == old


def test_games_from_a_worker_with_other_versions_stop_the_run(tmp_path, monkeypatch):
    """A cluster worker whose install differs from the driver's: refused, not averaged in."""
    driver = provenance.environment()
    driver["packages"]["torch"] = "0.0.1"
    monkeypatch.setattr(runner, "environment", lambda: driver)
    with pytest.raises(BackendError, match=r"other library versions \(torch .* \(here 0\.0\.1\)\)"):
        run(tmp_path, "r.jsonl", games=2)


def test_differences_names_each_changed_item_and_skips_what_only_one_side_looked_up():
    ours = {"python": "3.11.7", "machine": "Linux x86_64", "packages": {"numpy": "2.4.6", "torch": "2.13.0", "new": "1"}}
    theirs = {"python": "3.12.0", "machine": "Linux x86_64", "packages": {"numpy": "2.4.6", "torch": None, "gone": "3"}}
    assert provenance.differences(theirs, ours) == ["python 3.12.0 (here 3.11.7)", "torch absent (here 2.13.0)"]
    assert provenance.differences(ours, ours) == []


@pytest.mark.parametrize(
    "content",
    [
        '{"games": 2, "win_rate": 0.5}\n',  # a bench summary (--json) given as --results
        "[1, 2]\n",
        '{"index": 1}\n',
        "hello\n",  # one line of notes: not JSON, but not the start of a result line either
    ],
)
def test_a_file_of_another_kind_is_refused_not_overwritten(tmp_path, content):
    """Only a last line that is the start of a result line is taken for an interrupted write;
    any other file given as the results file is left as it was."""
    other = tmp_path / "other.json"
    other.write_text(content)
    with pytest.raises(ResultsFileError, match="not a game result"):
        run(tmp_path, "other.json", games=2)
    assert other.read_text() == content


def test_a_folder_or_a_binary_file_is_refused_with_a_clear_error(tmp_path):
    (tmp_path / "folder.jsonl").mkdir()
    with pytest.raises(ResultsFileError, match="is a folder"):
        run(tmp_path, "folder.jsonl", games=2)
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ResultsFileError, match="not UTF-8"):
        run(tmp_path, "bin.jsonl", games=2)
    assert binary.read_bytes() == b"\xff\xfe\x00garbage"


@pytest.mark.parametrize("cut", [3, 9, 57])
def test_a_torn_line_cut_anywhere_is_played_again(tmp_path, cut):
    full, p_full = run(tmp_path, "full.jsonl", games=4)
    part, p = run(tmp_path, "part.jsonl", games=4, indices=[0, 1, 2])
    with p.open("a") as handle:
        handle.write(dump_result_line(full.results[3])[:cut])
    resumed, _ = run(tmp_path, "part.jsonl", games=4)
    assert resumed.played == 1 and p.read_bytes() == p_full.read_bytes()


class _Enough(Exception):
    pass


class _FirstChunksOnly(runner.Backend):
    """Plays the first ``count`` chunks it is handed (in this process), then ends the run."""

    name = "first-chunks"

    def __init__(self, count: int) -> None:
        self.count, self.seen = count, []

    @property
    def workers(self) -> int:
        return 2

    def play(self, job, chunks):
        for chunk in itertools.islice(chunks, self.count):
            self.seen.append(list(chunk))
            yield play_chunk(job, chunk)
        raise _Enough


def test_a_huge_run_builds_its_work_as_it_goes(tmp_path):
    """--games 100000000 --jobs -1 used to list every index and chunk before the first game
    (5.4 GB). A list of 2**62 indices cannot even be asked for; streamed, a few chunks are."""
    backend = _FirstChunksOnly(3)
    run(None, "", games=2)  # the modules a game imports, imported before memory is traced
    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            run(tmp_path, "huge.jsonl", games=2**62, backend=backend)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = len(backend.seen[0])
    assert backend.seen == [list(range(k * size, (k + 1) * size)) for k in range(3)]
    assert len((tmp_path / "huge.jsonl").read_text().splitlines()) == 3 * size  # what was played is saved
    assert peak < 64 * 2**20  # bytes: flat, whatever --games is


@pytest.mark.filterwarnings("ignore:.*have been cancelled:UserWarning")  # joblib, on the early stop
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_local_backend_takes_chunks_only_as_it_needs_them(jobs):
    job = ChunkJob("duet", lineup("duet", "random", "random"), PlayOptions().to_json(), 11, scripted_factory)
    endless = ([i] for i in itertools.count())
    played = LocalBackend(jobs).play(job, endless)
    batches = [next(played) for _ in range(4)]
    played.close()
    assert all(len(batch) == 1 for batch in batches)


def test_agents_are_built_once_per_process_and_per_role(monkeypatch):
    monkeypatch.setattr(runner, "_AGENTS", {})
    built = []

    def counting(role, spec):
        built.append(role)
        return scripted_factory(role, spec)

    run_games("duet", lineup("duet", "random", "random"), games=10, seed=1, factory=counting)
    run_games("duet", lineup("duet", "random", "random"), games=10, seed=2, factory=counting)
    assert sorted(built) == ["a_guesser", "a_spymaster", "b_guesser", "b_spymaster"]
    agents = runner._agents_for(lineup("duet", "random", "random"), counting)
    assert agents["a_guesser"] is not agents["b_guesser"]  # same spec, separate players


def test_progress_callback_counts_every_game(tmp_path):
    seen = []
    run(None, "", games=9, jobs=2, chunk_size=2, progress=seen.append)
    assert sum(seen) == 9


def test_bad_arguments():
    specs = lineup("duet", "random", "random")
    with pytest.raises(ValueError, match="positive"):
        run_games("duet", specs, games=0, seed=1, factory=scripted_factory)
    with pytest.raises(ValueError, match="unknown game"):
        run_games("chess", specs, games=1, seed=1, factory=scripted_factory)
    with pytest.raises(ValueError, match="needs agent specs"):
        run_games("classic", specs, games=1, seed=1, factory=scripted_factory)
    with pytest.raises(ValueError, match="indices"):
        run_games("duet", specs, games=3, seed=1, indices=[3], factory=scripted_factory)


def test_progress_bar_goes_to_stderr(capsys):
    run(None, "", games=3, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "3/3" in captured.err


class _UnreachableCluster(runner.Backend):
    """A backend that fails before any game comes back (a cluster that cannot be reached)."""

    name = "unreachable"

    @property
    def workers(self) -> int:
        return 1

    def play(self, job, chunks):
        raise RuntimeError("cannot reach the cluster")
        yield  # pragma: no cover - a generator that fails on its first step


def test_a_run_that_fails_before_its_first_game_leaves_no_empty_results_file(tmp_path):
    path = tmp_path / "r.jsonl"
    with pytest.raises(RuntimeError, match="cannot reach"):
        run(tmp_path, "r.jsonl", games=4, backend=_UnreachableCluster())
    assert not path.exists()
    # a file that already held games is kept as it was
    run(tmp_path, "r.jsonl", games=2)
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match="cannot reach"):
        run(tmp_path, "r.jsonl", games=4, backend=_UnreachableCluster())
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "field, value, message",
    [("turns", "abc", "'turns' must be an integer"), ("won", "yes", "'won' must be true or false"),
     ("agents", {"spymaster": 3}, "'agents' must map roles"), ("record", "x", "'record' must be a JSON object"),
     ("score", [1], "'score' must be an integer or a number or null"),
     # the right type, but no game gives it (they shifted a resumed run's figures)
     ("turns", -5, "'turns' must not be negative"), ("loss_cause", "bogus", "'loss_cause' must be one of"),
     ("score", 1e308, "'score' must be a number from -1 to"), ("score", -2, "'score' must be a number from -1 to"), ("words_per_clue", float("nan"), "'words_per_clue' must be"),
     (None, {"won": True, "loss_cause": "assassin"}, "says won but names the loss cause")],
)
def test_a_forged_result_line_with_a_recomputed_checksum_is_refused_naming_the_field(tmp_path, field, value, message):
    """issue 41 item 10: the checksum is unkeyed, so a forged line passes it ("turns":"abc"
    was a traceback in the summary); each field's type is checked as the line is read."""
    _, p = run(tmp_path, "r.jsonl", games=6, indices=[0, 1, 2])
    _rewrite(p, lambda data: data.update({field: value} if field else value))  # checksums recomputed
    before = p.read_bytes()
    with pytest.raises(ResultsFileError, match=rf"{re.escape(str(p))} line 1 is not a game result .*{re.escape(message)}"):
        run(tmp_path, "r.jsonl", games=6)
    assert p.read_bytes() == before


def test_a_duet_win_in_sudden_death_scoring_minus_one_is_read_back(tmp_path):
    """RULES.md section 3: 3 x 0 tokens + 0 stops - 1 for sudden death. A 200-game bench
    (human spymaster, minilm guesser, seed 0) crashed on two such wins when 0 was the floor."""
    _, p = run(tmp_path, "r.jsonl", games=6, indices=[0, 1, 2])
    _rewrite(p, lambda data: data.update({"won": True, "loss_cause": None, "score": -1}))  # checksums recomputed
    out, _ = run(tmp_path, "r.jsonl", games=6)
    assert sorted(r.score for r in out.results if r.index < 3) == [-1, -1, -1]


class _DiesAfterOneChunk(LocalBackend):
    """Plays the first chunk, then loses its worker, as loky does when a worker is SIGKILLed."""

    def play(self, job, chunks):
        from spymaster_ai.sim.backends import WorkerLostError

        yield play_chunk(job, next(iter(chunks)))
        raise WorkerLostError("a worker process ended mid-run (killed, or out of memory?) (exit code -9)")


@pytest.mark.parametrize("keep", [True, False])
def test_a_lost_worker_says_what_is_kept_and_how_to_resume(tmp_path, keep):
    from spymaster_ai.sim.backends import WorkerLostError

    path = tmp_path / "r.jsonl" if keep else None
    kw = dict(games=6, seed=3, factory=scripted_factory, chunk_size=2, results_path=path)
    with pytest.raises(WorkerLostError) as lost:
        run_games("duet", lineup("duet", "random", "random"), backend=_DiesAfterOneChunk(2), **kw)
    message = str(lost.value)
    assert "\n" not in message and "exit code -9" in message
    if keep:
        assert f"the 2 game(s) finished are kept in {path}: the same command resumes from there" in message
        again = run_games("duet", lineup("duet", "random", "random"), **kw)
        assert (again.resumed, again.played) == (2, 4)
    else:
        assert "run with a results file (--results)" in message


def test_local_backend_turns_a_terminated_worker_into_worker_lost(monkeypatch):
    import joblib
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    from spymaster_ai.sim.backends import WorkerLostError

    class Broken:
        def __init__(self, *a, **k):
            pass

        def __call__(self, tasks):
            raise TerminatedWorkerError("... The exit codes of the workers are {SIGKILL(-9)}")

    monkeypatch.setattr(joblib, "Parallel", Broken)
    job = ChunkJob("duet", lineup("duet", "random", "random"), PlayOptions().to_json(), 0, scripted_factory, None)
    with pytest.raises(WorkerLostError, match=r"ended mid-run .*\(exit code -9\)$"):
        list(LocalBackend(2).play(job, [[0], [1], [2]]))
