"""The classic and Pictures game record: its configuration as JSON, a replay of its logged
actions, and a JSON snapshot of its state (RULES.md §1-2), standard library only.

Why a module of its own: a saved game is its configuration and its actions; replaying them
through the ordinary moves (which check them) must reach the same :meth:`state_json`.
:class:`ClassicRecord` is a base of :class:`.classic.ClassicGame` and plays through that
class's moves.
"""

from __future__ import annotations

from typing import TypeVar

from .cards import ClassicKey, Team
from .classic_state import ClassicState, _options_json
from .moves import Clue

_Game = TypeVar("_Game", bound="ClassicRecord")


class ClassicRecord(ClassicState):
    """Configuration, replay and state snapshot of :class:`.classic.ClassicGame` (whose moves replay plays)."""

    # ----------------------------------------------------------------- records
    def config(self) -> dict:
        """The constructor arguments as JSON (see :meth:`from_config`)."""
        return {
            "words": list(self._words),
            "key": self._key.to_json(),
            "solo": self._solo,
            "three_player": self._three_player,
            "assassin_ending": self._assassin_ending,
            "legality": self._legality,
            "legality_options": _options_json(self._legality_options),
            "pictures": list(self._pictures),
            "kind": self._kind,
        }

    @classmethod
    def from_config(cls: type[_Game], config: dict) -> _Game:
        if not isinstance(config, dict):
            raise ValueError(f"a game configuration is a JSON object, got {type(config).__name__}")
        return cls(
            list(config["words"]),
            ClassicKey.from_json(config["key"]),
            solo=bool(config.get("solo", False)),
            three_player=bool(config.get("three_player", False)),
            assassin_ending=bool(config.get("assassin_ending", False)),
            legality=config.get("legality", "strict"),
            legality_options=config.get("legality_options"),
            pictures=config.get("pictures"),
            kind=config.get("kind"),
        )

    def replay(self, actions: list[dict]) -> None:
        """Apply logged actions in order through the ordinary moves (so the rules check them)."""
        for n, action in enumerate(actions):
            if not isinstance(action, dict) or "type" not in action:
                raise ValueError(f"action {n} is not a move object: {action!r}")
            kind = action["type"]
            if kind == "clue":
                team = Team(action["team"])
                if team is not self._team:
                    raise ValueError(f"action {n}: a clue by {team.value}, but it is {self._team.value}'s move")
                result = self.give_clue(Clue.from_json(action))
                if "legal" in action and bool(action["legal"]) != result.legal:
                    raise ValueError(
                        f"action {n}: clue {result.clue.word!r} was recorded as "
                        f"{'legal' if action['legal'] else 'illegal'} but the checker now says otherwise"
                    )
            elif kind == "guess":
                self.guess(action["word"])
            elif kind == "stop":
                self.stop()
            elif kind == "penalty_cover":
                self.penalty_cover(action["word"])
            elif kind == "solo_cover":
                self.solo_cover(action["word"])
            else:
                raise ValueError(f"action {n}: unknown move type {kind!r}")

    def state_json(self) -> dict:
        """A full JSON snapshot of the game state, to compare a replay with the original."""
        return {
            "kind": self._kind,
            "phase": self._phase.value,
            "current_team": self._team.value,
            "clue": None if self._clue is None else self._clue.to_json(),
            "guesses_made": self._guesses_made,
            "max_guesses": self._max_guesses,
            "winner": None if self._winner is None else self._winner.value,
            "loss_cause": None if self._loss_cause is None else self._loss_cause.value,
            "turns": {t.value: n for t, n in self._turns.items()},
            "covered": [[w, i.value] for w, i in self._covered.items()],
            "history": [
                {
                    "team": e["team"].value,
                    "clue": e["clue"].to_json(),
                    "legal": e["legal"],
                    "guesses": list(e["guesses"]),
                    "outcomes": list(e["outcomes"]),
                }
                for e in self._history
            ],
            "score": self.score(),
            "moves": len(self._actions),
        }
