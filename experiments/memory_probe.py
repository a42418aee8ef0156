"""Issue 41 item 4: does a long bench hold memory flat, and does resume read its file in flat memory?

Runs ``spymaster-ai bench duet --games 1000000`` (glove50 pair, ``--jobs 2``, ``--results``),
samples the resident memory (VmRSS) of the parent and of every child process, stops it with
SIGINT after ``--minutes``, then resumes the same command for ``--resume-seconds`` and runs a
fresh one (new results file) for as long, sampling both. Prints one JSON object and writes
markdown rows with ``--md``.

    PYTHONPATH=<checkout> python experiments/memory_probe.py --tag after --minutes 10
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (loky workers and their resource tracker)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                pass
    out, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        out.extend(kids)
        frontier.extend(kids)
    return out


def is_worker(pid: int) -> bool:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return False
    return "resource_tracker" not in cmd and "python" in cmd


def sample(pid: int) -> dict:
    workers = sorted(round(rss_mb(c)) for c in children(pid) if is_worker(c))
    return {"parent_mb": round(rss_mb(pid)), "workers_mb": workers}


def lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as f:
        return sum(1 for _ in f)


def run(results: Path, seconds: float, marks: list[float], log: Path, spec: str = "glove50") -> dict:
    """Run the bench for ``seconds``, sampling every second; the samples at ``marks`` and the peaks."""
    cmd = ["spymaster-ai", "bench", "duet", "--games", "1000000", "--spymaster", spec, "--guesser", spec,
           "--jobs", "2", "--results", str(results), "--no-progress", "--json"]
    lines_before = lines(results)
    size_before = results.stat().st_size if results.exists() else 0
    with log.open("w") as out:
        # started from a background job, SIGINT would be ignored (and so would the stop below):
        # the bench gets Python's KeyboardInterrupt back, as with a terminal's Ctrl-C
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        start = time.monotonic()
        at: dict[str, dict] = {}
        peak_parent = 0
        peak_workers = 0
        todo = sorted(marks)
        while (elapsed := time.monotonic() - start) < seconds and proc.poll() is None:
            s = sample(proc.pid)
            peak_parent = max(peak_parent, s["parent_mb"])
            peak_workers = max([peak_workers, *s["workers_mb"]])
            while todo and elapsed >= todo[0]:
                at[f"{int(todo.pop(0))}s"] = {**s, "games_in_file": lines(results)}
            time.sleep(1.0)
        s = sample(proc.pid)
        at.setdefault(f"{int(seconds)}s", {**s, "games_in_file": lines(results)})
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"lines_before": lines_before, "bytes_before": size_before, "at": at, "peak_parent_mb": peak_parent,
            "peak_worker_mb": peak_workers, "lines_after": lines(results),
            "bytes_after": results.stat().st_size if results.exists() else 0, "exit": proc.returncode}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tag", required=True)
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--resume-seconds", type=float, default=60)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/mem"))
    ap.add_argument("--spec", default="glove50", help="both agents' spec")
    args = ap.parse_args()
    where = args.dir / args.tag
    where.mkdir(parents=True, exist_ok=True)
    for f in where.glob("*"):
        f.unlink()
    import spymaster_ai

    out = {"tag": args.tag, "package": spymaster_ai.__file__}
    long = args.minutes * 60
    out["spec"] = args.spec
    out["long_run"] = run(where / "r.jsonl", long, [60, long], where / "long.log", args.spec)
    marks = [5, 10, 30, args.resume_seconds]
    out["resume"] = run(where / "r.jsonl", args.resume_seconds, marks, where / "resume.log", args.spec)
    out["fresh"] = run(where / "fresh.jsonl", args.resume_seconds, marks, where / "fresh.log", args.spec)
    print(json.dumps(out, indent=1))
    (where / "probe.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    sys.exit(main())
