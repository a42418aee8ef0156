"""Table 9: where Duet games are won and lost, guess by guess, in a leave-one-out run.

Why: a Duet pair must find 15 greens with 9 timer tokens, 15 / 9 = 1.67 greens per clue
(sudden death aside). The leave-one-out table says how often each pair wins; this one says
why, from the same games: finds per clue, and the share of green, bystander and black cards
among first guesses, later guesses within the count, guesses past the count and sudden-death
guesses. Each game record is replayed through ``DuetGame`` (the engine judges every guess,
so the figures are the rules' own, not a re-derivation from the key).

    python experiments/studies/duet_anatomy.py --results experiments/results/leave_one_out --black-ranks \\
        --out experiments/studies/results/duet_anatomy.md

``--results`` is the output folder of ``leave_one_out.py`` (its per-game JSON-lines files,
which git does not keep: run that script first).

``--black-ranks`` adds a second table (it loads the models): for the robust spymaster's cells,
each first guess that was a black card, by the rank the spymaster's own partner models gave
that card for the clue (their mean z-score, each card hub-standardised as the embedding
guesser reads it; 1 = the card they tie closest to the clue, among the cards the guesser
could take). A black card they ranked far down is a reading of G's that no model of the
pool predicted, whatever the spymaster's costs. In the cross-play cells two more readings
rank the same cards: the best rank any single partner model gave it (did one of them see it
coming?) and G's own reading of the clue alone (was it G's reading of the word, or G's memory
of earlier clues and the key prior that took it?).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Optional

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling scripts (transfer_study)

from spymaster_ai.provenance import versions_line
from spymaster_ai.rules.duet import MISSIONS, TOTAL_GREENS, DuetGame, Player

PLACES = ("first", "within", "past", "sudden death")
OUTCOMES = ("green", "bystander", "black")
STANDARD_TOKENS = MISSIONS["prague"][0]
CLOCK = TOTAL_GREENS / STANDARD_TOKENS  # greens per clue the standard game needs
RANK_BINS = ((1, 2), (2, 4), (4, 8), (8, 26))  # [lo, hi): the rank of a black first guess
LABELS = {"single": "each other single model (pooled)", "robust": "robust, G held out",
          "robust, family": "robust, G's family held out", "reference": "reference: robust with G in its pool"}


@dataclass
class Anatomy:
    """Counts over the games of one cell."""

    games: int = 0
    wins: int = 0
    clues: int = 0
    greens: int = 0  # found on clues (sudden death apart)
    guesses: dict[str, Counter] = field(default_factory=lambda: {p: Counter() for p in PLACES})

    def add_game(self, line: dict) -> None:
        """Replay one game of a results file and count each guess by its place in the turn."""
        record = line["record"]
        game = DuetGame.from_config(record["config"])
        for guess in replayed_guesses(game, record["actions"]):
            if guess.clue is None:
                place = "sudden death"
            else:
                place = "first" if guess.made == 1 else ("within" if guess.made <= int(guess.clue["count"]) else "past")
                self.greens += int(guess.identity == "green")
            self.guesses[place][guess.identity] += 1
        self.clues += sum(1 for action in record["actions"] if action["type"] == "clue")
        if bool(line["won"]) != bool(game.winner):
            raise ValueError(f"game {line.get('index')}: the replay's result differs from the file's")
        self.games += 1
        self.wins += int(bool(line["won"]))


@dataclass(frozen=True)
class Guess:
    """One guess of a replayed game, as the engine judged it."""

    word: str
    identity: str  # green / bystander / black, on the side that judged it
    clue: Optional[dict]  # the clue's action; None in sudden death
    made: int  # 1 for a clue's first guess, 2 for its second...; 0 in sudden death
    choices: tuple[str, ...] = ()  # with ``choices``: the cards the guesser could take (first guesses)


def replayed_guesses(game: DuetGame, actions: Iterable[dict], choices: bool = False) -> Iterator[Guess]:
    """Play ``actions`` through ``game``, yielding each guess as judged; ``choices``: also the
    cards the guesser could take before each clue's first guess."""
    clue, made, guesser = None, 0, None
    for action in actions:
        kind = action["type"]
        if kind == "clue":
            game.replay([action])
            clue, made = action, 0
            guesser = Player.B if action["giver"] == "A" else Player.A
        elif kind == "guess":
            made += 1
            could = tuple(w for w in game.words if game.can_guess(guesser, w)) if choices and made == 1 else ()
            result = game.guess(action["word"])
            yield Guess(action["word"], result.identity.value, clue, made, could)
        elif kind == "sd_guess":
            result = game.sudden_death_guess(action["player"], action["word"])
            yield Guess(action["word"], result.identity.value, None, 0)
        else:
            game.replay([action])


