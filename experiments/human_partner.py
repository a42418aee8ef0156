"""The agents for people in simulation: who gives a human-like guesser the best clues, what the
human spymaster's clues look like, and the opposing team's difficulty levels.

Three tables, each from seeded `spymaster-ai bench` runs (their per-game results are kept
under ``--out``'s folder, so an interrupted study resumes):

1. **Partner.** The ``human`` guesser stands in for a person (it reads clues as the reader
   fitted to people does). Spymasters ``human``, ``minilm`` and ``robust`` give it clues in
   Duet, the solo variant and the Kim et al. protocol. Then, so that the human spymaster is
   not judged only by a mirror of its own reader, it plays with embedding guessers
   (``--loo``: ``minilm``, ``glove50``; ``mpnet`` where installed).
2. **Clues.** The human spymaster's opening clue on ``--boards`` seeded Duet boards, from
   each side of the key, and every clue it gave in the Duet games of table 1: counts, clue
   word frequency (Zipf), and clues a person may read as a card by their spelling
   (:func:`spymaster_ai.agents.human.features.spelled_like`), split by whether the card is
   one of the giver's black cards.
3. **Levels.** ``play classic --level``'s opposing team against a ``human``/``human`` team
   standing in for the person: that team should win about 70% / 50% / 30%.

    python experiments/human_partner.py --games 200 --seed 0 --jobs 2 --out experiments/results/human_partner.md
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from wordfreq import zipf_frequency

from spymaster_ai.agents.human.features import spelled_like
from spymaster_ai.play.settings import LEVELS

SPYMASTERS = ("human", "minilm", "robust")
GAMES = ("duet", "solo", "kim2019")


def bench(game: str, args: list[str], games: int, seed: int, jobs: int, folder: Path, name: str) -> dict:
    """One seeded bench cell (resumed from its results file when it exists)."""
    out, results = folder / f"{name}.json", folder / f"{name}.jsonl"
    cmd = ["spymaster-ai", "bench", game, "--games", str(games), "--seed", str(seed), "--jobs", str(jobs),
           "--out", str(out), "--results", str(results), *args]
    print(" ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def cell(report: dict) -> str:
    lo, hi = report["ci95"]
    text = f"{100 * report['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    if report["game"] == "kim2019":
        text += f", {report['mean_turns']:.2f} turns"
    elif report["game"] == "solo" and report.get("mean_score") is not None:
        text += f", score {report['mean_score']:.2f}"
    return text


class ClueTally:
    """Counts, clue word frequency and near-spelling clues of a set of clues."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.zipf: list[float] = []
        self.near = self.near_black = 0
        self.examples: list[str] = []

    def add(self, word: str, count: int, cards: list[str], black: set[str]) -> None:
        """One clue, checked against ``cards`` (``black``: the giver's black cards among them)."""
        self.counts[count] += 1
        self.zipf.append(zipf_frequency(word, "en"))
        hits = [w for w in cards if spelled_like(word, w)]
        if hits:
            self.near += 1
            self.near_black += any(w in black for w in hits)
            if len(self.examples) < 10:
                self.examples.append(f"{word.upper()} ~ {', '.join(h.upper() for h in hits)}")

    def lines(self, what: str, against: str) -> list[str]:
        total = max(sum(self.counts.values()), 1)
        z = np.array(self.zipf) if self.zipf else np.zeros(1)
        out = [f"{sum(self.counts.values())} {what}. Counts: "
               + ", ".join(f"{k}: {v} ({100 * v / total:.1f}%)" for k, v in sorted(self.counts.items()))
               + f"; mean {sum(k * v for k, v in self.counts.items()) / total:.2f}",
               f"Clue word Zipf frequency: median {np.median(z):.2f}, 5th percentile {np.percentile(z, 5):.2f}, "
               f"share below 4.0: {100 * np.mean(z < 4.0):.1f}%",
               f"Near-spelling clues (against {against}): {self.near} ({100 * self.near / total:.2f}%), "
               f"on a black card of the giver's side: {self.near_black}"]
        if self.examples:
            out.append("Examples: " + "; ".join(self.examples))
        return out


