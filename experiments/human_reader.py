"""Fit the human reader (``spymaster_ai/agents/human``) to real human Duet play, and choose it
by cross-validation over whole games.

What it learns from (the validation split of Shaikh et al. 2023, read from ``--data``):
* every guess of the guess task, in order: the card a person took among those still visible
  (the first guess of a clue weighs 1, later ones ``--later``);
* optionally the clue task: the giver's intended targets among their black and tan cards
  (``--intended``): what a clue was meant to find, not only what was found.

Every figure is out of fold: the games are split into ``--folds`` groups (GroupKFold over
games that link all three tasks), each group is scored by the reader fitted on the others.
Reported per candidate: top-1 agreement with the human's first guess, the first guess's
mean log-likelihood, and the share of first picks on the giver's intended target (the
``eval human`` understanding figure). ``--write`` refits the chosen setting on every game
and writes ``reader_params.json`` with its provenance. ``--phrase-prior``: the logit a phrase
link adds, held rather than fitted (the first value of a comma list is the one written).

    python experiments/human_reader.py --data ../shared/data/human-duet --write
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

from spymaster_ai.agents.human.features import CARD_FEATURES, MODELS, PER_MODEL, feature_names
from spymaster_ai.agents.human.reader import PARAMS_PATH, ChoiceSet, fit_conditional_logit, softmax
from spymaster_ai.eval.human_data import load_human_data
from spymaster_ai.eval.human_join import join_intended_targets
from spymaster_ai.eval.reader_fit import FitSettings, build_choice_sets, data_fingerprint, extraction_reader, fit_reader, row_hashes
from spymaster_ai.provenance import environment


def columns(models_used: tuple[str, ...], all_models: tuple[str, ...], drop: tuple[str, ...] = ()) -> np.ndarray:
    """The feature columns of ``models_used`` (and the card features), less those named in ``drop``."""
    names = feature_names(all_models)
    keep = [f"{m}:{f}" for m in models_used for f in PER_MODEL] + list(CARD_FEATURES)
    keep = [k for k in keep if k.split(":")[-1] not in drop]
    return np.array([names.index(k) for k in keep])


def cross_validate(sets, n_guess, first_of_row, join, cols, l2: float, folds: int, fixed: dict | None = None):
    """Out-of-fold figures; ``fixed``: full-width column -> held raw slope (a prior)."""
    from sklearn.model_selection import GroupKFold

    groups = np.array([s.group for s in sets])
    sub = [ChoiceSet(s.x[:, cols], s.chosen, s.weight, s.group) for s in sets]
    held = {list(cols).index(j): v for j, v in (fixed or {}).items() if j in cols}
    top1, loglik = [], []
    predicted: dict[int, np.ndarray] = {}
    for train, test in GroupKFold(n_splits=folds).split(np.zeros(len(sets)), groups=groups):
        mean, scale, w = fit_conditional_logit([sub[i] for i in train], l2, fixed=held)
        for i in test:
            if i >= n_guess:
                continue
            u = ((sub[i].x - mean) / scale) @ w
            predicted[i] = u
    first_sets = set(first_of_row.values())
    for i, u in predicted.items():
        if i not in first_sets:
            continue
        p = softmax(u)
        top1.append(float(np.argmax(u) == sets[i].chosen))
        loglik.append(float(np.log(max(p[sets[i].chosen], 1e-12))))
    targets_of = {m.guess.row: set(m.targets) for m in join.matched}
    return np.mean(top1), np.mean(loglik), len(top1), predicted, targets_of


def understanding(dataset, predicted, first_of_row, targets_of) -> tuple[float, int]:
    hits = []
    for turn in dataset.guesses:
        i = first_of_row.get(turn.row)
        if i is None or i not in predicted or turn.row not in targets_of:
            continue
        hits.append(float(turn.remaining[int(np.argmax(predicted[i]))] in targets_of[turn.row]))
    return float(np.mean(hits)), len(hits)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data/human-duet")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--later", type=float, default=0.0)
    ap.add_argument("--intended", type=float, default=0.5)
    ap.add_argument("--intended-on", default="clue", choices=("clue", "board"))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--phrase-prior", default="fit",
                    help="the logit a phrase link adds, held rather than fitted ('fit': fitted); a comma list compares several")
    ap.add_argument("--grid", action="store_true", help="compare model sets and weights (slower)")
    ap.add_argument("--write", action="store_true", help=f"refit on every game and write {PARAMS_PATH}")
    ap.add_argument("--out", help="write the comparison table (markdown) here")
    args = ap.parse_args(argv)

    all_models = tuple(args.models.split(","))
    dataset = load_human_data(args.data)
    join = join_intended_targets(dataset.guesses, dataset.clues)
    reader = extraction_reader(all_models)
    lines = ["| models | without | later | intended | l2 | phrase prior | top-1 | log-lik | intended hit | first guesses |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    priors = [None if p == "fit" else float(p) for p in args.phrase_prior.split(",")]
    configs = [(all_models, (), args.later, args.intended, args.l2, prior) for prior in priors]
    if args.grid:
        configs = []
        for later in (0.0, 0.5, 1.0):
            for intended in (0.0, 0.5, 1.0):
                configs.append((all_models, (), later, intended, args.l2, priors[0]))
        for m in all_models:
            configs.append(((m,), (), args.later, args.intended, args.l2, priors[0]))
            configs.append((tuple(x for x in all_models if x != m), (), args.later, args.intended, args.l2, priors[0]))
        for feature in PER_MODEL + CARD_FEATURES:
            configs.append((all_models, (feature,), args.later, args.intended, args.l2, priors[0]))
        for l2 in (0.1, 10.0):
            configs.append((all_models, (), args.later, args.intended, l2, priors[0]))
    cache: dict[tuple[float, float], tuple] = {}
    for models_used, drop, later, intended, l2, prior in configs:
        key = (later, intended)
        if key not in cache:
            cache[key] = build_choice_sets(dataset, reader, FitSettings(later, intended, l2, args.intended_on))
        sets, n_guess, first_of_row = cache[key]
        cols = columns(models_used, all_models, drop)
        fixed = FitSettings(phrase_prior=prior).fixed_weights(feature_names(all_models))
        t1, ll, n, predicted, targets_of = cross_validate(sets, n_guess, first_of_row, join, cols, l2, args.folds, fixed)
        hit, n_hit = understanding(dataset, predicted, first_of_row, targets_of)
        shown = "fitted" if prior is None else prior
        line = (f"| {'+'.join(models_used)} | {','.join(drop) or '-'} | {later} | {intended} | {l2} | {shown} | {t1:.3f} | "
                f"{ll:.3f} | {hit:.3f} ({n_hit}) | {n} |")
        lines.append(line)
        print(line, flush=True)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.write:
        settings = FitSettings(args.later, args.intended, args.l2, args.intended_on, priors[0])
        sets, n_guess, _ = build_choice_sets(dataset, reader, settings)
        params = fit_reader(sets, all_models, settings, provenance={
            "data": "Cultural Codes (Shaikh et al. 2023), Codenames Duet validation split: guess and clue tasks",
            "data_sha256": data_fingerprint(dataset),
            "rows_sha256_12": row_hashes(dataset),
            "fitted_on": {"choice_sets": len(sets), "guess_sets": n_guess, "games": int(len({s.group for s in sets}))},
            "settings": settings.to_json(),
            "script": "experiments/human_reader.py --write",
            "date": dt.date.today().isoformat(),
            "environment": environment(),
        })
        from dataclasses import replace

        from spymaster_ai.agents.human.reader import HumanReader
        from spymaster_ai.eval.reader_fit import fit_stop_rule, load_judged_guesses

        judged = load_judged_guesses(dataset.root)
        params = replace(params, stop=fit_stop_rule(judged, HumanReader(params, reader._models)))
        params.provenance["stop_rule_fitted_on"] = {"judged_guesses": len(judged), "right": sum(j.correct for j in judged)}
        print(f"stop rule: {params.stop} from {len(judged)} judged guesses", file=sys.stderr)
        PARAMS_PATH.write_text(json.dumps(params.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {PARAMS_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
