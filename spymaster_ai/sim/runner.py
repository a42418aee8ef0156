"""Run many seeded games on one machine: parallel, resumable, reproducible bit for bit.

- Game ``i`` of a run with master seed ``S`` is played from ``game_seed(S, i)`` alone, so the
  results do not depend on how games are spread over processes.
- Chunks of game indices, made only as the backend asks for them (so a run of 10^8 games
  costs no memory before it plays), run on a backend (``backends``): this machine's processes
  (joblib/loky, reused between calls) or Ray actors on a cluster. Every worker process builds
  each agent once and keeps it for every later game (agents are ``reset`` per game); loading
  embeddings is the slow part.
- Games run one BLAS/torch thread each, so a game computes the same floats in the main
  process as in any worker.
- With a results file, every finished game is appended as one JSON line as soon as it is
  back; a rerun skips the indices already there (once checked to belong to the same run,
  under the same library versions), and the file is rewritten sorted by index and
  deduplicated at the end, so the same run gives a byte-identical file whatever ``jobs`` is
  and however often it was interrupted. The file itself (its lines, checksums, resume
  checks, lock and sorting) is :mod:`.results_file`'s job; every public name this module
  held before that split is imported from here still.
- A run holds memory flat: finished games are tallied (``metrics.Tally``) and written, not
  kept (unless ``keep_results``); the file is read line by line and sorted by seeking.
- A run of matches (``match=K``): K consecutive games with the same agents, which may carry
  what they learned through ``end_game``. The unit of work, resume and replay is then the
  match: a worker plays a whole match, game j of match m is played from
  ``match_game_seed(S, m, j)`` with run index ``m*K + j``, and a match cut short by an
  interruption is played again from its first game.
"""

from __future__ import annotations

import sys
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence, Union

from ..files import write_target
from ..provenance import code_version, environment, file_sha256, source_hashes
from .backends import Backend, BackendError, ChunkJob, WorkerLostError, make_backend
from .metrics import Tally
from .play import ROLES, GameResult, PlayOptions, play_game, play_match
from .results_file import (
    ResultsFileError,
    _IndexSet,
    _Lines,
    _other_versions,
    _read_results,
    _write_sorted,
    check_result_line,
    dump_result_line,
    read_result_lines,
    results_lock,
)
from .seeds import game_seed

__all__ = [
    "AgentFactory", "REGISTRY_FACTORIES", "ResultsFileError", "RunResult", "check_result_line", "check_specs",
    "dump_result_line", "factory_for", "in_process_factory", "is_registry_factory", "isolated_factory", "progress_bar",
    "read_result_lines", "registry_factory", "results_lock", "run_games",
]

AgentFactory = Callable[[str, str], Any]  # (role, spec) -> a Spymaster or Guesser
Progress = Union[bool, Callable[[int], None]]


def _registry_build(role: str, spec: str, isolate: Optional[bool]) -> Any:
    from ..agents.registry import make_guesser, make_spymaster

    make = make_spymaster if role.endswith("spymaster") else make_guesser
    return make(spec, isolate=isolate)


def registry_factory(role: str, spec: str) -> Any:
    """Build an agent from its spec with the agent registry (``agents.registry``): a
    researcher's class in its own process, the built-in agents in this one."""
    return _registry_build(role, spec, None)


def isolated_factory(role: str, spec: str) -> Any:
    """As :func:`registry_factory`, every agent in its own process (``--isolate``)."""
    return _registry_build(role, spec, True)


def in_process_factory(role: str, spec: str) -> Any:
    """As :func:`registry_factory`, every agent in this process (``--no-isolate``)."""
    return _registry_build(role, spec, False)


# The registry's factories by their ``isolate`` setting (module functions: they pickle by name).
REGISTRY_FACTORIES: dict[Optional[bool], AgentFactory] = {
    None: registry_factory, True: isolated_factory, False: in_process_factory,
}


def factory_for(isolate: Optional[bool]) -> AgentFactory:
    """The registry's factory for ``--isolate`` (True), ``--no-isolate`` (False) or neither."""
    return REGISTRY_FACTORIES[isolate]


def is_registry_factory(factory: AgentFactory) -> bool:
    return any(factory is f for f in REGISTRY_FACTORIES.values())


