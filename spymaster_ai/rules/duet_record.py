"""The Duet game record: its configuration as JSON, a replay of its logged actions, and a
JSON snapshot of its state (RULES.md §3), standard library only.

Why a module of its own: a saved game is its configuration and its actions; replaying them
through the ordinary moves (which check them) must reach the same :meth:`state_json`.
:class:`DuetRecord` is a base of :class:`.duet.DuetGame` and plays through that class's moves.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence, TypeVar

from .cards import DuetKey, Player
from .duet_state import MISSIONS, DuetState
from .moves import Clue

_Game = TypeVar("_Game", bound="DuetRecord")


class DuetRecord(DuetState):
    """Configuration, replay and state snapshot of :class:`.duet.DuetGame` (whose moves replay plays)."""

    # ------------------------------------------------------------------ records
    def follow_recorded_passes(self, actions: Sequence[dict]) -> None:
        """Replay ``actions`` under the rule they were played by: a record in which moves
        follow a sudden-death pass was made before a hopeless pass ended the game, so such a
        game ends, as it did then, only when no player may guess. Before 2026-12-04 that was
        the only rule; both rules agree on every game without a hopeless pass."""
        passed = False
        for action in actions:
            kind = action.get("type") if isinstance(action, dict) else None
            if passed and kind in ("sd_guess", "sd_pass"):
                self._hopeless_pass_ends = False
                return
            passed = passed or kind == "sd_pass"

    def config(self) -> dict:
        """JSON-serialisable constructor arguments."""
        options = self._legality_options
        if options is not None:
            if not dataclasses.is_dataclass(options):
                raise TypeError(f"legality_options of type {type(options).__name__} cannot be saved")
            options = dataclasses.asdict(options)
            if options.get("lang") == "en":  # English records stay as they were before languages
                del options["lang"]
        return {
            "game": "duet",
            "words": list(self._words),
            "key": self._key.to_json(),
            "tokens": self._tokens,
            "mistakes": self._mistakes,
            "mission": self._mission,
            "legality": self._legality,
            "legality_options": options,
        }

    @classmethod
    def from_config(cls: type[_Game], config: dict) -> _Game:
        if config.get("game", "duet") != "duet":
            raise ValueError(f"not a Duet configuration (game is {config.get('game')!r})")
        game = cls(
            config["words"],
            DuetKey.from_json(config["key"]),
            tokens=config.get("tokens", 9),
            mistakes=config.get("mistakes"),
            legality=config.get("legality", "strict"),
            legality_options=config.get("legality_options"),
        )
        mission = config.get("mission")
        if mission is not None:
            if mission not in MISSIONS or MISSIONS[mission] != (game._tokens, game._mistakes):
                raise ValueError(f"mission {mission!r} does not match tokens {game._tokens} / mistakes {game._mistakes}")
            game._mission = mission
        return game

    def replay(self, actions: Sequence[dict]) -> None:
        """Apply logged actions in order through the normal moves (so the rules check them)."""
        self.follow_recorded_passes(actions)
        for n, action in enumerate(actions):
            kind = action.get("type") if isinstance(action, dict) else None
            if kind == "clue":
                clue = Clue.from_json(action)
                result = self.give_clue(action["giver"], clue)
                if "penalised" in action and bool(action["penalised"]) != result.penalised:
                    raise ValueError(
                        f"action {n}: clue {clue.word!r} was {'' if action['penalised'] else 'not '}penalised "
                        "in the record but the legality checker now judges it otherwise"
                    )
            elif kind == "guess":
                self.guess(action["word"])
            elif kind == "stop":
                self.stop()
            elif kind == "sd_guess":
                self.sudden_death_guess(action["player"], action["word"])
            elif kind == "sd_pass":
                self.sudden_death_pass(action["player"])
            else:
                raise ValueError(f"action {n}: unknown Duet action {action!r}")

    def state_json(self) -> dict:
        """A full JSON snapshot of the state, to compare a replay with the original."""
        return {
            "phase": self._phase.value,
            "giver": self._giver.value if self._giver else None,
            "last_giver": self._last_giver.value if self._last_giver else None,
            "clue": self._clue.to_json() if self._clue else None,
            "guesses_made": self._guesses_made,
            "correct_this_turn": self._correct,
            "tokens_left": self.tokens_left,
            "bystander_tokens_left": self._bystander_left,
            "marked_tokens_left": self._marked_left,
            "turns_played": self._turns,
            "winner": self._winner,
            "loss_cause": self._loss_cause.value if self._loss_cause else None,
            "covered": {self._words[i]: how for i, how in sorted(self._covered.items())},
            "marks": sorted([self._words[i], p.value] for i, p in self._marks),
            "assassin": self._words[self._assassin] if self._assassin is not None else None,
            "words_left": {p.value: list(self.words_left_for(p)) for p in Player},
            "voluntary_stops": self._voluntary_stops,
            "penalties": self._penalties,
            "double_marks": self._double_marks,
            "sudden_death": self._sudden_death,
            "passed": sorted(p.value for p in self._passed),
            "history": [
                {"giver": h["giver"], "clue": h["clue"].to_json(), "guesses": list(h["guesses"]),
                 "outcomes": list(h["outcomes"]), "penalised": h["penalised"]}
                for h in self._history
            ],
            "sudden_death_guesses": [dict(g) for g in self._sd_guesses],
            "actions": len(self.actions),
            "score": self.score(),
        }
