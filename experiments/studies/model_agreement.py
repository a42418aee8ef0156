"""Table 10: how often two models' guessers take the same first card for a clue.

Why: the leave-one-out table plays a spymaster with a guesser whose model it has never seen.
Whatever its strategy, it can only be as good as its models' reading of a clue is a forecast
of the guesser's reading. This table measures that forecast directly, without playing. It is
fast (about 20 seconds for five models on 2 cores), so it also shows what a new embedding would add.

On fresh Kim-protocol boards (seeded; not the boards of the game tables), every legal clue word
is read by every model as ``EmbeddingGuesser`` reads it: hub-standardised cards, z-scores over
the board; a model's pick is its guesser's first guess.

- Pairwise: for each board, the ``--clues`` clue words with the widest margin under the mean
  of all the models (best own card minus best wrong card), i.e. clues worth giving for every
  reading. Each cell is the share of those clues for which the two models pick the same card.
- Held-out G: for each board, the ``--clues`` clue words with the widest margin under the
  models other than G (the clues a spymaster blind to G would consider). The share of them
  for which the other models' mean z-score picks G's card, and for which their best single
  model does; and, on the clues for which every other model picks the same card, how often G
  picks it too (if agreement among the others forecast G, this share would be high).
- With ``--results`` (a ``leave_one_out.py`` JSON summary), the rank correlation of these
  shares with the games: each pair's agreement against the single-model cross-play win rate
  of its two directions, each G's held-out agreement against the robust spymaster's win rate.

    python experiments/studies/model_agreement.py --models minilm,glove50,wordllama,e5small,mpnet \\
        --boards 100 --seed 777 --results experiments/results/leave_one_out.json \\
        --out experiments/studies/results/model_agreement.md
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from transfer_study import board_z, hub_standardised  # noqa: E402  (a sibling script)

from spymaster_ai.agents.registry import _embedding  # noqa: E402
from spymaster_ai.agents.vocabulary import clue_candidates, is_clue_shaped  # noqa: E402
from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.rules.legality import legal_mask  # noqa: E402
from spymaster_ai.sim.play import deal_board  # noqa: E402
from spymaster_ai.sim.seeds import game_seed  # noqa: E402

DEFAULT_MODELS = ("minilm", "glove50", "wordllama", "e5small", "mpnet")  # the leave-one-out table's five


def widest_margin(z: np.ndarray, own: np.ndarray, top: int) -> np.ndarray:
    """Indices of the ``top`` clues (rows of ``z``, (clues, cards)) whose best own card stands
    furthest above the best wrong card."""
    margin = z[:, own].max(axis=1) - z[:, ~own].max(axis=1)
    return np.argsort(-margin, kind="stable")[:top]


class Agreement:
    """Counts over boards: pairwise same-pick clues, and per held-out model the consensus's."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        n = len(names)
        self.pair_same = np.zeros((n, n))
        self.pair_clues = 0
        self.consensus_same = np.zeros(n)
        self.best_single_same = np.zeros(n)
        self.held_out_clues = np.zeros(n)
        self.unanimous_clues = np.zeros(n)
        self.unanimous_same = np.zeros(n)

    def add_board(self, z: np.ndarray, own: np.ndarray, top: int) -> None:
        """``z``: (models, clues, cards), each model's board z-scores for the legal clues;
        ``own``: (cards,) the cards the clues are for."""
        picks = z.argmax(axis=2)  # (models, clues): each guesser's first pick
        rows = widest_margin(z.mean(axis=0), own, top)
        self.pair_same += (picks[:, None, rows] == picks[None, :, rows]).sum(axis=2)
        self.pair_clues += len(rows)
        for g in range(len(self.names)):
            others = [k for k in range(len(self.names)) if k != g]
            rows = widest_margin(z[others].mean(axis=0), own, top)
            target = picks[g, rows]
            self.consensus_same[g] += (z[others][:, rows].mean(axis=0).argmax(axis=1) == target).sum()
            self.best_single_same[g] += max((picks[k, rows] == target).sum() for k in others)
            self.held_out_clues[g] += len(rows)
            theirs = picks[others][:, rows]
            unanimous = (theirs == theirs[0]).all(axis=0)
            self.unanimous_clues[g] += unanimous.sum()
            self.unanimous_same[g] += (unanimous & (theirs[0] == target)).sum()

    @property
    def pairwise(self) -> np.ndarray:
        return self.pair_same / max(self.pair_clues, 1)

    @property
    def consensus(self) -> np.ndarray:
        return self.consensus_same / np.maximum(self.held_out_clues, 1)

    @property
    def best_single(self) -> np.ndarray:
        return self.best_single_same / np.maximum(self.held_out_clues, 1)

    @property
    def unanimous_share(self) -> np.ndarray:
        return self.unanimous_clues / np.maximum(self.held_out_clues, 1)

    @property
    def unanimous_agreement(self) -> np.ndarray:
        return self.unanimous_same / np.maximum(self.unanimous_clues, 1)


