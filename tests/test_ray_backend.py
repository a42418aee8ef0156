"""The Ray backend on a local Ray instance of 2 CPUs: the local backend's results file byte for
byte and its figures, resume, a worker killed midway (its chunk retried, no game counted
twice), tournaments, the CLI.

One Ray instance serves the whole module (starting one costs seconds).
"""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_sim_scripted import scripted_factory
from typer.testing import CliRunner

from spymaster_ai.sim.backends import RayBackend
from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import run_games
from spymaster_ai.sim.seeds import derive_seed, game_seed
from spymaster_ai.sim.tournament import run_tournament

RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"


def figures(run) -> dict:
    """A run's summary without its timings (which differ between any two runs)."""
    return {k: v for k, v in run.summary().items() if k not in ("seconds", "games_per_second")}


@pytest.fixture(scope="module")
def backend():
    pytest.importorskip("ray")
    ray_backend = RayBackend(jobs=2)  # starts its own local Ray instance of 2 CPUs
    ray_backend.worker_pids()  # the workers import the tests' modules: the driver's path reached them
    yield ray_backend
    ray_backend.close()


# ----------------------------------------------------------------------------- on Ray


@pytest.mark.parametrize("game,spec", [("duet", "random"), ("classic", "random"), ("kim2019", "codebook:2")])
def test_ray_gives_the_local_results_file_and_figures(tmp_path, backend, game, spec):
    specs = lineup(game, spec, spec)
    local = run_games(game, specs, games=30, seed=7, results_path=tmp_path / "local.jsonl", factory=scripted_factory)
    remote = run_games(game, specs, games=30, seed=7, results_path=tmp_path / "ray.jsonl", factory=scripted_factory,
                       backend=backend, chunk_size=4)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert figures(remote) == figures(local)
    assert remote.played == 30 and [r.index for r in remote.results] == list(range(30))


def test_ray_resumes_a_partial_local_run(tmp_path, backend):
    specs = lineup("duet", "random", "random")
    full = run_games("duet", specs, games=30, seed=4, results_path=tmp_path / "full.jsonl", factory=scripted_factory)
    part = tmp_path / "part.jsonl"
    run_games("duet", specs, games=30, seed=4, results_path=part, indices=[*range(10), 20], factory=scripted_factory)
    resumed = run_games("duet", specs, games=30, seed=4, results_path=part, factory=scripted_factory, backend=backend)
    assert resumed.played == 19 and resumed.resumed == 11  # the 11 saved games are not played again
    assert part.read_bytes() == (tmp_path / "full.jsonl").read_bytes()
    assert figures(resumed)["wins"] == figures(full)["wins"]


@dataclass(frozen=True)
class BuildLogFactory:
    """Scripted agents; every build is logged as one line "pid role" to ``log``."""

    log: str

    def __call__(self, role: str, spec: str) -> Any:
        with open(self.log, "a") as handle:
            handle.write(f"{os.getpid()} {role}\n")
        return scripted_factory(role, spec)


def test_agents_are_built_once_per_worker_and_the_run_context_is_put_once(tmp_path, backend, monkeypatch):
    import ray

    puts: list[Any] = []
    real_put = ray.put
    monkeypatch.setattr(ray, "put", lambda value, **kw: puts.append(value) or real_put(value, **kw))
    log = tmp_path / "builds.log"
    for seed in (1, 2):  # two runs, 10 chunks each, on the same workers
        run_games("duet", lineup("duet", "random", "random"), games=30, seed=seed, chunk_size=3, backend=backend,
                  factory=BuildLogFactory(str(log)))
    builds = log.read_text().splitlines()
    pids = {line.split()[0] for line in builds}
    assert len(builds) == len(set(builds)) == 4 * len(pids)  # each worker built each of the 4 players once
    assert pids <= {str(pid) for pid in backend.worker_pids()}
    assert len(puts) == 2  # one object-store put per run (20 chunk tasks carry only its reference)