def language_specs(specs: Mapping[str, str], lang: str, factory: AgentFactory) -> dict[str, str]:
    """The registry's specs for a board in ``lang``: each gets ``lang=...`` (an English-only
    model is then refused by name). English specs, and other factories' specs, are unchanged."""
    if lang == "en" or not is_registry_factory(factory):
        return dict(specs)
    from ..agents.registry import add_language

    return {role: add_language(spec, lang) for role, spec in specs.items()}


def check_specs(roles_and_specs: Iterable[tuple[str, str]], factory: AgentFactory) -> dict[str, dict]:
    """With the registry's factory: refuse any bad spec (name, parameter, value) before the
    first model loads, so a typo in the last agent of a run costs milliseconds, not loading.
    Returns each role's resolved parameters (``agents.registry.resolve_spec``); another
    factory's agents are unknown here: empty."""
    isolate = next((key for key, f in REGISTRY_FACTORIES.items() if f is factory), "other")
    if isolate == "other":
        return {}
    from ..agents.registry import check_spec

    return {
        role: check_spec("spymaster" if role.endswith("spymaster") else "guesser", spec, isolate=isolate)
        for role, spec in roles_and_specs
    }


def played_by(results: Iterable[GameResult]) -> list[dict]:
    """The code that played ``results``: each distinct :func:`code_version` with its number of
    games, ``code`` None for lines written before it was kept. More than one entry: a run
    resumed under other code (allowed while each agent's resolved parameters are the same)."""
    return Tally.of(results).played_by()


@dataclass
class RunResult:
    results: Optional[list[GameResult]]  # the requested games, by index; None unless kept (keep_results)
    seconds: float  # wall time of this call
    played: int  # games played by this call (the rest came from the results file)
    match: Optional[int] = None  # games per match, in a run of matches
    # What made it: code, each role's resolved parameters, user files' sha256, environment,
    # and the code of every game's line (played_by); see :meth:`summary`.
    provenance: Optional[dict] = None
    # The requested games' running figures (the summary without the games); made from
    # ``results`` when not given.
    tally: Optional[Tally] = None

    def __post_init__(self) -> None:
        if self.tally is None:
            self.tally = Tally.of(self.results or [])

    @property
    def resumed(self) -> int:
        return self.tally.games - self.played

    def summary(self) -> dict:
        out = self.tally.summary(seconds=self.seconds, played=self.played)
        if self.match is not None:
            out.update(self.tally.match_summary(self.match))
        if self.provenance is not None:
            out["provenance"] = {**self.provenance, "played_by": self.tally.played_by()}
        return out


# ----------------------------------------------------------------------------- worker side

# Agents built in this process, kept for later games: (factory, role, spec) -> agent.
_AGENTS: dict[tuple[str, str, str], Any] = {}


def _factory_name(factory: AgentFactory) -> str:
    return f"{getattr(factory, '__module__', '')}.{getattr(factory, '__qualname__', repr(factory))}"


def _agents_for(specs: Mapping[str, str], factory: AgentFactory) -> dict[str, Any]:
    """One agent instance per role (two roles with the same spec never share an instance)."""
    name = _factory_name(factory)
    out = {}
    for role, spec in specs.items():
        key = (name, role, spec)
        if key not in _AGENTS:
            _AGENTS[key] = factory(role, spec)
        out[role] = _AGENTS[key]
    return out


@contextmanager
def _one_thread() -> Iterator[None]:
    """One BLAS/OpenMP/torch thread: float results then do not depend on the process."""
    from threadpoolctl import threadpool_limits

    torch = sys.modules.get("torch")
    before = torch.get_num_threads() if torch is not None else None
    with threadpool_limits(limits=1):
        if torch is not None:
            torch.set_num_threads(1)
        try:
            yield
        finally:
            if torch is not None and before is not None:
                torch.set_num_threads(before)


def _play_indices(
    game: str,
    specs: Mapping[str, str],
    options: Mapping[str, Any],
    master_seed: int,
    indices: Sequence[int],
    factory: AgentFactory,
    match: Optional[int] = None,
) -> list[dict]:
    """Play the games ``indices`` of a run in this process (a joblib task); in a run of
    matches of ``match`` games, ``indices`` are match indices and every game of each comes back."""
    opts = PlayOptions.from_json(options)
    agents = _agents_for(language_specs(specs, opts.lang, factory), factory)
    out = []
    for i in indices:
        with _one_thread():
            if match is None:
                results = [play_game(game, agents, specs, seed=game_seed(master_seed, i), index=i, options=opts)]
            else:
                results = play_match(game, agents, specs, seed=master_seed, match=i, length=match, options=opts)
        out.extend(r.to_json() for r in results)
    return out


