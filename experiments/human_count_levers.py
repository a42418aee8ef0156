"""The human spymaster's count and clue-word levers, screened in Duet on the same seeds.

Why: with the ``human`` guesser standing in for a person the human spymaster at its earlier
defaults won 20-28% of Duet games, most of them running out of clock at 1.5 cards a clue. Bolder counts (a lower ``follow_p`` / ``follow_margin`` / ``min_evoke``)
and commoner clue words (``min_zipf``, ``prefer_common``) are the levers; each candidate plays
the same seeded boards as the previous default (``min_evoke`` 2.0, ``prefer_common`` 0.1,
the black-card guard at 1.5; the defaults are now ``min_evoke`` 1.25, ``black_evoke`` 1.5 and
``prefer_common`` 0.3, chosen by this screen; a row that names no ``black_evoke`` keeps the
guard half a deviation under its ``min_evoke``, as it was), so wins and losses pair game by game. The
``human`` guesser reads clues with the very reader the spymaster scores them with, so every
candidate also plays with guessers the reader does not contain (``--unseen``, e.g. e5small,
mpnet): a lever that only wins on the mirror is no win.

    python experiments/human_count_levers.py --games 200 --unseen mpnet --unseen-games 100 \
        --only "previous default;min_evoke=1.75;min_evoke=1.5;min_evoke=1.5,prefer_common=0.3;min_evoke=1.25,prefer_common=0.3;min_evoke=1.5,prefer_common=0.3,black_evoke=1.5;min_evoke=1.25,prefer_common=0.3,black_evoke=1.5" \
        --unseen-only "previous default;min_evoke=1.5,prefer_common=0.3;min_evoke=1.25,prefer_common=0.3;min_evoke=1.25,prefer_common=0.3,black_evoke=1.5" \
        --seed 0 --jobs 1 --out experiments/results/human_count_levers.md

Issue 39 ("a person cannot follow the AI's clues to their count") added rows on top of the
defaults chosen above (``CURRENT``; ``BEFORE`` pins ``no_verb_forms`` off as it was): thesaurus
evidence for later targets (``assoc_strength`` ...), finishing the last cards in one clue
(``finish_evoke``, ``finish_margin``), a dearer short count (``short_penalty``) and no
inflected-verb clue words (``no_verb_forms``), paired against ``--base "current default"``,
first as a 40-game screen (``--screen-games``), then at full size with the unseen guessers:

    python experiments/human_count_levers.py --base "current default" --games 200 --only "finish;no_verb_forms" \
        --screen-games 40 --screen-only "assoc_strength=0.02;assoc_strength=0.01;assoc_strength=0.01,unlinked_cost=0.3;assoc_strength=0.01,agree_evoke=1.0;assoc_from=3;linked bold;min_evoke=1.0;short_penalty=0.6;finish_evoke=0.5;finish_evoke=1.0;finish linked;finish;no_verb_forms" \
        --unseen mpnet,minilm --unseen-games 100 --unseen-only "finish;no_verb_forms" --seed 0 --jobs 1 \
        --out experiments/results/human_count_levers.md

Per-game results are kept under ``--out``'s folder (a rerun resumes). Each row: win rate
[95% Wilson interval], paired games won only by the candidate / only by the previous default,
mean clue count, cards found per clue (the giver's greens the partner took on that clue),
loss causes, the share of games that reached sudden death, and clue word frequency (Zipf).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from wordfreq import zipf_frequency

# The setting each row changes, over the previous defaults (PREVIOUS, pinned in every spec so that
# a later change of the defaults does not change what a row measures); the first row is the baseline.
PREVIOUS = {"min_evoke": "2.0", "prefer_common": "0.1", "black_evoke": "1.5"}
CURRENT = "min_evoke=1.25,prefer_common=0.3,black_evoke=1.5"  # the defaults from 03bd7b5 on
BEFORE = CURRENT + ",no_verb_forms=false"  # ... as they were before issue 39 (no_verb_forms true since)
CANDIDATES = {
    "previous default": "",
    "follow_p=0.2": "follow_p=0.2",
    "follow_margin=0.4,follow_p=0.25": "follow_margin=0.4,follow_p=0.25",
    "min_evoke=1.5": "min_evoke=1.5,black_evoke=1.0",
    "min_zipf=4.0": "min_zipf=4.0",
    "prefer_common=0.3": "prefer_common=0.3",
    "min_zipf=4.0,follow_p=0.2": "min_zipf=4.0,follow_p=0.2",
    "min_evoke=1.75": "min_evoke=1.75,black_evoke=1.25",
    "min_evoke=1.25": "min_evoke=1.25,black_evoke=0.75",
    "min_evoke=1.5,prefer_common=0.3": "min_evoke=1.5,prefer_common=0.3,black_evoke=1.0",
    "min_evoke=1.25,prefer_common=0.3": "min_evoke=1.25,prefer_common=0.3,black_evoke=0.75",
    "min_evoke=1.5,prefer_common=0.3,black_evoke=1.5": "min_evoke=1.5,prefer_common=0.3,black_evoke=1.5",
    "min_evoke=1.25,prefer_common=0.3,black_evoke=1.5": "min_evoke=1.25,prefer_common=0.3,black_evoke=1.5",
    # issue 39: evidence a person would name each later target (a direct link in the thesaurus,
    # either way, at a share of its cue's responses), no inflected-verb clue words (PLACED), and
    # a dearer short count behind the clock; on top of the defaults chosen above
    "current default": BEFORE,
    "no_verb_forms": CURRENT + ",no_verb_forms=true",
    "assoc_strength=0.02": CURRENT + ",assoc_strength=0.02,no_verb_forms=true",
    "assoc_strength=0.01": CURRENT + ",assoc_strength=0.01,no_verb_forms=true",
    "assoc_strength=0.01,short_penalty=0.6": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,short_penalty=0.6",
    "assoc_strength=0.01,assoc_from=1": CURRENT + ",assoc_strength=0.01,assoc_from=1,no_verb_forms=true",
    "short_penalty=0.6": BEFORE + ",short_penalty=0.6",
    "assoc_strength=0.01,unlinked_cost=0.3": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,unlinked_cost=0.3",
    "assoc_strength=0.01,unlinked_cost=0.6": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,unlinked_cost=0.6",
    "assoc_strength=0.01,agree_evoke=1.25": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,agree_evoke=1.25",
    "assoc_strength=0.01,agree_evoke=1.0": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,agree_evoke=1.0",
    "finish_evoke=0.5": BEFORE + ",finish_evoke=0.5,finish_margin=0.0",
    "finish_evoke=0.5,short_penalty=0.6": BEFORE + ",finish_evoke=0.5,finish_margin=0.0,short_penalty=0.6",
    "finish": CURRENT + ",finish_evoke=0.5,finish_margin=0.0,short_penalty=0.6,no_verb_forms=true",
    "finish linked": CURRENT + ",assoc_strength=0.01,unlinked_cost=0,finish_linked=true,finish_evoke=0.5,"
        "finish_margin=0.0,short_penalty=0.6,no_verb_forms=true",
    "finish_evoke=1.0": CURRENT + ",finish_evoke=1.0,finish_margin=0.3,short_penalty=0.6,no_verb_forms=true",
    "assoc_from=3": CURRENT + ",assoc_strength=0.01,assoc_from=3,no_verb_forms=true",
    "assoc_from=3,short_penalty=0.6": CURRENT + ",assoc_strength=0.01,assoc_from=3,no_verb_forms=true,short_penalty=0.6",
    "finish,short_penalty=1.0": BEFORE + ",finish_evoke=0.5,finish_margin=0.0,short_penalty=1.0",
    "linked bold": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,unlinked_cost=0,linked_evoke=0.5,linked_margin=0.2",
    "linked bold,finish": CURRENT + ",assoc_strength=0.01,no_verb_forms=true,unlinked_cost=0,linked_evoke=0.5,"
        "linked_margin=0.2,finish_evoke=0.5,finish_margin=0.0,short_penalty=0.6",
    "min_evoke=1.0": BEFORE.replace("min_evoke=1.25", "min_evoke=1.0"),
    "assoc_strength=0.01,bold": CURRENT.replace("min_evoke=1.25", "min_evoke=1.0")
        + ",assoc_strength=0.01,no_verb_forms=true,follow_margin=0.4,follow_p=0.25",
}


def spec(name: str) -> str:
    """The ``human`` spymaster spec of a row: its changes over the previous defaults."""
    params = dict(PREVIOUS)
    for pair in filter(None, CANDIDATES[name].split(",")):
        key, value = pair.split("=")
        params[key] = value
    return "human:" + ",".join(f"{k}={v}" for k, v in params.items())


def run_cell(spymaster: str, guesser: str, games: int, seed: int, jobs: int, folder: Path, name: str) -> tuple[dict, list[dict]]:
    """One seeded `spymaster-ai bench duet` cell: its summary and every game (resumed when kept)."""
    out, results = folder / f"{name}.json", folder / f"{name}.jsonl"
    cmd = [sys.executable, "-m", "spymaster_ai.cli.app", "bench", "duet", "--spymaster", spymaster, "--guesser", guesser,
           "--games", str(games), "--seed", str(seed), "--jobs", str(jobs), "--out", str(out), "--results", str(results)]
    print(" ".join(cmd[2:]), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    rows = sorted((r for r in rows if r["index"] < games), key=lambda r: r["index"])
    return json.loads(out.read_text()), rows


def clue_stats(rows: list[dict]) -> dict:
    """Counts, the giver's greens found on each clue, and clue word Zipf over every clue."""
    counts, found, zipf = [], [], []
    for row in rows:
        config = row["record"]["config"]
        sides = {"A": config["key"]["side_a"], "B": config["key"]["side_b"]}
        index = {w: i for i, w in enumerate(config["words"])}
        side = None
        for move in row["record"]["actions"]:
            if move.get("type") == "clue":
                side = sides[move["giver"]]
                counts.append(int(move["count"]))
                found.append(0)
                zipf.append(zipf_frequency(move["word"], "en"))
            elif move.get("type") == "guess" and side is not None and side[index[move["word"]]] == "green":
                found[-1] += 1
    z = np.array(zipf or [0.0])
    return {"clues": len(counts), "mean_count": float(np.mean(counts)) if counts else 0.0,
            "count_share": Counter(counts), "found_per_clue": float(np.mean(found)) if found else 0.0,
            "zipf_median": float(np.median(z)), "zipf_below_4": float(np.mean(z < 4.0))}


