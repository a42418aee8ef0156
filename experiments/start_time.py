"""How long `spymaster-ai play duet` takes to reach its first prompt, cold and warm.

Cold: an empty cache directory (a fresh install: the clue vocabulary is encoded once).
Warm: the same directory again. Each run is timed with pexpect from the spawn to the first
"Your guess>" or "Your clue>" prompt; CPU seconds are the child's user + system time, which
the machine's other load does not inflate the way it inflates wall time.

    python experiments/start_time.py --warm 5 [--cold 1] [--langs en,de,vi,fa] [--out experiments/results/start_time.md] [--note TEXT]

The code timed is whatever ``spymaster-ai`` imports; ``--trees before=PATH,after=PATH`` times
several checkouts (``PYTHONPATH=PATH``), one after the other for each start, so that a
comparison shares the machine's load.

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


def one_start(cache: Path, seed: int, lang: str = "en", tree: str | None = None) -> tuple[float, float]:
    env = {**os.environ, "SPYMASTER_AI_CACHE": str(cache), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    if tree:
        env["PYTHONPATH"] = tree
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
    ap.add_argument("--trees", default="", help="LABEL=PATH,...: time each checkout in turn (PYTHONPATH=PATH), "
                    "interleaved so that they share the machine's load")
    args = ap.parse_args(argv)
    rows = []
    langs = args.langs.split(",")
    trees = [tuple(t.split("=", 1)) for t in args.trees.split(",") if t] or [("", None)]
    with tempfile.TemporaryDirectory() as tmp:
        for lang in langs:
            for i in range(args.cold):
                for label, tree in trees:
                    rows.append((label, lang, "cold") + one_start(Path(tmp) / f"cold-{label}{lang}{i}", args.seed, lang, tree))
                    print(f"{label} {lang} cold: {rows[-1][3]:.1f} s wall, {rows[-1][4]:.1f} s CPU", file=sys.stderr, flush=True)
            for label, tree in trees:
                warm_cache = Path(tmp) / f"warm-{label}{lang}"
                if args.warm:
                    one_start(warm_cache, args.seed, lang, tree)  # builds the cache; not counted
            for _ in range(args.warm):
                for label, tree in trees:
                    rows.append((label, lang, "warm") + one_start(Path(tmp) / f"warm-{label}{lang}", args.seed, lang, tree))
                    print(f"{label} {lang} warm: {rows[-1][3]:.1f} s wall, {rows[-1][4]:.1f} s CPU", file=sys.stderr, flush=True)
    load = os.getloadavg()[0]
    labelled = trees[0][0] != ""
    command = (f"`python experiments/start_time.py --cold {args.cold} --warm {args.warm} --seed {args.seed} --langs {args.langs}"
               + (f" --trees {','.join(label + '=...' for label, _ in trees)}" if labelled else "") + "`")
    lines = ["# Time to the first prompt of `spymaster-ai play duet`", "",
             f"{command}; {os.cpu_count()} cores, load average {load:.1f} at the end{'; ' + args.note if args.note else ''}.", "",
             "| " + ("code | " if labelled else "") + "board | start | runs | wall median (s) | wall max (s) | CPU median (s) |",
             "|---" * (7 if labelled else 6) + "|"]
    for lang in langs:
        for kind in ("cold", "warm"):
            for label, _ in trees:
                got = [r for r in rows if r[:3] == (label, lang, kind)]
                if got:
                    lines.append("| " + (f"{label} | " if labelled else "") + f"{lang} | {kind} | {len(got)} | "
                                 f"{statistics.median(r[3] for r in got):.1f} | {max(r[3] for r in got):.1f} | "
                                 f"{statistics.median(r[4] for r in got):.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
