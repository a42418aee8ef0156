"""Table 6: how well do the other models predict how a held-out model reads a clue?

Why: the leave-one-out table asks a spymaster to play with a guesser whose model it has never
seen. Its only evidence is how the models it has read each clue. This study measures how much
that evidence is worth, independently of any game strategy:

A. On fresh Kim-protocol boards (seeded, not the boards of the game tables), every legal clue
   word is read by every model. For each held-out model G, the clue's margin under the other
   models (how far their best own card stands above their best wrong card, in z-scores over the
   board; the minimum over the models) is binned. Each bin reports how often G's guesser
   picks an own card first, and how often it picks the assassin. G's pick is exactly the first
   guess of ``EmbeddingGuesser`` (checked against it on sample clues).
B. The same clues give the best temperature of a partner model that must predict G's pick.
   Each candidate is scored by the mean log-likelihood of G's actual pick, comparing the
   mixture of the other models' softmaxes with the softmax of their mean z-scores.
C. From the per-game results of ``leave_one_out.py`` (if present), the robust spymaster's
   clues with G held out: how often G's first guess is right, or the assassin, by the number
   of own cards left.
D. From the same games: for each clue's first guess, where the robust spymaster's own models
   ranked the assassin (their mean z-score for the clue over the cards still covered), and how
   often that guess was the assassin. A hit on an assassin those models ranked far down could
   not have been foreseen from them, whatever the spymaster's costs.

    python experiments/studies/transfer_study.py --models minilm,glove50,wordllama,e5small,mpnet \\
        --boards 100 --seed 777 --results experiments/results/leave_one_out \\
        --out experiments/studies/results/transfer_study.md
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from scipy.special import logsumexp

from spymaster_ai.agents.guesser import EmbeddingGuesser
from spymaster_ai.agents.registry import LEAVE_ONE_OUT_POOL, _embedding, parse_spec
from spymaster_ai.agents.vocabulary import clue_candidates, is_clue_shaped
from spymaster_ai.provenance import versions_line
from spymaster_ai.rules.legality import legal_mask
from spymaster_ai.sim.play import deal_board
from spymaster_ai.sim.seeds import game_seed
from spymaster_ai.views import GuesserView
from spymaster_ai.rules.moves import Clue

MARGIN_BINS = [(-np.inf, 0.0), (0.0, 0.5), (0.5, 1.0), (1.0, 1.5), (1.5, np.inf)]
REVERSE_BINS = [(-np.inf, 2.0), (2.0, 3.0), (3.0, 4.0), (4.0, np.inf)]
ASSASSIN_BINS = [(-np.inf, 0.0), (0.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, np.inf)]
TEMPERATURES = (0.2, 0.3, 0.5, 0.75, 1.0, 1.5)
RANK_BINS = [(1, 4), (4, 7), (7, 10), (10, 26)]


def _fmt_bin(lo: float, hi: float) -> str:
    left = "-inf" if lo == -np.inf else f"{lo:g}"
    right = "inf" if hi == np.inf else f"{hi:g}"
    return f"[{left}, {right})"


def card_stats(model, words: list[str], reference: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each card's mean and spread of similarity to the ``reference`` words (per board)."""
    ref = np.asarray(model.similarity(reference, words), dtype=np.float64)
    return ref.mean(axis=0), np.maximum(ref.std(axis=0), 1e-9)


