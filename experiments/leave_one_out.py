"""Headline table 2: leave-one-out cross-play (Duet and the Kim et al. 2019 protocol).

For every guesser model G: the mirror spymaster (same model, self-play), every plain
spymaster of another model, and the robust spymaster that never saw G
(``robust:exclude=G``: its own model and its partner models are the other packaged models).
The same run gives the full cross-play matrix of the plain spymasters (table 3).

``--pool`` names the models the robust spymaster may draw on (default: the packaged four);
each cell's robust spymaster uses all of them but G. ``--related A+B`` declares a family of
near-twins (e.g. MiniLM and mpnet: the same sentence-transformers training data); the table
then also reports the stricter figure with G's whole family held out.

``--reference`` (default on) adds one cell per G that is not cross-play: the robust spymaster
with G *in* its pool (every pool model, G included). Between it and the G-held-out cell lies
what not knowing the partner's model costs, apart from the spymaster's strategy.

    python experiments/leave_one_out.py --games 500 --seed 0 --jobs 1

``--subset A,B,C`` adds a row pooling the robust spymaster's G-held-out cells over those
guessers only (every guesser stays in the table): the three-model subset GloVe-50d, MiniLM
and mpnet is what an earlier reference figure (18% Duet) was measured on. ``--from-json``
rebuilds the tables from a results JSON written by this script, without playing.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spymaster_ai import __version__
from spymaster_ai.agents.registry import LEAVE_ONE_OUT_POOL
from spymaster_ai.sim import PlayOptions, run_tournament
from spymaster_ai.sim.metrics import wilson_interval
from spymaster_ai.provenance import environment
from spymaster_ai.sim.tournament import format_cell


def robust_without(held_out: str, pool: list[str], extra: str = "") -> str:
    """The robust spymaster that never saw ``held_out`` (``+``-separated): with the packaged
    pool the registry's ``exclude`` alone says it; with another pool the partners are listed."""
    banned = set(held_out.split("+"))
    spec = f"robust:exclude={held_out}"
    if tuple(pool) != LEAVE_ONE_OUT_POOL:
        left = [m for m in pool if m not in banned]
        if len(left) < 2:
            raise SystemExit(f"holding out {held_out} leaves fewer than two models of the pool {'+'.join(pool)}")
        spec += f",partner={'+'.join(left)}"
    return spec + (f",{extra}" if extra else "")


def robust_with_all(pool: list[str], guesser: str, extra: str = "") -> str:
    """The reference robust spymaster: every pool model is a partner model, and G (added if
    the pool lacks it)."""
    models = pool if guesser in pool else [*pool, guesser]
    return f"robust:partner={'+'.join(models)}" + (f",{extra}" if extra else "")


def family_of(model: str, related: list[set[str]]) -> str:
    """``model`` and its declared near-twins, ``+``-separated in a stable order."""
    for group in related:
        if model in group:
            return "+".join(sorted(group))
    return model


def causes(cell: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(cell.get("loss_causes", {}).items()) if v) or "–"


SUBSET_NOTE = "the comparison with the earlier reference figure of 18% (Duet), measured on these three guessers"


def play(args: argparse.Namespace, models: list[str], kinds: list[str], pool: list[str], related: list[set[str]]) -> dict:
    """Play every cell; the figures by game kind and guesser G (cells as ``Tournament.cell``)."""
    figures: dict = {}
    for kind in kinds:
        for guesser in models:
            reference = robust_with_all(pool, guesser, args.robust) if args.reference else None
            robust = robust_without(guesser, pool, args.robust)
            family = family_of(guesser, related)
            strict = robust_without(family, pool, args.robust) if family != guesser else robust
            spymasters = [*models, robust] + ([strict] if strict != robust else []) + ([reference] if reference else [])
            t = run_tournament(
                kind, spymasters=spymasters, guessers=[guesser], games=args.games, seed=args.seed,
                options=PlayOptions(), jobs=args.jobs, results_dir=args.out / kind / guesser, progress=True,
            )
            figures.setdefault(kind, {})[guesser] = {
                "mirror": t.cell(guesser, guesser), "cross": {s: t.cell(s, guesser) for s in models if s != guesser},
                "robust": t.cell(robust, guesser), "robust_spec": robust,
                "robust_family_held_out": t.cell(strict, guesser), "robust_family_spec": strict,
            }
            if reference:
                figures[kind][guesser].update({"robust_g_in_pool": t.cell(reference, guesser), "robust_g_in_pool_spec": reference})
    return figures


def subset_row(cells: dict, subset: list[str], turns: bool) -> str:
    """The robust spymaster with G held out, pooled over the guessers ``subset``: wins over
    games with a Wilson interval (and the games' mean turns, each cell weighted by its games)."""
    rb = [cells[g]["robust"] for g in subset]
    wins, n = sum(c["wins"] for c in rb), sum(c["games"] for c in rb)
    lo, hi = wilson_interval(wins, n)
    text = f"{100 * wins / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({n} games)"
    if turns:
        text += f", mean turns {sum(c['mean_turns'] * c['games'] for c in rb) / n:.2f}"
    names = ", ".join(f"`{g}`" for g in subset)
    return f"Three-model subset ({names} as guessers; {SUBSET_NOTE}): robust spymaster with G held out, pooled over those G: {text}."


