"""Learning an unknown partner over a match: the leave-one-out table with a match column.

For every guesser model G, matches of K games (``--match``, 50 as Archibald & Brosnahan's
periods) with three spymasters that never use G's model: ``robust:exclude=G`` (learns
nothing: the single-game reference, played on the same match boards), ``learner:exclude=G``
(partner-model weights carried from every guess, a memory of the clue words this partner read
as intended) and ``bandit:exclude=G`` (Archibald & Brosnahan's bandit over our expert
spymasters: the literature's baseline, in their pairing style). Reports the last ten games of
each match (win rate, turns per win, Stephenson's score) and the whole match, per G and pooled
over G, and plots the pooled learning curves. The spymasters' models are the four packaged
ones without G (``LEAVE_ONE_OUT_POOL``); table 2's robust spymaster also pools mpnet.

    python experiments/learning_matches.py --game kim2019 --matches 2 --match 50 --seed 0 --jobs 2

Each cell resumes from its results file (``--out``/GAME/G/...). Games of one match share a
partner, so the pooled intervals (which treat games as independent) are somewhat narrow.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spymaster_ai import __version__
from spymaster_ai.sim import PlayOptions, run_tournament
from spymaster_ai.sim.metrics import LAST_GAMES, wilson_interval

GUESSERS = ("minilm", "glove50", "wordllama", "e5small", "mpnet")
SPYMASTERS = ("robust", "learner", "bandit")
# Floors of the learning issue: Kim protocol last ten games >= 95% wins in <= 6 turns per
# win; Duet last ten above the single-game leave-one-out 13.9% by more than its interval.
KIM_FLOOR = (0.95, 6.0)
DUET_SINGLE_GAME = 0.139


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def num(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def pooled(cells: list[dict], length: int) -> dict:
    """The pooled figures of several cells of one spymaster (all G)."""
    curve = []
    for j in range(length):
        wins = sum(c["curve"][j]["wins"] for c in cells)
        games = sum(c["curve"][j]["games"] for c in cells)
        curve.append((wins, games))
    n10 = sum(c["last10_games"] for c in cells)
    w10 = sum(round(c["last10_win_rate"] * c["last10_games"]) for c in cells)
    won_turns = sum((c["last10_turns_per_win"] or 0) * round(c["last10_win_rate"] * c["last10_games"]) for c in cells)
    scores = [c["last10_score"] for c in cells if c["last10_score"] is not None]
    return {
        "curve": curve,
        "last10_games": n10,
        "last10_win_rate": w10 / n10 if n10 else None,
        "last10_ci95": list(wilson_interval(w10, n10)),
        "last10_turns_per_win": won_turns / w10 if w10 else None,
        "last10_score": sum(s * c["last10_games"] for s, c in zip(scores, cells)) / n10 if scores else None,
        "win_rate": sum(c["wins"] for c in cells) / sum(c["games"] for c in cells),
        "games": sum(c["games"] for c in cells),
    }


def plot(kind: str, length: int, pools: dict[str, dict], path: Path, window: int = 5) -> None:
    """Pooled win rate by game index of the match, in windows of ``window`` games, with Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, p in pools.items():
        xs, ys, lo, hi = [], [], [], []
        for start in range(0, length, window):
            part = p["curve"][start:start + window]
            wins, games = sum(w for w, _ in part), sum(g for _, g in part)
            if not games:
                continue
            a, b = wilson_interval(wins, games)
            xs.append(start + (len(part) - 1) / 2)
            ys.append(wins / games)
            lo.append(a)
            hi.append(b)
        ax.plot(xs, ys, marker="o", label=name)
        ax.fill_between(xs, lo, hi, alpha=0.15)
    if kind == "kim2019":
        ax.axhline(KIM_FLOOR[0], color="grey", linestyle="--", linewidth=0.8, label="floor: 95% (last ten)")
    else:
        ax.axhline(DUET_SINGLE_GAME, color="grey", linestyle="--", linewidth=0.8, label="single game: 13.9%")
    ax.set_xlabel(f"game of the match (windows of {window})")
    ax.set_ylabel("win rate, pooled over the five guessers")
    ax.set_ylim(0, 1)
    ax.set_title(f"{kind}: learning an unseen guesser over {length}-game matches")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kim2019", choices=["kim2019", "duet"])
    ap.add_argument("--guessers", default=",".join(GUESSERS))
    ap.add_argument("--spymasters", default=",".join(SPYMASTERS), help="names, each given exclude=G")
    ap.add_argument("--match", type=int, default=50)
    ap.add_argument("--matches", type=int, default=2, help="matches per (spymaster, G) cell")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("experiments/results/learning_matches"))
    ap.add_argument("--pool", default=None, help="comma-separated models the spymasters draw on, all but G (default: the four "
                    "packaged models; the bandit's arms stay those)")
    ap.add_argument("--learner", default="", help="extra learner parameters, e.g. fit=0 (the learner before the fitted reader)")
    ap.add_argument("--figure", type=Path, default=None, help="PNG of the pooled curves (default experiments/figures/learning_GAME.png)")
    args = ap.parse_args()
    guessers = args.guessers.split(",")
    names = args.spymasters.split(",")
    cells: dict[tuple[str, str], dict] = {}
    for g in guessers:
        left = [m for m in (args.pool.split(",") if args.pool else []) if m != g]
        specs = [f"{n}:exclude={g}" + (f",partner={'+'.join(left)}" if left and n != "bandit" else "")
                 + (f",{args.learner}" if args.learner and n == "learner" else "") for n in names]
        t = run_tournament(
            args.game, spymasters=specs, guessers=[g], games=args.matches * args.match, seed=args.seed,
            options=PlayOptions(), jobs=args.jobs, results_dir=args.out / args.game / g, progress=True, match=args.match,
        )
        for n, s in zip(names, specs):
            cells[(n, g)] = t.cell(s, g)
    pools = {n: pooled([cells[(n, g)] for g in guessers], args.match) for n in names}
    kim = args.game == "kim2019"
    head = (f"**{args.game}**, matches of {args.match} games, {args.matches} per cell, seed {args.seed} "
            f"(spymaster_ai {__version__}); the spymaster never uses G's model. Last {LAST_GAMES} games of each match: "
            "win rate % [95% Wilson], turns per win" + (", score (turns if won, 25 if lost)" if kim else "")
            + "; whole match: win rate %. "
            + (f"The learner runs with {args.learner}. " if args.learner and "learner" in names else "")
            + (f"The spymasters draw on {', '.join(args.pool.split(','))} without G (the bandit's arms on the four packaged models)."
               if args.pool else "The spymasters draw on the four packaged models without G (mpnet, the optional extra, plays "
               "only as a guesser), so `robust` here is not table 2's robust, whose pool also holds mpnet."))
    lines = [head, "", "| G | " + " | ".join(f"`{n}` last 10" for n in names) + " | " + " | ".join(f"`{n}` match" for n in names) + " |",
             "|---|" + "---|" * (2 * len(names))]

    def last10(c: dict) -> str:
        lo, hi = c["last10_ci95"]
        text = f"{pct(c['last10_win_rate'])} [{pct(lo)}, {pct(hi)}], {num(c['last10_turns_per_win'])}"
        return text + (f", {num(c['last10_score'])}" if kim else "")

    for g in guessers:
        row = [last10(cells[(n, g)]) for n in names] + [pct(cells[(n, g)]["win_rate"]) for n in names]
        lines.append(f"| `{g}` | " + " | ".join(row) + " |")
    lines.append("| **all G** | " + " | ".join(last10(pools[n]) for n in names) + " | "
                 + " | ".join(pct(pools[n]["win_rate"]) for n in names) + " |")
    lines.append("")
    for n in names:
        p = pools[n]
        lo, hi = p["last10_ci95"]
        if kim:
            ok = p["last10_win_rate"] >= KIM_FLOOR[0] and (p["last10_turns_per_win"] or 99) <= KIM_FLOOR[1]
            lines.append(f"- `{n}`: last ten {pct(p['last10_win_rate'])}% [{pct(lo)}, {pct(hi)}] in {num(p['last10_turns_per_win'])} "
                         f"turns per win: floor (>= 95% in <= 6) {'met' if ok else 'not met'}.")
        else:
            ok = lo > DUET_SINGLE_GAME
            lines.append(f"- `{n}`: last ten {pct(p['last10_win_rate'])}% [{pct(lo)}, {pct(hi)}]: floor (above 13.9% by more "
                         f"than its interval) {'met' if ok else 'not met'}.")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.game}.md").write_text(text, encoding="utf-8")
    (args.out / f"{args.game}.json").write_text(json.dumps(
        {"game": args.game, "match": args.match, "matches": args.matches, "seed": args.seed, "version": __version__,
         "cells": {f"{n}|{g}": c for (n, g), c in cells.items()}, "pooled": pools}, indent=1) + "\n", encoding="utf-8")
    plot(args.game, args.match, pools, args.figure or Path(f"experiments/figures/learning_{args.game}.png"))


if __name__ == "__main__":
    main()