def row_text(name: str, report: dict, rows: list[dict], base: list[dict]) -> str:
    lo, hi = report["ci95"]
    won = {r["index"]: bool(r["won"]) for r in rows}
    base_won = {r["index"]: bool(r["won"]) for r in base}
    gains = sum(won[i] and not base_won.get(i, False) for i in won)
    losses = sum(base_won.get(i, False) and not won[i] for i in won)
    stats = clue_stats(rows)
    total = max(stats["clues"], 1)
    shares = "/".join(f"{100 * stats['count_share'].get(k, 0) / total:.0f}" for k in (1, 2, 3))
    causes = ", ".join(f"{k} {v}" for k, v in sorted(report["loss_causes"].items()) if v) or "-"
    return (f"| {name} | {100 * report['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | +{gains} / -{losses} | "
            f"{stats['mean_count']:.2f} ({shares}) | {stats['found_per_clue']:.2f} | {causes} | "
            f"{100 * report['sudden_death_rate']:.0f}% | {stats['zipf_median']:.2f} / {100 * stats['zipf_below_4']:.0f}% |")


HEADER = ["| setting | win [95% CI] | paired vs the first row (won only here / only there) | mean count (% 1/2/3) | "
          "cards found per clue | loss causes | sudden death | clue Zipf median / share < 4.0 |",
          "|---|---|---|---|---|---|---|---|"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per setting with the human guesser")
    ap.add_argument("--unseen", default="e5small,mpnet", help="guessers the reader does not contain")
    ap.add_argument("--unseen-games", type=int, default=100)
    ap.add_argument("--only", default="", help="setting names, ';'-separated (default: all)")
    ap.add_argument("--unseen-only", default="", help="the settings the unseen guessers play (default: --only's)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="experiments/results/human_count_levers.md")
    ap.add_argument("--base", default="previous default", help="the row every other pairs against (played first)")
    ap.add_argument("--screen-games", type=int, default=0, help="first a screen with the human guesser on this many games")
    ap.add_argument("--screen-only", default="", help="the settings the screen plays (';'-separated)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    folder = out.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    def pick(only: str) -> list[str]:
        rest = [n for n in CANDIDATES if n != args.base and (not only or n in only.split(";"))]
        return [args.base] + rest

    names = pick(args.only)
    given = shlex.join(sys.argv[1:] if argv is None else argv)
    lines = ["# The human spymaster's count and clue-word levers (Duet)", "",
             f"`python experiments/human_count_levers.py {given}`. Every setting plays the same seeded boards "
             "(both sides' spymasters take the setting); each row's spec is `human:` with the previous defaults "
             f"({', '.join(f'{k}={v}' for k, v in PREVIOUS.items())}) and the row's changes. Win rate [95% Wilson interval].", ""]
    guessers = [("human", args.games, names)] + [(g, args.unseen_games, pick(args.unseen_only or args.only))
                                                 for g in filter(None, args.unseen.split(","))]
    if args.screen_games:
        guessers.insert(0, ("human", args.screen_games, pick(args.screen_only)))
    for guesser, games, rows_named in guessers:
        lines += [f"## Guesser `{guesser}`, {games} games, seed {args.seed}", ""] + HEADER
        base = None
        for name in rows_named:
            safe = name.replace("=", "").replace(",", "_").replace(" ", "_")
            report, rows = run_cell(spec(name), guesser, games, args.seed, args.jobs, folder, f"{guesser}_{safe}")
            base = rows if base is None else base
            lines.append(row_text(name if name == args.base else f"`{name}`", report, rows, base))
        lines.append("")
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
