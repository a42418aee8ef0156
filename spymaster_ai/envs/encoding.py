"""Views as arrays, and moves as action numbers: the two translations every environment makes.

Why here, apart from the environments: an observation must hold what the seat's view holds
and nothing more, so it is computed from the view object alone (:func:`encode_view`): a
guesser's observation cannot carry the key, because its view has none.

Action layout (one ``Discrete`` space, the same for every seat of a game):

* ``clue_index * (max_count + 1) + count`` for a clue: a word of the clue vocabulary and a
  count from 0 to ``max_count`` (9, the most cards a giver ever has);
* ``n_clues + card`` for a card by its grid position: a guess, or a cover (classic penalty
  cover, solo cover) when the phase asks the spymaster for one;
* ``n_clues + n_cards`` (the last action) for STOP, or PASS in Duet sudden death.

The action mask of the observation marks the moves the rules allow now (clues checked one by
one by the legality checker, rules.legality).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from gymnasium import spaces

from ..rules.moves import Clue, Cover, GiveClue, Guess, Move, Pass, Phase, Stop
from ..views import GuesserView, SpymasterView

MAX_COUNT = 9
MAX_HISTORY = 32  # clues a side can receive in one game: every clue spends a token or covers a card
MAX_TURNS = 64
# Public identities of covered cards (and Duet key sides), one code each; 0: not shown.
IDENTITY_CODES = {"red": 1, "blue": 2, "bystander": 3, "assassin": 4, "green": 5, "black": 6}
# A spymaster's key, relative to itself; 0: covered.
KEY_CODES = {"own": 1, "opponent": 2, "bystander": 3, "assassin": 4}
SIDES = {"red": 0, "blue": 1, "A": 0, "B": 1}
PHASES = tuple(Phase)


@dataclass(frozen=True)
class ActionLayout:
    """The numbering of moves as actions (see the module docstring)."""

    clue_words: tuple[str, ...]
    n_cards: int = 25
    max_count: int = MAX_COUNT

    @property
    def n_clues(self) -> int:
        return len(self.clue_words) * (self.max_count + 1)

    @property
    def size(self) -> int:
        return self.n_clues + self.n_cards + 1

    @property
    def stop(self) -> int:
        return self.size - 1

    def clue_action(self, word_index: int, count: int) -> int:
        return word_index * (self.max_count + 1) + count

    def decode(self, action: int, words: Sequence[str], phase: Phase) -> Move:
        """The move action ``action`` stands for on a board of ``words`` in ``phase``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an integer, got {type(action).__name__}: {action!r}")
        action = int(action)
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside 0..{self.size - 1}")
        if action < self.n_clues:
            word, count = divmod(action, self.max_count + 1)
            return GiveClue(Clue(self.clue_words[word], count))
        if action == self.stop:
            return Pass() if phase is Phase.SUDDEN_DEATH else Stop()
        card = words[action - self.n_clues]
        return Cover(card) if phase in (Phase.PENALTY_COVER, Phase.SOLO_COVER) else Guess(card)


def observation_space(role: str, duet: bool, n_words: int, layout: ActionLayout, tokens: int) -> spaces.Dict:
    """The space of one seat's observation: ``{"observation": ..., "action_mask": ...}``."""
    n, v, h = layout.n_cards, len(layout.clue_words), MAX_HISTORY
    fields: dict[str, spaces.Space] = {
        "me": spaces.Discrete(2),
        "cards": spaces.MultiDiscrete([n_words] * n),
        "visible": spaces.MultiBinary(n),
        "revealed": spaces.MultiDiscrete([len(IDENTITY_CODES) + 1] * n),
        "history_clue": spaces.MultiDiscrete([v + 1] * h),  # v: no clue in this slot
        "history_count": spaces.MultiDiscrete([layout.max_count + 1] * h),
        "guessed_for": spaces.MultiDiscrete([h + 1] * n),  # 1 + the history slot of the clue a card was guessed for
    }
    if duet:
        fields["tokens_left"] = spaces.Discrete(tokens + 1)
        fields["turns_played"] = spaces.Discrete(MAX_TURNS)
    if role == "spymaster":
        fields["key"] = spaces.MultiDiscrete([len(KEY_CODES) + 1] * n)
        fields["phase"] = spaces.Discrete(len(PHASES))
        if duet:
            fields["partner_marked"] = spaces.MultiBinary(n)
    else:
        fields.update(
            clue=spaces.Discrete(v + 1),  # v: no clue to guess now
            count=spaces.Discrete(layout.max_count + 1),
            guesses_made=spaces.Discrete(n + 1),
            can_stop=spaces.Discrete(2),
            sudden_death=spaces.Discrete(2),
        )
        if duet:
            fields["own_side"] = spaces.MultiDiscrete([len(IDENTITY_CODES) + 1] * n)
            fields["marked_by_me"] = spaces.MultiBinary(n)
        else:
            fields["own_left"] = spaces.Discrete(n + 1)
    return spaces.Dict(
        {"observation": spaces.Dict(fields), "action_mask": spaces.Box(0, 1, (layout.size,), np.int8)}
    )


