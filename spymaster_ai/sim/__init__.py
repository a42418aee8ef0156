"""Self-play simulation: one game (``play``), many seeded games in parallel (``runner``),
figures with confidence intervals (``metrics``) and cross-play tournaments (``tournament``)."""

from .metrics import summarise, wilson_interval
from .play import DEFAULT_AGENT, GAME_KINDS, ROLES, GameResult, PlayOptions, lineup, play_game
from .runner import RunResult, run_games
from .seeds import derive_seed, game_seed
from .tournament import Tournament, markdown_table, run_tournament

__all__ = [
    "DEFAULT_AGENT",
    "GAME_KINDS",
    "ROLES",
    "GameResult",
    "PlayOptions",
    "RunResult",
    "Tournament",
    "derive_seed",
    "game_seed",
    "lineup",
    "markdown_table",
    "play_game",
    "run_games",
    "run_tournament",
    "summarise",
    "wilson_interval",
]
