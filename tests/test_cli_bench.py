"""``spymaster-ai bench ...`` / ``tournament``: JSON fields, files, replay, bad input (exit 2)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from typer.testing import CliRunner

import spymaster_ai
import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app
from spymaster_ai.provenance import environment
from spymaster_ai.sim.runner import dump_result_line

PERFECT_SPY = "test_sim_scripted:CodebookSpymaster:per_clue=2"
PERFECT_GUESS = "test_sim_scripted:CodebookGuesser"
RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"
REQUIRED = {"game", "games", "seed", "agents", "wins", "win_rate", "ci95", "loss_causes", "mean_turns", "mean_score",
            "seconds", "games_per_second", "version"}

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_bench_json_has_the_contract_fields():
    res = invoke("bench", "kim2019", "--games", 4, "--seed", 3, "--spymaster", PERFECT_SPY, "--guesser", PERFECT_GUESS,
                 "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert REQUIRED <= set(data)
    assert data["game"] == "kim2019" and data["games"] == 4 and data["seed"] == 3
    assert data["agents"] == {"spymaster": PERFECT_SPY, "guesser": PERFECT_GUESS}
    assert data["wins"] == 4 and data["win_rate"] == 1.0 and data["mean_turns"] == 4.0
    lo, hi = data["ci95"]
    assert 0 < lo < 1 and hi == pytest.approx(1.0)
    assert data["version"] == spymaster_ai.__version__
    assert data["environment"] == environment()  # what produced the figures, beside them
    assert set(data["loss_causes"]) >= {"assassin", "timeout", "opponent", "mistake"}


def test_bench_duet_files_resume_only_game_and_replay(tmp_path):
    results, out = tmp_path / "duet.jsonl", tmp_path / "duet.json"
    args = ["bench", "duet", "--games", 6, "--seed", 5, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS,
            "--results", results, "--out", out, "--json"]
    first = invoke(*args)
    assert first.exit_code == 0, first.stderr
    summary = json.loads(out.read_text())
    assert summary == json.loads(first.stdout) | {"seconds": summary["seconds"],
                                                 "games_per_second": summary["games_per_second"]}
    assert len(results.read_text().splitlines()) == 6 and summary["played"] == 6
    again = json.loads(invoke(*args).stdout)
    assert again["played"] == 0 and again["resumed"] == 6 and again["wins"] == summary["wins"]

    alone = invoke("bench", "duet", "--seed", 5, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS,
                   "--only-game", 4, "--json")
    assert alone.exit_code == 0, alone.stderr
    game4 = json.loads(alone.stdout)["result"]
    saved = [json.loads(line) for line in results.read_text().splitlines()]
    assert game4 == saved[4]

    rep = invoke("bench", "replay", results, "--index", 4, "--json")
    assert rep.exit_code == 0, rep.stderr
    data = json.loads(rep.stdout)
    assert data["verified"] and data["index"] == 4 and data["won"] == saved[4]["won"]
    assert invoke("bench", "replay", results, "--index", 99).exit_code == 2


def test_an_edited_result_line_is_refused_by_resume_and_by_replay(tmp_path):
    """A game's "won" set to false by hand used to change the figures on resume, and its
    replay still said "final state verified"."""
    results = tmp_path / "duet.jsonl"
    args = ["bench", "duet", "--games", 6, "--seed", 5, "--spymaster", PERFECT_SPY, "--guesser", PERFECT_GUESS,
            "--results", results, "--json"]
    first = invoke(*args)
    assert first.exit_code == 0, first.stderr
    assert json.loads(first.stdout)["wins"] == 6
    lines = results.read_text().splitlines()
    data = json.loads(lines[3])
    data["won"] = False
    lines[3] = json.dumps(data, sort_keys=True, separators=(",", ":"))
    results.write_text("\n".join(lines) + "\n")
    for res in (invoke(*args), invoke("bench", "replay", results, "--index", data["index"])):
        assert res.exit_code == 2 and res.stdout == "" and "Traceback" not in res.stderr
        err = res.stderr.strip().splitlines()
        assert len(err) == 1 and f"{results} line 4 does not match its checksum" in err[0]
    assert invoke("bench", "replay", results, "--index", 0).exit_code == 0  # the other lines still replay


def test_replay_refuses_a_line_whose_outcome_its_moves_contradict(tmp_path):
    """Someone who recomputes the checksum can still flip "won": the replay ties the line's
    outcome to its moves, so "final state verified" is never printed beside a false figure."""
    results = tmp_path / "duet.jsonl"
    res = invoke("bench", "duet", "--games", 2, "--seed", 5, "--spymaster", PERFECT_SPY, "--guesser", PERFECT_GUESS,
                 "--results", results, "--json")
    assert res.exit_code == 0, res.stderr
    lines = results.read_text().splitlines()
    data = json.loads(lines[1])
    assert data["won"] and data["error"] is None
    data["won"], data["loss_cause"] = False, "timeout"
    lines[1] = dump_result_line(data)  # a checksum that matches the forged line
    results.write_text("\n".join(lines) + "\n")
    res = invoke("bench", "replay", results, "--index", data["index"])
    assert res.exit_code == 2 and "verified" not in res.stdout and "Traceback" not in res.stderr
    assert "won=False" in res.stderr and "its moves give won=True" in res.stderr


def test_replay_refuses_a_line_whose_turns_its_moves_contradict(tmp_path):
    """A forged turn count (checksum recomputed) in range is still not the game's: replay
    counts the turns its moves give, so the line's figure must match them."""
    results = tmp_path / "duet.jsonl"
    res = invoke("bench", "duet", "--games", 1, "--seed", 5, "--spymaster", PERFECT_SPY, "--guesser", PERFECT_GUESS,
                 "--results", results, "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(results.read_text())
    assert invoke("bench", "replay", results, "--index", 0).exit_code == 0
    data["turns"] += 1
    results.write_text(dump_result_line(data) + "\n")
    res = invoke("bench", "replay", results, "--index", 0)
    assert res.exit_code == 2 and "verified" not in res.stdout and "Traceback" not in res.stderr
    assert f"turns={data['turns']}; its moves give" in res.stderr


@pytest.mark.parametrize("game", ["duet", "classic", "solo", "kim2019", "pictures"])
def test_the_outcome_of_every_saved_game_is_the_one_its_moves_replay_to(tmp_path, game):
    """The figures come from the lines; the lines' outcomes must be what their moves give."""
    if game in ("classic", "pictures"):  # each team wins when it starts
        fast = "test_sim_scripted:CodebookSpymaster:per_clue=9"
        lineups = [["--red", fast, "--red-guesser", PERFECT_GUESS, "--blue", fast, "--blue-guesser", PERFECT_GUESS]]
    else:
        lineups = [["--spymaster", s, "--guesser", g] for s, g in ((PERFECT_SPY, PERFECT_GUESS), (RANDOM_SPY, RANDOM_GUESS))]
    outcomes = set()
    for k, who in enumerate(lineups):
        results = tmp_path / f"r{k}.jsonl"
        res = invoke("bench", game, "--games", 4, "--seed", 2, *who, "--results", results, "--json")
        assert res.exit_code == 0, res.stderr
        for line in results.read_text().splitlines():
            saved = json.loads(line)
            rep = invoke("bench", "replay", results, "--index", saved["index"], "--json")
            assert rep.exit_code == 0, rep.stderr
            assert json.loads(rep.stdout)["won"] == saved["won"]
            outcomes.add(saved["won"])
    assert outcomes == {True, False}  # wins and losses both checked


def test_bench_classic_human_output():
    res = invoke("bench", "classic", "--games", 2, "--red", "test_sim_scripted:CodebookSpymaster:per_clue=9",
                 "--red-guesser", PERFECT_GUESS, "--blue", RANDOM_SPY, "--blue-guesser", RANDOM_GUESS,
                 "--no-progress")
    assert res.exit_code == 0, res.stderr
    assert "win rate" in res.stdout and "starting team wins" in res.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["bench", "duet", "--spymaster", "no_such_agent_xyz"], "no_such_agent_xyz"),
        (["bench", "duet", "--games", "0", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS], "--games"),
        (["bench", "duet", "--mission", "atlantis", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS], "mission"),
        (["bench", "solo", "--legality", "lenient", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS], "legality"),
        (["bench", "kim2019", "--jobs", "0", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS], "--jobs"),
        (["bench", "duet", "--guesser", "test_sim_scripted:PoolSpymaster", "--spymaster", RANDOM_SPY], "not a guesser"),
        (["tournament", "--game", "chess", "--agents", RANDOM_GUESS], "unknown game"),
        (["tournament", "--game", "duet", "--agents", RANDOM_GUESS, "--games", "-3"], "--games"),
    ],
)
def test_bad_input_one_line_exit_2(args, message):
    res = invoke(*args)
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert "Traceback" not in res.stderr and res.stdout == ""


