"""Headline table 2: leave-one-out cross-play on Duet. For every guesser model Y: the
mirror spymaster (same model, self-play), every plain spymaster of another model, and the
robust spymaster whose own model and partner model exclude Y (it never saw Y).

    python experiments/leave_one_out.py --games 200 --seed 0 --jobs 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spymaster_ai import __version__
from spymaster_ai.sim import PlayOptions, run_tournament
from spymaster_ai.sim.tournament import format_cell


def installed_models() -> list[str]:
    from spymaster_ai.embeddings import available_embeddings

    return [e.name for e in available_embeddings() if e.installed and ":" not in e.name]


def robust_without(models: list[str], held_out: str, risk: float) -> str:
    others = [m for m in models if m != held_out]
    return f"robust:embedding={others[0]},partner={'+'.join(others)},risk={risk}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", help="comma-separated embedding names (default: every installed model)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--risk", type=float, default=0.5)
    ap.add_argument("--out", type=Path, default=Path("results/leave_one_out"))
    args = ap.parse_args()
    models = args.models.split(",") if args.models else installed_models()
    if len(models) < 3:
        raise SystemExit("leave-one-out needs at least three models (two left to build the partner)")
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    cells = {}
    for guesser in models:
        robust = robust_without(models, guesser, args.risk)
        t = run_tournament(
            "duet", spymasters=[*models, robust], guessers=[guesser], games=args.games, seed=args.seed,
            options=PlayOptions(), jobs=args.jobs, results_dir=args.out / guesser, progress=True,
        )
        cross = [t.cell(s, guesser) for s in models if s != guesser]
        pooled_wins = sum(c["wins"] for c in cross)
        pooled_games = sum(c["games"] for c in cross)
        cells[guesser] = {"mirror": t.cell(guesser, guesser), "robust": t.cell(robust, guesser), "robust_spec": robust,
                          "cross": {s: t.cell(s, guesser) for s in models if s != guesser}}
        from spymaster_ai.sim.metrics import wilson_interval

        lo, hi = wilson_interval(pooled_wins, pooled_games)
        pooled = f"{100 * pooled_wins / pooled_games:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
        rows.append(f"| `{guesser}` | {format_cell(t.cell(guesser, guesser))} | {pooled} | "
                    f"{format_cell(t.cell(robust, guesser))} |")
    lines = [
        f"Duet, leave-one-out cross-play, {args.games} games per pairing, seed {args.seed} "
        f"(spymaster_ai {__version__}). Win rate % [95% Wilson interval].",
        "",
        "| guesser | mirror spymaster (self-play) | plain spymasters of the other models (pooled) | robust spymaster without the guesser's model |",
        "|---|---|---|---|",
        *rows,
    ]
    table = "\n".join(lines) + "\n"
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(cells, indent=1) + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
