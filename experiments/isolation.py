"""Isolated agents (``--isolate``): what they stop, and what they cost per move, game and start.

    python experiments/isolation.py --cheat-games 20 --games 200 --out experiments/results/isolation.md

The cheater (``experiments/cheating_agent.py``) plays 20 Kim-protocol games in the simulator's
process, then the same 20 in its own process, beside the random guesser on the same seeds.

The same seeded Kim-protocol games are played twice, once with both agents in this process and
once with each in its own process (``agents.isolation``); every agent call is timed from the
simulator's side, so an isolated move's time includes sending the view as JSON, the child's
work and the answer's way back. The agents are the cheapest there are (a word-list spymaster,
the random guesser), so the difference is the boundary's own cost, not a model's. The two runs
must play the same games move for move (checked), or the figures would compare different work.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spymaster_ai.agents.registry import make_guesser, make_spymaster  # noqa: E402
from spymaster_ai.sim.play import play_game  # noqa: E402

SPYMASTER = "experiments.cheating_agent:ListSpymaster"
THIEF = "experiments.cheating_agent:KeyThief"
GUESSER = "random"


class Timed:
    """Times every move the simulator asks of ``agent`` (reset excluded)."""

    def __init__(self, agent, moves: dict[str, list[float]]) -> None:
        self.agent, self.moves = agent, moves

    def reset(self, seed: int) -> None:
        self.agent.reset(seed)

    def _timed(self, method: str, *args):
        start = time.perf_counter()
        out = getattr(self.agent, method)(*args)
        self.moves.setdefault(method, []).append(time.perf_counter() - start)
        return out

    def give_clue(self, view):
        return self._timed("give_clue", view)

    def next_guess(self, view):
        return self._timed("next_guess", view)


def run(games: int, isolate: bool) -> dict:
    start = time.perf_counter()
    spy, guesser = make_spymaster(SPYMASTER, isolate=isolate), make_guesser(GUESSER, isolate=isolate)
    startup = time.perf_counter() - start
    moves: dict[str, list[float]] = {}
    agents = {"spymaster": Timed(spy, moves), "guesser": Timed(guesser, moves)}
    play_game("kim2019", agents, {}, seed=10_000)  # warm-up (first legality check, imports)
    moves.clear()
    per_game, records = [], []
    for i in range(games):
        t = time.perf_counter()
        result = play_game("kim2019", agents, {}, seed=i, index=i)
        per_game.append(time.perf_counter() - t)
        records.append(result.record)
    for agent in (spy, guesser):
        if hasattr(agent, "close"):
            agent.close()
    return {"startup": startup, "moves": moves, "games": per_game, "records": records}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def _p99(values: list[float]) -> float:
    return sorted(values)[int(0.99 * (len(values) - 1))]


def cheater(games: int) -> list[str]:
    spy = make_spymaster(SPYMASTER, isolate=False)
    rows = []
    for name, guesser in (("cheater, in process (`--no-isolate`)", make_guesser(THIEF, isolate=False)),
                          ("cheater, isolated (the default)", make_guesser(THIEF)),
                          ("random guesser", make_guesser("random"))):
        results = [play_game("kim2019", {"spymaster": spy, "guesser": guesser}, {}, seed=i, index=i) for i in range(games)]
        rows.append((name, results))
    same = sum(a.record == b.record for a, b in zip(rows[1][1], rows[2][1]))
    lines = [
        "## The cheater",
        "",
        f"{games} seeded Kim-protocol games (seeds 0-{games - 1}), spymaster `{SPYMASTER}`, guesser `{THIEF}`",
        "(it walks frames and the garbage collector to the game and guesses from its key; when it finds",
        "nothing it plays as the random guesser with the same seed).",
        "",
        "| guesser | wins | mean turns (a loss counts 25) | assassin losses | agent errors |",
        "|---|---|---|---|---|",
    ]
    for name, results in rows:
        lines.append(f"| {name} | {sum(r.won for r in results)}/{games} | {statistics.mean(r.turns for r in results):.2f} | "
                     f"{sum(r.loss_cause == 'assassin' for r in results)} | {sum(r.error is not None for r in results)} |")
    lines += ["", f"Isolated, the cheater played {same} of {games} games move for move as the random guesser did.", ""]
    return lines


def report(games: int, cheat_games: int) -> str:
    head = [
        "# Isolated agents (`--isolate`)",
        "",
        f"`python experiments/isolation.py --cheat-games {cheat_games} --games {games} --out experiments/results/isolation.md`",
        "",
        *cheater(cheat_games),
        "## The cost",
        "",
    ]
    inside, apart = run(games, False), run(games, True)
    if inside["records"] != apart["records"]:
        raise SystemExit("the isolated run played other games than the in-process run")
    lines = head + [
        f"{games} seeded Kim-protocol games, spymaster",
        f"`{SPYMASTER}`, guesser `{GUESSER}`, played with both agents in this process, then with each",
        "in its own process; the two runs played the same games move for move (checked). Times are",
        "wall-clock, measured on the simulator's side of each call, on a shared 2-core machine other",
        f"jobs were using (Python {platform.python_version()}, {platform.machine()}): medians are the figures to read.",
        "",
        "| agents | call | calls | median (ms) | mean (ms) | 99th percentile (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for name, data in (("in process", inside), ("isolated", apart)):
        for method in ("give_clue", "next_guess"):
            times = data["moves"][method]
            lines.append(f"| {name} | {method} | {len(times)} | {_ms(statistics.median(times))} | "
                         f"{_ms(statistics.mean(times))} | {_ms(_p99(times))} |")
    lines += ["", "| agents | median game (ms) | mean game (ms) | start both agents (s) |", "|---|---|---|---|"]
    for name, data in (("in process", inside), ("isolated", apart)):
        lines.append(f"| {name} | {_ms(statistics.median(data['games']))} | {_ms(statistics.mean(data['games']))} | {data['startup']:.2f} |")
    move = statistics.median(apart["moves"]["next_guess"]) - statistics.median(inside["moves"]["next_guess"])
    game = statistics.median(apart["games"]) - statistics.median(inside["games"])
    moves_per_game = sum(len(v) for v in inside["moves"].values()) / games
    lines += [
        "",
        f"The process boundary costs about {_ms(move)} ms per move (median random-guesser call, isolated",
        f"minus in process: that agent does almost nothing, so the difference is the JSON round trip)",
        f"and {_ms(game)} ms per game (median; {moves_per_game:.1f} moves a game), plus "
        f"{apart['startup'] - inside['startup']:.2f} s once per run to start the two",
        "processes and build the agents there (each process is kept for every later game).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cheat-games", type=int, default=20)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = report(args.games, args.cheat_games)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
