"""Self-play on German, Vietnamese and Persian boards: e5small's spymaster with its own guesser
(separate instances) on Duet and the Kim et al. 2019 protocol, each language's cards, rules
and clue vocabulary (``--lang``).

A mirror is the ceiling (the partner is the spymaster's own model); it says the agents, the
language's legality rules and its vocabulary work together, not that people would follow the
clues (see experiments/results/lang_clues.md for that). Each cell resumes from its .jsonl.

    python experiments/lang_selfplay.py --games 500 --jobs 2 --out experiments/results/lang_selfplay
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai import __version__  # noqa: E402
from spymaster_ai.provenance import environment  # noqa: E402
from spymaster_ai.rules.lang.words import LANGUAGES  # noqa: E402
from spymaster_ai.sim import PlayOptions, lineup, run_games  # noqa: E402
from spymaster_ai.sim.tournament import format_cell  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--langs", default="de,vi,fa")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--spymaster", default="e5small")
    ap.add_argument("--guesser", default="e5small")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/lang_selfplay"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, dict[str, dict]] = {}
    for lang in args.langs.split(","):
        for game in ("duet", "kim2019"):
            run = run_games(
                game, lineup(game, args.spymaster, args.guesser), games=args.games, seed=args.seed,
                options=PlayOptions(lang=lang), jobs=args.jobs,
                results_path=args.out / f"{lang}_{game}.jsonl", progress=True,
            )
            figures.setdefault(lang, {})[game] = run.summary()
    lines = [
        f"Self-play on boards in other languages: spymaster `{args.spymaster}`, guesser `{args.guesser}`, "
        f"{args.games} games per cell, seed {args.seed} (spymaster_ai {__version__}).",
        f"`python experiments/lang_selfplay.py --games {args.games} --jobs {args.jobs} --out {args.out}`.",
        "Win rate % [95% Wilson interval]; kim2019: mean turns (a loss counts 25); errors: games an agent broke.",
        "",
        "| language | Duet win % | Duet assassin / timeout losses | kim2019 win % | kim2019 turns | errors |",
        "|---|---|---|---|---|---|",
    ]
    for lang, f in figures.items():
        duet, kim = f["duet"], f["kim2019"]
        causes = duet["loss_causes"]
        errors = duet["loss_causes"].get("error", 0) + kim["loss_causes"].get("error", 0)
        lines.append(f"| {LANGUAGES[lang]} | {format_cell(duet)} | {causes['assassin']} / {causes['timeout']} | "
                     f"{format_cell(kim)} | {format_cell(kim, turns=True)} | {errors} |")
    table = "\n".join(lines) + "\n"
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        json.dumps({**figures, "environment": environment()}, indent=1) + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