class ViewEncoder:
    """Encodes views of one environment (its card list and clue vocabulary) as arrays."""

    def __init__(self, card_words: Sequence[str], layout: ActionLayout):
        self.card_index = {w: i for i, w in enumerate(card_words)}
        self.clue_index = {w: i for i, w in enumerate(layout.clue_words)}
        self.layout = layout

    def _clue(self, clue: Clue) -> tuple[int, int]:
        if clue.word not in self.clue_index:
            raise ValueError(f"clue {clue.word!r} is not in the environment's clue vocabulary")
        if clue.unlimited or not 0 <= clue.count <= self.layout.max_count:
            raise ValueError(f"clue count {clue} cannot be encoded (0..{self.layout.max_count})")
        return self.clue_index[clue.word], clue.count

    def encode(self, view: GuesserView | SpymasterView) -> dict[str, np.ndarray | int]:
        """The observation of a seat whose view is ``view`` (its only input)."""
        n = self.layout.n_cards
        position = {w: i for i, w in enumerate(view.words)}

        def mask(words: Sequence[str]) -> np.ndarray:
            out = np.zeros(n, np.int8)
            out[[position[w] for w in words]] = 1
            return out

        revealed = np.zeros(n, np.int64)
        for word, identity in view.revealed:
            revealed[position[word]] = IDENTITY_CODES[identity]
        history_clue = np.full(MAX_HISTORY, len(self.layout.clue_words), np.int64)
        history_count = np.zeros(MAX_HISTORY, np.int64)
        guessed_for = np.zeros(n, np.int64)
        if len(view.history) > MAX_HISTORY:
            raise ValueError(f"more than {MAX_HISTORY} clues in one view's history")
        for slot, entry in enumerate(view.history):
            history_clue[slot], history_count[slot] = self._clue(entry.clue)
            for word in entry.guesses:
                guessed_for[position[word]] = slot + 1
        obs: dict[str, np.ndarray | int] = {
            "me": np.int64(SIDES[view.me]),
            "cards": np.array([self.card_index[w] for w in view.words], np.int64),
            "visible": mask(view.visible),
            "revealed": revealed,
            "history_clue": history_clue,
            "history_count": history_count,
            "guessed_for": guessed_for,
        }
        duet = view.game == "duet"
        if duet:
            obs["tokens_left"] = np.int64(view.tokens_left)
            obs["turns_played"] = np.int64(
                view.extra["turns_played"] if isinstance(view, SpymasterView) else view.turns_played
            )
        if isinstance(view, SpymasterView):
            key = np.zeros(n, np.int64)
            for name, words in (("own", view.own), ("opponent", view.opponent),
                                ("bystander", view.bystanders), ("assassin", view.assassins)):
                key[[position[w] for w in words]] = KEY_CODES[name]
            obs["key"] = key
            phase = Phase.SUDDEN_DEATH if duet and view.extra.get("sudden_death") else Phase(view.extra.get("phase", "clue"))
            obs["phase"] = np.int64(PHASES.index(phase))
            if duet:
                obs["partner_marked"] = mask(view.partner_marked)
            return obs
        clue, count = self._clue(view.clue) if view.clue is not None else (len(self.layout.clue_words), 0)
        obs.update(clue=np.int64(clue), count=np.int64(count), guesses_made=np.int64(view.guesses_made),
                   can_stop=np.int64(view.can_stop), sudden_death=np.int64(view.sudden_death))
        if duet:
            obs["own_side"] = np.array([IDENTITY_CODES[c] for c in view.own_side], np.int64)
            obs["marked_by_me"] = mask(view.marked_by_me)
        else:
            obs["own_left"] = np.int64(view.own_left)
        return obs