def hub_standardised(model, vocab: list[str], words: list[str], reference: list[str],
                     stats: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """(clues, cards) similarities with each card standardised over ``reference`` words:
    what ``EmbeddingGuesser`` (hub_correction=1) ranks a board by. ``stats``: the board's
    :func:`card_stats`, if already computed."""
    mu, sd = stats if stats is not None else card_stats(model, words, reference)
    return (np.asarray(model.similarity(vocab, words), dtype=np.float64) - mu) / sd


def board_z(x: np.ndarray) -> np.ndarray:
    """z-scores over the board's cards (last axis), per clue."""
    return (x - x.mean(axis=-1, keepdims=True)) / np.maximum(x.std(axis=-1, keepdims=True), 1e-12)


def check_against_guesser(model, words: tuple[str, ...], vocab: list[str], picks: np.ndarray, n: int = 20) -> None:
    """The vectorised pick equals the guesser's own first guess (on ``n`` sample clues)."""
    guesser = EmbeddingGuesser(model)
    for i in np.linspace(0, len(vocab) - 1, n).astype(int):
        view = GuesserView(game="classic", me="red", words=words, visible=words, revealed=(),
                           clue=Clue(vocab[i], 1), guesses_made=0, max_guesses=2, can_stop=False)
        assert guesser.next_guess(view) == words[picks[i]], (vocab[i], guesser.next_guess(view), words[picks[i]])


def study_boards(names: list[str], boards: int, seed: int) -> dict:
    models = [_embedding(n) for n in names]
    vocab = list(clue_candidates(models, 30000))
    references = [[w for w in m.clue_vocabulary() if is_clue_shaped(w)][:2000] for m in models]
    counts = {g: defaultdict(lambda: np.zeros(3)) for g in names}
    loglik = {g: defaultdict(float) for g in names}
    n_ll = dict.fromkeys(names, 0)
    for b in range(boards):
        words, key, _ = deal_board("kim2019", game_seed(seed, b), 0)
        ids = np.array([i.value for i in key.identities])
        own, assassin = ids == "red", ids == "assassin"
        legal = np.asarray(legal_mask(vocab, list(words)))
        hub = np.stack([hub_standardised(m, vocab, list(words), r) for m, r in zip(models, references)])[:, legal]
        z = board_z(hub)  # (models, clues, cards)
        picks = hub.argmax(axis=2)  # each model's guesser's first pick
        if b == 0:
            for m, p in zip(models, picks):
                check_against_guesser(m, words, [w for w, ok in zip(vocab, legal) if ok], p)
        for gi, g in enumerate(names):
            others = [k for k in range(len(names)) if k != gi]
            zo = z[others]
            best_own = zo[:, :, own].max(axis=2)
            margin = (best_own - zo[:, :, ~own].max(axis=2)).min(axis=0)
            ass_margin = (best_own - zo[:, :, assassin].max(axis=2)).min(axis=0)
            hit_own, hit_ass = own[picks[gi]], assassin[picks[gi]]
            # how strongly the clue is tied to its target from the target's side: the target
            # (the others' best own card on average) standardised over common words, min over models
            target = np.where(own, zo.mean(axis=0), -np.inf).argmax(axis=1)
            reverse = hub[others][:, np.arange(len(target)), target].min(axis=0)
            for lo, hi in REVERSE_BINS:
                s = (margin >= 0.5) & (reverse >= lo) & (reverse < hi)
                counts[g][("reverse", lo, hi)] += [s.sum(), hit_own[s].sum(), hit_ass[s].sum()]
            for lo, hi in MARGIN_BINS:
                s = (margin >= lo) & (margin < hi)
                counts[g][("margin", lo, hi)] += [s.sum(), hit_own[s].sum(), hit_ass[s].sum()]
            for lo, hi in ASSASSIN_BINS:
                s = (ass_margin >= lo) & (ass_margin < hi)
                counts[g][("assassin", lo, hi)] += [s.sum(), hit_own[s].sum(), hit_ass[s].sum()]
            # B: the 300 clues the other models find most relevant to an own card
            top = np.argsort(-margin)[:300]
            zt, pick = zo[:, top], picks[gi][top]
            rows = np.arange(len(top))
            for t in TEMPERATURES:
                mix = logsumexp(zt / t - logsumexp(zt / t, axis=2, keepdims=True), axis=0) - np.log(len(others))
                pooled = zt.mean(axis=0) / t
                pooled = pooled - logsumexp(pooled, axis=1, keepdims=True)
                loglik[g][("mixture", t)] += mix[rows, pick].sum()
                loglik[g][("pooled", t)] += pooled[rows, pick].sum()
            n_ll[g] += len(top)
    return {"vocab": len(vocab), "counts": counts, "loglik": loglik, "n_ll": n_ll}


def robust_records(results: Path, g: str) -> list[dict]:
    """The kim2019 games of the robust spymaster with G (alone) held out, from ``leave_one_out.py``."""
    files = sorted((results / "kim2019" / g).glob(f"robust_exclude={g}_*.jsonl"))
    if not files:
        return []
    return [json.loads(line) for line in files[0].read_text(encoding="utf-8").splitlines()]


def spymaster_pool(spec: str) -> list[str]:
    """The models a robust spymaster predicts its guesser with: the ``partner`` models its spec
    lists, else (``robust:exclude=G``) the packaged pool without the excluded ones."""
    params = parse_spec(spec)[1]
    partner = params.get("partner")
    if partner is not None:
        return str(partner).split("+")
    banned = set(str(params.get("exclude", "")).split("+"))
    return [m for m in LEAVE_ONE_OUT_POOL if m not in banned]


def stage_table(results: Path, names: list[str]) -> dict:
    """C: first guess after each robust clue, by own cards left (kim2019 cells of leave_one_out.py)."""
    out = {}
    for g in names:
        games = robust_records(results, g)
        if not games:
            continue
        stats = defaultdict(lambda: np.zeros(3))
        for game in games:
            rec = game["record"]
            words = rec["config"]["words"]
            ident = dict(zip(words, rec["config"]["key"]["identities"]))
            left = sum(1 for v in ident.values() if v == "red")
            first = False
            for act in rec["actions"]:
                if act["type"] == "clue":
                    first, stage = True, min(left, 8)
                elif act["type"] == "guess":
                    kind = ident[act["word"]]
                    if first:
                        stats[stage] += [1, kind == "red", kind == "assassin"]
                        first = False
                    left -= kind == "red"
        out[g] = stats
    return out


def assassin_rank_table(results: Path, names: list[str]) -> dict:
    """D: per held-out G, by the assassin's rank under the robust spymaster's models (mean z over
    the covered cards, hub-standardised as in A): [clues, clues whose first guess was the assassin]."""
    out = {}
    for g in names:
        games = robust_records(results, g)
        if not games:
            continue
        pool = spymaster_pool(games[0]["agents"]["spymaster"])
        models = [_embedding(m) for m in pool]
        references = [[w for w in m.clue_vocabulary() if is_clue_shaped(w)][:2000] for m in models]
        stats = defaultdict(lambda: np.zeros(2))
        for game in games:
            rec = game["record"]
            words = rec["config"]["words"]
            ident = np.array(rec["config"]["key"]["identities"])
            assassin = words[int(np.flatnonzero(ident == "assassin")[0])]
            stats_per_model = [card_stats(m, words, r) for m, r in zip(models, references)]  # once per game
            covered = np.zeros(len(words), dtype=bool)
            clue = None
            for act in rec["actions"]:
                if act["type"] == "clue":
                    clue = act["word"]
                elif act["type"] == "guess":
                    if clue is not None:
                        hub = [hub_standardised(m, [clue], words, r, st)[0]
                               for m, r, st in zip(models, references, stats_per_model)]
                        z = np.mean([board_z(h[~covered]) for h in hub], axis=0)
                        a = int(np.flatnonzero(ident[~covered] == "assassin")[0])
                        rank = 1 + int((z > z[a]).sum())
                        stats[rank] += [1, act["word"] == assassin]
                        clue = None
                    covered[words.index(act["word"])] = True
        out[g] = (pool, stats)
    return out


def bin_table(counts: dict, names: list[str], key: str, bins: list, header: str, cell) -> list[str]:
    """A markdown table: one row per bin, one column per held-out model, ``cell(n, own, assassin)``."""
    lines = [f"| {header} | " + " | ".join(f"G = `{g}`" for g in names) + " |", "|---|" + "---|" * len(names)]
    for lo, hi in bins:
        cells = [cell(*counts[g][(key, lo, hi)]) if counts[g][(key, lo, hi)][0] else "–" for g in names]
        lines.append(f"| {_fmt_bin(lo, hi)} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(LEAVE_ONE_OUT_POOL))
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--results", type=Path, default=Path("experiments/results/leave_one_out"),
                    help="leave_one_out.py output folder for parts C and D (skipped if absent)")
    ap.add_argument("--out", type=Path, default=Path("experiments/studies/results/transfer_study.md"))
    args = ap.parse_args()
    names = args.models.split(",")
    res = study_boards(names, args.boards, args.seed)
    lines = [f"Transfer study: {args.boards} kim2019 boards (seed {args.seed}), {res['vocab']} clue words, "
             f"models {', '.join(names)}.", ""]
    def own_and_assassin(n: float, o: float, a: float) -> str:
        return f"{o / n:.2f} / {a / n:.3f} ({int(n)})"

    def assassin_only(n: float, o: float, a: float) -> str:
        return f"{a / n:.4f} ({int(n)})"

    lines += ["### A. The held-out model's first pick, by the other models' margin", "",
              "Margin: min over the other models of (best own card - best wrong card), z over the board. "
              "Cells: P(G picks an own card) / P(G picks the assassin), clue count.", ""]
    lines += bin_table(res["counts"], names, "margin", MARGIN_BINS, "margin", own_and_assassin)
    lines += ["", "Assassin margin: min over the other models of (best own card - assassin).", ""]
    lines += bin_table(res["counts"], names, "assassin", ASSASSIN_BINS, "assassin margin", assassin_only)
    lines += ["", "Clues with margin >= 0.5, by how the target itself ranks the clue: min over the other "
              "models of the target's similarity to the clue, standardised over 2,000 common words "
              "(a strong two-way association). P(own) / P(assassin), clue count.", ""]
    lines += bin_table(res["counts"], names, "reverse", REVERSE_BINS, "two-way strength", own_and_assassin)
    lines += ["", "### B. Predicting G's pick: mean log-likelihood (uniform over 25 cards: "
              f"{-np.log(25):.3f}; a perfect prediction: 0)", "",
              "| partner model | " + " | ".join(f"T={t:g}" for t in TEMPERATURES) + " |", "|---|" + "---|" * len(TEMPERATURES)]
    for form in ("mixture", "pooled"):
        for g in names:
            vals = [res["loglik"][g][(form, t)] / res["n_ll"][g] for t in TEMPERATURES]
            best = int(np.argmax(vals))
            cells = [f"**{v:.3f}**" if i == best else f"{v:.3f}" for i, v in enumerate(vals)]
            lines.append(f"| {form}, G = `{g}` | " + " | ".join(cells) + " |")
    stages = stage_table(args.results, names) if args.results.exists() else {}
    if stages:
        lines += ["", f"### C. In play: the robust spymaster with G held out (`{args.results}`, kim2019)", "",
                  "First guess after each clue, by own cards left: P(own) / P(assassin) (clues).", "",
                  "| own cards left | " + " | ".join(f"G = `{g}`" for g in stages) + " |", "|---|" + "---|" * len(stages)]
        for left in range(8, 0, -1):
            cells = []
            for g, st in stages.items():
                n, o, a = st[left]
                cells.append(f"{o / n:.2f} / {a / n:.3f} ({int(n)})" if n else "–")
            lines.append(f"| {left} | " + " | ".join(cells) + " |")
    ranks = assassin_rank_table(args.results, names) if args.results.exists() else {}
    if ranks:
        lines += ["", f"### D. Where the spymaster's own models ranked the assassin (`{args.results}`, kim2019)", "",
                  "First guess after each clue of the robust spymaster with G held out, by the assassin's rank "
                  "(1 = the card its models tie closest to the clue) among the cards still covered, under the "
                  "mean z-score of the models it predicts G with. Cells: assassin hits / clues (hit rate); "
                  "last row: the share of all assassin hits on clues that ranked it 10th or lower.", "",
                  "| assassin's rank | " + " | ".join(f"G = `{g}`" for g in ranks) + " |", "|---|" + "---|" * len(ranks)]
        for lo, hi in RANK_BINS:
            cells = []
            for g, (_, st) in ranks.items():
                n = sum(st[r][0] for r in range(lo, hi))
                h = sum(st[r][1] for r in range(lo, hi))
                cells.append(f"{int(h)} / {int(n)} ({h / n:.3f})" if n else "–")
            label = f"{lo}–{hi - 1}" if hi < 26 else f"{lo} or lower"
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        shares = []
        for g, (_, st) in ranks.items():
            total = sum(v[1] for v in st.values())
            far = sum(v[1] for r, v in st.items() if r >= 10)
            shares.append(f"{far / total:.0%} of {int(total)}" if total else "–")
        lines.append("| hits at rank 10 or lower | " + " | ".join(shares) + " |")
        lines += ["", "Models: " + "; ".join(f"G = `{g}`: {'+'.join(pool)}" for g, (pool, _) in ranks.items()) + "."]
    lines += ["", f"Library versions: {versions_line()}."]
    text = "\n".join(lines) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
