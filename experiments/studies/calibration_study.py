"""Table 7: does the robust spymaster know how a guesser it never saw will read its clues?

Why: the robust spymaster picks each clue by what its partner models predict (expected own
cards found before the first wrong guess, and the expected cost of that wrong guess). If those
predictions were right for a held-out guesser G, better clue choice would follow from them;
if they are far off, no cost or risk setting can repair the choice. This study plays fresh
games (seed ``--seed``, not the boards of the game tables) with ``robust`` (G held out, as in
the headline leave-one-out table) and G's guesser, records the prediction behind every clue the spymaster gives, and
sets it beside what G did with the clue:

* predicted finds: the spymaster's ``expected_found`` for the clue and its count. A card an
  unfinished earlier clue still points at counts ``leftover_value`` (0.5) there, so where such
  clues are open the prediction is an under-estimate;
* actual finds: own (Duet: green) cards among G's guesses on the clue, up to the count and
  before the first wrong guess (the same event the prediction is about);
* first right, assassin (Duet: black) on any guess of the clue, including guesses past the
  count.

Kim protocol: by own cards left and, for count-1 clues, by predicted finds. Duet: by count and
by timer tokens left, with black cards split into those within and past the count.

    python experiments/studies/calibration_study.py --models minilm,glove50,wordllama,e5small,mpnet \\
        --related minilm+mpnet --games 200 --seed 4242 --out experiments/studies/results/calibration_study.md
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np

from spymaster_ai import __version__
from spymaster_ai.agents.registry import LEAVE_ONE_OUT_POOL, make_guesser, make_spymaster
from spymaster_ai.provenance import versions_line
from spymaster_ai.sim.play import play_game
from spymaster_ai.sim.seeds import game_seed
from spymaster_ai.views import SpymasterView

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # experiments/, for leave_one_out's helpers
from leave_one_out import family_of, robust_without  # noqa: E402

PREDICTED_BINS = [(0.0, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, np.inf)]
OWN = {"kim2019": "red", "duet": "green"}
FATAL = {"kim2019": "assassin", "duet": "black"}


class RecordingSpymaster:
    """Plays exactly as ``inner`` (an ``EmbeddingSpymaster``) and keeps, for every clue it
    gives, the prediction behind it (:meth:`EmbeddingSpymaster.best_option`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.log: list[dict] = []

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def give_clue(self, view: SpymasterView) -> Any:
        option = self.inner.best_option(view)
        self.log.append({
            "word": option.word, "count": option.count, "predicted": option.expected_found,
            "own_left": len(view.own), "tokens_left": view.tokens_left,
        })
        return option.clue

    def choose_cover(self, view: SpymasterView, candidates: Sequence[str]) -> str:
        return self.inner.choose_cover(view, candidates)


def clue_outcomes(game: str, record: dict) -> list[dict]:
    """Per clue of a game record, in order: its word, count and the identities of its guesses
    (on the clue giver's side in Duet)."""
    config = record["config"]
    words = config["words"]
    out: list[dict] = []
    side: dict[str, str] = {}
    for action in record["actions"]:
        if action["type"] == "clue":
            if game == "duet":
                side = dict(zip(words, config["key"]["side_a" if action["giver"] == "A" else "side_b"]))
            else:
                side = dict(zip(words, config["key"]["identities"]))
            out.append({"word": action["word"], "count": int(action["count"]), "guesses": []})
        elif action["type"] == "guess" and out:
            out[-1]["guesses"].append(side[action["word"]])
    return out


def clue_rows(game: str, log: list[dict], outcomes: list[dict]) -> list[dict]:
    """The spymaster's log joined with what the guesser did, clue by clue."""
    if [(e["word"], e["count"]) for e in log] != [(o["word"], o["count"]) for o in outcomes]:
        raise ValueError("the spymaster's log does not match the clues of the game record")
    own, fatal = OWN[game], FATAL[game]
    rows = []
    for entry, outcome in zip(log, outcomes):
        guesses = outcome["guesses"]
        found = 0
        for identity in guesses[: entry["count"]]:
            if identity != own:
                break
            found += 1
        fatal_at = guesses.index(fatal) + 1 if fatal in guesses else 0
        rows.append({
            **entry, "found": found, "first_right": bool(guesses) and guesses[0] == own,
            "fatal": fatal_at > 0, "fatal_past_count": fatal_at > entry["count"],
        })
    return rows


def play_and_log(game: str, spymaster_spec: str, guesser_spec: str, games: int, seed: int) -> list[dict]:
    """``games`` games of ``game`` from ``seed`` (game i on the seed bench and tournament use),
    one row per clue; the rows carry the game index and whether it was won."""
    recorder = RecordingSpymaster(make_spymaster(spymaster_spec))
    guesser = make_guesser(guesser_spec)
    if game == "duet":
        agents = {"a_spymaster": recorder, "a_guesser": guesser, "b_spymaster": recorder, "b_guesser": guesser}
        specs = {"a_spymaster": spymaster_spec, "b_spymaster": spymaster_spec, "a_guesser": guesser_spec, "b_guesser": guesser_spec}
    else:
        agents = {"spymaster": recorder, "guesser": guesser}
        specs = {"spymaster": spymaster_spec, "guesser": guesser_spec}
    rows = []
    for i in range(games):
        recorder.log = []
        result = play_game(game, agents, specs, seed=game_seed(seed, i), index=i)
        for row in clue_rows(game, recorder.log, clue_outcomes(game, result.record)):
            rows.append({**row, "game": i, "won": result.won})
    return rows


def _mean(rows: list[dict], key: str) -> float:
    values = [float(r[key]) for r in rows if r[key] is not None]
    return float(np.mean(values)) if values else float("nan")


def summary_line(label: str, rows: list[dict]) -> str:
    """| label | games won | clues per game | predicted | actual | first right | fatal |"""
    games = {r["game"]: r["won"] for r in rows}
    return (f"| {label} | {100 * np.mean(list(games.values())):.1f}% | {len(rows) / max(len(games), 1):.2f} | "
            f"{_mean(rows, 'predicted'):.2f} | {_mean(rows, 'found'):.2f} | {_mean(rows, 'first_right'):.2f} | {_mean(rows, 'fatal'):.3f} |")


def grouped(rows: list[dict], key: str, keys: Sequence[Any]) -> list[str]:
    """One table line per value of ``key``: clues, count, predicted and actual finds, rates."""
    lines = []
    for k in keys:
        part = [r for r in rows if r[key] == k]
        if not part:
            continue
        past = sum(r["fatal_past_count"] for r in part)
        lines.append(
            f"| {k} | {len(part)} | {_mean(part, 'count'):.2f} | {np.mean([r['count'] == 1 for r in part]):.2f} | "
            f"{_mean(part, 'predicted'):.2f} | {_mean(part, 'found'):.2f} | {_mean(part, 'first_right'):.2f} | "
            f"{_mean(part, 'fatal'):.3f} ({past} past the count) |"
        )
    return lines


def binned(rows: list[dict]) -> list[str]:
    """Count-1 clues by the spymaster's predicted finds: is a surer clue read better?"""
    ones = [r for r in rows if r["count"] == 1 and r["predicted"] is not None]
    lines = []
    for lo, hi in PREDICTED_BINS:
        part = [r for r in ones if lo <= r["predicted"] < hi]
        if part:
            right = "inf" if hi == np.inf else f"{hi:g}"
            lines.append(f"| [{lo:g}, {right}) | {len(part)} | {_mean(part, 'predicted'):.2f} | {_mean(part, 'found'):.2f} | {_mean(part, 'fatal'):.3f} |")
    return lines


def report(game: str, per_guesser: dict[str, tuple[str, list[dict]]], distinct: list[str]) -> list[str]:
    fatal = FATAL[game]
    head = "| clues | mean count | share of count 1 | predicted finds | actual finds | first guess right | " + f"{fatal} on the clue |"
    lines = [f"### {game}", "",
             f"| guesser G (spymaster) | games won | clues per game | predicted finds | actual finds | first guess right | {fatal} per clue |",
             "|---|---|---|---|---|---|---|"]
    for g, (spec, rows) in per_guesser.items():
        lines.append(summary_line(f"`{g}` (`{spec}`)", rows))
    pooled = [r for g in distinct for r in per_guesser[g][1]]
    lines += ["", f"Pooled over the guessers with no near-twin in the pool ({', '.join(f'`{g}`' for g in distinct)}):", ""]
    if game == "kim2019":
        lines += ["| own cards left " + head, "|---|---|---|---|---|---|---|---|",
                  *grouped(pooled, "own_left", range(8, 0, -1)), "",
                  "Count-1 clues by the spymaster's predicted finds (its chance that the first guess is an own card):", "",
                  "| predicted | clues | mean predicted | actual | assassin |", "|---|---|---|---|---|", *binned(pooled)]
    else:
        lines += ["| count " + head, "|---|---|---|---|---|---|---|---|",
                  *grouped(pooled, "count", range(1, 10)), "",
                  "| timer tokens left " + head, "|---|---|---|---|---|---|---|---|",
                  *grouped(pooled, "tokens_left", range(9, 0, -1))]
    return lines + [""]


def main(argv: Optional[Sequence[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(LEAVE_ONE_OUT_POOL), help="the held-out guesser models G")
    ap.add_argument("--pool", default=None, help="models the robust spymaster may use, all but G (default: --models)")
    ap.add_argument("--related", action="append", default=[], help="a near-twin family, e.g. minilm+mpnet: its members are left out of the pooled tables")
    ap.add_argument("--game", action="append", help="kim2019 and/or duet (default both)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--out", type=Path, default=Path("experiments/studies/results/calibration_study.md"))
    args = ap.parse_args(argv)
    models = args.models.split(",")
    pool = (args.pool or args.models).split(",")
    related = [set(g.split("+")) for g in args.related]
    distinct = [g for g in models if family_of(g, related) == g]
    lines = [f"Calibration of the robust spymaster against a held-out guesser: {args.games} games per G, seed {args.seed} (spymaster_ai {__version__}).",
             "Each spymaster holds out G only, as in the headline leave-one-out table"
             + (f"; the pooled tables leave out the near-twins ({'; '.join('+'.join(sorted(g)) for g in related)})." if related else "."), ""]
    for game in args.game or ["kim2019", "duet"]:
        per_guesser = {}
        for g in models:
            spec = robust_without(g, pool)
            start = time.perf_counter()
            rows = play_and_log(game, spec, g, args.games, args.seed)
            per_guesser[g] = (spec, rows)
            print(f"{game} {g}: {len(rows)} clues in {time.perf_counter() - start:.0f} s", flush=True)
        lines += report(game, per_guesser, distinct)
    lines += [f"Library versions: {versions_line()}.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
