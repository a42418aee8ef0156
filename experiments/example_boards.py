"""Ten example boards: the first clue the robust spymaster gives with the guesser's model held
out (``robust:exclude=G``), and what a guesser of every model does with that clue.

    python experiments/example_boards.py --boards 10 --seed 0 --out experiments/results/example_boards.md

Each board is the Kim et al. 2019 layout (8 red, 7 blue, 9 bystanders, 1 assassin; red alone)
of game i of a seeded kim2019 run, so it is the same board the benchmark plays.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

from spymaster_ai.agents.registry import LEAVE_ONE_OUT_POOL, make_guesser, make_spymaster
from spymaster_ai.provenance import versions_line
from spymaster_ai.rules.cards import Identity, Team
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.sim.play import deal_board
from spymaster_ai.sim.seeds import game_seed


def first_turn(game: ClassicGame, guesser) -> list[tuple[str, str]]:
    """Play the guesser on the clue already given; return (card, identity) per guess."""
    out = []
    while not game.is_over and game.current_team is Team.RED and game.phase.value == "guess":
        view = game.guesser_view(Team.RED)
        word = guesser.next_guess(view)
        if word is None:
            break
        result = game.guess(word)
        out.append((word, result.identity.value))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--models", default=",".join(LEAVE_ONE_OUT_POOL))
    ap.add_argument("--robust", default="", help="extra robust spymaster parameters, e.g. temperature=1.0")
    ap.add_argument("--out", type=Path, help="write the markdown here (default: standard output)")
    args = ap.parse_args()
    if args.out is not None and (args.out.is_dir() or not args.out.parent.is_dir()):
        ap.error(f"--out {args.out}: not a file in an existing folder")
    models = args.models.split(",")
    extra = f",{args.robust}" if args.robust else ""
    spies = {g: make_spymaster(f"robust:exclude={g}{extra}") for g in models}
    guessers = {g: make_guesser(g) for g in models}
    warm_words, warm_key, _ = deal_board("kim2019", game_seed(args.seed, 0), 0)
    warm = ClassicGame(warm_words, warm_key, kind="kim2019").spymaster_view(Team.RED)
    for spy in spies.values():  # load every model before the first line (some print while loading)
        spy.rank_clues(warm, top=1)
    for g in guessers.values():
        g.embedding.similarity(["warm"], list(warm_words))
    lines: list[str] = []
    emit = lines.append
    emit(f"# Example boards (kim2019 layout, seed {args.seed}): `robust:exclude=G{extra}`, the guesser's model G held out\n")
    for i in range(args.boards):
        seed = game_seed(args.seed, i)
        words, key, _ = deal_board("kim2019", seed, i)
        game = ClassicGame(words, key, kind="kim2019")
        view = game.spymaster_view(Team.RED)
        emit(f"## Board {i + 1}\n")
        emit(f"- red (targets): {', '.join(sorted(view.own))}")
        emit(f"- blue: {', '.join(sorted(view.opponent))}")
        emit(f"- bystanders: {', '.join(sorted(view.bystanders))}")
        emit(f"- assassin: {', '.join(view.assassins)}\n")
        emit("| held-out G | clue | aimed at | " + " | ".join(f"guesser `{g}`" for g in models) + " |")
        emit("|---|---|---|" + "---|" * len(models))
        for held in models:
            spy = spies[held]
            spy.reset(seed)
            option = spy.rank_clues(view, top=1)[0]
            cells = []
            for g in models:
                trial = copy.deepcopy(game)
                trial.give_clue(option.clue)
                guessers[g].reset(seed)
                guesses = first_turn(trial, guessers[g])
                text = ", ".join(f"{w} ({ident})" for w, ident in guesses) or "stop"
                cells.append(f"**{text}**" if g == held else text)
            emit(f"| `{held}` | {option.word} {option.count} | {', '.join(option.targets)} | " + " | ".join(cells) + " |")
        emit("")
    emit("Bold: the held-out guesser G, the one the clue's spymaster never saw. Identities: red = ours.")
    emit("")
    emit(f"Library versions: {versions_line()}.")
    markdown = "\n".join(lines) + "\n"
    if args.out is None:
        sys.stdout.write(markdown)
    else:
        args.out.write_text(markdown, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
