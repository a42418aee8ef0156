"""PettingZoo AEC environments over the engines' move surface: classic, Duet and the Kim protocol.

Agents are the engine's seats (``red_spymaster``, ``red_guesser``, ... ; ``a_spymaster``,
``a_guesser``, ``b_spymaster``, ``b_guesser`` in Duet). Each seat observes an encoding of its
own view (:mod:`.encoding`), with an action mask of the moves the rules allow it now; the
view object itself is in ``infos[agent]["view"]``. Rewards come once, at the end: the
engine's ``returns()`` (classic and Kim: +1 a win, -1 a loss; Duet: the score on a win, -2
on a loss). Options select the variant: ``solo``, ``assassin_ending``, ``tokens``,
``mission``, ``legality``, the board ``wordlist`` and the clue vocabulary.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Optional, Sequence

import numpy as np
from pettingzoo import AECEnv

from ..rules.cards import CLASSIC_LAYOUT, KIM2019_LAYOUT, Player, Team, deal_words, generate_classic_key, generate_duet_key
from ..rules.classic import ClassicGame
from ..rules.duet import DuetGame
from ..rules.moves import GiveClue, Move
from ..rules.wordlists import load_words
from .encoding import ActionLayout, ViewEncoder, observation_space

__all__ = ["CodenamesEnv", "classic_env", "default_clue_words", "duet_env", "kim2019_env"]

_CLUE_WORDS = Path(__file__).with_name("clue_words.txt")


def default_clue_words() -> tuple[str, ...]:
    """The documented default clue vocabulary: 500 common words (scripts/make_env_clue_words.py)."""
    return tuple(w for w in _CLUE_WORDS.read_text().split() if w)


class CodenamesEnv(AECEnv):
    """One Codenames game as an AEC environment; build it with :func:`classic_env`,
    :func:`duet_env` or :func:`kim2019_env`."""

    metadata = {"name": "codenames_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str = "classic",
        *,
        clue_words: Optional[Sequence[str]] = None,
        wordlist: str = "classic",
        solo: bool = False,
        assassin_ending: bool = False,
        tokens: int = 9,
        mission: Optional[str] = None,
        legality: str = "strict",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if game not in ("classic", "duet", "kim2019"):
            raise ValueError(f"game is classic, duet or kim2019, got {game!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        words = tuple(dict.fromkeys(w.strip().lower() for w in (clue_words or default_clue_words()) if w.strip()))
        if not words:
            raise ValueError("the clue vocabulary is empty")
        self.game_kind = game
        self.render_mode = render_mode
        self._options = dict(solo=solo, assassin_ending=assassin_ending, tokens=tokens, mission=mission, legality=legality)
        self.card_words = tuple(sorted(set(w.strip().lower() for w in load_words(wordlist) if w.strip())))
        self.layout = ActionLayout(words)
        self.encoder = ViewEncoder(self.card_words, self.layout)
        self._seeds = random.Random()
        self.game = self._new_game(random.Random(0))  # also checks the options
        self.possible_agents = list(self.game.seats)
        duet = game == "duet"
        tokens_max = self.game.tokens if duet else 0
        self._observation_spaces = {
            seat: observation_space(seat.rsplit("_", 1)[1], duet, len(self.card_words), self.layout, tokens_max)
            for seat in self.possible_agents
        }
        from gymnasium.spaces import Discrete

        self._action_space = Discrete(self.layout.size)
        self._mask_cache: tuple[Any, ...] = ()

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_space

    # ---------------------------------------------------------------- game
    def _new_game(self, rng: random.Random) -> ClassicGame | DuetGame:
        o = self._options
        words = deal_words(self.card_words if hasattr(self, "card_words") else load_words("classic"), 25, rng)
        if self.game_kind == "duet":
            key = generate_duet_key(rng)
            if o["mission"] is not None:
                return DuetGame.mission(words, key, o["mission"], legality=o["legality"])
            return DuetGame(words, key, tokens=o["tokens"], legality=o["legality"])
        if self.game_kind == "kim2019":
            key = generate_classic_key(rng, KIM2019_LAYOUT, starting=Team.RED)
            return ClassicGame(words, key, kind="kim2019", legality=o["legality"])
        key = generate_classic_key(rng, CLASSIC_LAYOUT, starting=Team.RED if o["solo"] else None)
        return ClassicGame(words, key, solo=o["solo"], assassin_ending=o["assassin_ending"], legality=o["legality"])

    def view(self, agent: str):
        """The seat's view (rules -> views): what its observation encodes."""
        side, role = agent.rsplit("_", 1)
        who = Player(side.upper()) if self.game_kind == "duet" else Team(side)
        return self.game.spymaster_view(who) if role == "spymaster" else self.game.guesser_view(who)

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for every action that is a legal move of ``agent`` now (rules.legal_moves)."""
        key = (agent, self._moves)
        if self._mask_cache[:2] == key:
            return self._mask_cache[2]
        mask = np.zeros(self.layout.size, np.int8)
        position = {w: i for i, w in enumerate(self.game.words)}
        index = self.encoder.clue_index
        for move in self.game.legal_moves(agent, self.layout.clue_words, max_count=None):
            if isinstance(move, GiveClue):
                if move.clue.count <= self.layout.max_count:
                    mask[self.layout.clue_action(index[move.clue.word], move.clue.count)] = 1
            elif hasattr(move, "word"):
                mask[self.layout.n_clues + position[move.word]] = 1
            else:
                mask[self.layout.stop] = 1
        self._mask_cache = (agent, self._moves, mask)
        return mask

    # ---------------------------------------------------------------- AEC API
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.game = self._new_game(random.Random(self._seeds.getrandbits(64)))
        self._moves = 0
        self._mask_cache = ()
        self._last_mover: Optional[str] = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._next_seat()
        self._refresh_infos()

    def observe(self, agent: str) -> dict:
        return {"observation": self.encoder.encode(self.view(agent)), "action_mask": self.action_mask(agent)}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        move = self.layout.decode(action, self.game.words, self.game.phase)
        if not self.action_mask(agent)[int(action)]:
            raise ValueError(f"action {int(action)} ({move}) is not a legal move of {agent} now; see the action mask")
        self.step_move(move)

    def step_move(self, move: Move) -> None:
        """Play a typed move (rules.moves) for the selected agent: how a built-in agent plays
        here without going through action numbers. Its clues must still be words of the clue
        vocabulary for the guessers' observations to encode them. A move the rules refuse
        raises their IllegalMove and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent}'s game is over: step(None) removes it")
        self.game.apply(agent, move)
        self._cumulative_rewards[agent] = 0.0
        self._moves += 1
        self._last_mover = agent
        if self.game.is_over:
            self.rewards = dict(self.game.returns())
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self._next_seat()
        self._refresh_infos()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi":
            return None
        g = self.game
        return f"{self.game_kind} {g.phase.value}; to move: {', '.join(g.current_seats()) or 'nobody'}; " \
               f"visible: {' '.join(g.visible_words())}"

    def close(self) -> None:
        pass

    # ---------------------------------------------------------------- internals
    def _next_seat(self) -> str:
        """The seat to act: the engine's only one, or (Duet sudden death) the other player
        than the last mover when both may guess, as the simulator alternates them."""
        seats = self.game.current_seats()
        if not seats:
            return self.agents[0] if self.agents else self.possible_agents[0]
        others = [s for s in seats if s != self._last_mover]
        return others[0] if self.game.phase.value == "sudden_death" and others else seats[0]

    def _refresh_infos(self) -> None:
        self.infos = {a: {"view": self.view(a)} for a in self.agents}


def classic_env(**options: Any) -> CodenamesEnv:
    """Classic Codenames: four seats, two teams (``solo=True``: the two-player variant;
    ``assassin_ending=True``; ``legality="strict"|"penalty"``)."""
    return CodenamesEnv("classic", **options)


def duet_env(**options: Any) -> CodenamesEnv:
    """Codenames Duet: players A and B, each a spymaster seat and a guesser seat
    (``tokens=9``, or ``mission="moscow"``...)."""
    return CodenamesEnv("duet", **options)


def kim2019_env(**options: Any) -> CodenamesEnv:
    """The Kim et al. 2019 protocol: one team (red) alone on the engine's ``kind="kim2019"``
    board (8 own, 7 opponent, 9 bystanders, 1 assassin); it loses when the opponent's cards are all covered."""
    return CodenamesEnv("kim2019", **options)
