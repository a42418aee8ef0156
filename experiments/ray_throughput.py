"""Throughput of the local and Ray backends on the same Duet games, measured in one run.

    python experiments/ray_throughput.py --games 2000 --jobs 2 [--agent glove50] [--seed 0] [--order local,ray]

Both backends are started and warmed first (their workers load the models on a few games),
so the figures compare steady-state game play. The games are then played in ``--rounds``
blocks of consecutive indices, each block on the local backend and then on Ray, so both
meet the same games under the same load from whatever else runs on the machine. The
per-task overhead is timed on empty chunks (a round trip to a worker that plays nothing).
The two backends must give the same figures; the script stops if they do not. Writes
results/ray_throughput.md and .json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from spymaster_ai.sim.backends import ChunkJob, LocalBackend, RayBackend  # noqa: E402
from spymaster_ai.sim.metrics import summarise  # noqa: E402
from spymaster_ai.sim.play import PlayOptions, lineup  # noqa: E402
from spymaster_ai.sim.runner import registry_factory, run_games  # noqa: E402


def overhead(backend, job: ChunkJob, tasks: int) -> float:
    """Seconds per task for chunks that play no game: scheduling, transfer, result return."""
    list(backend.play(job, [[] for _ in range(2 * backend.workers)]))  # warm the path
    start = time.perf_counter()
    list(backend.play(job, [[] for _ in range(tasks)]))
    return (time.perf_counter() - start) / tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--agent", default="glove50")
    ap.add_argument("--tasks", type=int, default=400, help="empty tasks timed for the per-task overhead")
    ap.add_argument("--rounds", type=int, default=4, help="blocks of games, each played on both backends in turn")
    ap.add_argument("--order", default="local,ray", help="which backend plays each block first")
    ap.add_argument("--out", type=Path, default=Path("results/ray_throughput"))
    args = ap.parse_args()

    specs = lineup("duet", args.agent, args.agent)
    job = ChunkJob("duet", specs, PlayOptions().to_json(), args.seed, registry_factory)
    makers = {"local": lambda: LocalBackend(args.jobs), "ray": lambda: RayBackend(args.jobs)}
    order = [name.strip() for name in args.order.split(",")]
    if sorted(order) != sorted(makers):
        raise SystemExit(f"--order must name local and ray once each, got {args.order!r}")
    backends = {name: makers[name]() for name in order}
    seconds = {name: 0.0 for name in backends}
    results: dict[str, list] = {name: [] for name in backends}
    warm_up, per_task = {}, {}
    try:
        for name, backend in backends.items():
            start = time.perf_counter()
            # another seed: every worker builds its agents (loads the model) before any timing
            run_games("duet", specs, games=4 * args.jobs, seed=args.seed + 1, chunk_size=1, backend=backend)
            warm_up[name] = time.perf_counter() - start
        size = -(-args.games // args.rounds)
        for first in range(0, args.games, size):
            block = range(first, min(first + size, args.games))
            for name, backend in backends.items():
                run = run_games("duet", specs, games=args.games, seed=args.seed, indices=block, backend=backend)
                seconds[name] += run.seconds
                results[name] += run.results
                print(f"{name}: games {block.start}-{block.stop - 1} in {run.seconds:.1f} s", flush=True)
        for name, backend in backends.items():
            per_task[name] = overhead(backend, job, args.tasks)
    finally:
        for backend in backends.values():
            backend.close()
    figures = {name: summarise(res) for name, res in results.items()}
    for summary in figures.values():
        summary.pop("seconds"), summary.pop("games_per_second")
    if figures["local"] != figures["ray"]:
        raise SystemExit("the two backends gave different figures: a bug")
    rows = [
        {"backend": name, "jobs": args.jobs, "games": args.games, "seconds": seconds[name],
         "games_per_second": args.games / seconds[name], "task_overhead_ms": 1000 * per_task[name],
         "warm_up_seconds": warm_up[name], "chunk_size": backend.chunk_size(-(-args.games // args.rounds)),
         "win_rate": figures[name]["win_rate"]}
        for name, backend in backends.items()
    ]
    for row in rows:
        print(json.dumps(row), flush=True)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"agent": args.agent, "seed": args.seed, "cpus": os.cpu_count(), "python": platform.python_version(),
            "load_average": os.getloadavg()}
    args.out.with_suffix(".json").write_text(json.dumps({"rows": rows, **meta}, indent=2) + "\n")
    lines = [
        f"Duet self-play, `{args.agent}`, {args.games} games, seed {args.seed}, {args.jobs} workers "
        f"({os.cpu_count()} cores, load average {meta['load_average'][0]:.1f} at the end), played in {args.rounds} "
        f"blocks alternating between the backends ({args.order} first). Same figures on both backends (win rate {rows[0]['win_rate']:.3f}).",
        "",
        "| backend | games/s | seconds | games per task | overhead per task (ms) | warm-up (s) |",
        "|---|---|---|---|---|---|",
        *(f"| {r['backend']} | {r['games_per_second']:.2f} | {r['seconds']:.1f} | {r['chunk_size']} | "
          f"{r['task_overhead_ms']:.2f} | {r['warm_up_seconds']:.1f} |" for r in rows),
    ]
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