def cell_kind(path: Path, guesser: str) -> str:
    """'mirror', 'robust', 'robust, family', 'reference' (the robust spymaster with G in its
    pool) or 'single' from a leave-one-out cell's file name."""
    stem = path.name
    if stem.startswith(f"{guesser}__{guesser}__"):
        return "mirror"
    if stem.startswith(f"robust_exclude={guesser}_"):
        return "robust"
    if stem.startswith("robust_exclude="):
        return "robust, family"
    if stem.startswith("robust_"):
        return "reference"
    return "single"


def anatomy_of(files: Iterable[Path]) -> Anatomy:
    out = Anatomy()
    for path in files:
        with path.open() as handle:
            for text in handle:
                if text.strip():
                    out.add_game(json.loads(text))
    return out


def _share(counter: Counter) -> str:
    total = sum(counter.values())
    if not total:
        return "-"
    return " / ".join(f"{100 * counter[o] / total:.1f}" for o in OUTCOMES) + f" (n={total})"


def table(results: Path) -> str:
    """The markdown table for every guesser G in a leave-one-out results folder."""
    duet = results / "duet"
    if not duet.is_dir():
        raise SystemExit(f"{duet}: no Duet cells here (run experiments/leave_one_out.py first)")
    lines = [
        f"Duet anatomy of `{results.name}`: every guess replayed through the engine.",
        f"A pair needs {CLOCK:.2f} greens per clue ({TOTAL_GREENS} greens, {STANDARD_TOKENS} tokens). Each guess column: "
        "green / bystander / black % of those guesses on the clue giver's side (sudden death: "
        "the other side's).",
        "",
        "| guesser G | spymaster | games | wins % | greens per clue | first guess | later, within the count "
        "| past the count | sudden death |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for g_dir in sorted(p for p in duet.iterdir() if p.is_dir()):
        guesser = g_dir.name
        groups: dict[str, list[Path]] = {}
        for path in sorted(g_dir.glob("*.jsonl")):
            groups.setdefault(cell_kind(path, guesser), []).append(path)
        for kind in ("mirror", "single", "robust", "robust, family", "reference"):
            if kind not in groups:
                continue
            a = anatomy_of(groups[kind])
            label = LABELS.get(kind, kind)
            per_clue = a.greens / a.clues if a.clues else 0.0
            lines.append(
                f"| `{guesser}` | {label} | {a.games} | {100 * a.wins / max(a.games, 1):.1f} | {per_clue:.2f} | "
                + " | ".join(_share(a.guesses[p]) for p in PLACES) + " |"
            )
    return "\n".join(lines) + "\n"


def black_first_guess_ranks(path: Path, rank_of) -> Counter:
    """For one cell's games: how many first guesses were black, by the rank ``rank_of(clue,
    words, guessable, card)`` gives the card taken (each game replayed through the engine)."""
    out: Counter = Counter()
    with path.open() as handle:
        for text in handle:
            if not text.strip():
                continue
            record = json.loads(text)["record"]
            words = list(record["config"]["words"])
            game = DuetGame.from_config(record["config"])
            for guess in replayed_guesses(game, record["actions"], choices=True):
                if guess.made == 1 and guess.identity == "black":
                    out[rank_of(guess.clue["word"], words, list(guess.choices), guess.word)] += 1
    return out


class PoolReading:
    """How a group of models ranks the cards for a clue: each model's z-score over the cards
    still guessable, each card's similarity first standardised over 2,000 common words
    (``EmbeddingGuesser``'s hub correction), as part D of the transfer study. ``rank`` reads
    the group's mean z-score; ``best_rank`` the best (smallest) rank any one model gives the card.
    A group of one model, G, is G's own reading of the clue alone (no memory, no key prior)."""

    def __init__(self, names: list[str], load=None) -> None:
        from spymaster_ai.agents.vocabulary import is_clue_shaped

        if load is None:
            from spymaster_ai.agents.registry import _embedding as load
        self.models = [load(n) for n in names]
        self.references = [[w for w in m.clue_vocabulary() if is_clue_shaped(w)][:2000] for m in self.models]
        self._board: tuple[str, ...] = ()
        self._stats: list = []
        self._read: dict[tuple, np.ndarray] = {}  # the table reads each black guess once per ranking

    def z_scores(self, clue: str, words: list[str], guessable: list[str]) -> np.ndarray:
        """(models, guessable cards): each model's z-scores of the cards for ``clue``."""
        from transfer_study import board_z, card_stats, hub_standardised  # a sibling script

        key = (clue, tuple(words), tuple(guessable))
        if key in self._read:
            return self._read[key]
        if key[1] != self._board:
            self._board = key[1]
            self._stats = [card_stats(m, words, ref) for m, ref in zip(self.models, self.references)]
        keep = np.array([words.index(w) for w in guessable])
        z = np.array([board_z(hub_standardised(m, [clue], words, ref, st)[0][keep])
                      for m, ref, st in zip(self.models, self.references, self._stats)])
        self._read[key] = z
        return z

    @staticmethod
    def _rank(z: np.ndarray, at: int) -> int:
        return 1 + int((z > z[at]).sum())

    def rank(self, clue: str, words: list[str], guessable: list[str], card: str) -> int:
        """The card's rank under the models' mean z-score (1: the card they tie closest)."""
        return self._rank(self.z_scores(clue, words, guessable).mean(axis=0), guessable.index(card))

    def best_rank(self, clue: str, words: list[str], guessable: list[str], card: str) -> int:
        """The card's best rank under any single model of the group."""
        at = guessable.index(card)
        return min(self._rank(z, at) for z in self.z_scores(clue, words, guessable))


# The readings of the --black-ranks table: (label, whose models, which rank).
READINGS = (("partner models' mean", "pool", "rank"), ("best single partner model", "pool", "best_rank"),
            ("G itself, the clue alone", "guesser", "rank"))


def black_rank_table(results: Path, load=None) -> str:
    """The ``--black-ranks`` table: robust cells only (G held out, G's family held out, and the
    reference). Each black first guess is ranked under three readings: the spymaster's partner
    models' mean, their best single model, and G's own reading of the clue (the cross-play
    cells only: in the reference G is a partner model)."""
    lines = [
        "",
        "Black first guesses of the robust spymaster's cells, by the rank a reading of the clue gave the card "
        "taken, among the cards the guesser could take (1 = the card it ties closest to the clue): the mean of the "
        "spymaster's own partner models, the best rank any single one of them gave it, and G's own reading of the "
        "clue alone (G's guesser also adds its memory of unfinished clues and the Duet key prior).",
        "",
        "| guesser G | spymaster | reading | black first guesses | "
        + " | ".join(f"rank {lo}" if hi == lo + 1 else f"rank {lo}-{hi - 1}" if hi < 26 else f"rank {lo} or lower" for lo, hi in RANK_BINS)
        + " |",
        "|---|---|---|---|" + "---|" * len(RANK_BINS),
    ]
    from transfer_study import spymaster_pool  # a sibling script

    readers: dict[tuple[str, ...], PoolReading] = {}

    def reader(names: tuple[str, ...]) -> PoolReading:
        if names not in readers:
            readers[names] = PoolReading(list(names), load)
        return readers[names]

    for g_dir in sorted(p for p in (results / "duet").iterdir() if p.is_dir()):
        guesser = g_dir.name
        order = ("robust", "robust, family", "reference")
        for path in sorted(g_dir.glob("robust_*.jsonl"), key=lambda p: (order.index(cell_kind(p, guesser)), p.name)):
            kind = cell_kind(path, guesser)
            with path.open() as handle:
                pool = tuple(spymaster_pool(json.loads(handle.readline())["agents"]["a_spymaster"]))
            for label, whose, how in READINGS:
                if kind == "reference" and label != READINGS[0][0]:
                    continue
                models = pool if whose == "pool" else (guesser,)
                ranks = black_first_guess_ranks(path, getattr(reader(models), how))
                total = sum(ranks.values())
                cells = [sum(n for r, n in ranks.items() if lo <= r < hi) for lo, hi in RANK_BINS]
                lines.append(f"| `{guesser}` | {LABELS[kind]} | {label} | {total} | "
                             + " | ".join(f"{c} ({c / total:.0%})" if total else "–" for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, required=True, help="a leave_one_out.py output folder")
    ap.add_argument("--out", type=Path, help="write the markdown table here (default: print it)")
    ap.add_argument("--black-ranks", action="store_true", help="add the ranks of black first guesses under the spymaster's models (loads them)")
    args = ap.parse_args()
    text = table(args.results)
    if args.black_ranks:
        text += black_rank_table(args.results)
        text += f"\nLibrary versions (black ranks): {versions_line()}.\n"
    if args.out:
        args.out.write_text(text)
        print(f"wrote {args.out}")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
