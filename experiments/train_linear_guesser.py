"""Train a linear guesser policy in the Gymnasium guesser environment; compare it with random.

Why: the smallest end-to-end use of spymaster_ai.envs that learns something. The learner is
the guesser seat of the Kim et al. 2019 game (GuesserEnv("kim2019"): one team alone, the
built-in spymaster ``glove50:vocabulary_size=500`` giving the clues). Its policy is linear
over five features it computes from its own observation with GloVe 6B 50d (the learner's
own reading; the spymaster happens to use the same model, so this is a mirror pairing):

* a card: its similarity to the clue, standardised over the visible cards (z), and whether it
  is the closest card;
* STOP: a bias, whether the guesses made reached the clue's count, and the best card's z.

Greedy in its scores over the legal actions. The five weights are trained by the
cross-entropy method (each generation: 12 weight vectors drawn around the mean, each played on
the same 10 training boards, the mean moved to the best 3): 20 generations, 2,400 training
episodes. After each generation the mean weights play 50 fixed evaluation boards (the
curve); at the end the final weights and a uniformly random legal guesser play 300 test
boards no training or evaluation used.

    HF_HUB_OFFLINE=1 nice -n 10 python experiments/train_linear_guesser.py

writes experiments/results/linear_guesser.md, .json and experiments/figures/linear_guesser_curve.png.
"""

from __future__ import annotations

import argparse
import json
import time
from math import sqrt
from pathlib import Path

import numpy as np

from spymaster_ai.embeddings import load_embedding
from spymaster_ai.envs import GuesserEnv

ROOT = Path(__file__).resolve().parents[1]
TRAIN_SEED, EVAL_SEED, TEST_SEED = 1_000_000, 2_000_000, 3_000_000


