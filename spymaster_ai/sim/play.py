"""Play one full game of any kind with any agents and return a JSON-serialisable result.

Agents see only views. Every agent call is guarded: an exception inside an agent, a value of
the wrong type, or a move the engine refuses (a card not on the board, an illegal clue, a
STOP when a guess is mandatory) ends the game as an *error of that agent* (its role and spec
are in ``GameResult.error``) and counts as a loss for that agent's side (a forfeit). A cap on
clues per game makes an endless game impossible even with a broken agent or engine.

Game kinds (RULES.md): ``classic`` and ``pictures`` (two teams), ``solo`` and
``pictures_solo`` (two-player variant), ``duet`` and ``kim2019`` (Kim et al. 2019: one team
alone, scored in turns).

Pictures boards hold 20 real picture cards from the shipped deck (``pictures.load_deck``),
named by card ids such as ``"pic:dog"``; ``PlayOptions(picture_cards=False)`` deals word
cards on the 5x4 grid instead (RULES.md §2 allows both). Agents are named by the same specs
on every game: on a picture board the simulator seats each built-in embedding agent with its
models wrapped in the caption backend (``minilm`` plays as ``captions:minilm``, see
:func:`for_picture_cards`). The mapping lives here, at the table, because only the game knows
its cards are pictures; specs, results files and tournament tables keep the plain names.

Where to look: this module plays one game or one match (:func:`play_game`,
:func:`play_match`); :mod:`.game_kinds` holds the kinds, roles, options and the deal,
:mod:`.game_loops` the loop of each engine, :mod:`.table` the guarded agent calls,
:mod:`.summaries` the result line of a game (:class:`GameResult`) and :mod:`.picture_cards`
the agents' picture-card twins. Every name this module held before the split is imported
from here still.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from .game_kinds import (  # noqa: F401  (names of this module before the split)
    DEFAULT_AGENT,
    GAME_KINDS,
    KIM2019_LOSS_TURNS,
    PICTURE_GAMES,
    ROLES,
    PlayOptions,
    _deal,
    _uses_pictures,
    _words,
    deal_board,
    lineup,
)
from .game_loops import (  # noqa: F401
    _MAX_STEPS,
    _drive_classic,
    _drive_duet,
    _duet_role,
    _play_duet,
    _play_single_team,
    _play_two_teams,
    play_out_duet,
)
from .picture_cards import (  # noqa: F401
    _CAPTIONED,
    _PICTURE_TWINS,
    _TWIN_LOCK,
    PictureBoardModel,
    _captioned,
    _scores_pictures,
    _weakable,
    for_picture_cards,
)
from .summaries import _KIND_NAMES, _RESULT_FIELDS, GameResult, _cards_extra, _error, _record, game_result  # noqa: F401
from .table import (  # noqa: F401
    _apply,
    _cover_rng,
    _end_game,
    _Fault,
    _give_clue,
    _reset_agents,
    _run_guarded,
    _start_match,
    _Table,
    _take_guess,
    _Tally,
)

__all__ = [
    "DEFAULT_AGENT",
    "GAME_KINDS",
    "KIM2019_LOSS_TURNS",
    "PICTURE_GAMES",
    "ROLES",
    "PictureBoardModel",
    "GameResult",
    "PlayOptions",
    "deal_board",
    "for_picture_cards",
    "lineup",
    "play_game",
    "play_match",
    "play_out_duet",
]


def play_match(
    game: str,
    agents: Mapping[str, Any],
    specs: Mapping[str, str],
    *,
    seed: int,
    match: int,
    length: int,
    options: PlayOptions | None = None,
) -> list["GameResult"]:
    """Play match ``match`` of a run: ``length`` games with the same agents, in order.

    Game j is played from ``match_game_seed(seed, match, j)`` and has run index
    ``match * length + j``. The agents' ``start_match`` is called before game 0 and their
    ``end_game(record)`` after every game, so they carry what they learned from game to game.
    """
    from .seeds import match_game_seed

    if length <= 0:
        raise ValueError(f"a match has at least one game, got {length}")
    return [
        play_game(
            game, agents, specs, seed=match_game_seed(seed, match, j), index=match * length + j, options=options,
            match=(match, j, length),
        )
        for j in range(length)
    ]


_PLAYERS: dict[str, Callable[[_Table, int, int], dict]] = {
    "classic": lambda table, seed, index: _play_two_teams("classic", table, seed, index),
    "pictures": lambda table, seed, index: _play_two_teams("pictures", table, seed, index),
    "solo": lambda table, seed, index: _play_single_team("solo", table, seed, index),
    "pictures_solo": lambda table, seed, index: _play_single_team("pictures_solo", table, seed, index),
    "kim2019": lambda table, seed, index: _play_single_team("kim2019", table, seed, index),
    "duet": _play_duet,
}


def play_game(
    game: str,
    agents: Mapping[str, Any],
    specs: Mapping[str, str],
    *,
    seed: int,
    index: int = 0,
    options: PlayOptions | None = None,
    match: Optional[tuple[int, int, int]] = None,
) -> GameResult:
    """Play one game of kind ``game`` with ``agents`` (role -> agent, see ``ROLES``).

    ``specs`` names each role's agent in the result. The board, the key and every agent's
    ``reset`` seed derive from ``seed``; ``index`` alternates the starting team in classic.
    On a board of picture cards each agent plays as :func:`for_picture_cards` makes it.

    ``match``: (match, game in it, match length) for a game of a match (:func:`play_match`):
    its first game calls ``start_match`` and every game ends with ``end_game(record)`` on the
    agents that have them. A game alone (no ``match``) calls ``start_match`` only, so agents
    that learn across games play every such game from what they knew at the start.
    """
    if game not in _PLAYERS:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(GAME_KINDS)})")
    missing = [r for r in ROLES[game] if r not in agents]
    if missing:
        raise ValueError(f"{game} needs agents for {', '.join(missing)}")
    options = options or PlayOptions()
    seated = {r: agents[r] for r in ROLES[game]}
    if _uses_pictures(game, options):
        seated = {r: for_picture_cards(a, options.lang) for r, a in seated.items()}
    table = _Table(seated, options, new_match=match is None or match[1] == 0)
    out = _PLAYERS[game](table, int(seed), int(index))
    fault: Optional[_Fault] = out["fault"]
    agent_specs = {r: str(specs.get(r, "?")) for r in ROLES[game]}
    record = _record(out["game"], {"game": game, "seed": int(seed), "index": int(index), "agents": agent_specs})
    extra = out["extra"]
    if match is not None:
        extra = {**extra, "match": int(match[0]), "match_game": int(match[1]), "match_length": int(match[2])}
        late = _end_game(table.agents, record)
        if late is not None and fault is None:  # an agent that cannot learn from a game forfeits it
            fault = late
            out = {**out, "won": False, "loss_cause": "error"}
    return game_result(game, seed, index, agent_specs, out, fault, extra, options, record)