# ----------------------------------------------------------------------------- driver


def _chunks(indices: Iterable[int], size: int) -> Iterator[list[int]]:
    """Consecutive chunks of ``size`` indices, each made when the backend asks for it: a run of
    any length then costs no memory before its games are played."""
    rest = iter(indices)
    while chunk := list(islice(rest, size)):
        yield chunk


@contextmanager
def progress_bar(progress: Progress, total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A callback advancing by n finished games: ``progress`` itself if callable, a rich bar on
    stderr if True, else a no-op. One bar can then span several runs (a tournament)."""
    if callable(progress):
        yield progress
        return
    if not progress or total == 0:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

    with Bar(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def run_games(
    game: str,
    specs: Mapping[str, str],
    *,
    games: int,
    seed: int,
    options: Optional[PlayOptions] = None,
    jobs: int = 1,
    results_path: Union[str, Path, None] = None,
    indices: Optional[Sequence[int]] = None,
    chunk_size: Optional[int] = None,
    progress: Progress = False,
    factory: AgentFactory = registry_factory,
    backend: Union[str, Backend] = "local",
    address: Optional[str] = None,
    match: Optional[int] = None,
    keep_results: bool = True,
) -> RunResult:
    """Play games ``0..games-1`` (or only ``indices``) of the run (game, specs, options, seed).

    ``match``: play ``games / match`` matches of ``match`` games each (agents carry what they
    learn from game to game through ``end_game``); ``indices`` must then cover whole matches.

    ``jobs`` workers (-1: all cores); ``backend``: ``"local"`` (this machine's processes),
    ``"ray"`` (``address``: a running cluster, or None for a local Ray instance), or a
    ``Backend`` instance kept open by the caller across runs; ``results_path``: a JSON-lines
    file to save into and resume from; ``progress``: True for a rich bar on stderr, or a
    callback given the number of newly finished games; ``keep_results``: False holds no
    finished game (``RunResult.results`` is None; the summary comes from running tallies), so
    a run of any length holds memory flat (the command line's benches, tournaments, sweeps).
    """
    if game not in ROLES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(ROLES)})")
    if games <= 0:
        raise ValueError(f"games must be positive, got {games}")
    if jobs == 0:
        raise ValueError("jobs must be a positive number of processes, or -1 for all cores")
    missing = [r for r in ROLES[game] if r not in specs]
    if missing:
        raise ValueError(f"{game} needs agent specs for {', '.join(missing)}")
    if match is not None and (match <= 0 or games % match):
        raise ValueError(f"a run of matches plays whole matches: games ({games}) must be a positive multiple of match ({match})")
    specs = {role: specs[role] for role in ROLES[game]}
    options = options or PlayOptions()
    parameters = check_specs(language_specs(specs, options.lang, factory).items(), factory)
    wanted: Sequence[int]
    if indices is None:
        wanted = selected = range(games)  # lazy: a huge --games lists nothing
    else:
        wanted = sorted(set(int(i) for i in indices))
        selected = set(wanted)
        if any(i < 0 or i >= games for i in wanted):
            raise ValueError(f"game indices must lie in 0..{games - 1}")
        if match is not None:
            for i in wanted:
                m = i // match
                if any(m * match + j not in selected for j in range(match)):
                    raise ValueError(
                        f"game {i} is game {i % match} of match {m}: a game of a match follows from the games "
                        f"before it, so only whole matches replay (match {m})"
                    )
    opts = options.to_json()
    # A link is followed to its target (the file updated, its lock taken); a device, a pipe or a
    # folder is refused before anything is read or written (see spymaster_ai/files.py).
    path = write_target(results_path, ResultsFileError) if results_path is not None else None
    runner = make_backend(backend, jobs, address)  # checks the name before any file is touched
    owned = runner is not backend

    start = time.perf_counter()
    with ExitStack() as held:
        if owned:
            held.callback(runner.close)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            held.enter_context(results_lock(path))  # before reading it: released after the last write
        # The user's files the specs name (vectors:PATH, file.py:Class), hashed once the file is
        # held: every line records them, and a file that changed since is refused on resume.
        sources = source_hashes(specs)
        pool = str(opts.get("wordlist", ""))
        if pool.endswith(".txt") and Path(pool).expanduser().is_file():
            # A board pool from the user's file (--wordlist FILE.txt) decides every deal.
            sources = {**sources, f"wordlist:{pool}": file_sha256(Path(pool).expanduser())}
        # Every line records the code and each role's resolved parameters; a resume whose
        # parameters differ (a default changed) is refused, one under another commit is not.
        line_provenance = {"code": code_version(), "parameters": parameters}
        tally = Tally()  # the requested games' figures
        kept: dict[int, GameResult] = {}  # the requested games themselves, with keep_results

        def count(result: GameResult) -> None:
            if result.index in selected:
                tally.add(result, result.index)
                if keep_results:
                    kept[result.index] = result

        created = path is not None and not path.exists()
        saved = _Lines()  # where each game in the file lies
        if path is not None:
            found = _read_results(path, game, specs, opts, seed, match, sources, parameters)
            saved = _write_sorted(path, found, count)  # drops a torn last line before appending
            del found
        resumed = tally.games
        remaining = len(wanted) - resumed
        todo = (i for i in wanted if i not in saved.saved)  # streamed into chunks as the backend asks
        if match is not None:  # the unit of work is the match: its index, once per match
            todo = (i // match for i in wanted if i not in saved.saved and i % match == 0)

        handle = path.open("ab") if path is not None else None
        played = _IndexSet()  # without a file: the games back so far
        have = saved.saved if path is not None else played
        try:

            here = environment()
            position = [path.stat().st_size if path is not None else 0]

            def keep(batch: list[dict]) -> int:
                fresh = 0
                for data in batch:
                    if sources:
                        data = {**data, "sources": sources}
                    data = {**data, "provenance": line_provenance}
                    result = GameResult.from_json(data)
                    other = _other_versions(result, here)
                    if other:  # a cluster worker with another install
                        raise BackendError(
                            f"game {result.index} came back from a worker with other library versions ({', '.join(other)}); "
                            "one run's figures must come from one environment: install the same versions on every worker"
                        )
                    if result.index in have:  # a retried chunk's game already kept: never twice
                        continue
                    count(result)
                    fresh += 1
                    if handle is not None:
                        raw = dump_result_line(data).encode("utf-8")
                        handle.write(raw + b"\n")
                        saved.add(result.index, position[0], len(raw))
                        position[0] += len(raw) + 1
                    else:
                        played.add(result.index)
                if handle is not None:
                    handle.flush()
                return fresh

            with progress_bar(progress, remaining, f"{game} {remaining} games") as advance:
                if remaining:
                    job = ChunkJob(game, specs, opts, seed, factory, match)
                    units = remaining if match is None else remaining // match
                    size = chunk_size or runner.chunk_size(units)
                    try:
                        for batch in runner.play(job, _chunks(todo, size)):
                            advance(keep(batch))
                    except WorkerLostError as exc:  # one line, with what is kept and how to go on
                        if handle is not None:
                            then = f"the {len(saved)} game(s) finished are kept in {path}: the same command resumes from there"
                        else:
                            then = "the games finished are lost: run with a results file (--results) to keep each game as it ends"
                        raise WorkerLostError(f"{exc}; {then}") from None
        finally:
            if handle is not None:
                handle.close()
            if created and not len(saved):  # a run that failed before its first game leaves no empty file
                path.unlink(missing_ok=True)
        lost = len(wanted) - tally.games
        if lost:  # a backend that lost chunks: never report a partial run as whole
            first = next(i for i in wanted if i not in have)
            raise RuntimeError(f"{lost} game(s) came back from no worker, e.g. game {first}")
        if path is not None:
            _write_sorted(path, saved)
    seconds = time.perf_counter() - start
    provenance = {"code": line_provenance["code"], "parameters": parameters, "sources": sources,
                  "environment": environment()}
    return RunResult(results=[kept[i] for i in wanted] if keep_results else None, seconds=seconds, played=remaining,
                     match=match, provenance=provenance, tally=tally)
