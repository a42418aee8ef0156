"""Headline table 1: sanity self-play. Each model's spymaster with its own guesser
(separate instances) on Duet, the Kim et al. 2019 protocol and the solo variant.

Self-play is the optimistic ceiling (the partner is a mirror); see leave_one_out.py for
the honest cross-play figures.

    python experiments/sanity_selfplay.py --games 200 --seed 0 --jobs 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spymaster_ai import __version__
from spymaster_ai.sim import PlayOptions, lineup, run_games
from spymaster_ai.provenance import environment
from spymaster_ai.sim.tournament import format_cell

GAMES = ("duet", "kim2019", "solo")


def installed_models() -> list[str]:
    from spymaster_ai.embeddings import available_embeddings

    return [e.name for e in available_embeddings() if e.installed and ":" not in e.name]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", help="comma-separated embedding names (default: every installed model)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--game", action="append", choices=GAMES, help="only these games (default all three)")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/sanity_selfplay"))
    args = ap.parse_args()
    models = args.models.split(",") if args.models else installed_models()
    args.out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, dict[str, dict]] = {}
    for model in models:
        for game in args.game or GAMES:
            run = run_games(
                game, lineup(game, model, model), games=args.games, seed=args.seed, options=PlayOptions(),
                jobs=args.jobs, results_path=args.out / f"{model}_{game}.jsonl", progress=True,
            )
            figures.setdefault(model, {})[game] = run.summary()
    lines = [
        f"Self-play, {args.games} games per cell, seed {args.seed} (spymaster_ai {__version__}).",
        "Win rate % [95% Wilson interval]; Duet/solo score over won games; kim2019: turns (a loss counts 25).",
        "",
        "| model | Duet win % | Duet assassin losses | Duet mean score | kim2019 win % / turns | solo win % | solo mean score |",
        "|---|---|---|---|---|---|---|",
    ]
    empty = {"wins": 0, "games": 0, "win_rate": None, "loss_causes": {"assassin": "–"}, "mean_score": None, "mean_turns": None}
    for model, f in figures.items():
        duet, kim, solo = (f.get(g, empty) for g in GAMES)
        score = lambda s: "–" if s["mean_score"] is None else f"{s['mean_score']:.2f}"  # noqa: E731
        fc = lambda c, **k: format_cell(c, **k) if c.get("games") else "–"  # noqa: E731
        lines.append(
            f"| `{model}` | {fc(duet)} | {duet['loss_causes']['assassin']} | {score(duet)} | "
            f"{fc(kim)} / {fc(kim, turns=True)} | {fc(solo)} | {score(solo)} |"
        )
    table = "\n".join(lines) + "\n"
    (args.out.with_suffix(".md")).write_text(table, encoding="utf-8")
    (args.out.with_suffix(".json")).write_text(json.dumps({**figures, "environment": environment()}, indent=1) + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
