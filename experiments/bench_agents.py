"""Benchmark (not a test): time per clue after the per-game precompute, and per guess.

    python experiments/bench_agents.py [--models glove50,minilm] [--boards 20] [--threads 1]

For each model: the embedding spymaster (mirror partner) and the embedding guesser on
seeded 25-card classic boards from the packaged word list, at the default clue vocabulary.
Prints the median first-clue time (the per-board precompute: similarity matrices and the
legality mask), the median time of later clues on the same board, the median first guess on
a new clue (one similarity row) and the median later guess.
Aim: under 5 ms per clue on one core. Run with one BLAS/OpenMP thread to measure one core.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="glove50,minilm")
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--clues", type=int, default=10, help="timed clues per board after the first")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(args.threads))

    import numpy as np

    from spymaster_ai.agents.registry import make_guesser, make_spymaster
    from spymaster_ai.rules.cards import CLASSIC_LAYOUT, Identity, deal_words, generate_classic_key
    from spymaster_ai.views import GuesserView, SpymasterView

    results = {}
    for name in args.models.split(","):
        t = time.perf_counter()
        spy, guesser = make_spymaster(name), make_guesser(name)
        _ = spy.vocabulary
        load_s = time.perf_counter() - t
        first, later, guesses, new_clue = [], [], [], []
        for seed in range(args.boards):
            words = deal_words(_words(), 25, seed=seed)
            key = generate_classic_key(seed, CLASSIC_LAYOUT)
            me = Identity.of_team(key.starting)
            other = Identity.of_team(key.starting.other)
            pick = lambda ident: tuple(w for w, i in zip(words, key.identities) if i is ident)  # noqa: E731
            view = SpymasterView("classic", key.starting.value, words, words, pick(me), pick(other),
                                 pick(Identity.BYSTANDER), pick(Identity.ASSASSIN))
            spy.reset(seed)
            t = time.perf_counter()
            spy.give_clue(view)
            first.append(time.perf_counter() - t)
            for _ in range(args.clues):
                t = time.perf_counter()
                spy.give_clue(view)
                later.append(time.perf_counter() - t)
            guesser.reset(seed)
            for option in spy.rank_clues(view, top=5):  # a clue the guesser has not seen yet
                gv = GuesserView("classic", key.starting.value, words, words, (), option.clue, 0, option.count + 1, False)
                t = time.perf_counter()
                guesser.next_guess(gv)
                new_clue.append(time.perf_counter() - t)
            for _ in range(args.clues):  # later guesses on the same clue
                t = time.perf_counter()
                guesser.next_guess(gv)
                guesses.append(time.perf_counter() - t)
        results[name] = {
            "load_s": round(load_s, 2),
            "vocabulary": len(spy.vocabulary),
            "first_clue_ms": round(1000 * float(np.median(first)), 2),
            "clue_ms": round(1000 * float(np.median(later)), 3),
            "first_guess_on_a_clue_ms": round(1000 * float(np.median(new_clue)), 3),
            "guess_ms": round(1000 * float(np.median(guesses)), 3),
        }
        print(json.dumps({name: results[name]}))


def _words() -> list[str]:
    from importlib import resources

    text = resources.files("spymaster_ai").joinpath("data/words_classic.txt").read_text()
    return [w.strip() for w in text.splitlines() if w.strip()]


if __name__ == "__main__":
    main()