def render(figures: dict, args: argparse.Namespace, models: list[str], kinds: list[str], pool: list[str],
           related: list[set[str]], subset: list[str]) -> list[str]:
    """The Markdown tables of ``figures`` (table 2, the subset row and table 3, per game kind)."""
    games = figures[kinds[0]][models[0]]["robust"]["games"]
    lines = [f"Leave-one-out cross-play, {games} games per cell, seed {args.seed} (spymaster_ai {__version__}).",
             "Win rate % [95% Wilson interval]; kim2019 also mean turns [95% t interval] (a loss counts 25).", ""]
    for kind in kinds:
        turns = kind == "kim2019"
        cells = figures[kind]
        reference = all("robust_g_in_pool" in cells[g] for g in models)
        rows, matrix = [], {}
        for guesser in models:
            c = cells[guesser]
            cross = c["cross"]
            wins = sum(x["wins"] for x in cross.values())
            n = sum(x["games"] for x in cross.values())
            lo, hi = wilson_interval(wins, n)
            rb, fb = c["robust"], c["robust_family_held_out"]
            for s in models:
                matrix[(s, guesser)] = c["mirror"] if s == guesser else cross[s]
            ref_col = ""
            if reference:
                rf = c["robust_g_in_pool"]
                ref_col = f" {format_cell(rf)}" + (f" / {format_cell(rf, turns=True)} turns" if turns else "") + " |"
            extra = f" / {format_cell(rb, turns=True)} turns" if turns else ""
            strict_col = ""
            if related:
                same = c["robust_family_spec"] == c["robust_spec"]
                strict_col = f" {format_cell(fb)}" + (f" / {format_cell(fb, turns=True)} turns" if turns else "") + (" (same)" if same else "") + " |"
            rows.append(
                f"| `{guesser}` | {format_cell(c['mirror'])} | "
                + " | ".join(format_cell(cross[s]) if s in cross else "(mirror)" for s in models)
                + f" | {100 * wins / n:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] | {format_cell(rb)}{extra} | {causes(rb)} |{strict_col}{ref_col}"
            )
        mean_robust = sum(cells[g]["robust"]["win_rate"] for g in models) / len(models)
        mean_family = sum(cells[g]["robust_family_held_out"]["win_rate"] for g in models) / len(models)
        mean_reference = sum(cells[g]["robust_g_in_pool"]["win_rate"] for g in models) / len(models) if reference else None
        lines += [
            f"### {kind}", "",
            f"Robust spymaster's pool: {', '.join(f'`{m}`' for m in pool)} (each cell uses all but G)"
            + (f"; near-twin families: {'; '.join('+'.join(sorted(g)) for g in related)}." if related else "."), "",
            "| guesser G | mirror (self-play) | " + " | ".join(f"spymaster `{s}`" for s in models)
            + " | single-model cross-play pooled | robust, G held out | robust losses |"
            + (" robust, G's family held out |" if related else "")
            + (" reference: robust with G in its pool |" if reference else ""),
            "|---|---|" + "---|" * len(models) + "---|---|---|" + ("---|" if related else "") + ("---|" if reference else ""),
            *rows, "",
            f"Robust spymaster with G held out, mean over G: {100 * mean_robust:.1f}% wins."
            + (f" With G's whole family held out: {100 * mean_family:.1f}%." if related else "")
            + (f" Reference, G in the pool (not cross-play): {100 * mean_reference:.1f}%." if reference else ""), "",
        ]
        if subset:
            lines += [subset_row(cells, subset, turns), ""]
        lines += [
            f"Cross-play matrix ({kind}; rows spymaster, columns guesser):", "",
            "| spymaster \\ guesser | " + " | ".join(f"`{g}`" for g in models) + " |",
            "|---|" + "---|" * len(models),
        ]
        for s in models:
            row = [format_cell(matrix[(s, g)]) + (f" / {format_cell(matrix[(s, g)], turns=True)}" if turns else "") for g in models]
            lines.append(f"| `{s}` | " + " | ".join(row) + " |")
        lines.append("")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(LEAVE_ONE_OUT_POOL), help="comma-separated embedding names")
    ap.add_argument("--game", action="append", help="duet and/or kim2019 (default both)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--robust", default="", help="extra robust spymaster parameters, e.g. disagreement=1.0")
    ap.add_argument("--pool", default=",".join(LEAVE_ONE_OUT_POOL), help="comma-separated models the robust spymaster may use (all but G)")
    ap.add_argument("--related", action="append", default=[], help="a family of near-twin models, e.g. minilm+mpnet (repeatable): also report the robust spymaster with G's whole family held out")
    ap.add_argument("--reference", action=argparse.BooleanOptionalAction, default=True, help="also play the robust spymaster with G in its pool (a reference, not cross-play)")
    ap.add_argument("--subset", default="", help="comma-separated guessers: also print the robust G-held-out cells pooled over them (e.g. glove50,minilm,mpnet)")
    ap.add_argument("--from-json", type=Path, default=None, help="rebuild the tables from this results JSON (of this script) without playing")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/leave_one_out"))
    args = ap.parse_args()
    models = args.models.split(",")
    kinds = args.game or ["duet", "kim2019"]
    pool = args.pool.split(",")
    related = [set(g.split("+")) for g in args.related]
    subset = [g for g in args.subset.split(",") if g]
    if len(models) < 3:
        raise SystemExit("leave-one-out needs at least three models (two left to build the partner)")
    if not set(subset) <= set(models):
        raise SystemExit(f"--subset {args.subset}: every subset guesser must be one of --models {args.models}")
    if args.from_json is not None:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        missing = [f"{k}/{g}" for k in kinds for g in models if g not in saved.get(k, {})]
        if missing:
            raise SystemExit(f"{args.from_json} has no cells for {', '.join(missing)}")
        figures, env = {k: saved[k] for k in kinds}, saved.get("environment", environment())
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        figures, env = play(args, models, kinds, pool, related), environment()
    lines = render(figures, args, models, kinds, pool, related, subset)
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps({**figures, "environment": env}, indent=1) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
