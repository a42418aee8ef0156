"""Games per CPU second of the simulator's drivers in two source trees, alternated.

Why CPU time: the machine is shared, and wall-clock games per second move with other
people's load; the process's own CPU time per game does much less. Two pairings: trivial
agents (a spymaster that gives the first legal word of a short list for 1, the seeded random
guesser), so that the driver and the engine are most of the cost, and the GloVe 50d
spymaster with the random guesser.

    python experiments/driver_throughput.py --before /tmp/envs_before --after . --games 300 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, sys, time
from spymaster_ai.agents.registry import make_guesser, make_spymaster
from spymaster_ai.rules.legality import check_clue
from spymaster_ai.rules.moves import Clue
from spymaster_ai.sim.play import ROLES, play_game

WORDS = ("animal", "music", "metal", "water", "space", "royal", "sport", "light", "money", "paper")

class FirstLegal:
    def reset(self, seed): pass
    def give_clue(self, view):
        return Clue(next(w for w in WORDS if check_clue(w, view.visible).legal), 1)

game, pairing, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def agents():
    out = {}
    for role in ROLES[game]:
        if role.endswith("guesser"):
            out[role] = make_guesser("random")
        else:
            out[role] = FirstLegal() if pairing == "trivial" else make_spymaster("glove50")
    return out
seated = agents()
play_game(game, seated, {}, seed=10**6)  # warm: models, caches, legality tables
cpu, wall = time.process_time(), time.perf_counter()
for i in range(n):
    play_game(game, seated, {}, seed=i, index=i)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}))
"""


def measure(tree: Path, game: str, pairing: str, games: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve()), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, game, pairing, str(games)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for game in ("kim2019", "duet", "classic"):
        for pairing in ("trivial", "glove50"):
            runs: dict[str, list[dict]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                for name, tree in (("before", args.before), ("after", args.after)):
                    runs[name].append(measure(tree, game, pairing, args.games))
            cells = []
            for name in ("before", "after"):
                per_cpu = statistics.median(args.games / r["cpu"] for r in runs[name])
                per_wall = statistics.median(args.games / r["wall"] for r in runs[name])
                cells.append(f"{name} {per_cpu:7.1f} games/CPU-s ({per_wall:6.1f}/wall-s)")
            print(f"{game:8} {pairing:8} " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
