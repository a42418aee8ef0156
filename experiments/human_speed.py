"""The speed table of issue 43: the human agents against the embedding agents, before and after.

    python experiments/human_speed.py --before /path/to/base_tree --after . [--games 60] [--boards 20]
    python experiments/human_speed.py --after . --agents human      (one tree only)

Per agent (``glove50``, ``minilm``, ``robust``, ``human``), in one process of its own per tree
(one BLAS thread): the median first clue of a fresh Duet board (the per-board work: the
similarity matrices, and for ``human`` the reader's features over the whole clue vocabulary),
the median repeat clue on that board, and Duet games per second for the agent paired with its
own guesser on both sides (``--spymaster X --guesser X``; ``robust`` is a spymaster only: with ``minilm``), after three warm-up games. The trees are measured one
after the other in this one run on this machine, so the before and after columns compare; the
games per CPU second are printed beside the wall-clock rate (the machine is shared).
Writes ``experiments/results/human_speed.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

AGENTS = ("glove50", "minilm", "robust", "human")

CHILD = r"""
import json, random, statistics, sys, time
from spymaster_ai.agents.registry import make_guesser, make_spymaster
from spymaster_ai.rules.cards import Player, deal_words, generate_duet_key
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.wordlists import load_words
from spymaster_ai.sim.play import ROLES, play_game

name, boards, repeats, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
words_all = load_words("classic")
spy = make_spymaster(name)
try:
    make_guesser(name, load=False)
    partner = name
except Exception:  # a spymaster only (robust): the default guesser
    partner = "minilm"
seated = {r: (make_spymaster(name) if r.endswith("spymaster") else make_guesser(partner)) for r in ROLES["duet"]}
specs = {r: (name if r.endswith("spymaster") else partner) for r in ROLES["duet"]}
for w in range(3):  # warm: models, vocabulary, reader statistics, the legality checker's word lists
    play_game("duet", seated, specs, seed=10**6 + w)
spy.give_clue(DuetGame(deal_words(words_all, 25, random.Random(10**6 + 1)),
                       generate_duet_key(random.Random(10**6 + 2))).spymaster_view(Player.A))
first, later, first_cpu, later_cpu = [], [], [], []
for b in range(boards):
    rng = random.Random(5000 + b)
    words = deal_words(words_all, 25, rng)
    view = DuetGame(words, generate_duet_key(rng)).spymaster_view(Player.A)
    spy.reset(b)
    c, t = time.process_time(), time.perf_counter()
    spy.give_clue(view)
    first.append(time.perf_counter() - t)
    first_cpu.append(time.process_time() - c)
    for _ in range(repeats):
        c, t = time.process_time(), time.perf_counter()
        spy.give_clue(view)
        later.append(time.perf_counter() - t)
        later_cpu.append(time.process_time() - c)
cpu, wall = time.process_time(), time.perf_counter()
for i in range(games):
    play_game("duet", seated, specs, seed=i, index=i)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"guesser": partner, "first_ms": 1000 * statistics.median(first), "repeat_ms": 1000 * statistics.median(later),
                  "first_cpu_ms": 1000 * statistics.median(first_cpu), "repeat_cpu_ms": 1000 * statistics.median(later_cpu),
                  "games": games, "games_per_s": games / wall, "games_per_cpu_s": games / cpu}))
"""


def measure(tree: Path, name: str, boards: int, repeats: int, games: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree.resolve()), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, name, str(boards), str(repeats), str(games)], cwd=tree,
                          env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{tree} {name}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _commit(tree: Path) -> str:
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + ("+dirty" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the source tree before the change")
    parser.add_argument("--after", type=Path, default=Path("."))
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--boards", type=int, default=20, help="fresh Duet boards timed for the first clue")
    parser.add_argument("--repeats", type=int, default=5, help="repeat clues timed per board")
    parser.add_argument("--games", type=int, default=60, help="Duet games timed per agent pair")
    parser.add_argument("--out", type=Path, default=Path("experiments/results/human_speed.md"))
    args = parser.parse_args()
    trees = [("before", args.before)] if args.before else []
    trees.append(("after", args.after))
    rows: dict[str, dict[str, dict]] = {}
    for name in args.agents.split(","):
        for label, tree in trees:
            r = measure(tree, name, args.boards, args.repeats, args.games)
            rows.setdefault(name, {})[label] = r
            print(f"{label:6} {name:8} {json.dumps(r)}", flush=True)
    labels = [label for label, _ in trees]
    lines = [
        "# The human agents' speed (issue 43)",
        "",
        f"`python experiments/human_speed.py {'--before BASE ' if args.before else ''}--after . --boards {args.boards} "
        f"--repeats {args.repeats} --games {args.games}`: one process per agent and tree, one BLAS thread, "
        "medians over fresh Duet boards (wall clock; CPU time in parentheses); games: Duet, the agent as spymaster and guesser on both sides, after three warm-up games. "
        + ", ".join(f"{label}: `{_commit(tree)}`" for label, tree in trees) + ".",
        "",
        "| agent | " + " | ".join(f"first clue ms ({l}) | repeat clue ms ({l}) | Duet games/s ({l}) | games/CPU-s ({l})"
                                   for l in labels) + " |",
        "|---|" + "---|---|---|---|" * len(labels),
    ]
    for name, by in rows.items():
        cells = []
        for label in labels:
            r = by[label]
            cells += [f"{r['first_ms']:.1f} ({r['first_cpu_ms']:.1f})", f"{r['repeat_ms']:.2f} ({r['repeat_cpu_ms']:.2f})",
                      f"{r['games_per_s']:.2f}", f"{r['games_per_cpu_s']:.2f}"]
        guesser = by[labels[-1]].get("guesser", name)
        lines.append(f"| `{name}`" + (f" (guesser `{guesser}`)" if guesser != name else "") + " | " + " | ".join(cells) + " |")
    if "human" in rows and "glove50" in rows:
        lines += ["", "Floors (issue 43: human first clue <= 3x glove50, repeat <= 5x, human-pair games/s >= 1/3 of glove50's):", ""]
        for label in labels:
            h, g = rows["human"][label], rows["glove50"][label]
            lines.append(f"- {label}: first clue {h['first_ms'] / g['first_ms']:.2f}x (CPU {h['first_cpu_ms'] / g['first_cpu_ms']:.2f}x), "
                         f"repeat {h['repeat_ms'] / g['repeat_ms']:.2f}x (CPU {h['repeat_cpu_ms'] / g['repeat_cpu_ms']:.2f}x), "
                         f"games/s {h['games_per_s'] / g['games_per_s']:.2f} (per CPU-s {h['games_per_cpu_s'] / g['games_per_cpu_s']:.2f})")
        if len(labels) == 2:
            b, a = rows["human"]["before"], rows["human"]["after"]
            lines.append(f"- human, after / before: first clue {b['first_ms'] / a['first_ms']:.1f}x faster "
                         f"(CPU {b['first_cpu_ms'] / a['first_cpu_ms']:.1f}x), repeat {b['repeat_ms'] / a['repeat_ms']:.1f}x "
                         f"(CPU {b['repeat_cpu_ms'] / a['repeat_cpu_ms']:.1f}x), games/s {a['games_per_s'] / b['games_per_s']:.1f}x "
                         f"(per CPU-s {a['games_per_cpu_s'] / b['games_per_cpu_s']:.1f}x)")
    from spymaster_ai.provenance import versions_line

    lines += ["", f"Library versions: {versions_line()}."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
