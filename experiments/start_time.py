"""How long `spymaster-ai play duet` takes to reach its first prompt, cold and warm.

Cold: an empty cache directory (a fresh install: the clue vocabulary is encoded once).
Warm: the same directory again. Each run is timed with pexpect from the spawn to the first
"Your guess>" or "Your clue>" prompt; CPU seconds are the child's user + system time, which
the machine's other load does not inflate the way it inflates wall time.

    python experiments/start_time.py --warm 5 [--cold 1] [--out experiments/results/start_time.md]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect


def one_start(cache: Path, seed: int) -> tuple[float, float]:
    env = {**os.environ, "SPYMASTER_AI_CACHE": str(cache), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    save = Path(tempfile.mkdtemp()) / "game.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = pexpect.spawn(shutil.which("spymaster-ai") or "spymaster-ai",
                          ["play", "duet", "--seed", str(seed), "--save", str(save)],
                          env=env, encoding="utf-8", timeout=900, dimensions=(50, 150))
    child.expect(["Your guess>", "Your clue>"])
    wall = time.perf_counter() - started
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shutil.rmtree(save.parent, ignore_errors=True)
    return wall, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold", type=int, default=1, help="starts on an empty cache (each its own)")
    ap.add_argument("--warm", type=int, default=5, help="starts on a built cache")
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.cold):
            rows.append(("cold",) + one_start(Path(tmp) / f"cold{i}", args.seed))
            print(f"cold: {rows[-1][1]:.1f} s wall, {rows[-1][2]:.1f} s CPU", file=sys.stderr, flush=True)
        warm_cache = Path(tmp) / "warm"
        one_start(warm_cache, args.seed)  # builds the cache; not counted
        for _ in range(args.warm):
            rows.append(("warm",) + one_start(warm_cache, args.seed))
            print(f"warm: {rows[-1][1]:.1f} s wall, {rows[-1][2]:.1f} s CPU", file=sys.stderr, flush=True)
    load = os.getloadavg()[0]
    lines = ["# Time to the first prompt of `spymaster-ai play duet`", "",
             f"`python experiments/start_time.py --cold {args.cold} --warm {args.warm} --seed {args.seed}`;"
             f" {os.cpu_count()} cores, load average {load:.1f} at the end.", "",
             "| start | runs | wall median (s) | wall max (s) | CPU median (s) |", "|---|---|---|---|---|"]
    for kind in ("cold", "warm"):
        got = [r for r in rows if r[0] == kind]
        if got:
            lines.append(f"| {kind} | {len(got)} | {statistics.median(r[1] for r in got):.1f} | "
                         f"{max(r[1] for r in got):.1f} | {statistics.median(r[2] for r in got):.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
