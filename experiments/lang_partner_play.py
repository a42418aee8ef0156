"""Self-play and cross-play of the play partner on German, Vietnamese and Persian Duet boards
(issue 40): the `human` agents reading through the speaker's glossary against the earlier
e5small partner, every spymaster with every guesser, on the same boards.

A mirror (the glossed spymaster with the glossed guesser: one reader on both sides) says the
parts fit; the cells with the other model's guesser say whether the clues carry across to a
reader that was not built with them. People are the judge (docs/playtests/).

    python experiments/lang_partner_play.py --games 500 --jobs 2 --out experiments/results/lang_partner_play
    python experiments/lang_partner_play.py --games 500 --no-old-mirror ...   # the partner now only
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.play import PlaySettings  # noqa: E402
from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.sim import PlayOptions  # noqa: E402
from spymaster_ai.sim.tournament import markdown_table, run_tournament  # noqa: E402


def lineup(lang: str) -> tuple[list[str], list[str]]:
    """(spymasters, guessers): the play partner now and with ``--agent e5small``."""
    now = PlaySettings(seed=0, mode="duet", lang=lang)
    before = PlaySettings(seed=0, mode="duet", lang=lang, agent="e5small")
    return ([now.ai_spymaster_spec(), before.ai_spymaster_spec()],
            [now.ai_guesser_spec(), before.ai_guesser_spec()])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--langs", default="de,vi,fa")
    ap.add_argument("--out", type=Path, default=Path("experiments/results/lang_partner_play"))
    ap.add_argument("--old-mirror", action=argparse.BooleanOptionalAction, default=True,
                    help="also the earlier partner with its own guesser (a few games a minute); "
                         "--no-old-mirror plays only the cells with the partner now")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    parts = ["# The play partner in German, Vietnamese and Persian Duet: self-play and cross-play", "",
             f"`python experiments/lang_partner_play.py --games {args.games} --langs {args.langs}"
             f"{'' if args.old_mirror else ' --no-old-mirror'} --jobs {args.jobs} --out {args.out}`: "
             f"{args.games} games per cell, seed {args.seed}, each language's boards. `human:...` is the partner "
             "reading through the glossary; the other specs are the earlier e5small partner (`--agent e5small`).", ""]
    for lang in args.langs.split(","):
        spymasters, guessers = lineup(lang)
        blocks = [(spymasters, guessers)] if args.old_mirror else [(spymasters[:1], guessers), (spymasters[1:], guessers[:1])]
        parts += [f"## {lang}", ""]
        for spies, gs in blocks:  # cells keep their results files by agents, so the blocks share one folder
            t = run_tournament("duet", games=args.games, seed=args.seed, spymasters=spies, guessers=gs,
                               options=PlayOptions(lang=lang), jobs=args.jobs,
                               results_dir=args.out / lang, progress=True)
            parts += [markdown_table(t), ""]
        args.out.with_suffix(".md").write_text("\n".join(parts) + "\n", encoding="utf-8")
    parts.append(f"Library versions: {versions_line()}.")
    text = "\n".join(parts) + "\n"
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
