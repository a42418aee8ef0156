"""How much of each language's clue vocabulary the checker refuses on random boards.

Why: a checker that refuses everything would pass every legality test; this shows the share
it refuses on 1,000 seeded boards of 25 cards per language (its clue vocabulary against the
whole board, as at a game's first clue), and which rules the refusals come from (on the first
``--rule-boards`` boards, through ``check_clue``). English is the reference: the classic list
and the first 12,000 words of its clue vocabulary.

    python experiments/lang_legality.py --boards 1000 --out experiments/results/lang_legality.md
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.embeddings.vocabulary import load_vocabulary  # noqa: E402
from spymaster_ai.provenance import environment  # noqa: E402
from spymaster_ai.rules.lang.words import LANGUAGES  # noqa: E402
from spymaster_ai.rules.legality import LegalityOptions, check_clue, legal_mask  # noqa: E402
from spymaster_ai.rules.wordlists import load_words  # noqa: E402

ENGLISH_VOCAB = 12_000


def measure(lang: str, boards: int, rule_boards: int, seed: int) -> dict:
    cards = load_words("classic" if lang == "en" else lang)
    vocab = load_vocabulary(ENGLISH_VOCAB if lang == "en" else None, lang).words
    options = None if lang == "en" else LegalityOptions(lang=lang)
    rng = random.Random(f"{seed}:{lang}")
    shares, rules = [], Counter()
    started = time.perf_counter()
    for b in range(boards):
        board = rng.sample(cards, 25)
        mask = legal_mask(vocab, board, options)
        shares.append(1 - sum(mask) / len(vocab))
        if b < rule_boards:
            for word, ok in zip(vocab, mask):
                if not ok:
                    rules[check_clue(word, board, options).rule] += 1
    total = sum(rules.values()) or 1
    return {"lang": lang, "cards": len(cards), "vocab": len(vocab), "boards": boards,
            "mean": statistics.mean(shares), "min": min(shares), "max": max(shares),
            "rules": {r: n / total for r, n in rules.most_common()}, "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--rule-boards", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--langs", default="en,de,vi,fa")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [measure(lang, args.boards, args.rule_boards, args.seed) for lang in args.langs.split(",")]
    lines = [
        "# Clue vocabulary refused by the legality checker, per language",
        "",
        f"`python experiments/lang_legality.py --boards {args.boards} --out experiments/results/lang_legality.md`: "
        f"{args.boards} seeded random boards of 25 cards per language, the whole clue vocabulary checked against "
        f"the whole board (a game's first clue). Rules: share of the refusals on the first {args.rule_boards} boards.",
        "",
        "| language | cards | clue words | refused, mean | min | max | refusals by rule |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        by_rule = ", ".join(f"{rule} {share:.0%}" for rule, share in r["rules"].items())
        lines.append(f"| {LANGUAGES[r['lang']]} | {r['cards']} | {r['vocab']} | {r['mean']:.2%} | {r['min']:.2%} | "
                     f"{r['max']:.2%} | {by_rule} |")
    env = environment()
    from importlib.metadata import version

    langs = {p: version(p) for p in ("simplemma", "german-nouns", "underthesea")}
    lines += ["", f"Python {env['python']}; " + ", ".join(f"{k} {v}" for k, v in {**env["packages"], **langs}.items() if v) + "."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