def test_results_file_of_another_run_exit_2(tmp_path):
    results = tmp_path / "r.jsonl"
    base = ["bench", "duet", "--games", 2, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS, "--results", results,
            "--json"]
    assert invoke(*base, "--seed", 1).exit_code == 0
    res = invoke(*base, "--seed", 2)
    assert res.exit_code == 2 and "another run" in res.stderr
    saved = [json.loads(line) for line in results.read_text().splitlines()]
    for data in saved:
        data["environment"]["packages"]["transformers"] = "4.0.0"
    results.write_text("".join(dump_result_line(d) + "\n" for d in saved))  # as that install wrote them
    res = invoke(*base, "--seed", 1, "--games", 3)
    assert res.exit_code == 2 and "Traceback" not in res.stderr
    assert "other library versions" in res.stderr and "transformers 4.0.0" in res.stderr


def test_a_results_file_in_use_is_refused_in_one_line_and_left_alone(tmp_path):
    from spymaster_ai.sim.runner import results_lock

    results = tmp_path / "r.jsonl"
    base = ["bench", "duet", "--games", 2, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS, "--results", results]
    assert invoke(*base, "--seed", 1).exit_code == 0
    before = results.read_bytes()
    with results_lock(results):  # another run writing this file
        res = invoke(*base, "--seed", 1, "--games", 4)
    assert res.exit_code == 2 and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{results} is in use by another run (process {os.getpid()})" in lines[0]
    assert results.read_bytes() == before
    assert invoke(*base, "--seed", 1, "--games", 4).exit_code == 0  # once it is free


