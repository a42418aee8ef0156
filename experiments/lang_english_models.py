"""What the English-only models do on German, Vietnamese and Persian boards (mirror self-play,
Kim et al. 2019 protocol), beside e5small: the measurement behind refusing them there.

The registry refuses an English-only model on another language's board by name; this script
lifts that refusal in its own process only (it replaces ``check_language_model``), so the
models play with each language's clue vocabulary, cards and rules. GloVe keeps only the clue
words its English vocabulary happens to hold (``clue words`` column).

    python experiments/lang_english_models.py --games 100 --out experiments/results/lang_english_models.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import spymaster_ai.embeddings.registry as embedding_registry  # noqa: E402
from spymaster_ai.embeddings import load_embedding  # noqa: E402
from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.rules.lang.words import LANGUAGES  # noqa: E402
from spymaster_ai.sim import PlayOptions, lineup, run_games  # noqa: E402
from spymaster_ai.sim.tournament import format_cell  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--langs", default="de,vi,fa")
    ap.add_argument("--models", default="minilm,glove50,e5small")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    embedding_registry.check_language_model = lambda name, lang: None  # this process only: measure, not play
    lines = ["# English-only models on boards in other languages (mirror self-play, kim2019)", "",
             f"`python experiments/lang_english_models.py --games {args.games} --out "
             "experiments/results/lang_english_models.md`: each model's spymaster with its own guesser, "
             f"{args.games} games per cell, seed {args.seed}; the language's cards, rules and clue words. Win % "
             "[95% Wilson interval] and mean turns (a loss counts 25). The registry refuses the English-only "
             "models on these boards; this script lifts the refusal to measure them.", "",
             "| language | model | clue words it reads | win % | turns | assassin losses |", "|---|---|---|---|---|---|"]
    for lang in args.langs.split(","):
        for model in args.models.split(","):
            words = len(load_embedding(model, lang=lang).clue_vocabulary())
            run = run_games("kim2019", lineup("kim2019", model, model), games=args.games, seed=args.seed,
                            options=PlayOptions(lang=lang), progress=True)
            s = run.summary()
            lines.append(f"| {LANGUAGES[lang]} | `{model}` | {words} | {format_cell(s)} | "
                         f"{format_cell(s, turns=True)} | {s['loss_causes']['assassin']} |")
    lines += ["", f"Library versions: {versions_line()}."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
