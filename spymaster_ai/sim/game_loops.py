"""The game loops: deal a board, seat the agents and play to the end, one loop per engine.

Why a module of its own: a loop is the one place that asks the engine who moves
(``current_seats``), which moves are legal (``legal_moves``) and applies them (``apply``);
the rules live in the engines, the guarded agent calls in :mod:`.table`, and what a finished
game reports in :mod:`.summaries`. A cap on moves per game makes an endless game impossible
even with a broken agent or engine.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Optional

from ..rules.cards import Player, Team, deal_words, generate_duet_key
from ..rules.moves import Cover, GiveClue, Guess, Pass, Phase
from .game_kinds import ROLES, PlayOptions, _words, deal_board
from .summaries import duet_outcome, single_team_outcome, two_teams_outcome
from .table import _apply, _cover_rng, _Fault, _give_clue, _run_guarded, _Table, _take_guess, _Tally

# Safety net only: every real turn covers a card or spends a token, so games end far earlier.
_MAX_STEPS = 10_000


def _drive_classic(
    game: Any,
    seats: Mapping[Team, tuple[str, str]],
    table: _Table,
    tallies: Mapping[Team, _Tally],
    cover_rng: random.Random,
    stop_when: Callable[[], bool] = lambda: False,
) -> None:
    """Play a ClassicGame to its end (or until ``stop_when()``), asking the seated agents.

    The engine says which seat moves (``current_seats``) and which cards it may cover
    (``legal_moves``); every move goes through ``apply``.
    """
    for _ in range(_MAX_STEPS):
        if game.is_over or stop_when():
            return
        (seat,) = game.current_seats()
        team, phase = game.current_team, game.phase
        if phase is Phase.CLUE:
            role = seats[team][0]
            clue = table.clue(role, game.spymaster_view(team))
            _give_clue(role, clue, tallies[team], lambda: game.apply(seat, GiveClue(clue)))
        elif phase in (Phase.GUESS, Phase.SUDDEN_DEATH):
            role = seats[team][1]
            result = _take_guess(table, role, game.guesser_view(team), game, seat)
            if phase is Phase.GUESS and result is not None and result.correct:
                tallies[team].correct += 1
        else:
            # A penalty cover (RULES.md §1: after an invalid clue the *opposing* spymaster covers
            # one of its own agents) or a solo cover (an opponent agent): the engine lists the cards.
            candidates = tuple(move.word for move in game.legal_moves(seat))
            if team in seats:
                role: Optional[str] = seats[team][0]
                word = table.cover(role, game.spymaster_view(team), candidates, cover_rng)
            else:  # a simulated opponent (solo) picks at random, seeded
                role, word = None, cover_rng.choice(candidates)
            what = "penalty cover" if phase is Phase.PENALTY_COVER else "solo cover"
            _apply(role, f"{what} {word!r}", lambda: game.apply(seat, Cover(word)))
    raise _Fault(None, f"game did not end within {_MAX_STEPS} moves")


def _play_two_teams(kind: str, table: _Table, seed: int, index: int) -> dict:
    from ..rules.classic import ClassicGame

    options = table.options
    words, key, pictures = deal_board(kind, seed, index, options)
    starting = key.starting
    game = ClassicGame(
        words, key, assassin_ending=options.assassin_ending, legality=options.legality, pictures=pictures, kind=kind,
        legality_options=options.legality_options,
    )
    seats = {Team.RED: ("red_spymaster", "red_guesser"), Team.BLUE: ("blue_spymaster", "blue_guesser")}
    tallies = {Team.RED: _Tally(), Team.BLUE: _Tally()}
    fault = _run_guarded(lambda: _drive_classic(game, seats, table, tallies, _cover_rng(seed)), table, seed)
    return two_teams_outcome(kind, options, game, starting, tallies, fault)


def _play_single_team(kind: str, table: _Table, seed: int, index: int) -> dict:
    """Solo (RULES.md §1 two-player variant, on the classic or the Pictures grid) or kim2019
    (Kim et al. 2019): one team, red, alone.

    kim2019 is scored in turns to cover the team's 8 cards, a loss counting ``KIM2019_LOSS_TURNS``.
    The Assassin Ending option applies to the solo kinds (RULES.md §2: usable with words too).
    """
    from ..rules.classic import ClassicGame

    options = table.options
    words, key, pictures = deal_board(kind, seed, index, options)
    engine_kind = {"kim2019": "kim2019", "pictures_solo": "pictures"}.get(kind, "classic")
    game = ClassicGame(
        words, key, solo=kind in ("solo", "pictures_solo"), legality=options.legality, kind=engine_kind,
        pictures=pictures, assassin_ending=options.assassin_ending and kind != "kim2019",
        legality_options=options.legality_options,
    )
    tally = _Tally()
    seats = {Team.RED: ("spymaster", "guesser")}
    fault = _run_guarded(lambda: _drive_classic(game, seats, table, {Team.RED: tally}, _cover_rng(seed)), table, seed)
    return single_team_outcome(kind, options, game, tally, fault)


def _duet_role(player: Player, what: str) -> str:
    return f"{player.value.lower()}_{what}"


def _drive_duet(game: Any, table: _Table, tally: _Tally) -> None:
    """Play a DuetGame to its end, asking each player's agents.

    The engine says who moves (``current_seats``: the giver the rules allow, A first; the
    guesser); in sudden death, where both players may guess, the simulator alternates them.
    Every move goes through ``apply``; the seats are the roles.
    """
    sd_order: Optional[list[Player]] = None
    sd_turn = 0
    for _ in range(_MAX_STEPS):
        if game.is_over:
            return
        phase = game.phase
        seats = game.current_seats()
        if not seats:
            raise _Fault(None, f"no seat may move in phase {phase} (engine state)")
        if phase is Phase.CLUE:
            role = seats[0]
            giver = Player(role[0].upper())
            clue = table.clue(role, game.spymaster_view(giver))
            _give_clue(role, clue, tally, lambda: game.apply(role, GiveClue(clue)))
        elif phase is Phase.GUESS:
            role = seats[0]
            result = _take_guess(table, role, game.guesser_view(game.guesser), game, role)
            if result is not None:
                tally.correct += int(bool(result.correct))
        else:
            if sd_order is None:
                # RULES.md §3 Engine note: guessers alternate, starting with the player who has
                # more words left to find (the partner's uncovered greens); ties: A.
                first = max((Player.A, Player.B), key=lambda p: (len(game.words_left_for(p.other)), p is Player.A))
                sd_order = [first, first.other]
            player = sd_order[sd_turn % 2]
            if _duet_role(player, "guesser") not in seats:
                player = player.other
            sd_turn += 1
            role = _duet_role(player, "guesser")
            word = table.guess(role, game.guesser_view(player), True)
            if word is None:
                _apply(role, "sudden-death pass", lambda: game.apply(role, Pass()))
            else:
                _apply(role, f"sudden-death guess {word!r}", lambda: game.apply(role, Guess(word)))
    raise _Fault(None, f"game did not end within {_MAX_STEPS} moves")


def _play_duet(table: _Table, seed: int, index: int) -> dict:
    from ..rules.duet import DuetGame

    options = table.options
    rng = random.Random(seed)
    words = deal_words(_words(options), 25, rng)
    key = generate_duet_key(rng)
    if options.mission is not None:
        game = DuetGame.mission(words, key, options.mission, legality=options.legality,
                                legality_options=options.legality_options)
    else:
        game = DuetGame(words, key, tokens=options.tokens or 9, legality=options.legality,
                        legality_options=options.legality_options)
    tally = _Tally()
    fault = _run_guarded(lambda: _drive_duet(game, table, tally), table, seed)
    return duet_outcome(options, game, tally, fault)


def play_out_duet(game: Any, agents: Mapping[str, Any], *, seed: int, options: Optional[PlayOptions] = None) -> Optional[str]:
    """Play a DuetGame on from the state it is in to its end, with ``agents`` (role -> agent,
    the roles of ``ROLES["duet"]``), each reset as :func:`play_game` resets it for ``seed``.

    Why: a game replayed from its record to some point (say, sudden death) can be finished by
    other agents, under the same driver as a full game. Returns the fault of an agent that
    misbehaved (it forfeits, as in a full game), or None.
    """
    missing = [r for r in ROLES["duet"] if r not in agents]
    if missing:
        raise ValueError(f"duet needs agents for {', '.join(missing)}")
    table = _Table({r: agents[r] for r in ROLES["duet"]}, options or PlayOptions())
    fault = _run_guarded(lambda: _drive_duet(game, table, _Tally()), table, int(seed))
    if fault is None:
        return None
    return f"{fault.role}: {fault.message}" if fault.role else fault.message
