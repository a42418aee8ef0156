"""Do two source trees play the same games? Bench outputs compared byte for byte, timing left out.

Why: moving the simulator's driver onto the engines' move surface (rules: current_seats,
legal_moves, apply) must change no figure. This script runs the same benches from two
checkouts (each through its own ``PYTHONPATH``) and compares the summary JSON and every
game's result line (records included) after dropping the timing fields.

    python experiments/driver_identity.py --before /tmp/envs_before --after . --out /tmp/identity

Prints one line per bench (identical or where it differs) and the games per second of each
tree (one job each, so the two trees are timed alike; rerun to see the noise).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

# Left out of the comparison: timings, and the results file's own path (each tree writes its own).
TIMING = {"seconds", "games_per_second", "environment", "elapsed", "results_file"}
BENCHES = [
    # (game, extra arguments): glove50 agents (fast), a random guesser, and penalty legality
    # so penalty and solo covers are played too.
    ("duet", ["--spymaster", "glove50", "--guesser", "glove50"]),
    ("duet", ["--spymaster", "glove50", "--guesser", "random", "--legality", "penalty"]),
    ("classic", ["--red", "glove50", "--blue", "glove50"]),
    ("solo", ["--spymaster", "glove50", "--guesser", "glove50", "--legality", "penalty"]),
    ("kim2019", ["--spymaster", "glove50", "--guesser", "glove50"]),
]


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def run_bench(tree: Path, game: str, extra: list[str], games: int, seed: int, out: Path) -> tuple[str, float]:
    """The stripped outputs of one bench from ``tree`` (as one canonical JSON text) and its games/s."""
    name = f"{game}_{seed}_{'_'.join(extra).replace('-', '')}"
    results = out / f"{name}.jsonl"
    results.unlink(missing_ok=True)
    cmd = [
        sys.executable, "-c", "from spymaster_ai.cli.app import main; main()",
        "bench", game, "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json",
        "--no-progress", "--results", str(results), *extra,
    ]
    env = {**os.environ, "PYTHONPATH": str(tree.resolve()), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout)
    lines = [_strip(json.loads(line)) for line in results.read_text().splitlines() if line.strip()]
    text = json.dumps({"summary": _strip(summary), "games": lines}, sort_keys=True)
    return text, float(summary["games_per_second"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seeds", default="0,1")
    args = parser.parse_args()
    same = True
    for game, extra in BENCHES:
        for seed in (int(s) for s in args.seeds.split(",")):
            texts, speeds = [], []
            for name, tree in (("before", args.before), ("after", args.after)):
                folder = args.out / name
                folder.mkdir(parents=True, exist_ok=True)
                text, speed = run_bench(tree, game, extra, args.games, seed, folder)
                (folder / f"{game}_{seed}_{'_'.join(extra).replace('-', '')}.stripped.json").write_text(text)
                texts.append(text)
                speeds.append(speed)
            verdict = "identical" if texts[0] == texts[1] else "DIFFERENT"
            same &= texts[0] == texts[1]
            print(f"{game:8} seed {seed} {' '.join(extra):60} {verdict}  {len(texts[0])} bytes  "
                  f"games/s before {speeds[0]:.2f} after {speeds[1]:.2f}", flush=True)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