@pytest.mark.parametrize(
    "command,option,bad,message",
    [
        ("bench", "--out", "folder", "is a folder"),
        ("bench", "--out", "afile/summary.json", "is a file"),
        ("bench", "--results", "folder", "is a folder"),
        ("tournament", "--out", "folder", "is a folder"),
        ("tournament", "--markdown", "afile/t.md", "is a file"),
        ("tournament", "--results-dir", "afile", "is a file"),
    ],
)
def test_an_unwritable_output_path_is_refused_before_any_game(tmp_path, command, option, bad, message):
    """The run would otherwise be played and then lost with a traceback at the very end."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("keep me\n")
    played = tmp_path / "played.jsonl"
    if command == "bench":
        args = ["bench", "duet", "--games", 2, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS]
        if option != "--results":
            args += ["--results", played]
    else:
        args = ["tournament", "--game", "duet", "--agents", f"{PERFECT_SPY},{PERFECT_GUESS}", "--games", 2,
                "--spymasters", RANDOM_SPY, "--guessers", RANDOM_GUESS]
    res = invoke(*args, option, tmp_path / bad)
    assert res.exit_code == 2, res.output
    assert message in res.stderr and option in res.stderr and "Traceback" not in res.stderr
    assert not played.exists()  # refused before the first game
    assert (tmp_path / "afile").read_text() == "keep me\n"


def test_results_and_out_on_one_file_are_refused_before_any_game(tmp_path):
    """--results X --out X: the summary written last would replace every saved game."""
    results = tmp_path / "r.jsonl"
    args = ["bench", "duet", "--games", 2, "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS, "--results", results]
    res = invoke(*args, "--out", results)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0] and "--results" in lines[0] and "same file" in lines[0]
    assert not results.exists()  # refused before the first game
    assert invoke(*args).exit_code == 0
    before = results.read_bytes()
    link = tmp_path / "link.jsonl"  # the same file under another name
    link.symlink_to(results)
    res = invoke(*args, "--out", link)
    assert res.exit_code == 2 and "same file" in res.stderr
    assert results.read_bytes() == before


def test_replay_refuses_a_folder_and_an_incomplete_record_in_one_line(tmp_path):
    res = invoke("bench", "replay", tmp_path, "--index", 0)
    assert res.exit_code == 2 and "is a folder" in res.stderr and "Traceback" not in res.stderr
    partial = tmp_path / "partial.jsonl"
    partial.write_text('{"index": 0}\n')
    res = invoke("bench", "replay", partial, "--index", 0)
    assert res.exit_code == 2 and "not a game result" in res.stderr and "Traceback" not in res.stderr


def test_tournament_json_and_markdown(tmp_path):
    md = tmp_path / "t.md"
    res = invoke("tournament", "--game", "duet", "--spymasters", "test_sim_scripted:CodebookSpymaster:per_clue=9",
                 "--guessers", f"{PERFECT_GUESS},{RANDOM_GUESS}", "--games", 3, "--seed", 2, "--markdown", md, "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    row = data["matrix"]["test_sim_scripted:CodebookSpymaster:per_clue=9"]
    assert row[PERFECT_GUESS]["win_rate"] == 1.0 and row[PERFECT_GUESS]["mean_score"] == 21.0
    assert set(row) == {PERFECT_GUESS, RANDOM_GUESS} and data["version"] == spymaster_ai.__version__
    assert data["environment"]["packages"]["numpy"] == np.__version__
    text = md.read_text()
    assert "spymaster \\ guesser" in text and "100.0 [" in text


def test_tournament_human_matrix():
    res = invoke("tournament", "--game", "kim2019", "--spymasters", PERFECT_SPY, "--guessers", PERFECT_GUESS,
                 "--games", 2, "--no-progress")
    assert res.exit_code == 0, res.stderr
    assert "mean turns" in res.stdout and "4.00" in res.stdout


@pytest.mark.models
def test_bench_with_real_glove_agents():
    res = invoke("bench", "duet", "--games", 2, "--seed", 1, "--spymaster", "glove50:vocabulary_size=3000",
                 "--guesser", "glove50", "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["games"] == 2 and data["errors"] == 0 and data["invalid_clues"] == 0
    assert data["agents"]["a_spymaster"] == "glove50:vocabulary_size=3000"


def test_json_stdout_stays_one_object_when_an_agent_prints(tmp_path):
    """A researcher's agent that prints (in this process or in a worker process) must not
    break ``--json``: its output goes to stderr."""
    import os
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    agent = tmp_path / "noisy.py"
    agent.write_text(textwrap.dedent("""
        from experiments.example_agent import WordListSpymaster

        class NoisySpymaster(WordListSpymaster):
            def give_clue(self, view):
                print("thinking out loud")
                return super().give_clue(view)
    """))
    for jobs in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-c", "from spymaster_ai.cli.app import main; main()", "bench", "kim2019",
             "--games", "4", "--seed", "0", "--spymaster", f"{agent}:NoisySpymaster",
             "--guesser", "experiments.example_agent:LetterOverlapGuesser", "--jobs", jobs, "--json", "--no-progress",
             "--allow-errors"],  # the word list can run out (an agent error): stdout is what is tested here
            capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["games"] == 4
        assert "thinking out loud" in proc.stderr


def _proc_stat(pid: int):
    """(parent pid, state, start time) of a process from /proc, or None once it is gone."""
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _descendants(pid: int) -> dict[int, str]:
    """Every living descendant of ``pid``: process id -> start time (to tell a reused id)."""
    stats = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _proc_stat(int(p))) is not None}
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, state, start) in stats.items():
            if ppid == parent and state != "Z" and child not in found:
                found[child] = start
                frontier.append(child)
    return found


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads processes from /proc (Linux)")
def test_worker_processes_end_with_a_killed_bench(tmp_path):
    """SIGKILL of a bench used to leave its joblib/loky workers running (about 750 MB each
    with real models), for minutes."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    results = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from spymaster_ai.cli.app import main; main()", "bench", "duet", "--games", "1000000",
         "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS, "--jobs", "2", "--results", str(results), "--no-progress"],
        cwd=root, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    workers: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (results.exists() and results.stat().st_size > 0):
            assert proc.poll() is None, "the bench ended before it was killed"
            time.sleep(0.1)
        workers = _descendants(proc.pid)  # games came back, so the workers are up
        assert len(workers) >= 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

        def alive():
            return [pid for pid, start in workers.items() if (s := _proc_stat(pid)) and s[1] != "Z" and s[2] == start]

        deadline = time.monotonic() + 30
        while alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert alive() == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, start in workers.items():  # what this test started, if it outlived the check
            if (s := _proc_stat(pid)) and s[2] == start:
                os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_run_ends_the_bench_in_one_line_and_the_same_command_resumes(tmp_path):
    """SIGKILL of one loky worker used to end the bench with rc 1 and a raw TerminatedWorkerError
    traceback. Now: one line saying the games are kept and how to resume, rc 1; the rerun finishes."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    agent = tmp_path / "doomed.py"
    agent.write_text(textwrap.dedent(f"""
        import os, signal
        from test_sim_scripted import RandomGuesser

        class Doomed(RandomGuesser):
            # the 7th game anywhere kills its worker process, once (the marker file remembers)
            def reset(self, seed):
                with open({str(tmp_path / 'count')!r}, "a") as f:
                    f.write("x")
                marker = {str(tmp_path / 'killed')!r}
                if os.path.getsize({str(tmp_path / 'count')!r}) >= 7 and not os.path.exists(marker):
                    open(marker, "w").close()
                    os.kill(os.getpid(), signal.SIGKILL)
                return super().reset(seed)
    """))
    results = tmp_path / "r.jsonl"
    command = [
        sys.executable, "-c", "from spymaster_ai.cli.app import main; main()", "bench", "kim2019", "--games", "12",
        "--spymaster", RANDOM_SPY, "--guesser", f"{agent}:Doomed", "--no-isolate", "--jobs", "2",
        "--results", str(results), "--no-progress", "--json",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    first = subprocess.run(command, capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert (tmp_path / "killed").exists()
    assert first.returncode == 1, first.stderr
    assert "Traceback" not in first.stderr and "TerminatedWorkerError" not in first.stderr
    errors = [line for line in first.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, first.stderr
    assert "a worker process ended mid-run" in errors[0] and f"kept in {results}" in errors[0]
    assert "the same command resumes from there" in errors[0]
    second = subprocess.run(command, capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout)
    assert report["games"] == 12 and report["played"] + report["resumed"] == 12
