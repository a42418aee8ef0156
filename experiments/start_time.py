"""How long `spymaster-ai play duet` takes to reach its first prompt, cold and warm.

Cold: an empty cache directory (a fresh install: the clue vocabulary is encoded once).
Warm: the same directory again. Each run is timed with pexpect from the spawn to the first
"Your guess>" or "Your clue>" prompt; CPU seconds are the child's user + system time, which
the machine's other load does not inflate the way it inflates wall time.

    python experiments/start_time.py --warm 5 [--cold 1] [--langs en,de,vi,fa] [--out experiments/results/start_time.md] [--note TEXT]

The code timed is whatever ``spymaster-ai`` imports (``PYTHONPATH=<tree>`` selects a worktree).

``--langs``: one row pair per board language (``play duet --lang L``), each cold start on its
own empty cache (issue 40: a first Vietnamese game sat 4-5 minutes encoding e5small's words).
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


def one_start(cache: Path, seed: int, lang: str = "en") -> tuple[float, float]:
    env = {**os.environ, "SPYMASTER_AI_CACHE": str(cache), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    save = Path(tempfile.mkdtemp()) / "game.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = pexpect.spawn(shutil.which("spymaster-ai") or "spymaster-ai",
                          ["play", "duet", "--seed", str(seed), "--save", str(save), "--lang", lang],
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
    ap.add_argument("--langs", default="en", help="board languages, comma-separated")
    ap.add_argument("--out")
    ap.add_argument("--note", default="", help="conditions of the run, appended to the table's header line")
    args = ap.parse_args(argv)
    rows = []
    langs = args.langs.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for lang in langs:
            for i in range(args.cold):
                rows.append((lang, "cold") + one_start(Path(tmp) / f"cold-{lang}{i}", args.seed, lang))
                print(f"{lang} cold: {rows[-1][2]:.1f} s wall, {rows[-1][3]:.1f} s CPU", file=sys.stderr, flush=True)
            warm_cache = Path(tmp) / f"warm-{lang}"
            if args.warm:
                one_start(warm_cache, args.seed, lang)  # builds the cache; not counted
            for _ in range(args.warm):
                rows.append((lang, "warm") + one_start(warm_cache, args.seed, lang))
                print(f"{lang} warm: {rows[-1][2]:.1f} s wall, {rows[-1][3]:.1f} s CPU", file=sys.stderr, flush=True)
    load = os.getloadavg()[0]
    lines = ["# Time to the first prompt of `spymaster-ai play duet`", "",
             f"`python experiments/start_time.py --cold {args.cold} --warm {args.warm} --seed {args.seed} --langs {args.langs}`;"
             f" {os.cpu_count()} cores, load average {load:.1f} at the end{'; ' + args.note if args.note else ''}.", "",
             "| board | start | runs | wall median (s) | wall max (s) | CPU median (s) |", "|---|---|---|---|---|---|"]
    for lang in langs:
        for kind in ("cold", "warm"):
            got = [r for r in rows if r[:2] == (lang, kind)]
            if got:
                lines.append(f"| {lang} | {kind} | {len(got)} | {statistics.median(r[2] for r in got):.1f} | "
                             f"{max(r[2] for r in got):.1f} | {statistics.median(r[3] for r in got):.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
