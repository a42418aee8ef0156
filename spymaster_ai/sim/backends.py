"""Where the game chunks of a run execute: this machine's process pool, or a Ray cluster.

Why a separate layer: the runner owns seeds, the results file and resume; a backend only
plays lists of game indices and hands back their results (in any order). Game ``i`` is
played from ``game_seed(seed, i)`` alone, so every backend gives the same games, and the
runner writes the same file.

- ``LocalBackend``: in this process (one job) or joblib/loky worker processes, which end
  with the process that started them (``_end_with_parent``), even one killed by SIGKILL.
- ``RayBackend``: one Ray actor per worker (``num_cpus=1`` each), which builds the agents
  once (the runner's per-process cache) and plays chunk after chunk. The run's shared
  context (specs, options, factory) goes through the object store once per run
  (``ray.put``); a task carries only its game indices. An actor whose process dies is
  restarted and its unfinished chunk retried (``max_restarts`` / ``max_task_retries``); a
  chunk's results come back only whole, and the runner keeps results by index, so no game
  is counted twice.

This module never imports Ray unless a ``RayBackend`` is used.
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
import time
from abc import ABC, abstractmethod
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:  # pragma: no cover
    from .runner import AgentFactory

__all__ = [
    "BACKENDS", "Backend", "BackendError", "ChunkJob", "LocalBackend", "RayBackend", "WorkerLostError", "make_backend",
    "play_chunk",
]

BACKENDS = ("local", "ray")
# Chunks per worker the scheduler aims at (load balance vs per-task overhead), and the cap.
_CHUNKS_PER_WORKER = 4
_MAX_CHUNK = 16
RAY_INSTALL_HINT = "pip install -e '.[ray]' in the spymaster_ai checkout"


class BackendError(ValueError):
    """A backend that cannot run here: unknown name, Ray missing, a cluster out of reach, a
    worker whose library versions differ from the driver's."""


class WorkerLostError(RuntimeError):
    """A worker process died mid-run (killed, out of memory): the games it was playing are
    lost, the games already back are kept (the runner says where, and how to resume)."""


def _exit_code(exc: BaseException) -> str:
    """\", its exit code was -9\" from loky's message, when it gives one."""
    import re

    found = re.search(r"exit codes?[^-\d]*(-?\d+)", str(exc))
    return f" (exit code {found.group(1)})" if found else ""


@dataclass(frozen=True)
class ChunkJob:
    """What every chunk of one run shares: sent once per run, not with every chunk."""

    game: str
    specs: Mapping[str, str]
    options: Mapping[str, Any]
    seed: int
    factory: "AgentFactory"
    match: Optional[int] = None  # games per match: the chunks then hold match indices


def play_chunk(job: ChunkJob, indices: Sequence[int]) -> list[dict]:
    """Play the games (or, in a run of matches, the matches) ``indices`` of a run in this
    process (agents cached per process)."""
    from .runner import _play_indices

    return _play_indices(job.game, job.specs, job.options, job.seed, list(indices), job.factory, job.match)


# The parent this worker process watches (set once, by its first chunk), and how often.
_WATCHED_PARENT: Optional[int] = None
_PARENT_POLL_SECONDS = 1.0


def _end_with_parent(parent: int) -> None:
    """In a worker: exit as soon as ``parent`` (the run's process) is gone.

    Why: loky keeps idle workers for minutes and never learns that a killed parent is gone,
    so a SIGKILLed bench left them running, each holding its models. A daemon thread polls
    ``os.getppid()``, which changes when the parent dies (the worker is adopted by another
    process). Polling, not ``PR_SET_PDEATHSIG``: that signal follows the *thread* that
    started the worker, and a pool may start workers from a short-lived thread.
    """
    global _WATCHED_PARENT
    if _WATCHED_PARENT is not None or os.getpid() == parent:
        return
    _WATCHED_PARENT = parent

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _play_chunk_in_worker(job: ChunkJob, indices: Sequence[int], parent: int) -> list[dict]:
    """A loky task: watch the parent (once per worker), then play the chunk."""
    _end_with_parent(parent)
    return play_chunk(job, indices)


def _cpu_count() -> int:
    return os.cpu_count() or 1


