"""The first clues on seeded boards in German, Vietnamese and Persian: e5small's spymaster's
three best clues with the cards it aims at, and what its own guesser picks for the best one.

Why: self-play wins say the parts work together; whether a speaker would follow a clue needs
reading the clues. The judgement of each board is written by hand in
experiments/results/lang_clues_judged.md (this script only prints the clues).

    python experiments/lang_clues.py --boards 5 --out experiments/results/lang_clues.md
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.agents.registry import make_guesser, make_spymaster  # noqa: E402
from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.rules.cards import Team  # noqa: E402
from spymaster_ai.rules.classic import ClassicGame  # noqa: E402
from spymaster_ai.rules.lang.words import LANGUAGES  # noqa: E402
from spymaster_ai.sim.play import PlayOptions, deal_board  # noqa: E402
from spymaster_ai.sim.seeds import game_seed  # noqa: E402


def first_turn(game: ClassicGame, guesser) -> list[str]:
    out = []
    while not game.is_over and game.current_team is Team.RED and game.phase.name == "GUESS":
        word = guesser.next_guess(game.guesser_view(Team.RED))
        if word is None:
            break
        out.append(word)
        game.guess(word)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--langs", default="de,vi,fa")
    ap.add_argument("--boards", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agent", default="e5small")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    lines = [f"# First clues on boards in other languages (kim2019 layout, seed {args.seed}, `{args.agent}`)", "",
             f"`python experiments/lang_clues.py --boards {args.boards} --out experiments/results/lang_clues.md`. "
             "Red are the spymaster's cards; the three best clues with the red cards each aims at; the guesser "
             f"(`{args.agent}`, its own model) on the best clue. Judgement: `lang_clues_judged.md`.", ""]
    for lang in args.langs.split(","):
        options = PlayOptions(lang=lang)
        spy = make_spymaster(f"{args.agent}:lang={lang}")
        guesser = make_guesser(f"{args.agent}:lang={lang}")
        lines += [f"## {LANGUAGES[lang]}", ""]
        for i in range(args.boards):
            seed = game_seed(args.seed, i)
            words, key, _ = deal_board("kim2019", seed, i, options)
            game = ClassicGame(words, key, kind="kim2019", legality_options=options.legality_options)
            view = game.spymaster_view(Team.RED)
            spy.reset(seed)
            best = spy.rank_clues(view, top=3)
            trial = copy.deepcopy(game)
            trial.give_clue(best[0].clue)
            guesser.reset(seed)
            picked = first_turn(trial, guesser)
            red = set(view.own)
            lines += [f"### Board {i + 1}", "",
                      f"- red: {', '.join(sorted(view.own))}",
                      f"- blue: {', '.join(sorted(view.opponent))}",
                      f"- bystanders: {', '.join(sorted(view.bystanders))}",
                      f"- assassin: {', '.join(view.assassins)}", "",
                      "| clue | count | aimed at | closest bad card |", "|---|---|---|---|"]
            for option in best:
                lines.append(f"| {option.word} | {option.count} | {', '.join(option.targets)} | {option.closest_bad} |")
            marks = ", ".join(f"{w} ({'red' if w in red else 'not red'})" for w in picked) or "stop"
            lines += ["", f"Guesser on `{best[0].word} {best[0].count}`: {marks}", ""]
    lines += [f"Library versions: {versions_line()}."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
