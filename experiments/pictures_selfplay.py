"""Summarise the Codenames Pictures self-play runs (real picture cards, default agents).

The runs themselves are ``spymaster-ai bench pictures`` commands with ``--results`` files,
so they resume after an interruption; this script reads whatever games those files hold
(finished or not) and prints one Markdown table, the same figures ``bench`` reports.

    spymaster-ai bench pictures --games 1000 --jobs 1 --results experiments/results/pictures_two_teams.jsonl
    spymaster-ai bench pictures --games 1000 --jobs 1 --solo --results experiments/results/pictures_solo.jsonl
    spymaster-ai bench pictures --games 1000 --jobs 1 --assassin-ending --results experiments/results/pictures_two_teams_ae.jsonl
    spymaster-ai bench pictures --games 1000 --jobs 1 --solo --assassin-ending --results experiments/results/pictures_solo_ae.jsonl
    python experiments/pictures_selfplay.py [--out experiments/results/pictures_selfplay.md]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from spymaster_ai.sim.metrics import summarise
from spymaster_ai.sim.play import GameResult

RUNS = {
    "two_teams": "Pictures, red vs blue",
    "solo": "Pictures, solo variant",
    "two_teams_ae": "Pictures, red vs blue, Assassin Ending",
    "solo_ae": "Pictures, solo variant, Assassin Ending",
}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def _row(label: str, results: list[GameResult]) -> str:
    s = summarise(results)
    lo, hi = s["ci95"]
    causes = ", ".join(f"{c} {k}" for c, k in s["loss_causes"].items() if k) or "–"
    # How games ended (either side), for two-team games: the winner's reason.
    ends = Counter(r.extra.get("end") for r in results if "end" in r.extra)
    end = ", ".join(f"{c} {k}" for c, k in sorted(ends.items(), key=lambda kv: -kv[1])) if ends else "–"
    first = _pct(s.get("starting_team_win_rate")) if "starting_team_win_rate" in s else "–"
    score = "–" if s["mean_score"] is None else f"{s['mean_score']:.2f}"
    return (f"| {label} | {s['games']} | {_pct(s['win_rate'])} [{lo:.1%}, {hi:.1%}] | {causes} | {end} | {first} "
            f"| {s['mean_turns']:.2f} | {score} | {s['words_per_clue']:.2f} | {s['invalid_clues']} | {s['errors']} |")


def table(folder: Path) -> str:
    lines = [
        "| run | games | win rate (red / the solo team) [95% CI] | red's losses by cause | how games ended "
        "| starting team wins | mean turns | mean score (wins) | words per clue | invalid clues | agent errors |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, label in RUNS.items():
        path = folder / f"pictures_{name}.jsonl"
        if not path.is_file():
            continue
        results = [GameResult.from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line]
        if results:
            lines.append(_row(label, results))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("experiments/results"))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    text = table(args.folder)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
