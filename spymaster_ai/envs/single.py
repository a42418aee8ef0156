"""Gymnasium single-agent environments: the learner holds one role, built-in agents the rest.

Why: most reinforcement-learning code is written for one agent. :class:`GuesserEnv` seats the
learner in the guesser seats of the evaluated side (classic and Kim: red; Duet: both
players' guesser seats) with a built-in spymaster giving the clues; :class:`SpymasterEnv` is
the reverse, the learner giving clues to a built-in guesser. Every other seat (the classic
blue team) is played by built-in agents too. Observations and actions are the AEC
environment's (:mod:`.aec`, :mod:`.encoding`); the reward comes at the end, the learner's
seat's return.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import gymnasium as gym

from ..agents.registry import make_guesser, make_spymaster
from ..rules.cards import Team
from ..rules.moves import Cover, GiveClue, Guess, Pass, Phase, Stop
from .aec import CodenamesEnv

__all__ = ["GuesserEnv", "SpymasterEnv"]

DEFAULT_SPYMASTER = "glove50:vocabulary_size=500"  # its vocabulary is the default clue vocabulary
DEFAULT_GUESSER = "glove50"


class _SeatEnv(gym.Env):
    """The learner plays every ``role`` seat of the evaluated side; built-in agents play the others."""

    metadata = {"render_modes": []}

    def __init__(self, game: str, role: str, spymaster: str, guesser: str, **options: Any) -> None:
        spymasters = {}
        probe = CodenamesEnv(game, **{k: v for k, v in options.items() if k != "clue_words"},
                             clue_words=options.get("clue_words") or ("probe",))
        for seat in probe.possible_agents:
            if seat.endswith("_spymaster") and not self._learns(game, role, seat):
                spymasters[seat] = make_spymaster(spymaster)
        if "clue_words" not in options and spymasters:
            # The built-in spymaster's every clue must be an encodable word of the vocabulary.
            vocabulary = getattr(next(iter(spymasters.values())), "vocabulary", None)
            if vocabulary is not None:
                options["clue_words"] = tuple(vocabulary)
        self.aec = CodenamesEnv(game, **options)
        self.learner = tuple(s for s in self.aec.possible_agents if self._learns(game, role, s))
        self.builtin = {
            seat: spymasters.get(seat) or (make_spymaster(spymaster) if seat.endswith("_spymaster") else make_guesser(guesser))
            for seat in self.aec.possible_agents if seat not in self.learner
        }
        self.observation_space = self.aec.observation_space(self.learner[0])
        self.action_space = self.aec.action_space(self.learner[0])
        self._covers = random.Random(0)

    @staticmethod
    def _learns(game: str, role: str, seat: str) -> bool:
        side, seat_role = seat.rsplit("_", 1)
        return seat_role == role and (game == "duet" or side == "red")

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31))
        self.aec.reset(seed=seed)
        self._covers.seed(seed)
        for n, seat in enumerate(sorted(self.builtin)):
            self.builtin[seat].reset(seed * 10 + n)
        self._play_builtin()
        return self._observation(), self._info()

    def step(self, action: int):
        self.aec.step(action)
        self._play_builtin()
        over = self.aec.game.is_over
        reward = float(self.aec.game.returns()[self.learner[0]]) if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self):
        """The legal actions now (the name sb3-contrib's MaskablePPO looks for)."""
        return self.aec.action_mask(self.aec.agent_selection)

    def _observation(self) -> dict:
        seat = self.aec.agent_selection if self.aec.agent_selection in self.learner else self.learner[0]
        return self.aec.observe(seat)

    def _info(self) -> dict:
        game = self.aec.game
        info: dict[str, Any] = {"seat": self.aec.agent_selection}
        if game.is_over:
            duet = self.aec.game_kind == "duet"
            info["won"] = bool(game.winner) if duet else game.winner is Team.RED
            info["turns"] = game.turns_played if duet else game.turns[Team.RED]
        return info

    def _play_builtin(self) -> None:
        """Let the built-in agents move until a learner seat must act or the game ends."""
        env = self.aec
        while not env.game.is_over and env.agent_selection not in self.learner:
            seat = env.agent_selection
            agent, view = self.builtin[seat], env.view(seat)
            phase = env.game.phase
            if phase in (Phase.PENALTY_COVER, Phase.SOLO_COVER):
                cards = [m.word for m in env.game.legal_moves(seat)]
                chooser = getattr(agent, "choose_cover", None)
                env.step_move(Cover(chooser(view, tuple(cards)) if callable(chooser) else self._covers.choice(cards)))
            elif seat.endswith("_spymaster"):
                env.step_move(GiveClue(agent.give_clue(view)))
            else:
                word = agent.next_guess(view)
                if word is not None:
                    env.step_move(Guess(word))
                else:
                    env.step_move(Pass() if phase is Phase.SUDDEN_DEATH else Stop())


class GuesserEnv(_SeatEnv):
    """The learner guesses; ``spymaster`` (a built-in spec) gives the clues. Its vocabulary
    becomes the clue vocabulary unless ``clue_words`` is given. Options as :mod:`.aec`'s."""

    def __init__(self, game: str = "duet", *, spymaster: str = DEFAULT_SPYMASTER, guesser: str = DEFAULT_GUESSER,
                 **options: Any) -> None:
        super().__init__(game, "guesser", spymaster, guesser, **options)


class SpymasterEnv(_SeatEnv):
    """The learner gives the clues (and solo covers); ``guesser`` (a built-in spec) guesses."""

    def __init__(self, game: str = "duet", *, guesser: str = DEFAULT_GUESSER, spymaster: str = DEFAULT_SPYMASTER,
                 **options: Any) -> None:
        super().__init__(game, "spymaster", spymaster, guesser, **options)
