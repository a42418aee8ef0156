"""Cross-play on German boards between the two models that read German, e5small and use3:
each single-model spymaster with each guesser, and the robust spymaster that consults both.

Why German only: use3 (USE multilingual v3) was not trained on Vietnamese or Persian, and no
other registry package found ships a model that reads them (docs/languages.md says what was
searched), so on those boards e5small has no second opinion.

    python experiments/lang_crossplay.py --games 500 --out experiments/results/lang_crossplay
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.sim import PlayOptions  # noqa: E402
from spymaster_ai.sim.tournament import markdown_table, run_tournament  # noqa: E402

SPYMASTERS = ["e5small", "use3", "robust:embedding=e5small,partner=e5small+use3",
              "robust:embedding=use3,partner=e5small+use3"]
GUESSERS = ["e5small", "use3"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--lang", default="de")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/lang_crossplay"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    parts = [f"# Cross-play on {args.lang} boards: e5small and use3", "",
             f"`python experiments/lang_crossplay.py --games {args.games} --out {args.out}`: every spymaster with "
             f"every guesser, {args.games} games per cell, seed {args.seed}. Robust: the spymaster scores clues "
             "with its own model and predicts a guesser from both models.", ""]
    for game in ("duet", "kim2019"):
        t = run_tournament(game, games=args.games, seed=args.seed, spymasters=SPYMASTERS, guessers=GUESSERS,
                           options=PlayOptions(lang=args.lang), jobs=args.jobs,
                           results_dir=args.out / game, progress=True)
        parts += [f"## {game}", "", markdown_table(t), ""]
    parts.append(f"Library versions: {versions_line()}.")
    text = "\n".join(parts) + "\n"
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
