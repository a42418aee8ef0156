"""How strongly `play`'s in-game learner should move the reader, judged on real people's games.

Why: in the English playtests of 2026-12-05 one guess of the person's (MEADOW for STRETCH)
moved the partner's reading of the next clue so far that EGYPT: 2 went from MUMMY 64% /
SPHINX 29% to SPHINX 35% / MUMMY 32%, and the AI stopped after one card. The learner's
prior precision (``adapt.PRIOR``: the shipped weights count as that many choices' worth of
evidence per feature) sets how far one guess moves it. This measures, prequentially on the
human Duet data, how well each prior predicts the *next* guess of the same game: the reader
as it stood before each guess, then the guess learned from (as ``play --fresh`` does).

The base weights of each game are cross-fitted (fitted on the other games' folds, as `eval
human` reads them), so no game is predicted by weights that saw it. A game of the data holds
both players' guesses (the files do not say who guessed), so this is per game, not per person.

    python experiments/learner_prior.py --data ../shared/data/human-duet --priors 3,10,30,100,1000,inf \
        --out experiments/results/learner_prior.md
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from spymaster_ai.agents.human import shared_reader
from spymaster_ai.agents.human.adapt import PRIOR, ReaderAdaptation
from spymaster_ai.agents.human.reader import ChoiceSet, softmax
from spymaster_ai.eval.human_data import load_human_data
from spymaster_ai.eval.reader_fit import CrossFittedReader, game_ids
from spymaster_ai.sim.metrics import mean_interval


def game_choices(dataset, reader) -> dict[int, list[tuple[ChoiceSet, int, object]]]:
    """game -> its guesses in play order: (choice set among the cards then visible, the guess's
    place in its clue (0 first), the cross-fitted base parameters of that game)."""
    games, _ = game_ids(dataset)
    turns = defaultdict(list)
    for turn, g in zip(dataset.guesses, games):
        if turn.guesses and reader.reads(turn.clue):
            turns[int(g)].append(turn)
    out = {}
    for g, ts in turns.items():
        ts.sort(key=lambda t: (-len(t.remaining), t.row))  # cards leave the board as the game goes
        seq = []
        for turn in ts:
            base = reader.params_for(turn.remaining)
            visible = np.ones(len(turn.remaining), dtype=bool)
            for j, guess in enumerate(turn.guesses):
                if guess not in turn.remaining:
                    break
                if j:
                    visible[turn.remaining.index(turn.guesses[j - 1])] = False
                x = reader.features(turn.remaining, [turn.clue], visible)[0]
                idx = np.flatnonzero(visible)
                chosen = int(np.searchsorted(idx, turn.remaining.index(guess)))
                seq.append((ChoiceSet(x[idx], chosen, 1.0, g), j, base))
        out[g] = seq
    return out


def prequential(games, prior: float) -> dict[str, list[float]]:
    """Per guess, before learning it: log-probability of the guess and whether it was the
    reader's first card, split by the guess's place in its clue; ``prior`` inf: no learning."""
    rec = defaultdict(list)
    for seq in games.values():
        adapt = None
        for choice, place, base in seq:
            if adapt is None or adapt.base is not base:
                adapt = None if math.isinf(prior) else ReaderAdaptation(base, prior=prior)
            params = base if adapt is None else adapt.params
            z = (choice.x - params.mean) / params.scale
            p = softmax(z @ params.weights)
            key = "first" if place == 0 else "later"
            rec[f"{key}_ll"].append(float(np.log(max(p[choice.chosen], 1e-12))))
            rec[f"{key}_top1"].append(float(int(np.argmax(p)) == choice.chosen))
            rec[f"{key}_p"].append(float(p[choice.chosen]))
            rec[f"{key}_top"].append(float(p.max()))
            if adapt is not None:
                adapt.observe(choice)
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--priors", default="3,10,30,100,1000,inf")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    t0 = time.process_time()
    shipped = shared_reader()
    dataset = load_human_data(args.data)
    crossed = CrossFittedReader.of_shipped(dataset, shipped)
    games = game_choices(dataset, crossed)
    n = sum(len(s) for s in games.values())
    lines = [
        "# The in-game learner's prior, judged prequentially on people's Duet games",
        "",
        f"`python experiments/learner_prior.py --data {args.data} --priors {args.priors}"
        + (f" --out {args.out}`" if args.out else "`"),
        "",
        f"{len(games)} games of the human Duet validation split, {n} guesses in play order. Each guess is "
        "predicted by the reader as it stood before it (cross-fitted base weights, then the game's earlier "
        "guesses learned with the given prior precision; inf: no learning), then learned. 95% t intervals "
        f"over guesses. The shipped prior (`adapt.PRIOR`) is {PRIOR:g}.",
        "",
        "| prior | first guesses: mean log p | top-1 | later guesses: mean log p | top-1 | all: mean p of the guess "
        "| all: log p minus no learning's, paired | mean p of the reader's first card: first / later guesses |",
        "|---|---|---|---|---|---|---|---|",
    ]
    fixed = prequential(games, math.inf)
    for token in args.priors.split(","):
        prior = float(token)
        rec = prequential(games, prior)
        gain = np.array(rec["first_ll"] + rec["later_ll"]) - np.array(fixed["first_ll"] + fixed["later_ll"])

        def fmt(values, pct=False):
            m = float(np.mean(values))
            lo, hi = mean_interval(values)
            k = 100 if pct else 1
            return f"{k * m:.{1 if pct else 3}f} [{k * lo:.{1 if pct else 3}f}, {k * hi:.{1 if pct else 3}f}]"

        row = (f"| {token} | {fmt(rec['first_ll'])} | {fmt(rec['first_top1'], True)}% "
               f"(n={len(rec['first_top1'])}) | {fmt(rec['later_ll'])} | {fmt(rec['later_top1'], True)}% "
               f"(n={len(rec['later_top1'])}) | {fmt(rec['first_p'] + rec['later_p'])} | {fmt(gain.tolist())} "
               f"| {np.mean(rec['first_top']):.3f} / {np.mean(rec['later_top']):.3f} |")
        print(row, flush=True)
        lines.append(row)
    lines += ["", "The last column is how sure the reader is of its own first card. Learning within a game makes it "
              "less sure, most of all for a clue's later cards: that is where the partner decides whether to take a "
              "second card or stop (English playtest round 11, seed 10014: after the person's first three guesses "
              "the learned reader gave CONDUCTOR's open WHISTLE about 0.23 of what was left instead of about 0.32, and the AI "
              "stopped after ORCHESTRA; without learning it took WHISTLE, green).",
              "", f"CPU time: {time.process_time() - t0:.0f} s."]
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