class _KillsItsWorker:
    """A spymaster that kills its own worker process the first time it starts a given game
    (reset with that game's agent seed; the marker file says it has), then plays like the
    agent it wraps."""

    def __init__(self, inner: Any, marker: str, kill_seed: int) -> None:
        self.inner, self.marker, self.kill_seed = inner, marker, kill_seed

    def reset(self, seed: int) -> None:
        if seed == self.kill_seed and not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        self.inner.reset(seed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@dataclass(frozen=True)
class KillOnceFactory:
    """Scripted agents; player A's spymaster kills its worker on game ``kill_seed`` once."""

    marker: str
    kill_seed: int

    def __call__(self, role: str, spec: str) -> Any:
        agent = scripted_factory(role, spec)
        return _KillsItsWorker(agent, self.marker, self.kill_seed) if role == "a_spymaster" else agent


def test_a_worker_killed_midway_has_its_chunk_retried_and_every_game_counted_once(tmp_path, backend):
    specs = lineup("duet", "random", "random")
    local = run_games("duet", specs, games=30, seed=5, results_path=tmp_path / "local.jsonl", factory=scripted_factory)
    marker = tmp_path / "killed.pid"
    before = backend.worker_pids()
    counted: list[int] = []
    remote = run_games(
        "duet", specs, games=30, seed=5, results_path=tmp_path / "ray.jsonl", chunk_size=3, backend=backend,
        factory=KillOnceFactory(str(marker), derive_seed(game_seed(5, 17), "a_spymaster")), progress=counted.append,
    )
    killed = int(marker.read_text())
    assert killed in before  # a worker of this backend really died ...
    after = backend.worker_pids()
    assert killed not in after and len(after) == 2  # ... and was restarted
    assert sum(counted) == 30 and remote.played == 30  # every game counted once, none twice
    assert [r.index for r in remote.results] == list(range(30))
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert figures(remote) == figures(local)


def test_tournament_on_ray_equals_local(backend):
    kw = dict(games=10, seed=3, factory=scripted_factory)
    local = run_tournament("duet", ["random", "codebook:2"], **kw)
    remote = run_tournament("duet", ["random", "codebook:2"], backend=backend, **kw)
    assert remote.cells == local.cells


@pytest.mark.models
def test_glove50_on_ray_gives_the_local_file(tmp_path, backend):
    specs = lineup("duet", "glove50:vocabulary_size=3000", "glove50")
    local = run_games("duet", specs, games=4, seed=21, results_path=tmp_path / "local.jsonl")
    remote = run_games("duet", specs, games=4, seed=21, results_path=tmp_path / "ray.jsonl", backend=backend,
                       chunk_size=2)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert figures(remote) == figures(local)


def test_cli_bench_and_sweep_on_ray_equal_local(tmp_path, backend):
    import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
    import spymaster_ai.cli.sweep_cmds  # noqa: F401
    from spymaster_ai.cli.app import app

    backend.stop_workers()  # the CLI's own workers need the two CPUs; Ray itself stays up
    cli = CliRunner()
    timings = ("seconds", "games_per_second", "jobs", "backend", "results_file")

    def bench(*extra: str) -> dict:
        res = cli.invoke(app, ["bench", "duet", "--games", "12", "--seed", "2", "--spymaster", RANDOM_SPY,
                               "--guesser", RANDOM_GUESS, "--json", *extra])
        assert res.exit_code == 0, res.output
        return {k: v for k, v in json.loads(res.stdout).items() if k not in timings}

    ray_report = bench("--backend", "ray", "--jobs", "2")
    assert ray_report == bench("--jobs", "1")

    def sweep(*extra: str) -> list[dict]:
        res = cli.invoke(app, ["sweep", "--game", "duet", "--spymaster", RANDOM_SPY, "--guesser", "random",
                               "--grid", "seed=1,2", "--games", "8", "--json", *extra])
        assert res.exit_code == 0, res.output
        report = json.loads(res.stdout)
        return [{k: v for k, v in p.items() if k not in timings} for p in report["points"]]

    assert sweep("--backend", "ray", "--jobs", "2") == sweep()


def test_more_workers_than_cluster_cpus_are_capped(backend):
    backend.stop_workers()  # frees the two CPUs; Ray stays up
    extra = RayBackend(jobs=3)  # joins the running session: 2 CPUs, so 2 workers, not a third that never starts
    try:
        assert len(extra.worker_pids()) == 2
        specs = lineup("duet", "random", "random")
        run = run_games("duet", specs, games=9, seed=1, factory=scripted_factory, backend=extra, chunk_size=1)
        assert [r.index for r in run.results] == list(range(9))
    finally:
        extra.close()
