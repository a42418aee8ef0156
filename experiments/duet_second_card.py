"""How often the reader's next card for a person's Duet clue is right, after a first card was right.

Why: in the English playtest en3 (docs/playtests/2026-12-05/en3.md) the AI guesser stopped
after one correct card on 5 of the person's 8 clues with a count of 2 or more (EGYPT: 2 left
MUMMY at 44%, COLORFUL: 3 left PARROT and BUTTERFLY), and every game ran out of tokens. Its
second card's chance is capped by ``min(1, k p)`` (``HumanGuesser.duet_meant``: k the cards the
count still asks for, p the reader's share of the card among those left). That cap was added
after five second guesses at 1-21% were all wrong; whether it is right at 40-60% is a question
the human data can answer: each giver's turn names its targets and its own black and tan cards,
so the cards green on the giver's side are known.

For every joined turn (guess row <-> clue row, ``eval.human_join``) whose clue has 2 or more
targets: the reader (cross-fitted, as ``eval human`` reads it) takes its first card; if that card
is green on the giver's side the turn goes on, the card leaves the board, and its next card is
scored: its cap ``min(1, (count - 1) p)``, and whether it was green on the giver's side, one of
the targets, or black. Binned by the cap, with 95% intervals (Wilson), and an isotonic fit of
green on the cap (what the guesser could use in its place).

    python experiments/duet_second_card.py --data ../shared/data/human-duet \
        --out experiments/results/duet_second_card.md
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from sklearn.isotonic import IsotonicRegression

from spymaster_ai.agents.human import shared_reader
from spymaster_ai.agents.human.features import median_evoke
from spymaster_ai.agents.human.reader import softmax
from spymaster_ai.eval.human_data import load_human_data
from spymaster_ai.eval.human_join import join_intended_targets
from spymaster_ai.eval.reader_fit import CrossFittedReader

BINS = (0.0, 0.15, 0.3, 0.45, 0.6, 0.8, 1.0001)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def second_cards(dataset, reader) -> list[dict]:
    """One row per joined turn whose reader's first card was green on the giver's side."""
    rows = []
    for turn in join_intended_targets(dataset.guesses, dataset.clues).matched:
        clue, guess = turn.clue, turn.guess
        if len(clue.targets) < 2 or not reader.reads(clue.clue):
            continue
        board = list(guess.remaining)
        green = set(board) - set(clue.black) - set(clue.tan)
        params = reader.params_for(board)
        visible = np.ones(len(board), dtype=bool)
        x = reader.features(board, [clue.clue], visible)[0]
        first = int(np.argmax(softmax(params.logits(x))))
        if board[first] not in green:
            continue  # the turn ends on the first card
        visible[first] = False
        x = reader.features(board, [clue.clue], visible)[0]
        idx = np.flatnonzero(visible)
        p = softmax(params.logits(x[idx]))
        j = int(np.argmax(p))
        card = board[idx[j]]
        k = len(clue.targets) - 1
        others = [w for w in (board[i] for i in idx) if w not in clue.targets]
        base = sum(w in green for w in others) / max(len(others), 1)  # unclued greens among the rest
        rows.append({
            "clue": clue.clue, "count": len(clue.targets), "first": board[first], "second": card,
            "p": float(p[j]), "cap": min(1.0, k * float(p[j])),
            "meant_or_base": min(1.0, k * float(p[j])) + (1 - min(1.0, k * float(p[j]))) * base, "stop_rule": params.p_correct(p, j),
            "evoke": float(median_evoke(reader.features([card], [clue.clue])[0, 0], len(reader.model_names))),
            "green": card in green, "target": card in clue.targets, "black": card in clue.black,
            "first_is_target": board[first] in clue.targets,
        })
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    t0 = time.process_time()
    shipped = shared_reader()
    dataset = load_human_data(args.data)
    crossed = CrossFittedReader.of_shipped(dataset, shipped)
    rows = second_cards(dataset, crossed)
    cap = np.array([r["cap"] for r in rows])
    green = np.array([r["green"] for r in rows], dtype=float)
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(cap, green)
    lines = [
        "# A Duet clue's second card: how often the reader's next card is right",
        "",
        f"`python experiments/duet_second_card.py --data {args.data}" + (f" --out {args.out}`" if args.out else "`"),
        "",
        f"{len(rows)} turns of the human Duet validation split (a giver's turn joined to its guesser's, "
        "2 or more targets) where the reader's first card (cross-fitted weights) was green on the giver's "
        "side. The reader's next card among those left: its cap `min(1, (count - 1) p)` "
        "(`HumanGuesser.duet_meant`), the stop rule's chance, and how often it was green on the giver's side "
        "(right in Duet), a target, or black. 95% Wilson intervals. The last column is a reading, not a fit: "
        "the card is a target with the cap's chance, and otherwise green as often as the unclued cards left "
        "(base: the share of green among the cards left that are not targets).",
        "",
        "| cap | turns | mean cap | mean stop-rule chance | green | target | black | isotonic green "
        "| cap + (1 - cap) x base |",
        "|---|---:|---:|---:|---|---|---|---:|---:|",
    ]
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        sel = (cap >= lo) & (cap < hi)
        n = int(sel.sum())
        if not n:
            continue
        sub = [r for r, s in zip(rows, sel) if s]

        def rate(key):
            k = sum(r[key] for r in sub)
            a, b = wilson(k, n)
            return f"{k}/{n} = {k / n:.2f} [{a:.2f}, {b:.2f}]"

        lines.append(f"| {lo:.2f}-{min(hi, 1):.2f} | {n} | {cap[sel].mean():.2f} | "
                     f"{np.mean([r['stop_rule'] for r in sub]):.2f} | {rate('green')} | {rate('target')} | "
                     f"{rate('black')} | {float(iso.predict([cap[sel].mean()])[0]):.2f} | "
                     f"{np.mean([r['meant_or_base'] for r in sub]):.2f} |")
    evoke_lines = ["", "By how strongly the card calls the clue to mind (`evoke`, standard deviations, the median "
                   "reader model; `HumanGuesser.min_evoke` is 1.0), cards whose cap is 0.25 or more:", "",
                   "| evoke | turns | mean cap | green | target | black |", "|---|---:|---:|---|---|---|"]
    for lo, hi in ((-99, 1.0), (1.0, 2.0), (2.0, 99)):
        sub = [r for r in rows if r["cap"] >= 0.25 and lo <= r["evoke"] < hi]
        if not sub:
            continue
        cells = []
        for key in ("green", "target", "black"):
            kk = sum(r[key] for r in sub)
            a, b = wilson(kk, len(sub))
            cells.append(f"{kk}/{len(sub)} = {kk / len(sub):.2f} [{a:.2f}, {b:.2f}]")
        name = f"under {hi:g}" if lo < -9 else (f"{lo:g} and over" if hi > 9 else f"{lo:g} to {hi:g}")
        evoke_lines.append(f"| {name} | {len(sub)} | {np.mean([r['cap'] for r in sub]):.2f} | " + " | ".join(cells) + " |")
    k = int(green.sum())
    a, b = wilson(k, len(rows))
    lines += [
        f"| all | {len(rows)} | {cap.mean():.2f} | {np.mean([r['stop_rule'] for r in rows]):.2f} | "
        f"{k}/{len(rows)} = {k / len(rows):.2f} [{a:.2f}, {b:.2f}] | | | | "
        f"{np.mean([r['meant_or_base'] for r in rows]):.2f} |",
        "",
        "Isotonic fit of green on the cap (thresholds, values): "
        + json.dumps({"x": [round(float(v), 3) for v in iso.X_thresholds_],
                      "y": [round(float(v), 3) for v in iso.y_thresholds_]}),
        "",
    ] + evoke_lines + ["", f"CPU time: {time.process_time() - t0:.0f} s."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