class Backend(ABC):
    """Plays chunks of game indices; ``close`` releases what it started."""

    name: str = ""

    @property
    @abstractmethod
    def workers(self) -> int:
        """How many chunks can run at once (sizes the chunks)."""

    def chunk_size(self, games: int) -> int:
        """Games per chunk: about four chunks per worker (balance), at most 16 (progress, retries)."""
        return max(1, min(_MAX_CHUNK, math.ceil(games / (self.workers * _CHUNKS_PER_WORKER))))

    @abstractmethod
    def play(self, job: ChunkJob, chunks: Iterable[Sequence[int]]) -> Iterator[list[dict]]:
        """Yield each chunk's results as it finishes (any order). ``chunks`` may be a generator:
        take chunks only as workers free up, so a huge run never lists its work up front."""

    def close(self) -> None:
        """Release workers and connections this backend started."""

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalBackend(Backend):
    """This machine: one job plays in process (each game saved as it ends); more use joblib/loky
    processes, which joblib keeps alive between runs (so agents stay built)."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        if jobs == 0:
            raise BackendError("jobs must be a positive number of processes, or -1 for all cores")
        self.jobs = jobs

    @property
    def workers(self) -> int:
        """``jobs``; negative as in joblib (-1: every core, -2: all but one...)."""
        return max(1, _cpu_count() + 1 + self.jobs) if self.jobs < 0 else self.jobs

    def play(self, job: ChunkJob, chunks: Iterable[Sequence[int]]) -> Iterator[list[dict]]:
        chunks = iter(chunks)
        first = list(islice(chunks, 2))  # one chunk alone is played here, without a pool
        if self.workers == 1 or len(first) <= 1:
            for chunk in chain(first, chunks):
                for i in chunk:
                    yield play_chunk(job, [i])
            return
        from joblib import Parallel, delayed

        parent = os.getpid()
        tasks = (delayed(_play_chunk_in_worker)(job, list(chunk), parent) for chunk in chain(first, chunks))
        # joblib draws tasks from the generator a few at a time (pre_dispatch), not all at once
        try:
            yield from Parallel(n_jobs=self.jobs, return_as="generator_unordered")(tasks)
        except BrokenProcessPool as exc:  # loky's TerminatedWorkerError is one
            raise WorkerLostError(
                "a worker process ended mid-run (killed, or out of memory?)" + _exit_code(exc)
            ) from None


class _GameWorker:
    """The Ray actor: one per worker process; agents are built on its first chunk and kept."""

    def play(self, job: ChunkJob, indices: list[int]) -> list[dict]:
        return play_chunk(job, indices)

    def pid(self) -> int:
        return os.getpid()

    def node(self) -> str:
        import ray

        return ray.get_runtime_context().get_node_id()


def _driver_path() -> str:
    """The driver's own import folders (tests, a researcher's module beside them, the
    working directory), so local Ray workers import what the driver imports, as loky's do."""
    prefixes = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
    out = []
    for entry in sys.path:
        path = os.path.realpath(entry or os.getcwd())
        if os.path.isdir(path) and not path.startswith(prefixes) and path not in out:
            out.append(path)
    return os.pathsep.join(out)