def clue_table(results: Path) -> list[str]:
    """Every clue in a Duet results file, checked against every card of the board, covered
    or not (a stricter test than the visible cards the spymaster checks)."""
    tally = ClueTally()
    for line in results.read_text().splitlines():
        record = json.loads(line)["record"]
        config = record["config"]
        words = config["words"]
        for move in record["actions"]:
            if move.get("type") == "clue":
                side = config["key"]["side_a" if move.get("giver") == "A" else "side_b"]
                tally.add(move["word"], int(move["count"]), words, {w for w, k in zip(words, side) if k == "black"})
    return tally.lines("clues", "any card of the board")


def opening_clues(boards: int, seed: int) -> list[str]:
    """The human spymaster's first clue from each side of ``boards`` seeded Duet boards."""
    import random

    from spymaster_ai.agents.registry import make_spymaster
    from spymaster_ai.play.settings import PlaySettings
    from spymaster_ai.play.setup import new_game
    from spymaster_ai.rules.duet import Player

    spymaster = make_spymaster("human")
    tally = ClueTally()
    for n, board_seed in enumerate(random.Random(seed).sample(range(10**9), boards)):
        game, _ = new_game(PlaySettings(mode="duet", seed=board_seed))
        for player in (Player.A, Player.B):
            view = game.spymaster_view(player)
            spymaster.reset(board_seed)
            clue = spymaster.give_clue(view)
            tally.add(clue.word, clue.count, list(view.visible), set(view.assassins))
        if (n + 1) % 100 == 0:
            print(f"opening clues: {n + 1} of {boards} boards", file=sys.stderr, flush=True)
    return tally.lines(f"opening clues on {boards} boards (seed {seed})", "the visible cards")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--duet-games", type=int, default=300, help="games of the human pair in Duet")
    ap.add_argument("--boards", type=int, default=1000, help="Duet boards whose opening clues table 2 reads")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--loo", default="minilm,glove50", help="embedding guessers for the human spymaster")
    ap.add_argument("--level-games", type=int, default=100)
    ap.add_argument("--out", default="experiments/results/human_partner.md")
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: clues, partner, loo, levels")
    args = ap.parse_args(argv)
    out = Path(args.out)
    folder = out.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    lines = ["# The agents for people in simulation", "",
             f"`python experiments/{Path(sys.argv[0]).name} {' '.join(sys.argv[1:] if argv is None else argv)}`. "
             "Win rate [95% Wilson interval].", ""]
    if "clues" not in skip:
        lines += ["## 2. The human spymaster's clues", ""] + ["- " + x for x in opening_clues(args.boards, args.seed)] + [""]
    if "partner" not in skip:
        lines += ["## 1. Spymasters for a human-like guesser (the `human` guesser)", "",
                  "| spymaster | " + " | ".join(GAMES) + " |", "|---|" + "---|" * len(GAMES)]
        for spy in SPYMASTERS:
            row = []
            for game in GAMES:
                n = args.duet_games if (game == "duet" and spy == "human") else args.games
                report = bench(game, ["--spymaster", spy, "--guesser", "human"], n, args.seed, args.jobs, folder, f"{game}_{spy}_human")
                row.append(cell(report))
            lines.append(f"| {spy} | " + " | ".join(row) + " |")
        lines += ["", "Every clue of the human/human Duet cell:", ""]
        lines += ["- " + x for x in clue_table(folder / "duet_human_human.jsonl")]
        lines.append("")
    if "loo" not in skip:
        lines += ["## 1b. The human spymaster with embedding guessers (not a mirror of its reader)", "",
                  "| guesser | duet | kim2019 |", "|---|---|---|"]
        for g in filter(None, args.loo.split(",")):
            row = [cell(bench(game, ["--spymaster", "human", "--guesser", g], args.games, args.seed, args.jobs, folder,
                              f"{game}_human_{g}")) for game in ("duet", "kim2019")]
            lines.append(f"| {g} | " + " | ".join(row) + " |")
        lines.append("")
    if "levels" not in skip:
        lines += ["## 3. `play classic --level`: the person's team (`human`/`human`, red) against the level", "",
                  "| level | opposing spymaster | opposing guesser | person's team wins | target |", "|---|---|---|---|---|"]
        for level, target in zip(LEVELS, ("about 70%", "about 50%", "about 30%")):
            spy, guesser = LEVELS[level]
            report = bench("classic", ["--red", "human", "--red-guesser", "human", "--blue", spy, "--blue-guesser", guesser],
                           args.level_games, args.seed, args.jobs, folder, f"level_{level}")
            lines.append(f"| {level} | `{spy}` | `{guesser}` | {cell(report)} | {target} |")
        lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
