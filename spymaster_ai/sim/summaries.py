"""The summaries of a played game: what each game kind reports, and the result line.

Why a module of its own: a finished engine, the agents' tallies and a fault (if any) become
one :class:`GameResult`, the line a results file keeps and every metric is computed from.
Each kind summarises differently (classic: the evaluated side is red, turns of both teams;
kim2019: a loss counts ``KIM2019_LOSS_TURNS``; Duet: both players, tokens left), and the
line must read back exactly as written (:meth:`GameResult.from_json` checks every field).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping, Optional

from ..provenance import environment
from ..rules.cards import Team
from ..rules.moves import LossCause
from .game_kinds import KIM2019_LOSS_TURNS, PICTURE_GAMES, PlayOptions
from .table import _Fault, _Tally

@dataclass
class GameResult:
    """One finished game, from the evaluated side's view (classic: red; duet: both players).

    ``won``/``loss_cause`` are for the evaluated side; ``turns`` is the game length in turns
    (classic: both teams; kim2019: a loss counts ``KIM2019_LOSS_TURNS``); ``score`` is the Duet
    or solo score on a win; ``clues``/``announced``/``correct`` count the evaluated side's
    clues, the numbers they announced, and the correct guesses made on them;
    ``record`` replays the game through the engine (``rules.record.from_record``);
    ``environment``: the library versions of the process that played it
    (:func:`spymaster_ai.provenance.environment`; None in results written before it was kept);
    ``sources``: the sha256 of each user file the specs name (``vectors:PATH``, ``file.py:Class``;
    :func:`spymaster_ai.provenance.source_hashes`), set by the runner; None when there is none;
    ``provenance``: the code that played it (:func:`spymaster_ai.provenance.code_version`) and
    each role's resolved parameters (:func:`spymaster_ai.agents.registry.resolve_spec`), set
    by the runner; None in results written before it was kept. The game's content (``record``
    and every figure) never depends on it, so a line differs across commits only here.
    """

    game: str
    seed: int
    index: int
    agents: dict[str, str]
    won: bool
    loss_cause: Optional[str]
    turns: int
    score: Optional[int]
    clues: int
    announced: int
    correct: int
    words_per_clue: Optional[float]
    invalid_clues: int
    error: Optional[dict]
    extra: dict
    options: dict
    record: dict = field(repr=False)
    environment: Optional[dict] = field(default=None, repr=False)
    sources: Optional[dict] = field(default=None, repr=False)
    provenance: Optional[dict] = field(default=None, repr=False)

    def to_json(self) -> dict:
        data = asdict(self)
        if data["environment"] is None:  # a line from before environments were kept stays as it was
            del data["environment"]
        if data["sources"] is None:  # built-in agents only: the line is as it always was
            del data["sources"]
        if data["provenance"] is None:  # a line from before provenance was kept stays as it was
            del data["provenance"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "GameResult":
        names = {f.name for f in fields(cls)}
        missing = names - set(data) - {"environment", "sources", "provenance"}
        if missing:
            raise ValueError(f"game result is missing {', '.join(sorted(missing))}")
        # The line's checksum is unkeyed, so a forged line passes it: each field's type is
        # checked here, so that one is refused naming the field, not a traceback later.
        for key, (kinds, optional) in _RESULT_FIELDS.items():
            value = data.get(key)
            if value is None and (optional or key not in data):
                continue
            if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
                want = " or ".join(_KIND_NAMES[k] for k in kinds) + (" or null" if optional else "")
                raise ValueError(f"game result field {key!r} must be {want}, got {value!r:.60}")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in data["agents"].items()):
            raise ValueError("game result field 'agents' must map roles to agent specs (strings)")
        _check_domain(data)
        return cls(**{k: data[k] for k in names if k in data})


# GameResult's fields as JSON: (accepted types, null allowed); "environment", "sources" and
# "provenance" may be absent.
_RESULT_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "game": ((str,), False), "seed": ((int,), False), "index": ((int,), False), "agents": ((dict,), False),
    "won": ((bool,), False), "loss_cause": ((str,), True), "turns": ((int,), False), "score": ((int, float), True),
    "clues": ((int,), False), "announced": ((int,), False), "correct": ((int,), False),
    "words_per_clue": ((int, float), True), "invalid_clues": ((int,), False), "error": ((dict,), True),
    "extra": ((dict,), False), "options": ((dict,), False), "record": ((dict,), False), "environment": ((dict,), True),
    "sources": ((dict,), True), "provenance": ((dict,), True),
}
_COUNTS = ("seed", "index", "turns", "clues", "announced", "correct", "invalid_clues")
_CAUSES = frozenset(c.value for c in LossCause) | {"error"}


def _check_domain(data: Mapping[str, Any]) -> None:
    """Refuse a value of the right type that no game can give (turns -5, loss cause "bogus",
    score 1e308). Why: a forged line with a recomputed checksum would otherwise shift the
    figures of a resumed run (issue 41's probe)."""
    for key in _COUNTS:
        if data[key] < 0:
            raise ValueError(f"game result field {key!r} must not be negative, got {data[key]}")
    cause = data["loss_cause"]
    if cause is not None and cause not in _CAUSES:
        raise ValueError(f"game result field 'loss_cause' must be one of {', '.join(sorted(_CAUSES))} or null, got {cause!r:.60}")
    if data["won"] and cause is not None:
        raise ValueError(f"game result says won but names the loss cause {cause!r}")
    for key, low in (("score", _MIN_SCORE), ("words_per_clue", 0)):
        value = data.get(key)
        if value is not None and not (math.isfinite(value) and low <= value <= _MAX_FIGURE):
            raise ValueError(f"game result field {key!r} must be a number from {low} to {_MAX_FIGURE}, got {value!r:.60}")


_MAX_FIGURE = 1000  # far above any score or words per clue a 25-card game can give
# RULES.md section 3: a Duet win that needed sudden death, with no token left and no voluntary
# stop, scores 3 x 0 + 0 - 1 (a bench of 200 Duet games crashed on one when 0 was the floor)
_MIN_SCORE = -1
_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false", dict: "a JSON object"}


def _error(fault: _Fault, specs: Mapping[str, str]) -> dict:
    return {"role": fault.role, "agent": specs.get(fault.role) if fault.role else None, "message": fault.message}


def _record(game: Any, meta: dict) -> dict:
    from ..rules.record import to_record

    return to_record(game, meta)


def _cards_extra(kind: str, options: PlayOptions) -> dict:
    if kind not in PICTURE_GAMES:
        return {}
    return {"cards": "pictures" if options.picture_cards else "words"}


def game_turns(kind: str, game: Any, won: bool) -> int:
    """A game's length as results lines count it: both teams' turns in two-team games, the
    team's own in solo, the Duet turns played; kim2019 counts a loss as ``KIM2019_LOSS_TURNS``."""
    if kind == "duet":
        return int(game.turns_played)
    if kind in ("solo", "kim2019", "pictures_solo"):
        played = int(game.turns.get(Team.RED, 0))
        return played if kind != "kim2019" or won else KIM2019_LOSS_TURNS
    return sum(int(game.turns.get(t, 0)) for t in Team)


def two_teams_outcome(kind: str, options: PlayOptions, game: Any, starting: Team, tallies: Mapping[Team, _Tally],
                      fault: Optional[_Fault]) -> dict:
    """A classic or Pictures game, from red's side: the erring team forfeits."""
    winner: Optional[Team] = game.winner
    if fault is not None:
        # The erring team forfeits; an error no team caused (the clue cap) is a loss with no winner.
        winner = None if fault.role is None else (Team.BLUE if fault.role.startswith("red") else Team.RED)
    won = winner is Team.RED
    cause = None if won else ("error" if fault else (game.loss_cause.value if game.loss_cause else None))
    turns = {t.value: int(game.turns.get(t, 0)) for t in Team}
    extra = {
        "starting": starting.value,
        "winner": winner.value if winner is not None else None,
        "end": game.loss_cause.value if game.loss_cause is not None else None,
        "turns": turns,
        "clues": {t.value: tallies[t].clues for t in Team},
        "correct": {t.value: tallies[t].correct for t in Team},
        **_cards_extra(kind, options),
    }
    return dict(
        won=won, loss_cause=cause, turns=sum(turns.values()), score=None, tally=tallies[Team.RED],
        invalid_clues=sum(t.invalid for t in tallies.values()), fault=fault, extra=extra, game=game,
    )


def single_team_outcome(kind: str, options: PlayOptions, game: Any, tally: _Tally, fault: Optional[_Fault]) -> dict:
    """A solo or kim2019 game: kim2019 scores turns (a loss counts ``KIM2019_LOSS_TURNS``), solo the score."""
    won = fault is None and game.winner is Team.RED
    cause = None if won else ("error" if fault else (game.loss_cause.value if game.loss_cause else None))
    played = int(game.turns.get(Team.RED, 0))
    if kind == "kim2019":
        turns, score, extra = (played if won else KIM2019_LOSS_TURNS), None, {"turns_played": played}
    else:
        turns, score, extra = played, (game.score() if won else None), _cards_extra(kind, options)
    return dict(
        won=won, loss_cause=cause, turns=turns, score=score, tally=tally, invalid_clues=tally.invalid, fault=fault,
        extra=extra, game=game,
    )


def duet_outcome(options: PlayOptions, game: Any, tally: _Tally, fault: Optional[_Fault]) -> dict:
    """A Duet game, for both players: turns played, the score on a win, the tokens and greens left."""
    won = fault is None and game.winner is True
    cause = None if won else ("error" if fault else (game.loss_cause.value if game.loss_cause else None))
    extra = {
        "tokens_left": int(game.tokens_left),
        "sudden_death": bool(game.needed_sudden_death),
        "greens_left": int(game.greens_left()),
        "mission": options.mission,
    }
    return dict(
        won=won, loss_cause=cause, turns=int(game.turns_played), score=game.score() if won else None,
        tally=tally, invalid_clues=tally.invalid, fault=fault, extra=extra, game=game,
    )


def game_result(game: str, seed: int, index: int, agent_specs: dict[str, str], out: Mapping[str, Any],
                fault: Optional[_Fault], extra: dict, options: PlayOptions, record: dict) -> GameResult:
    """The result line of a played game from its kind's outcome (:func:`two_teams_outcome` and
    its siblings), the fault that ended it (if any), its record and the run's options."""
    tally: _Tally = out["tally"]
    return GameResult(
        game=game,
        seed=int(seed),
        index=int(index),
        agents=agent_specs,
        won=bool(out["won"]),
        loss_cause=out["loss_cause"],
        turns=int(out["turns"]),
        score=None if out["score"] is None else int(out["score"]),
        clues=tally.clues,
        announced=tally.announced,
        correct=tally.correct,
        words_per_clue=tally.words_per_clue(),
        invalid_clues=int(out["invalid_clues"]),
        error=_error(fault, agent_specs) if fault is not None else None,
        extra=extra,
        options=options.to_json(),
        record=record,
        environment=environment(),
    )
