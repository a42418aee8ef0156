"""The AI spymaster's clues on three Codenames Pictures boards of real picture cards.

For each board (games 0, 1 and 2 of a ``bench pictures`` run with master seed 0: the very
boards self-play starts with) it prints the captions in grid order with the key, and the
starting team's best clues with the cards each aims at; the first board is also drawn as a
PNG with the key as coloured borders.

    python experiments/pictures_clues.py [--spymaster minilm] [--seed 0] [--top 3]
        [--png experiments/figures/pictures_board_seed0_game0.png] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from spymaster_ai.cli.pictures_cmds import _grid, _write_png, ai_clues, board_facts


def report(seed: int, boards: int, spymaster: str, top: int) -> str:
    lines = [f"# AI clues on Pictures boards ({spymaster}, master seed {seed})", ""]
    for index in range(boards):
        facts = board_facts(seed, index)
        found = ai_clues(facts, spymaster, None, top)
        lines += [f"## Game {index}: {facts['starting']} starts (R red, B blue, - bystander, X assassin)", "", "```",
                  _grid(facts, True), "```", "", f"{found['team']} spymaster's best clues:", ""]
        for o in found["clues"]:
            lines.append(f"- **{o['word']}: {o['count']}** -> {', '.join(o['target_captions'])}"
                         f" (expected finds {o['expected_found']:.2f}; closest bad card: {o['closest_bad']})")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spymaster", default="minilm")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--png", type=Path, default=Path("experiments/figures/pictures_board_seed0_game0.png"))
    parser.add_argument("--out", type=Path, default=None, help="Also write the report (Markdown) here.")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    text = report(args.seed, args.boards, args.spymaster, args.top)
    print(text)
    if args.png:
        _write_png(board_facts(args.seed, 0), args.png, True)
        print(f"wrote {args.png}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