class LinearGuesser:
    """Scores each legal action linearly from features of the observation (see the docstring)."""

    def __init__(self, env: GuesserEnv, model) -> None:
        self.env, self.model = env.aec, model
        self._sims: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def features(self, obs: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-card features (25 x 2), STOP features (3,) and the legal mask."""
        o, mask = obs["observation"], obs["action_mask"]
        layout = self.env.layout
        cards = tuple(int(c) for c in o["cards"])
        clue = int(o["clue"])
        key = (clue, cards)
        if key not in self._sims:
            words = [self.env.card_words[c] for c in cards]
            self._sims[key] = np.asarray(self.model.similarity([layout.clue_words[clue]], words), float)[0]
        sims = self._sims[key]
        visible = o["visible"].astype(bool)
        z = np.zeros(25)
        v = sims[visible]
        z[visible] = (v - v.mean()) / (v.std() + 1e-9)
        top = np.zeros(25)
        top[visible] = (z[visible] == z[visible].max()).astype(float)
        reached = float(int(o["guesses_made"]) >= max(int(o["count"]), 1))
        stop = np.array([1.0, reached, z[visible].max()])
        return np.stack([z, top], axis=1), stop, mask

    def act(self, obs: dict, w: np.ndarray) -> int:
        card_f, stop_f, mask = self.features(obs)
        n_clues = self.env.layout.n_clues
        scores = np.full(mask.shape, -np.inf)
        scores[n_clues:n_clues + 25] = card_f @ w[:2]
        scores[-1] = stop_f @ w[2:]
        scores[mask == 0] = -np.inf
        return int(np.argmax(scores))


def play(env: GuesserEnv, policy, seed: int) -> tuple[float, bool, int]:
    """One episode: (return, won, turns)."""
    obs, _ = env.reset(seed=seed)
    done, reward, info = False, 0.0, {}
    while not done:
        obs, reward, done, _, info = env.step(policy(obs))
    return reward, bool(info["won"]), int(info["turns"])


def summary(results: list[tuple[float, bool, int]]) -> dict:
    wins = sum(r[1] for r in results)
    n = len(results)
    kim_turns = [r[2] if r[1] else 25 for r in results]  # Kim et al.: a loss counts 25 turns
    return {"games": n, "wins": wins, "win_rate": wins / n, "ci95": wilson(wins, n),
            "mean_return": float(np.mean([r[0] for r in results])), "mean_turns_loss25": float(np.mean(kim_turns))}


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=20)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--episodes", type=int, default=10, help="training boards per candidate")
    parser.add_argument("--eval", type=int, default=50)
    parser.add_argument("--test", type=int, default=300)
    parser.add_argument("--out", type=Path, default=ROOT / "experiments" / "results" / "linear_guesser")
    parser.add_argument("--plot", type=Path, default=ROOT / "experiments" / "figures" / "linear_guesser_curve.png")
    args = parser.parse_args()

    started = time.time()
    env = GuesserEnv("kim2019")
    learner = LinearGuesser(env, load_embedding("glove50"))
    rng = np.random.default_rng(0)
    random_rng = np.random.default_rng(1)

    def random_policy(obs: dict) -> int:
        return int(random_rng.choice(np.flatnonzero(obs["action_mask"])))

    mean, std = np.zeros(5), np.ones(5)
    elites = max(1, args.population // 4)
    curve, episodes = [], 0
    eval_seeds = [EVAL_SEED + i for i in range(args.eval)]

    def evaluate(w: np.ndarray, seeds) -> dict:
        return summary([play(env, lambda o: learner.act(o, w), s) for s in seeds])

    baseline = summary([play(env, random_policy, s) for s in eval_seeds])
    curve.append({"generation": 0, "episodes": 0, **evaluate(mean, eval_seeds)})
    print(f"random on the evaluation boards: {baseline['win_rate']:.3f}; generation 0: {curve[0]['win_rate']:.3f}", flush=True)
    for gen in range(1, args.generations + 1):
        seeds = [TRAIN_SEED + gen * 1000 + i for i in range(args.episodes)]
        candidates = mean + std * rng.standard_normal((args.population, 5))
        scores = [np.mean([play(env, lambda o, w=w: learner.act(o, w), s)[0] for s in seeds]) for w in candidates]
        episodes += args.population * args.episodes
        best = candidates[np.argsort(scores)[::-1][:elites]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.05
        point = {"generation": gen, "episodes": episodes, **evaluate(mean, eval_seeds), "weights": mean.round(3).tolist()}
        curve.append(point)
        print(f"generation {gen:2d} ({episodes} episodes): eval win rate {point['win_rate']:.3f}, "
              f"mean turns {point['mean_turns_loss25']:.2f}, weights {point['weights']}", flush=True)

    test_seeds = [TEST_SEED + i for i in range(args.test)]
    final = evaluate(mean, test_seeds)
    rand = summary([play(env, random_policy, s) for s in test_seeds])
    result = {"env": "GuesserEnv('kim2019'), spymaster glove50:vocabulary_size=500", "learner_features": "glove50",
              "training_episodes": episodes, "final_weights": mean.tolist(), "curve": curve,
              "eval_random": baseline, "test_linear": final, "test_random": rand,
              "seconds": round(time.time() - started, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    write_markdown(args.out.with_suffix(".md"), result, args)
    plot(args.plot, curve, baseline)
    print(json.dumps({"test_linear": final, "test_random": rand}, indent=1))


def write_markdown(path: Path, r: dict, args) -> None:
    def row(name: str, s: dict) -> str:
        return (f"| {name} | {s['games']} | {s['wins']} | {s['win_rate']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] "
                f"| {s['mean_return']:+.3f} | {s['mean_turns_loss25']:.2f} |")

    lines = [
        "# A linear guesser trained in the Gymnasium guesser environment",
        "",
        "`HF_HUB_OFFLINE=1 nice -n 10 python experiments/train_linear_guesser.py` (defaults; "
        f"{r['seconds']:.0f} s on two shared cores). Environment: `GuesserEnv(\"kim2019\")`, the built-in spymaster "
        "`glove50:vocabulary_size=500` giving clues; the learner's five weights over GloVe 6B 50d features "
        f"(a mirror pairing), trained by the cross-entropy method over {r['training_episodes']} training episodes. "
        "Return: +1 a win, -1 a loss; turns: Kim et al.'s score (a loss counts 25).",
        "",
        f"Test: {args.test} boards that no training or evaluation episode used.",
        "",
        "| guesser | games | wins | win rate [95% Wilson] | mean return | mean turns (loss = 25) |",
        "|---|---|---|---|---|---|",
        row("linear, trained", r["test_linear"]),
        row("random legal guess", r["test_random"]),
        "",
        f"Final weights (card z, card is closest, STOP bias, STOP when the count is reached, STOP x best z): "
        f"{[round(w, 3) for w in r['final_weights']]}",
        "",
        f"Curve (`experiments/figures/linear_guesser_curve.png`): the mean weights after each generation on the same "
        f"{args.eval} evaluation boards; random scores {r['eval_random']['win_rate']:.3f} there.",
        "",
        "| generation | training episodes | win rate | mean turns |",
        "|---|---|---|---|",
        *[f"| {p['generation']} | {p['episodes']} | {p['win_rate']:.3f} | {p['mean_turns_loss25']:.2f} |" for p in r["curve"]],
        "",
    ]
    path.write_text("\n".join(lines))


def plot(path: Path, curve: list[dict], baseline: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["episodes"] for p in curve]
    y = [p["win_rate"] for p in curve]
    lo = [p["ci95"][0] for p in curve]
    hi = [p["ci95"][1] for p in curve]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(x, y, marker="o", label="linear policy (mean weights)")
    ax.fill_between(x, lo, hi, alpha=0.2)
    ax.axhline(baseline["win_rate"], color="grey", linestyle="--", label="random legal guess")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"win rate on {curve[0]['games']} evaluation boards")
    ax.set_title("Linear guesser, GuesserEnv('kim2019'), cross-entropy method")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
