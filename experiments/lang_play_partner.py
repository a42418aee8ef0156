"""The AI partner of `play` on boards in other languages: its first clues on seeded Duet
boards, before and after the partner was made to aim at what a person finds.

Why: a German playtest lost three Duet games on assassins; every clue of the AI was "word: 4"
with no meaning link a person sees (LAGERN: 4 -> REGEN, SOCKEN, WAFFEL, FALLSCHIRM). The AI's
intended targets are printed for a speaker to judge, with the cards two guessers (e5small and
use3, standing in for the person) take for the clue. The judgement is written by hand in
experiments/results/lang_play_partner.md.

    python experiments/lang_play_partner.py --boards 10 --lang de --spec before=e5small:risk=0.5 \\
        --spec after=<settings.LANGUAGE_PARTNER["de"]>
    python experiments/lang_play_partner.py --games 100 --lang de --spec ... --out FILE.md

``--games``: Duet games of each spymaster with each guesser instead (the tournament runner,
seed 0), for the win rate: the partner must still win with a machine guesser.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.agents.registry import add_language, make_guesser, make_spymaster  # noqa: E402
from spymaster_ai.play import PlaySettings  # noqa: E402
from spymaster_ai.play.setup import new_game  # noqa: E402
from spymaster_ai.rules.duet import Player  # noqa: E402


def taken(game, guesser, player) -> list[str]:
    """The cards ``guesser`` (as ``player``) takes for the clue just given, until it stops or
    the turn ends (a non-green card is marked with its colour)."""
    out = []
    while not game.is_over:
        word = guesser.next_guess(game.guesser_view(player))
        if word is None:
            break
        result = game.guess(word)
        out.append(word if result.correct else f"{word} ({result.identity.value})")
        if result.turn_over:
            break
    return out


def games(args) -> None:
    from spymaster_ai.provenance import versions_line
    from spymaster_ai.sim import PlayOptions
    from spymaster_ai.sim.tournament import markdown_table, run_tournament

    specs = dict(s.split("=", 1) for s in args.spec)
    t = run_tournament("duet", games=args.games, seed=0, spymasters=list(specs.values()),
                       guessers=args.guessers.split(";"), options=PlayOptions(lang=args.lang), jobs=args.jobs,
                       progress=True)
    text = "\n".join([f"# Duet on {args.lang} boards: the play partner ({args.games} games a cell, seed 0)", "",
                      ", ".join(f"{k}: `{v}`" for k, v in specs.items()), "", markdown_table(t), "",
                      f"Library versions: {versions_line()}.", ""])
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="de")
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--spec", action="append", required=True, help="NAME=SPEC, the spymaster to show")
    ap.add_argument("--guessers", default="e5small;use3", help="guesser specs, ; between")
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.games:
        return games(args)
    guessers = {g: make_guesser(add_language(g, args.lang)) for g in args.guessers.split(";")}
    specs = dict(s.split("=", 1) for s in args.spec)
    spies = {name: make_spymaster(add_language(spec, args.lang)) for name, spec in specs.items()}
    for i in range(args.boards):
        settings = PlaySettings(mode="duet", seed=i, agent="e5small", lang=args.lang)
        game, _ = new_game(settings)
        view = game.spymaster_view(Player.B)
        print(f"## Board {i} (play duet --lang {args.lang} --seed {i})\n")
        print(f"- green on B's side: {', '.join(sorted(view.own))}")
        print(f"- black on B's side: {', '.join(sorted(view.assassins))}\n")
        print("| spymaster | clue | aimed at | " + " | ".join(f"{g} takes" for g in guessers) + " |")
        print("|---|---|---|" + "---|" * len(guessers))
        for name, spy in spies.items():
            spy.reset(i)
            option = spy.best_option(view)
            cells = []
            for g, guesser in guessers.items():
                trial = copy.deepcopy(game)
                trial.give_clue(Player.B, option.clue)
                guesser.reset(i)
                cells.append(", ".join(taken(trial, guesser, Player.A)) or "stop")
            print(f"| {name} | {option.word.upper()}: {option.count} | {', '.join(option.targets)} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    main()
