"""Lever screen for the learners of an unseen guesser (``results/learning_levers.md``).

Cheap screens, not the table: a few guessers G and a few matches of K games per spymaster
spec, each spec a template where ``{G}`` is the held-out guesser and ``{P5}`` table 2's five
models without G (so the spymaster never uses G's model). Prints the last ten games of each
match and the whole match per (spec, G): win rate % and turns per win.

    python experiments/learning_levers.py --game kim2019 --guessers glove50,e5small --matches 2 \\
        --specs "robust:exclude={G};learner:exclude={G},fit=0.5"

``--anatomy DIR`` instead reads a results folder of matches (``learning_matches.py --out``,
one sub-folder per G) and prints, per spymaster, how its games end by window of the match
(won, assassin, timer/mistake), with the clues a game, the count a clue and the own
cards found a clue: what loses, and how bold the clues are, as the match goes on.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path

from spymaster_ai.sim import PlayOptions, run_tournament

M5 = ("minilm", "glove50", "wordllama", "e5small", "mpnet")


def screen(args: argparse.Namespace) -> None:
    print("| G | spymaster | last 10: win % | last 10: turns per win | match: win % | match: turns per win |\n|---|---|---|---|---|---|")
    pooled: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for g in args.guessers.split(","):
        p5 = "+".join(m for m in M5 if m != g)
        specs = [s.replace("{G}", g).replace("{P5}", p5) for s in args.specs.split(";")]
        t = run_tournament(args.game, spymasters=specs, guessers=[g], games=args.matches * args.match, seed=args.seed,
                           options=PlayOptions(), jobs=args.jobs, results_dir=args.out / args.game / g, progress=False,
                           match=args.match)
        for s in specs:
            c = t.cell(s, g)
            print(f"| `{g}` | `{s}` | {100 * c['last10_win_rate']:.1f} | {c['last10_turns_per_win'] or 0:.2f} | "
                  f"{100 * c['wins'] / c['games']:.1f} | {c.get('turns_per_win') or 0:.2f} |", flush=True)
            wins10 = round(c["last10_win_rate"] * c["last10_games"])
            pooled[args.specs.split(";")[specs.index(s)]].update({
                "games10": c["last10_games"], "wins10": wins10, "turns10": wins10 * (c["last10_turns_per_win"] or 0),
                "games": c["games"], "wins": c["wins"], "turns": c["wins"] * (c.get("turns_per_win") or 0)})
    for template, p in pooled.items():
        print(f"| all | `{template}` | {100 * p['wins10'] / p['games10']:.1f} | {p['turns10'] / max(p['wins10'], 1):.2f} | "
              f"{100 * p['wins'] / p['games']:.1f} | {p['turns'] / max(p['wins'], 1):.2f} |")


def anatomy(folder: Path, match: int, window: int) -> None:
    """How games end, by window of the match, per spymaster (pooled over every G folder)."""
    ends: dict[str, dict[int, collections.Counter]] = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    play: dict[str, dict[int, collections.Counter]] = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for path in sorted(folder.glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            g = next(v for k, v in r["agents"].items() if "guesser" in k)
            spec = next(v for k, v in r["agents"].items() if "spymaster" in k)
            spec = re.sub(r",?partner=[^,]*", "", spec).replace(g, "G")  # one row per spec over every G
            end = "won" if r["won"] else (r.get("loss_cause") or "lost")
            w = (r["index"] % match) // window
            ends[spec][w][end] += 1
            play[spec][w].update({"clues": r["clues"], "announced": r["announced"], "correct": r["correct"]})
    for spec, by in ends.items():
        kinds = sorted({k for c in by.values() for k in c})
        print(f"\n`{spec}` ({folder}): games ending so, by games {window} at a time\n")
        print("| games | " + " | ".join(kinds) + " | clues a game | count a clue | own cards found a clue |\n|---|" + "---|" * (len(kinds) + 3))
        for w in sorted(by):
            n = sum(by[w].values())
            p = play[spec][w]
            print(f"| {w * window + 1}-{(w + 1) * window} | " + " | ".join(f"{100 * by[w][k] / n:.0f}%" for k in kinds)
                  + f" | {p['clues'] / n:.2f} | {p['announced'] / p['clues']:.2f} | {p['correct'] / p['clues']:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kim2019", choices=["kim2019", "duet"])
    ap.add_argument("--guessers", default="glove50,e5small")
    ap.add_argument("--specs", default="", help="';'-separated spymaster spec templates ({G}, {P5})")
    ap.add_argument("--match", type=int, default=50)
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/learning_levers"), help="results files of the screen")
    ap.add_argument("--anatomy", type=Path, default=None, help="a results folder of matches: how its games end, by window")
    ap.add_argument("--window", type=int, default=10)
    args = ap.parse_args()
    if args.anatomy is not None:
        anatomy(args.anatomy, args.match, args.window)
    elif args.specs:
        screen(args)
    else:
        ap.error("give --specs (a screen) or --anatomy DIR")


if __name__ == "__main__":
    main()
