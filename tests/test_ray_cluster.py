"""The Ray backend joining a cluster by its address: two simulated nodes on this machine
(``ray.cluster_utils.Cluster``, one CPU each), one worker on each, the local figures."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_sim_scripted import scripted_factory

from spymaster_ai.sim.backends import RayBackend
from spymaster_ai.sim.play import lineup
from spymaster_ai.sim.runner import run_games

TESTS = Path(__file__).parent


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        nodes.add_node(num_cpus=1)
        nodes.wait_for_nodes()
        yield nodes
    finally:
        nodes.shutdown()


def test_two_nodes_give_the_local_figures_and_file(tmp_path, cluster):
    # On a real cluster the nodes have the package installed; here they share this machine,
    # and the tests folder (the scripted agents) is passed to them explicitly.
    backend = RayBackend(jobs=-1, address=cluster.address, runtime_env={"env_vars": {"PYTHONPATH": str(TESTS)}})
    try:
        nodes = backend.worker_nodes()
        assert len(nodes) == 2 and len(set(nodes)) == 2  # -1: one worker per cluster CPU, one on each node
        for game, spec in (("duet", "random"), ("classic", "random")):
            specs = lineup(game, spec, spec)
            local = run_games(game, specs, games=24, seed=9, results_path=tmp_path / f"{game}-local.jsonl",
                              factory=scripted_factory)
            remote = run_games(game, specs, games=24, seed=9, results_path=tmp_path / f"{game}-ray.jsonl",
                               factory=scripted_factory, backend=backend, chunk_size=3)
            drop = ("seconds", "games_per_second")
            assert {k: v for k, v in remote.summary().items() if k not in drop} == {
                k: v for k, v in local.summary().items() if k not in drop
            }
            assert (tmp_path / f"{game}-ray.jsonl").read_bytes() == (tmp_path / f"{game}-local.jsonl").read_bytes()
    finally:
        backend.close()
