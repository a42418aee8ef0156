"""Ray is optional: the local backend (runner, bench, sweep) never imports it, and backend
names and addresses are checked before anything starts."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from spymaster_ai.sim.backends import BackendError, LocalBackend, make_backend

TESTS = Path(__file__).parent
RANDOM_SPY = "test_sim_scripted:PoolSpymaster"
RANDOM_GUESS = "test_sim_scripted:RandomGuesser"


def test_the_local_backend_never_imports_ray(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(TESTS)!r})
        import spymaster_ai.sim.runner
        from spymaster_ai.sim.play import lineup
        from spymaster_ai.sim.runner import run_games
        from test_sim_scripted import scripted_factory
        assert "ray" not in sys.modules, "importing the runner imported ray"
        run_games("duet", lineup("duet", "random", "random"), games=6, seed=1, factory=scripted_factory)
        run_games("duet", lineup("duet", "random", "random"), games=6, seed=1, jobs=2, chunk_size=2,
                  factory=scripted_factory, results_path={str(tmp_path / "r.jsonl")!r})
        from typer.testing import CliRunner
        from spymaster_ai.cli.app import _register, app
        _register()
        res = CliRunner().invoke(app, ["bench", "duet", "--games", "2", "--spymaster", {RANDOM_SPY!r},
                                       "--guesser", {RANDOM_GUESS!r}, "--json"])
        assert res.exit_code == 0, res.output
        res = CliRunner().invoke(app, ["sweep", "--game", "kim2019", "--spymaster", "test_sim_scripted:CodebookSpymaster",
                                       "--guesser", {RANDOM_GUESS!r}, "--grid", "per_clue=1,2", "--games", "2", "--json"])
        assert res.exit_code == 0, res.output
        assert "ray" not in sys.modules, "a local run imported ray"
        print("no ray")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "no ray" in proc.stdout


def test_backend_names_and_addresses_are_checked():
    assert isinstance(make_backend("local", jobs=2), LocalBackend)
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(BackendError, match="ray backend only"):
        make_backend("local", address="auto")
    with pytest.raises(BackendError, match="positive"):
        make_backend("local", jobs=0)


def test_a_missing_ray_is_a_clear_error(monkeypatch):
    from spymaster_ai.sim.backends import RayBackend

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as where it is not installed
    with pytest.raises(BackendError, match=r"needs Ray: pip install -e '\.\[ray\]' in the spymaster_ai checkout"):
        RayBackend(jobs=2)


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--backend", "spark"], "--backend must be one of local, ray"),
        (["--address", "auto"], "--address applies to --backend ray only"),
        (["--backend", "ray", "--jobs", "-3"], "--jobs must be"),
    ],
)
@pytest.mark.parametrize("command", ["bench", "tournament", "sweep"])
def test_cli_backend_options_are_checked(command, extra, message):
    from typer.testing import CliRunner

    import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
    import spymaster_ai.cli.sweep_cmds  # noqa: F401
    from spymaster_ai.cli.app import app

    head = {
        "bench": ["bench", "duet", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS],
        "tournament": ["tournament", "--agents", RANDOM_SPY],
        "sweep": ["sweep", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS, "--grid", "sudden_death_guesses=1"],
    }[command]
    res = CliRunner().invoke(app, [*head, "--games", "2", *extra])
    assert res.exit_code == 2
    assert message in res.stderr
    assert "Traceback" not in res.output


def test_cli_ray_backend_without_ray_is_a_clear_error(monkeypatch):
    import importlib.util

    from typer.testing import CliRunner

    import spymaster_ai.cli.bench_cmds  # noqa: F401
    from spymaster_ai.cli.app import app

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    res = CliRunner().invoke(app, ["bench", "duet", "--spymaster", RANDOM_SPY, "--guesser", RANDOM_GUESS,
                                   "--games", "2", "--backend", "ray"])
    assert res.exit_code == 2
    assert "pip install -e '.[ray]'" in res.stderr
