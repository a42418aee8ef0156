"""A blind followability audit of the human spymaster's clues, judged by a person.

Why: the ``human`` guesser reads clues with the reader the spymaster scores them with, so
its wins cannot tell whether a person would follow a ":2". Here a person judges instead.

``dump`` gives several spymaster settings the same ``--boards`` seeded Duet boards and writes each
one's opening clue (side A) into one shuffled file: an id, the clue and its count, and the
board's 25 words, with nothing that says which setting gave it or which cards are the
giver's. The key (setting, targets, the giver's greens and black cards) goes to a separate
file the judge must not open before judging.

The judge writes one line per id, ``ID<TAB>first pick, second pick, ...``: the cards they would
take for the count, in order. ``score`` then unblinds: a clue is followable when the judge's
first ``count`` picks are exactly its targets (any order); it also counts the judge's picks
among the targets and among the giver's greens, per setting, and the clue words' Zipf.

    python experiments/human_count_audit.py dump --boards 30 --seed 7 --settings \\
        "human:min_evoke=2.0,prefer_common=0.1;human:min_evoke=1.5,prefer_common=0.3;human:min_evoke=1.25,prefer_common=0.3" \\
        --out experiments/results/human_count_audit
    python experiments/human_count_audit.py score --out experiments/results/human_count_audit
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np
from wordfreq import zipf_frequency


def dump(settings: list[str], boards: int, seed: int, folder: Path) -> None:
    from spymaster_ai.agents.registry import make_spymaster
    from spymaster_ai.play.settings import PlaySettings
    from spymaster_ai.play.setup import new_game
    from spymaster_ai.rules.duet import Player

    board_seeds = random.Random(seed).sample(range(10**9), boards)
    items = []
    for spec in settings:
        spymaster = make_spymaster(spec)
        for board_seed in board_seeds:
            game, _ = new_game(PlaySettings(mode="duet", seed=board_seed))
            view = game.spymaster_view(Player.A)
            spymaster.reset(board_seed)
            option = spymaster.best_option(view)
            items.append({"setting": spec, "board_seed": board_seed, "clue": option.word, "count": option.count,
                          "targets": list(option.targets), "words": list(view.visible),
                          "greens": sorted(view.own), "black": sorted(view.assassins)})
    random.Random(seed + 1).shuffle(items)
    folder.mkdir(parents=True, exist_ok=True)
    blind = ["# Blind audit: for each clue, which cards would you take, in order, for its count?", ""]
    for n, item in enumerate(items, 1):
        item["id"] = n
        words = sorted(item["words"])
        blind += [f"{n}. {item['clue'].upper()}: {item['count']}", "   " + ", ".join(w.upper() for w in words), ""]
    (folder / "blind.md").write_text("\n".join(blind), encoding="utf-8")
    (folder / "key.json").write_text(json.dumps(items, indent=1) + "\n", encoding="utf-8")
    print(f"{len(items)} clues -> {folder / 'blind.md'} (key: {folder / 'key.json'}, do not open before judging)")


def score(folder: Path) -> None:
    items = {item["id"]: item for item in json.loads((folder / "key.json").read_text())}
    picks: dict[int, list[str]] = {}
    for line in (folder / "judged.tsv").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            n, cards = line.split("\t", 1)
            picks[int(n)] = [c.strip().lower() for c in cards.split(",") if c.strip()]
    missing = sorted(set(items) - set(picks))
    if missing:
        raise SystemExit(f"judged.tsv lacks ids {missing}: judge every clue before scoring")
    lines = ["| setting | clues | followable (first `count` picks = its targets) | targets found per clue | "
             "giver's greens found per clue (of `count` picks, before the first wrong card) | mean count | "
             "clue Zipf median / share < 4.0 |", "|---|---|---|---|---|---|---|"]
    for spec in dict.fromkeys(item["setting"] for item in items.values()):
        rows = [item for item in items.values() if item["setting"] == spec]
        followable, targets_found, greens_found = [], [], []
        for item in rows:
            mine = picks[item["id"]][: item["count"]]
            followable.append(set(mine) == set(item["targets"]))
            targets_found.append(len(set(mine) & set(item["targets"])))
            run = 0
            for card in mine:
                if card not in item["greens"]:
                    break
                run += 1
            greens_found.append(run)
        z = np.array([zipf_frequency(item["clue"], "en") for item in rows])
        lines.append(f"| `{spec}` | {len(rows)} | {sum(followable)} ({100 * np.mean(followable):.0f}%) | "
                     f"{np.mean(targets_found):.2f} | {np.mean(greens_found):.2f} | "
                     f"{np.mean([item['count'] for item in rows]):.2f} | {np.median(z):.2f} / {100 * np.mean(z < 4.0):.0f}% |")
    (folder / "score.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("dump", "score"))
    ap.add_argument("--settings", default="human:min_evoke=2.0,prefer_common=0.1;human:min_evoke=1.5,prefer_common=0.3",
                    help="';'-separated spymaster specs (pinned: a later change of the defaults changes no row)")
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="experiments/results/human_count_audit")
    args = ap.parse_args(argv)
    if args.step == "dump":
        dump(args.settings.split(";"), args.boards, args.seed, Path(args.out))
    else:
        score(Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