class RayBackend(Backend):
    """Ray actors, one per worker (``num_cpus=1`` each).

    ``address``: ``None`` starts a private local Ray instance with ``jobs`` CPUs (shut down by
    ``close``); ``"auto"`` or ``"ray://HOST:10001"`` joins a running cluster. ``jobs``: the
    number of actors (-1: every CPU of the cluster). An already connected Ray session (e.g.
    ``ray.init`` by the caller) is used as it is and left running. Ray is started on the
    first ``play``, so a fully resumed run starts nothing.
    """

    name = "ray"

    def __init__(
        self,
        jobs: int = 1,
        address: Optional[str] = None,
        *,
        max_restarts: int = 3,
        tasks_per_worker: int = 2,
        runtime_env: Optional[dict] = None,
    ) -> None:
        if jobs == 0 or jobs < -1:
            raise BackendError(f"jobs must be a positive number of workers or -1 (every CPU), got {jobs}")
        if tasks_per_worker < 1:
            raise BackendError(f"tasks_per_worker must be at least 1, got {tasks_per_worker}")
        try:
            import ray  # noqa: F401
        except ImportError as exc:
            raise BackendError(f"the ray backend needs Ray: {RAY_INSTALL_HINT} ({exc})") from exc
        self.jobs = jobs
        self.address = address
        self.max_restarts = max_restarts
        self.tasks_per_worker = tasks_per_worker
        self.runtime_env = runtime_env
        self._owns_ray = False
        self._actors: list[Any] = []

    # -- connection and actors -------------------------------------------------------------------

    def _connect(self) -> Any:
        import ray

        if ray.is_initialized():
            return ray
        kwargs: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": True}
        if self.address:
            target = self.address
            if self.runtime_env is not None:
                kwargs["runtime_env"] = self.runtime_env
        else:
            target = "local"  # a private instance, even where RAY_ADDRESS or `ray start` points elsewhere
            kwargs.update(num_cpus=self.workers, include_dashboard=False)
            env = self.runtime_env
            if env is None:
                path = _driver_path()
                env = {"env_vars": {"PYTHONPATH": path}} if path else {}
            if env:
                kwargs["runtime_env"] = env
        try:
            ray.init(address=target, **kwargs)
        except (ConnectionError, TimeoutError, RuntimeError, ValueError) as exc:
            where = f"Ray at {self.address!r}" if self.address else "a local Ray instance"
            raise BackendError(f"cannot start or reach {where}: {str(exc).splitlines()[0] if str(exc) else exc!r}") from exc
        self._owns_ray = True
        return ray

    @property
    def workers(self) -> int:
        if self.jobs > 0:
            return self.jobs
        if self._actors:
            return len(self._actors)
        try:
            import ray

            if ray.is_initialized():
                return max(1, int(ray.cluster_resources().get("CPU", 1)))
        except Exception:  # pragma: no cover - only sizes chunks
            pass
        return _cpu_count()

    def _ensure_actors(self) -> list[Any]:
        if self._actors:
            return self._actors
        ray = self._connect()
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = self.jobs if self.jobs > 0 else cpus
        if count > cpus:  # an actor that never finds a CPU would hold its chunks for ever
            logging.getLogger(__name__).warning("%d Ray workers asked for, the cluster has %d CPUs: using %d", count, cpus, cpus)
            count = cpus
        worker = ray.remote(num_cpus=1, max_restarts=self.max_restarts, max_task_retries=self.max_restarts)(
            _GameWorker
        )
        self._actors = [worker.remote() for _ in range(count)]
        return self._actors

    def worker_pids(self) -> list[int]:
        """The process id of every actor (starts them): for tests and diagnostics."""
        import ray

        return ray.get([a.pid.remote() for a in self._ensure_actors()])

    def worker_nodes(self) -> list[str]:
        """The Ray node id of every actor (starts them): where the work runs."""
        import ray

        return ray.get([a.node.remote() for a in self._ensure_actors()])

    def stop_workers(self) -> None:
        """Kill the actors (their CPUs go back to the cluster) but stay connected; the next
        ``play`` starts new ones."""
        if not self._actors:
            return
        import ray

        if ray.is_initialized():
            for actor in self._actors:
                try:
                    ray.kill(actor)
                except Exception:  # pragma: no cover - already gone
                    pass
        self._actors = []

    # -- running ---------------------------------------------------------------------------------

    def play(self, job: ChunkJob, chunks: Iterable[Sequence[int]]) -> Iterator[list[dict]]:
        chunks = iter(chunks)
        first = next(chunks, None)
        if first is None:
            return
        actors = self._ensure_actors()
        import ray

        job_ref = ray.put(job)  # once per run; every task gets the reference
        todo = (list(c) for c in chain([first], chunks))  # drawn as actors free up
        pending: dict[Any, Any] = {}  # object ref -> actor

        def submit(actor: Any) -> None:
            chunk = next(todo, None)
            if chunk is not None:
                pending[actor.play.remote(job_ref, chunk)] = actor

        for _ in range(self.tasks_per_worker):
            for actor in actors:
                submit(actor)
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                ref = ready[0]
                actor = pending.pop(ref)
                batch = ray.get(ref)
                submit(actor)
                yield batch
        finally:
            for ref in pending:  # an interrupted run: drop what is queued
                try:
                    ray.cancel(ref)
                except Exception:  # pragma: no cover - best effort
                    pass

    def close(self) -> None:
        self.stop_workers()
        if self._owns_ray:
            import ray

            ray.shutdown()
            self._owns_ray = False


def make_backend(backend: Union[str, Backend], jobs: int = 1, address: Optional[str] = None) -> Backend:
    """A backend from its name (``local`` or ``ray``); a Backend instance is returned as it is."""
    if isinstance(backend, Backend):
        return backend
    if backend == "local":
        if address:
            raise BackendError("an address applies to the ray backend only (use --backend ray)")
        return LocalBackend(jobs)
    if backend == "ray":
        return RayBackend(jobs, address)
    raise BackendError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")

