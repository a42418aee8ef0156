"""Views hold their own copies: nothing an agent is given leads back to the game object.

A guesser that follows ``gc.get_referrers`` up from the objects in its view must not find
the engine (whose key it could then read). Frames are left out of the walk on purpose: an
agent in the same process can still walk ``sys._getframe()`` up to the simulator's frames
and reach the game, which is why an agent running in the same process is trusted (see
``spymaster_ai/views.py``). Ints, booleans, None, the empty tuple and strings of under two
characters are shared singletons of the interpreter (every object holding a 0 refers to the
same 0), so they lead nowhere in particular and are left out too.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import sys
import types
from typing import Any, Optional

import pytest
from test_sim_scripted import PoolSpymaster

from spymaster_ai.rules.cards import Identity, Player, Team, generate_classic_key, generate_duet_key
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.moves import Clue
from spymaster_ai.sim.play import PlayOptions, play_game
from spymaster_ai.views import GuesserView, SpymasterView

ENGINES = (ClassicGame, DuetGame)
WORDS = tuple(f"card{i:02d}" for i in range(25))


def _interpreter_singleton(value: Any) -> bool:
    """None, booleans, numbers, (), and strings of under two characters: objects the whole
    interpreter shares (small ints and short strings are cached), held by countless others."""
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, tuple):
        return value == ()
    return isinstance(value, str) and len(value) < 2


def _objects_of(view: Any) -> list[Any]:
    """Every object a view holds, nested, leaving out the interpreter's shared singletons."""
    out: list[Any] = []

    def add(value: Any) -> None:
        if _interpreter_singleton(value):
            return
        out.append(value)
        if isinstance(value, (tuple, list)):
            for item in value:
                add(item)
        elif isinstance(value, dict):
            for k, v in value.items():
                add(k)
                add(v)
        elif dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                add(getattr(value, f.name))

    for f in dataclasses.fields(view):
        add(getattr(view, f.name))
    return out


def find_engine(view: Any, depth: int = 6) -> Optional[Any]:
    """What a cheating agent does: follow gc.get_referrers up from its view's objects,
    breadth first, until it meets a game engine (frames, modules and classes left out)."""
    start = _objects_of(view)
    frontier = list(start)
    seen = {id(o) for o in start} | {id(view)}
    own = {id(start), id(frontier)}  # this walk's own lists refer to what they hold
    for _ in range(depth):
        found: list[Any] = []
        own.add(id(found))
        for obj in frontier:
            for ref in gc.get_referrers(obj):
                if id(ref) in seen or id(ref) in own:
                    continue
                if isinstance(ref, (types.FrameType, types.ModuleType, type)):
                    continue
                if isinstance(ref, ENGINES):
                    return ref
                seen.add(id(ref))
                found.append(ref)
        if not found:
            return None
        frontier = found
        own.add(id(frontier))
    return None


def _shares_objects(view: Any, game: Any) -> list[str]:
    """Names of the view's objects that are the game's own (``is``), in the places a view
    copies them from: the board words, the current clue and every history clue."""
    shared = []
    words = game._words
    if view.words is words:
        shared.append("words")
    for i, (a, b) in enumerate(zip(view.words, words)):
        if a is b and len(a) > 1:
            shared.append(f"words[{i}]")
    clue = getattr(game, "_clue", None)
    if clue is not None and getattr(view, "clue", None) is clue:
        shared.append("clue")
    history_clues = [h["clue"] for h in game._history]
    for i, entry in enumerate(view.history):
        if any(entry.clue is c for c in history_clues):
            shared.append(f"history[{i}].clue")
    if view.me is getattr(getattr(game, "_team", None), "value", None):
        shared.append("me")
    return shared


# ----------------------------------------------------------------------------- engines
def _classic_midgame() -> ClassicGame:
    key = generate_classic_key(random.Random(3))
    game = ClassicGame(WORDS, key)
    team = key.starting
    own = [w for w, i in zip(WORDS, key.identities) if i is Identity.of_team(team)]
    game.give_clue(Clue("ocean", 2))
    game.guess(own[0])
    game.stop()
    other = [w for w, i in zip(WORDS, key.identities) if i is Identity.of_team(team.other)]
    game.give_clue(Clue("forest", 1))
    game.guess(other[0])
    game.stop()
    game.give_clue(Clue("river", 3))  # the starting team is guessing on this clue now
    return game


def _duet_midgame() -> DuetGame:
    key = generate_duet_key(random.Random(3))
    game = DuetGame(WORDS, key)
    green_a = [w for w, i in zip(WORDS, key.side_a) if i.value == "green"]
    game.give_clue(Player.A, Clue("ocean", 2))
    game.guess(green_a[0])
    game.stop()
    game.give_clue(Player.B, Clue("forest", 1))  # A is guessing on this clue now
    return game


