"""Forty cards per language, drawn at random (seed 0), with their English first sense: what a
speaker's card list looks like (issue 40).

    python experiments/lang_cards_sample.py --out experiments/results/lang_cards_sample.md
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.embeddings.glossed import GLOSSED_LANGUAGES, glossary  # noqa: E402
from spymaster_ai.rules.lang.words import upper  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    lines = ["# Forty cards per language (seed 0) and their English senses", "",
             "Made by `python experiments/lang_cards_sample.py --out experiments/results/lang_cards_sample.md`. "
             "The lists are the `card` rows of `spymaster_ai/data/glossary_<lang>.tsv`: written for this project "
             "by an AI helper acting as a native speaker (see `data/README.md`).", ""]
    for lang in GLOSSED_LANGUAGES:
        g = glossary(lang)
        sample = random.Random(0).sample(list(g.cards), 40)
        lines += [f"## {lang} ({len(g.cards)} cards, {len(g.words) - len(g.cards)} clue words)", "",
                  ", ".join(f"{upper(c)} ({'/'.join(g.senses_of(c))})" for c in sample), ""]
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
