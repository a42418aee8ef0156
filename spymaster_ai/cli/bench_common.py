"""What every command that plays games shares: the ``bench`` group, the options, the checks.

Why its own module: ``bench``, ``bench replay``, ``tournament`` and ``sweep`` take the same
options (same flags, same help) and refuse bad input the same way (one line on stderr, exit 2;
a lost worker exits 1), so each command module imports them from here and none imports
another command module for them.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any, Optional

import typer

from ..sim.play import DEFAULT_AGENT, PlayOptions
from .app import app
from .errors import BadInput, fail, first_line, user_errors

bench_app = typer.Typer(
    name="bench",
    help="Seeded self-play benchmarks: win rate with its 95% interval, loss causes, turns, scores.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(bench_app, name="bench")


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from ..sim.backends import BackendError
    from ..sim.results_file import ResultsFileError
    # OSError: a file the run reads or writes (a folder given for a file, a full disk): one line.
    return user_errors(ResultsFileError, BackendError, OSError)


def _check_agents(specs: list[tuple[str, str]], isolate: Optional[bool] = None, lang: str = "en") -> None:
    """Check every (role, spec) without loading a model, then build each agent once here, so a
    bad spec fails before any game is played (an agent's own constructor may still refuse).

    The agents land in the runner's per-process cache, so an in-process run (--jobs 1) reuses them.
    """
    from ..sim.runner import _agents_for, check_specs, factory_for, language_specs

    factory = factory_for(isolate)
    specs = [(role, language_specs({role: spec}, lang, factory)[role]) for role, spec in specs]
    check_specs(specs, factory)
    for role, spec in specs:
        _agents_for({role: spec}, factory)


def _show_progress(flag: Optional[bool]) -> bool:
    return sys.stderr.isatty() if flag is None else flag


def check_backend(backend: str, address: Optional[str]) -> None:
    """--backend is local or ray, --address goes with ray only, and Ray is installed for ray."""
    from ..sim.backends import BACKENDS, RAY_INSTALL_HINT

    if backend not in BACKENDS:
        raise BadInput(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address and backend != "ray":
        raise BadInput("--address applies to --backend ray only")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise BadInput(f"--backend ray needs Ray: {RAY_INSTALL_HINT}")

def check_run_size(games: int, jobs: int) -> None:
    """--games and --jobs as every command that plays games needs them."""
    if games <= 0:
        raise BadInput(f"--games must be a positive number, got {games}")
    if jobs == 0 or jobs < -1:
        raise BadInput(f"--jobs must be a positive number of processes or -1 (all cores), got {jobs}")


def check_match(games: int, match: Optional[int]) -> None:
    """--match K: K >= 1 games per match, and --games a whole number of matches."""
    if match is None:
        return
    if match <= 0:
        raise BadInput(f"--match must be a positive number of games per match, got {match}")
    if games % match:
        raise BadInput(f"--games ({games}) must be a whole number of matches of --match {match} games")

# Where an output that could not be written at the end went instead (write_output's ``shown``).
_INSTEAD = {
    "json": "its content is in the JSON object on stdout",
    "summary": "its content follows on stdout",
}


def _guarded(fn: Any, *args: Any, **kwargs: Any) -> None:
    try:
        fn(*args, **kwargs)
    except typer.Exit:
        raise
    except _bad_input_types() as exc:
        fail(first_line(exc))
    except _worker_lost() as exc:  # the run broke, not the input: exit 1, one line, no traceback
        typer.echo(f"error: {first_line(exc)}", err=True)
        raise typer.Exit(1) from None


def _worker_lost() -> type[BaseException]:
    from ..sim.backends import WorkerLostError

    return WorkerLostError


# Options shared by every bench command.
GamesOpt = typer.Option(100, "--games", "-n", help="Number of games.")
SeedOpt = typer.Option(0, "--seed", "-s", help="Master seed: game i uses a seed derived from (seed, i).")
JobsOpt = typer.Option(1, "--jobs", "-j", help="Worker processes (-1: all cores).")
OutOpt = typer.Option(None, "--out", help="Write the summary JSON to this file.")
BackendOpt = typer.Option("local", "--backend", help="local (this machine's processes) or ray (a Ray cluster).")
AddressOpt = typer.Option(
    None, "--address", help="Ray cluster to join: auto, or ray://HEAD:10001 (default: start a local Ray with --jobs CPUs)."
)
ResultsOpt = typer.Option(None, "--results", help="JSON-lines file of every game: saved as games finish, resumed on rerun.")
OnlyOpt = typer.Option(None, "--only-game", help="Play only game I of the run (to replay it alone).")
MatchOpt = typer.Option(
    None, "--match", help="Matches of K games with the same partners, who learn from game to game; --games counts all games."
)
OnlyMatchOpt = typer.Option(None, "--only-match", help="With --match: play only match M of the run (to replay it alone).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON object on stdout.")
AllowErrorsOpt = typer.Option(
    False, "--allow-errors",
    help="Exit 0 even if games ended on an agent error (they count as losses); without it such a run exits 3.",
)
LegalityOpt = typer.Option("strict", "--legality", help="strict (an illegal clue is an agent error), penalty, off.")
PresetOpt = typer.Option(None, "--preset", help="Another paper's rules (kim2019: Kim et al.'s framework: no clue check, "
                         "no zero-clue opener from our spymasters; sim/presets.py). Overrides --legality.")
BenchWordlistOpt = typer.Option("classic", "--wordlist", metavar="NAME|FILE.txt",
                                help="Board word list: a shipped list's name or a file, one card a line.")
ProgressOpt = typer.Option(None, "--progress/--no-progress", help="Progress bar on stderr (default: when a terminal).")
SpymasterOpt = typer.Option(DEFAULT_AGENT, "--spymaster", help="Spymaster agent spec.")
GuesserOpt = typer.Option(DEFAULT_AGENT, "--guesser", help="Guesser agent spec.")
TokensOpt = typer.Option(None, "--tokens", help="Duet timer tokens (default 9).")
MissionOpt = typer.Option(None, "--mission", help="Duet mission, e.g. moscow (fixes tokens and mistakes).")
RedOpt = typer.Option(DEFAULT_AGENT, "--red", help="Red team's agent spec (spymaster and guesser).")
BlueOpt = typer.Option(DEFAULT_AGENT, "--blue", help="Blue team's agent spec (spymaster and guesser).")
RedGuesserOpt = typer.Option(None, "--red-guesser", help="Red guesser spec, if not --red.")
BlueGuesserOpt = typer.Option(None, "--blue-guesser", help="Blue guesser spec, if not --blue.")
AssassinEndingOpt = typer.Option(False, "--assassin-ending", help="Assassin Ending variant.")
IsolateOpt = typer.Option(
    None, "--isolate/--no-isolate",
    help="Every agent in its own process, or none (default: package.module:Class and file.py:Class specs only). docs/isolation.md",
)
LangOpt = typer.Option("en", "--lang", help="Board language: en, de, vi or fa (its cards, legality rules and clue words; "
                       "other languages need a multilingual model, e.g. e5small).")


def _options(**kwargs: Any) -> PlayOptions:
    try:
        return PlayOptions(**kwargs)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
