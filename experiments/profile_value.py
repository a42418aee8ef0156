"""What a person's profile buys: `play`'s learning partner with a simulated person, over
20-game Duet sessions, with and without the profile.

The person: the `human` agents reading with the shipped reader's weights plus per-player
Gaussian noise (``--sigma`` per standardised weight), on side A; they clue as they read.
The AI partner on side B: the `human` spymaster and guesser, reading with

* ``shipped``: the shipped weights (no learning);
* ``game``: weights learned from the person's guesses and clues within each game only
  (``play --fresh``);
* ``profile_guesses``: learned from every guess of the session's games, not from clues (what
  ``play`` with its profile did before it learned from clues);
* ``profile``: learned from every guess and every clue of the session (``play`` with its
  profile): each card the AI takes for the person's clue, one of the person's or not.

Every arm plays the same boards with the same players. Reported: win rate over all games
and over the last ten of each session (Wilson 95% intervals), greens found per game, and the
share of the person's guesses that the AI's reader, as it stood before each guess, ranked
first (the learning itself, prequentially).

    python experiments/profile_value.py --players 12 --games 20 --sigma 0.5 --seed 0 --out experiments/results/profile_value.md
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from spymaster_ai.agents.human import HumanGuesser, HumanSpymaster, shared_reader
from spymaster_ai.agents.human.adapt import PersonLearner, ReaderAdaptation, guessable_mask
from spymaster_ai.agents.registry import _embedding
from spymaster_ai.sim.metrics import mean_interval, wilson_interval
from spymaster_ai.sim.play import play_game
from spymaster_ai.sim.seeds import derive_seed

ARMS = ("shipped", "game", "profile_guesses", "profile")
NAMES = ("shipped weights", "learns within the game, guesses and clues (--fresh)",
         "learns across games, guesses only (before)", "learns across games, guesses and clues (profile)")


class PersonGuesser:
    """The person's guesser, whose guesses the AI partner sees (as ``play`` does) and learns
    from; it also scores whether the AI's reader ranked the person's pick first."""

    def __init__(self, inner: HumanGuesser) -> None:
        self.inner = inner
        self.learner: PersonLearner | None = None
        self.learn = False
        self.top1: list[bool] = []

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def next_guess(self, view):
        card = self.inner.next_guess(view)
        if card is None or view.sudden_death or view.clue is None or view.clue.is_zero:
            return card
        mask = guessable_mask(view)
        if self.learner is not None and self.learner.reader.reads(view.clue.word) and mask.sum() > 1:
            p = self.learner.reader.probabilities(view.words, view.clue.word, mask)
            self.top1.append(view.words[int(np.argmax(p))] == card)
            if self.learn:
                self.learner.observe_guess(view, card)
        return card


class AIGuesser:
    """The AI's guesser, whose picks on the person's clues the learner learns from (as ``play``
    does): each pick's result is read off the next view's history, or the game's record."""

    def __init__(self, inner: HumanGuesser) -> None:
        self.inner = inner
        self.learner: PersonLearner | None = None
        self.pending: list[tuple[object, str, int, int]] = []  # (view, card, clue index, guess index)

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)
        self.pending = []

    def _resolve(self, history) -> None:
        """Learn every pending pick whose result ``history`` (the person's clues, as dicts
        or entries) shows."""
        left = []
        for view, card, clue, guess in self.pending:
            entry = history[clue] if clue < len(history) else None
            outcomes = (entry["outcomes"] if isinstance(entry, dict) else entry.outcomes) if entry is not None else ()
            if guess < len(outcomes):
                self.learner.observe_clue_pick(view, card, outcomes[guess] == "green")
            else:
                left.append((view, card, clue, guess))
        self.pending = left

    def next_guess(self, view):
        if self.pending:
            self._resolve(view.history)
        card = self.inner.next_guess(view)
        if self.learner is not None and card is not None and not view.sudden_death and view.clue is not None:
            self.pending.append((view, card, len(view.history) - 1, view.guesses_made))
        return card

    def end(self, record: dict) -> None:
        if self.pending:
            self._resolve([h for h in record["final_state"]["history"] if h["giver"] == "A"])
        self.pending = []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--games", type=int, default=20, help="games per session")
    ap.add_argument("--sigma", type=float, default=0.5, help="per-player noise on each standardised weight")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    reader = shared_reader(_embedding)
    base = reader.params
    person_reader = PersonLearner(reader).reader  # its adaptation is set per player below
    person = PersonGuesser(HumanGuesser(person_reader))
    person_spymaster = HumanSpymaster(person_reader)
    ai_learner = PersonLearner(reader)
    ai_spymaster, ai_guesser = HumanSpymaster(ai_learner.reader), AIGuesser(HumanGuesser(ai_learner.reader))
    agents = {"a_spymaster": person_spymaster, "a_guesser": person, "b_spymaster": ai_spymaster, "b_guesser": ai_guesser}
    specs = {"a_spymaster": "person", "a_guesser": "person", "b_spymaster": "human", "b_guesser": "human"}

    started = time.process_time()
    rows: dict[str, list[tuple[int, int, bool, int]]] = {a: [] for a in ARMS}  # (player, game, won, greens)
    top1: dict[str, list[list[bool]]] = {a: [[], []] for a in ARMS}  # first half, second half of sessions
    ends: dict[str, list[tuple[int, int, float]]] = {a: [] for a in ARMS}  # (guesses, picks, cosine) a session
    for p in range(args.players):
        noise = np.random.default_rng(derive_seed(args.seed, "person", p)).normal(scale=args.sigma, size=len(base.weights))
        person_reader.adaptation = ReaderAdaptation(base, offset=noise)
        for arm in ARMS:
            ai_learner.reader.adaptation = ReaderAdaptation(base)
            person.learner, person.learn = ai_learner, arm != "shipped"
            ai_guesser.learner = ai_learner if arm in ("game", "profile") else None
            learned = [0, 0]
            for j in range(args.games):
                if arm == "game":
                    a = ai_learner.adaptation
                    learned = [learned[0] + a.choices, learned[1] + a.clue_picks]
                    ai_learner.reader.adaptation = ReaderAdaptation(base)
                before = len(person.top1)
                r = play_game("duet", agents, specs, seed=derive_seed(args.seed, "board", p, j))
                ai_guesser.end(r.record)
                top1[arm][int(j >= args.games // 2)] += person.top1[before:]
                rows[arm].append((p, j, bool(r.won), int(r.correct)))
            a = ai_learner.adaptation
            norm = np.linalg.norm(a.offset) * np.linalg.norm(noise)
            ends[arm].append((learned[0] + a.choices, learned[1] + a.clue_picks,
                              float(a.offset @ noise / norm) if norm > 0 else 0.0))
            print(f"player {p} {arm}: {sum(w for q, _, w, _ in rows[arm] if q == p)}/{args.games} won, "
                  f"{time.process_time() - started:.0f}s CPU", flush=True)

    def share(wins: list[bool]) -> str:
        lo, hi = wilson_interval(sum(wins), len(wins))
        return f"{100 * sum(wins) / len(wins):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({sum(wins)}/{len(wins)})"

    last = args.games - min(10, args.games)
    lines = [
        f"# What a person's profile buys (Duet, {args.players} simulated people x {args.games}-game sessions)",
        "",
        f"`python experiments/profile_value.py --players {args.players} --games {args.games} --sigma {args.sigma} "
        f"--seed {args.seed} --out {args.out}`",
        "",
        f"A person: the `human` agents with the shipped reader's weights plus N(0, {args.sigma}^2) noise per "
        "standardised weight (side A). The AI partner (side B): the `human` spymaster and guesser reading with the "
        "shipped weights, with weights learned from the person's guesses and the outcomes of the AI's picks on the "
        "person's clues within each game (`play --fresh`), or across the session from guesses only (as `play` did "
        "before it learned from clues) or from guesses and clues (`play` with its profile). Same boards and people "
        "in every arm; Wilson 95% intervals. Last column: the cosine between the learned offset and the person's "
        "true one at the end of each session (mean over people; within-game arms: after the last game).",
        "",
        "| AI partner | win rate, all games | win rate, last 10 of each session | greens found per game | "
        "AI reader's first card = person's guess, 1st half | 2nd half | guesses / AI picks on clues learned "
        "a session | cosine to the truth |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for arm, name in zip(ARMS, NAMES):
        wins = [w for _, _, w, _ in rows[arm]]
        late = [w for _, j, w, _ in rows[arm] if j >= last]
        greens = np.mean([g for *_, g in rows[arm]])
        t1 = [share(h) if h else "-" for h in top1[arm]]
        learned = np.mean([c[0] for c in ends[arm]]), np.mean([c[1] for c in ends[arm]])
        cosine = np.mean([c[2] for c in ends[arm]])
        lines.append(f"| {name} | {share(wins)} | {share(late)} | {greens:.2f} | {t1[0]} | {t1[1]} | "
                     f"{learned[0]:.0f} / {learned[1]:.0f} | {cosine:.2f} |")
    lines += ["", "Paired by board and person (the same games in each arm), against the shipped weights: the "
                  "mean difference per game, with a t interval over games and, since one person's games are not "
                  f"independent, over the {args.players} people's mean differences:", ""]
    for arm, against in [(a, "shipped") for a in ARMS[1:]] + [("profile", "profile_guesses")]:
        if against != "shipped":
            lines += ["", "What learning from clues adds to the profile (same pairing):", ""]
        for what, k in (("wins", 2), ("greens found", 3)):
            diff = np.array([a[k] - b[k] for a, b in zip(rows[arm], rows[against])], dtype=float)
            people = [diff[[i for i, r in enumerate(rows[arm]) if r[0] == p]].mean() for p in range(args.players)]
            games_ci, people_ci = mean_interval(diff), mean_interval(people)
            span = lambda ci: f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "-"  # noqa: E731
            lines.append(f"- {arm} - {against}, {what} per game: {diff.mean():+.3f}, over games {span(games_ci)}, "
                         f"over people {span(people_ci)}")
    lines += ["", "The simulated person reads exactly as a conditional logit over the reader's features (shifted "
                  "weights), so the learner's model is right by construction: a best case. A real person's "
                  "departures from the reader are not all of that shape.",
              "", f"CPU time: {time.process_time() - started:.0f} s."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
