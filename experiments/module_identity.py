"""Ten benches of one source tree, written as canonical files that ``cmp`` can compare across trees.

Why: splitting the spymaster and the simulator into modules with one job each (issue 43)
must change no game. Run this once per checkout (each through its own ``PYTHONPATH``), then
compare the two output folders file by file with ``cmp``:

    python experiments/module_identity.py --tree /work/wt-split-base --out /tmp/identity/before
    python experiments/module_identity.py --tree . --out /tmp/identity/after
    for f in /tmp/identity/before/*; do cmp "$f" /tmp/identity/after/$(basename "$f") && echo "same $(basename "$f")"; done

Each bench writes ``NAME.summary.json`` (the ``--json`` summary) and ``NAME.games.jsonl``
(every ``--results`` line, records included), with what must differ between two trees left
out: timings, the results file's own path, the code version (commit) inside provenance, and
each line's checksum (it covers the commit). The benches cover every game loop (classic,
solo, kim2019, duet, a Duet mission, pictures), the packaged spymasters (glove50, minilm,
robust, learner) and guessers (glove50, minilm, random), penalty legality, two worker
processes, matches, and a run resumed from a cut results file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

# Left out: timings, the results file's own path (each tree writes its own).
TIMING = {"seconds", "games_per_second", "elapsed", "results_file"}

# name -> (game, games, seed, extra arguments, lines kept before resuming or None)
BENCHES: dict[str, tuple[str, int, int, list[str], int | None]] = {
    "kim_glove": ("kim2019", 30, 1, ["--spymaster", "glove50", "--guesser", "glove50"], None),
    "kim_robust": ("kim2019", 20, 2, ["--spymaster", "robust", "--guesser", "glove50"], None),
    "duet_glove": ("duet", 30, 3, ["--spymaster", "glove50", "--guesser", "glove50"], None),
    "duet_minilm_mission": ("duet", 20, 4, ["--spymaster", "minilm", "--guesser", "minilm", "--mission", "moscow"], None),
    "duet_random_penalty": ("duet", 30, 5, ["--spymaster", "glove50", "--guesser", "random", "--legality", "penalty"], None),
    "classic_glove_minilm": ("classic", 20, 6, ["--red", "glove50", "--blue", "minilm"], None),
    "classic_jobs2": ("classic", 20, 7, ["--red", "glove50", "--blue", "glove50", "--jobs", "2"], None),
    "solo_penalty": ("solo", 30, 8, ["--spymaster", "glove50", "--guesser", "glove50", "--legality", "penalty"], None),
    "pictures_glove": ("pictures", 10, 9, ["--red", "glove50", "--blue", "glove50"], None),
    "kim_learner_match_resumed": ("kim2019", 20, 10, ["--spymaster", "learner", "--guesser", "glove50", "--match", "5"], 10),
}


def _strip(value):
    """``value`` without timings, and without code versions (a dict holding a commit)."""
    if isinstance(value, dict):
        return {
            k: _strip(v) for k, v in value.items()
            if k not in TIMING and k != "checksum" and not (k == "code" and isinstance(v, dict) and "commit" in v)
        }
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def command(game: str, games: int, seed: int, extra: list[str], results: Path) -> list[str]:
    if "--jobs" not in extra:
        extra = [*extra, "--jobs", "1"]
    return [
        sys.executable, "-m", "spymaster_ai", "bench", game, "--games", str(games), "--seed", str(seed),
        "--json", "--no-progress", "--results", str(results), *extra,
    ]


def run(tree: Path, name: str, out: Path) -> None:
    game, games, seed, extra, keep = BENCHES[name]
    results = out / f"{name}.raw.jsonl"
    results.unlink(missing_ok=True)
    cmd = command(game, games, seed, extra, results)
    env = {**os.environ, "PYTHONPATH": str(tree.resolve()), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    if keep is not None:  # an interrupted run: keep the first lines, then rerun the same command
        lines = results.read_text().splitlines(keepends=True)
        results.write_text("".join(lines[:keep]))
        done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    summary = _strip(json.loads(done.stdout))
    (out / f"{name}.summary.json").write_text(json.dumps(summary, sort_keys=True, indent=1) + "\n")
    games_out = [json.dumps(_strip(json.loads(line)), sort_keys=True) for line in results.read_text().splitlines() if line.strip()]
    (out / f"{name}.games.jsonl").write_text("\n".join(games_out) + "\n")
    results.unlink()
    print(f"{name:28} {' '.join(cmd[2:])}  wins {summary['wins']}/{summary['games']}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="the checkout to run (its PYTHONPATH)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", default="", help="comma-separated bench names (default: all)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.only.split(",") if args.only else BENCHES:
        run(args.tree, name, args.out)


if __name__ == "__main__":
    main()