def study(names: list[str], boards: int, seed: int, top: int) -> tuple[Agreement, int]:
    models = [_embedding(n) for n in names]
    vocab = list(clue_candidates(models, 30000))
    references = [[w for w in m.clue_vocabulary() if is_clue_shaped(w)][:2000] for m in models]
    out = Agreement(names)
    for b in range(boards):
        words, key, _ = deal_board("kim2019", game_seed(seed, b), 0)
        own = np.array([i.value == "red" for i in key.identities])
        legal = np.asarray(legal_mask(vocab, list(words)))
        z = board_z(np.stack([hub_standardised(m, vocab, list(words), r)[legal] for m, r in zip(models, references)]))
        out.add_board(z, own, top)
    return out, len(vocab)


def correlations(agreement: Agreement, summary: dict) -> list[str]:
    """Spearman correlations of the agreement shares with a leave-one-out summary's win rates."""
    names = agreement.names
    lines = []
    for game in ("duet", "kim2019"):
        cells = summary.get(game, {})
        pairs = [(agreement.pairwise[names.index(g), names.index(s)], cells[g]["cross"][s]["win_rate"])
                 for g in names if g in cells for s in names if s != g and s in cells[g].get("cross", {})]
        held = [(agreement.consensus[names.index(g)], cells[g]["robust"]["win_rate"]) for g in names if "robust" in cells.get(g, {})]
        for label, points in (("single-model cross-play pairs", pairs), ("robust spymaster, G held out", held)):
            if len(points) >= 3:
                rho = spearmanr(*zip(*points)).statistic
                lines.append(f"| {game} | {label} | {len(points)} | {rho:.2f} |")
    if not lines:
        return []
    return ["", "Spearman correlation of the agreement shares with the games' win rates:", "",
            "| game | cells | n | rho |", "|---|---|---|---|", *lines]


def report(agreement: Agreement, vocab: int, boards: int, seed: int, top: int, summary: Optional[dict]) -> str:
    names = agreement.names
    lines = [f"Model agreement: {boards} kim2019 boards (seed {seed}), {vocab} clue words, the {top} clues "
             "per board with the widest margin, models " + ", ".join(names) + ".", "",
             "Share of clues for which two models' guessers take the same first card:", "",
             "| | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for i, a in enumerate(names):
        lines.append(f"| `{a}` | " + " | ".join("-" if i == j else f"{agreement.pairwise[i, j]:.3f}" for j in range(len(names))) + " |")
    lines += ["", "Held-out G: share of the clues the other models would give for which they take G's first card:", "",
              "| G | the others' mean z-score | their best single model | clues all the others read alike | G takes their card then |",
              "|---|---|---|---|---|"]
    for g, n in enumerate(names):
        lines.append(f"| `{n}` | {agreement.consensus[g]:.3f} | {agreement.best_single[g]:.3f} | "
                     f"{agreement.unanimous_share[g]:.2f} | {agreement.unanimous_agreement[g]:.3f} |")
    if summary is not None:
        lines += correlations(agreement, summary)
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--clues", type=int, default=30, help="clues per board, widest margin first (about the choice a spymaster has)")
    ap.add_argument("--results", type=Path, help="a leave_one_out.py JSON summary, for the correlations")
    ap.add_argument("--out", type=Path, help="write the markdown here (default: print it)")
    args = ap.parse_args()
    names = args.models.split(",")
    if len(names) < 2:
        ap.error("--models: give at least two models")
    agreement, vocab = study(names, args.boards, args.seed, args.clues)
    summary = json.loads(args.results.read_text(encoding="utf-8")) if args.results else None
    text = report(agreement, vocab, args.boards, args.seed, args.clues, summary)
    text += f"\nLibrary versions: {versions_line()}.\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
