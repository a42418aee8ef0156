"""Side A's opening clue and its targets on seeded Duet boards, per human spymaster spec, to judge by hand.

    python experiments/human_clue_sample.py 15 "human:no_verb_forms=false;human:assoc_strength=0.02" 11

(boards, ';'-separated specs, board seed; the sample of ``results/human_count_levers.md``).
"""

import random
import sys
import time

from spymaster_ai.agents.registry import make_spymaster
from spymaster_ai.play.settings import PlaySettings
from spymaster_ai.play.setup import new_game
from spymaster_ai.rules.duet import Player


def main(argv: list[str]) -> int:
    boards, specs = int(argv[0]), argv[1].split(";")
    seeds = random.Random(int(argv[2]) if len(argv) > 2 else 11).sample(range(10**9), boards)
    for spec in specs:
        spymaster, start, lines = make_spymaster(spec), time.time(), []
        for seed in seeds:
            game, _ = new_game(PlaySettings(mode="duet", seed=seed))
            view = game.spymaster_view(Player.A)
            spymaster.reset(seed)
            o = spymaster.best_option(view)
            lines.append(f"{o.word.upper()}: {o.count} -> {', '.join(t.upper() for t in o.targets)}")
        print(f"## {spec}  ({time.time() - start:.1f}s)")
        print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
