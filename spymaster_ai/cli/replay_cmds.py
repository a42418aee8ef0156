"""``spymaster-ai bench replay``: check one saved game against its replay through the engine.

Why its own module: replaying trusts nothing a results line says (its checksum, then its
outcome against the moves it records), a job apart from playing games; it plays none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__
from .bench_common import JsonOpt, _guarded, bench_app
from .errors import BadInput


def _outcome_contradiction(found: Any, game: Any) -> Optional[str]:
    """How a saved game's outcome contradicts the game its moves replay to (None: it does not).

    Why: the line's checksum shows only that the line is as written, and anyone can recompute
    it; this ties the figures (won, loss cause) to the replayed moves. A game ended by an agent
    error is decided by the error, not the board, so it is not judged here.
    """
    from ..rules.cards import Team
    from ..rules.duet import DuetGame
    from ..sim.summaries import game_turns

    if found.error is not None:
        return None
    won = game.winner is True if isinstance(game, DuetGame) else game.winner is Team.RED
    cause = None if won else (game.loss_cause.value if game.loss_cause is not None else None)
    turns = game_turns(found.game, game, won)
    if (found.won, found.loss_cause, found.turns) == (won, cause, turns):
        return None
    return (f"it says won={found.won}, loss_cause={found.loss_cause!r}, turns={found.turns}; "
            f"its moves give won={won}, loss_cause={cause!r}, turns={turns}")


@bench_app.command("replay")
def bench_replay(
    results: Path = typer.Argument(..., help="A --results JSON-lines file."),
    index: int = typer.Option(..., "--index", "-i", help="Game index to replay."),
    as_json: bool = JsonOpt,
) -> None:
    """Replay one saved game through the engine and check it reaches the recorded final state and outcome."""

    def replay() -> None:
        from ..rules.record import RecordError, from_record
        from ..sim.play import GameResult
        from ..sim.results_file import check_result_line, read_result_lines

        if not results.exists():
            raise BadInput(f"no such results file: {results}")
        found = None
        for number, line in read_result_lines(results):
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise BadInput(f"{results} line {number} is not JSON: {exc}") from exc
            if isinstance(data, dict) and data.get("index") == index:
                if "checksum" in data:  # first: a hand edit is named as one, not as a bad value
                    check_result_line(data, results, number)
                try:
                    found = GameResult.from_json(data)
                except (ValueError, TypeError) as exc:
                    raise BadInput(f"{results} line {number} is not a game result: {exc}") from exc
                check_result_line(data, results, number)
                break
        if found is None:
            raise BadInput(f"{results} holds no game with index {index}")
        try:
            game = from_record(found.record)
        except RecordError as exc:
            raise BadInput(f"game {index} does not replay: {exc}") from exc
        contradiction = _outcome_contradiction(found, game)
        if contradiction:
            raise BadInput(f"{results}: game {index} does not match its replay: {contradiction}")
        report = {
            "game": found.game, "index": index, "seed": found.seed, "agents": found.agents, "won": found.won,
            "loss_cause": found.loss_cause, "turns": found.turns, "score": found.score, "verified": True,
            "moves": len(found.record.get("actions", [])), "state": game.state_json(), "version": __version__,
        }
        if as_json:
            typer.echo(json.dumps(report))
        else:
            outcome = "won" if found.won else f"lost ({found.loss_cause})"
            typer.echo(
                f"{found.game} game {index} (seed {found.seed}): {outcome} in {found.turns} turns; "
                f"{report['moves']} moves replayed through the engine, final state verified."
            )

    _guarded(replay)
