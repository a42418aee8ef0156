"""Codenames Pictures on German, Vietnamese and Persian boards: the shipped picture cards with
their captions in the board's language (``pictures/deck/captions_<lang>.tsv``), e5small's
spymaster with its own guesser (separate instances), and the first clues on seeded boards.

A mirror is the ceiling (the partner is the spymaster's own model): it says the localised
captions, the language's Pictures legality and its vocabulary work together, not that people
would follow the clues; the first clues (``--clue-boards``) are for a speaker to judge.

    python experiments/lang_pictures.py --games 200 --clue-boards 3 --out experiments/results/lang_pictures
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai import __version__  # noqa: E402
from spymaster_ai.cli.pictures_cmds import ai_clues, board_facts  # noqa: E402
from spymaster_ai.play.settings import LANGUAGE_PARTNER  # noqa: E402
from spymaster_ai.provenance import environment  # noqa: E402
from spymaster_ai.rules.lang.words import LANGUAGES  # noqa: E402
from spymaster_ai.sim import PlayOptions, lineup, run_games  # noqa: E402
from spymaster_ai.sim.tournament import format_cell  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--langs", default="de,vi,fa")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--clue-boards", type=int, default=3)
    ap.add_argument("--spymaster", default="e5small")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/lang_pictures"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, dict] = {}
    clue_lines: list[str] = []
    for lang in args.langs.split(","):
        game = "pictures_solo"
        run = run_games(game, lineup(game, args.spymaster, args.spymaster), games=args.games, seed=args.seed,
                        options=PlayOptions(lang=lang), jobs=args.jobs,
                        results_path=args.out / f"{lang}_{game}.jsonl", progress=True)
        figures[lang] = run.summary()
        clue_lines += ["", f"### {LANGUAGES[lang]}"]
        for seed in range(1, args.clue_boards + 1):
            facts = board_facts(seed, 0, True, lang)
            mine = [c["caption"] for c in facts["cards"] if c["identity"] == "red"]
            clue_lines.append(f"- seed {seed}, own cards: {', '.join(mine)}")
            for name, spec in ((args.spymaster, args.spymaster), ("play partner", LANGUAGE_PARTNER[lang])):
                best = ai_clues(facts, spec, None, top=1)["clues"][0]
                clue_lines.append(f"  - {name}: **{best['word'].upper()}: {best['count']}** -> "
                                  f"{', '.join(best['target_captions'])}")
    lines = [
        f"Codenames Pictures (two-player variant) with localised captions: spymaster and guesser `{args.spymaster}`, "
        f"{args.games} games per language, seed {args.seed} (spymaster_ai {__version__}).",
        f"`python experiments/lang_pictures.py --games {args.games} --clue-boards {args.clue_boards} --out {args.out}`.",
        "Win rate % [95% Wilson interval]; mean turns; errors: games an agent broke.",
        "",
        "| language | win % | turns | clues per game | mean clue number | invalid clues | errors |",
        "|---|---|---|---|---|---|---|",
    ]
    for lang, f in figures.items():
        lines.append(f"| {LANGUAGES[lang]} | {format_cell(f)} | {f['mean_turns']:.2f} | {f['mean_clues']:.2f} | "
                     f"{f['mean_clue_count']:.2f} | {f['invalid_clues']} | {f['errors']} |")
    lines += ["", f"## First clues (`pictures clue --solo --seed N --lang L --spymaster SPEC --top 1`)", "",
              f"`{args.spymaster}` alone, and the play partner (the AI `play pictures --lang L` seats; "
              "spymaster_ai.play.settings.LANGUAGE_PARTNER).",
              *clue_lines]
    table = "\n".join(lines) + "\n"
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        json.dumps({**figures, "environment": environment()}, indent=1) + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