def _views(game: Any) -> list[tuple[str, Any]]:
    sides = (Team.RED, Team.BLUE) if isinstance(game, ClassicGame) else (Player.A, Player.B)
    out = []
    for side in sides:
        out.append((f"{side.value} spymaster", game.spymaster_view(side)))
        out.append((f"{side.value} guesser", game.guesser_view(side)))
    return out


@pytest.mark.parametrize("make", [_classic_midgame, _duet_midgame], ids=["classic", "duet"])
def test_views_share_no_object_with_the_game(make) -> None:
    game = make()
    for name, view in _views(game):
        assert _shares_objects(view, game) == [], name
        assert find_engine(view) is None, f"{name}: gc.get_referrers from the view reaches the game"


@pytest.mark.parametrize("make", [_classic_midgame, _duet_midgame], ids=["classic", "duet"])
def test_views_are_still_equal_to_the_games_values(make) -> None:
    game = make()
    for name, view in _views(game):
        assert view.words == tuple(game.words), name
        assert view.visible == tuple(game.visible_words()), name
    guessing = game.guesser_view(game.current_team if isinstance(game, ClassicGame) else game.guesser)
    assert guessing.clue == game.clue and guessing.clue is not game.clue


def test_a_duet_guesser_cannot_climb_to_its_partners_side() -> None:
    game = _duet_midgame()
    view = game.guesser_view(Player.A)
    assert view.own_side == tuple(i.value for i in game.key.side_a)
    assert find_engine(view) is None


# ----------------------------------------------------------------------------- in play
LOOKS = 4  # each walk scans the heap: a few per game are enough to show the cheat fails


class KeyThief:
    """A guesser that looks for the game through gc.get_referrers and, if it finds it,
    guesses its own side's cards from the key (with the key, a solo game is won in one
    turn); otherwise it plays the first visible card."""

    def __init__(self) -> None:
        self.looked = 0
        self.stolen = 0

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        game = None
        if self.looked < LOOKS:
            self.looked += 1
            game = find_engine(view)
        if game is not None:
            self.stolen += 1
            team = Team(view.me)
            mine = [w for w in game.remaining(Identity.of_team(team)) if w in view.visible]
            if mine:
                return mine[0]
        if view.can_stop and view.clue is not None and view.guesses_made >= 1:
            return None
        return view.visible[0]


class CoverThief(PoolSpymaster):
    """A spymaster that also looks for the game from the cards it may cover."""

    def __init__(self) -> None:
        super().__init__()
        self.looked = 0
        self.stolen = 0

    def choose_cover(self, view: SpymasterView, candidates: tuple[str, ...]) -> str:
        if self.looked < LOOKS:
            self.looked += 1
            holder = dataclasses.replace(view, words=candidates)  # walk from the candidates too
            self.stolen += sum(find_engine(v) is not None for v in (view, holder))
        return candidates[0]


def test_a_guesser_walking_referrers_finds_no_game_in_solo_play() -> None:
    thief, spy = KeyThief(), CoverThief()
    play_game("solo", {"spymaster": spy, "guesser": thief}, {}, seed=0, options=PlayOptions(legality="off"))
    assert thief.looked > 0 and spy.looked > 0
    assert thief.stolen == 0, "a guesser reached the game through gc.get_referrers"
    assert spy.stolen == 0, "a spymaster reached the game from its view or its cover candidates"


def test_a_guesser_walking_referrers_finds_no_game_in_duet_play() -> None:
    agents = {"a_spymaster": PoolSpymaster(), "b_spymaster": PoolSpymaster(), "a_guesser": KeyThief(), "b_guesser": KeyThief()}
    play_game("duet", agents, {}, seed=0, options=PlayOptions(legality="off"))
    thieves = [agents["a_guesser"], agents["b_guesser"]]
    assert sum(t.looked for t in thieves) > 0
    assert sum(t.stolen for t in thieves) == 0


class FrameClimber:
    """Walks sys._getframe() up to the simulator's frames: the hole views cannot close."""

    def __init__(self) -> None:
        self.found: list[Any] = []

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        frame = sys._getframe()
        while frame is not None and not self.found:
            self.found += [v for v in frame.f_locals.values() if isinstance(v, ENGINES)]
            frame = frame.f_back
        return None if view.can_stop else view.visible[0]


def test_frame_walking_still_reaches_the_game_in_the_same_process() -> None:
    """What views.py and docs/agents.md say: an agent in the simulator's process is trusted.
    If this ever fails because the agent runs elsewhere, update those docs."""
    climber = FrameClimber()
    play_game("solo", {"spymaster": PoolSpymaster(), "guesser": climber}, {}, seed=0, options=PlayOptions(legality="off"))
    assert climber.found
