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
"""

from __future__ import annotations

import copy
import random
import sys
import threading
import weakref
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Mapping, Optional

from ..provenance import environment
from ..rules.cards import (
    CLASSIC_LAYOUT,
    KIM2019_LAYOUT,
    PICTURES_LAYOUT,
    Player,
    Team,
    deal_words,
    generate_classic_key,
    generate_duet_key,
    normalise_word,
)
from ..rules.moves import Clue, Cover, GiveClue, Guess, IllegalMove, InvalidClueError, Pass, Phase, Stop
from ..views import detached
from .seeds import derive_seed

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

DEFAULT_AGENT = "minilm"
GAME_KINDS = ("classic", "pictures", "solo", "pictures_solo", "duet", "kim2019")
# Games on the Pictures grid (5x4, 8/7/4/1): real picture cards unless options say words.
PICTURE_GAMES = ("pictures", "pictures_solo")
# Kim et al. 2019 score a game lost on the assassin as 25 turns (the board size).
KIM2019_LOSS_TURNS = 25

ROLES: dict[str, tuple[str, ...]] = {
    "classic": ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser"),
    "pictures": ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser"),
    "solo": ("spymaster", "guesser"),
    "pictures_solo": ("spymaster", "guesser"),
    "kim2019": ("spymaster", "guesser"),
    "duet": ("a_spymaster", "a_guesser", "b_spymaster", "b_guesser"),
}

# Safety net only: every real turn covers a card or spends a token, so games end far earlier.
_MAX_STEPS = 10_000


@dataclass(frozen=True)
class PlayOptions:
    """Rule options of a run (the same for every game of it)."""

    tokens: Optional[int] = None  # Duet timer tokens; None: 9, or the mission's
    mission: Optional[str] = None  # Duet mission name (MISSIONS), e.g. "moscow"
    legality: str = "strict"  # "strict" refuses illegal clues (an agent error), "penalty" applies the rule's penalty
    assassin_ending: bool = False  # classic / pictures variant (solo kinds too)
    wordlist: str = "classic"  # board word list (rules.wordlists.load_words)
    max_clues: int = 100  # per game; reaching it is reported as an error
    picture_cards: bool = True  # pictures games: real picture cards (False: word cards on the 5x4 grid)
    # The board's language (en, de, vi, fa): its card list (unless wordlist says another),
    # its legality rules and its agents' clue vocabulary. Left out of JSON when English.
    lang: str = "en"

    def __post_init__(self) -> None:
        from ..rules.lang import check_language

        check_language(self.lang)
        if self.legality not in ("strict", "penalty", "off"):
            raise ValueError(f"legality must be strict, penalty or off, got {self.legality!r}")
        if self.tokens is not None and self.tokens <= 0:
            raise ValueError(f"tokens must be positive, got {self.tokens}")
        if self.tokens is not None and self.mission is not None:
            raise ValueError("give either tokens or a mission (a mission fixes the tokens), not both")
        if self.mission is not None:
            from ..rules.duet import MISSIONS

            if self.mission.lower() not in MISSIONS:
                raise ValueError(f"unknown Duet mission {self.mission!r} (known: {', '.join(MISSIONS)})")
            object.__setattr__(self, "mission", self.mission.lower())
        if self.max_clues <= 0:
            raise ValueError(f"max_clues must be positive, got {self.max_clues}")

    def to_json(self) -> dict:
        data = asdict(self)
        if data["lang"] == "en":  # English runs read (and resume) as before languages came
            del data["lang"]
        return data

    @property
    def legality_options(self) -> Any:
        """The engines' LegalityOptions for the board's language (None: English defaults)."""
        from ..rules.legality import options_for_language

        return options_for_language(self.lang)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PlayOptions":
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


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
_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false", dict: "a JSON object"}


def lineup(
    game: str,
    spymaster: str = DEFAULT_AGENT,
    guesser: str = DEFAULT_AGENT,
    opponent_spymaster: Optional[str] = None,
    opponent_guesser: Optional[str] = None,
) -> dict[str, str]:
    """Role -> agent spec for a game kind.

    Classic/Pictures: (spymaster, guesser) play red; the opponent pair (default: the same
    specs) plays blue. Duet: both players use the same specs, as separate instances.
    """
    if game not in ROLES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(GAME_KINDS)})")
    if game in ("classic", "pictures"):
        return {
            "red_spymaster": spymaster,
            "red_guesser": guesser,
            "blue_spymaster": opponent_spymaster or spymaster,
            "blue_guesser": opponent_guesser or guesser,
        }
    if opponent_spymaster or opponent_guesser:
        raise ValueError(f"{game} has no opponent team: give only a spymaster and a guesser")
    if game == "duet":
        return {"a_spymaster": spymaster, "a_guesser": guesser, "b_spymaster": spymaster, "b_guesser": guesser}
    return {"spymaster": spymaster, "guesser": guesser}


class _Fault(Exception):
    """An agent misbehaved (or the clue cap was hit): ends the game as that agent's error."""

    def __init__(self, role: Optional[str], message: str):
        super().__init__(message)
        self.role = role
        self.message = message


@dataclass
class _Tally:
    clues: int = 0
    announced: int = 0
    correct: int = 0
    invalid: int = 0

    def words_per_clue(self) -> Optional[float]:
        return self.correct / self.clues if self.clues else None


class _Table:
    """The agents of one game and guarded calls to them. ``new_match``: the game starts a
    match (or is a game alone), so agents that learn across games are told to forget first."""

    def __init__(self, agents: Mapping[str, Any], options: PlayOptions, new_match: bool = False):
        self.agents = agents
        self.options = options
        self.new_match = new_match
        self.total_clues = 0

    def clue(self, role: str, view: Any) -> Clue:
        if self.total_clues >= self.options.max_clues:
            raise _Fault(None, f"clue cap of {self.options.max_clues} clues per game reached")
        clue = self._call(role, "give_clue", view)
        if not isinstance(clue, Clue):
            raise _Fault(role, f"give_clue returned {type(clue).__name__}, not a Clue")
        self.total_clues += 1
        return clue

    def guess(self, role: str, view: Any, stop_allowed: bool) -> Optional[str]:
        word = self._call(role, "next_guess", view)
        if word is None:
            if not stop_allowed:
                raise _Fault(role, "returned STOP (None) when a guess is mandatory")
            return None
        if not isinstance(word, str):
            raise _Fault(role, f"next_guess returned {type(word).__name__}, not a card word or None")
        return word

    def cover(self, role: str, view: Any, candidates: tuple[str, ...], rng: random.Random) -> str:
        """The spymaster's ``choose_cover(view, candidates)`` if it has one, else a seeded random pick."""
        agent = self.agents[role]
        if not candidates:
            raise _Fault(None, "no card to cover (engine state)")
        if not callable(getattr(agent, "choose_cover", None)):
            return rng.choice(candidates)
        word = self._call(role, "choose_cover", view, detached(candidates))  # the agent's own copy
        if not isinstance(word, str) or normalise_word(word) not in candidates:
            raise _Fault(role, f"choose_cover returned {word!r}, not one of the cards it may cover")
        return normalise_word(word)

    def _call(self, role: str, method: str, *args: Any) -> Any:
        try:
            return getattr(self.agents[role], method)(*args)
        except Exception as exc:  # an agent's own bug must not stop a batch run
            raise _Fault(role, f"{method} raised {type(exc).__name__}: {exc}") from exc


def _apply(role: Optional[str], what: str, move: Callable[[], Any]) -> Any:
    """Apply an agent's move; a move the engine refuses is that agent's error."""
    try:
        return move()
    except IllegalMove as exc:
        raise _Fault(role, f"{what} refused by the rules: {type(exc).__name__}: {exc}") from exc


def _take_guess(table: "_Table", role: str, view: Any, game: Any, seat: str) -> Any:
    """Ask the guesser and apply its STOP (returns None) or its guess (returns the engine's result)."""
    word = table.guess(role, view, view.can_stop)
    if word is None:
        _apply(role, "stop", lambda: game.apply(seat, Stop()))
        return None
    return _apply(role, f"guess {word!r}", lambda: game.apply(seat, Guess(word)))


def _give_clue(role: str, clue: Clue, tally: "_Tally", move: Callable[[], Any]) -> None:
    """Play a clue; a refused clue (strict legality) is counted as invalid and is the giver's error."""
    try:
        result = move()
    except InvalidClueError as exc:
        tally.invalid += 1
        raise _Fault(role, f"clue {clue} refused as illegal: {exc}") from exc
    except IllegalMove as exc:
        raise _Fault(role, f"clue {clue} refused by the rules: {type(exc).__name__}: {exc}") from exc
    tally.clues += 1
    tally.announced += clue.count
    tally.invalid += int(bool(getattr(result, "penalised", False)))


def _start_match(agents: Mapping[str, Any], seed: int) -> None:
    """Call ``start_match(seed)`` on every agent that has it: a new partner, forget what was
    learned. Why the runner insists: agents are built once per process and kept, so an agent
    that learned in one match and did not forget would make the next match depend on which
    process played it."""
    for role in sorted(agents):
        agent = agents[role]
        start = getattr(agent, "start_match", None)
        if not callable(start):
            if callable(getattr(agent, "end_game", None)):
                raise _Fault(role, "has end_game but no start_match: an agent that learns across games must forget "
                                   "what it learned at start_match, or a match would depend on the games before it")
            continue
        try:
            start(derive_seed(seed, "match", role))
        except Exception as exc:
            raise _Fault(role, f"start_match raised {type(exc).__name__}: {exc}") from exc


def _end_game(agents: Mapping[str, Any], record: dict) -> Optional[_Fault]:
    """Give every agent with ``end_game(record)`` the finished game (its own copy), to learn from."""
    for role in sorted(agents):
        end = getattr(agents[role], "end_game", None)
        if not callable(end):
            continue
        try:
            end(copy.deepcopy(record))
        except Exception as exc:
            return _Fault(role, f"end_game raised {type(exc).__name__}: {exc}")
    return None


def _reset_agents(agents: Mapping[str, Any], seed: int) -> None:
    for role in sorted(agents):
        try:
            agents[role].reset(derive_seed(seed, role))
        except Exception as exc:
            raise _Fault(role, f"reset raised {type(exc).__name__}: {exc}") from exc


def _error(fault: _Fault, specs: Mapping[str, str]) -> dict:
    return {"role": fault.role, "agent": specs.get(fault.role) if fault.role else None, "message": fault.message}


def _record(game: Any, meta: dict) -> dict:
    from ..rules.record import to_record

    return to_record(game, meta)


# ----------------------------------------------------------------------------- classic family


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


def _words(options: PlayOptions) -> tuple[str, ...]:
    from ..rules.wordlists import load_words

    if options.lang != "en" and options.wordlist == "classic":
        return load_words(options.lang)  # the language's own card list
    return load_words(options.wordlist)


def _uses_pictures(kind: str, options: PlayOptions) -> bool:
    return kind in PICTURE_GAMES and options.picture_cards


def _deal(kind: str, options: PlayOptions, size: int, rng: random.Random) -> tuple[tuple[str, ...], Optional[tuple[bool, ...]]]:
    """The board's cards and their per-position picture flags (None: the engine's default).

    Pictures games deal card ids from the shipped deck (combined cards included); with
    ``picture_cards=False`` they deal words, checked by the full word legality (a caption
    is only legal on a picture card).
    """
    if _uses_pictures(kind, options):
        from ..pictures import load_deck

        return load_deck().deal(size, rng), (True,) * size  # the same ids in every language
    words = deal_words(_words(options), size, rng)
    return words, ((False,) * size if kind in PICTURE_GAMES else None)


def deal_board(
    game: str, seed: int, index: int = 0, options: PlayOptions | None = None
) -> tuple[tuple[str, ...], Any, Optional[tuple[bool, ...]]]:
    """The cards, the key and the per-card picture flags of game ``index`` played from ``seed``.

    Exactly what :func:`play_game` deals for a classic-family game (classic, pictures, solo,
    pictures_solo, kim2019), so a board can be shown or studied outside a game. In two-team
    games the starting team alternates by index (first-move advantage cancels in cross-play);
    single-team games always start red.
    """
    if game not in ROLES or game == "duet":
        raise ValueError(f"deal_board deals classic-family boards, not {game!r}")
    options = options or PlayOptions()
    layout = {"classic": CLASSIC_LAYOUT, "solo": CLASSIC_LAYOUT, "kim2019": KIM2019_LAYOUT}.get(game, PICTURES_LAYOUT)
    rng = random.Random(int(seed))
    cards, pictures = _deal(game, options, layout[0], rng)
    starting = Team.RED if game not in ("classic", "pictures") or int(index) % 2 == 0 else Team.BLUE
    return cards, generate_classic_key(rng, layout, starting=starting), pictures


def _cards_extra(kind: str, options: PlayOptions) -> dict:
    if kind not in PICTURE_GAMES:
        return {}
    return {"cards": "pictures" if options.picture_cards else "words"}


# ----------------------------------------------------------------------------- picture cards

_PICTURE_TWINS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_CAPTIONED: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_TWIN_LOCK = threading.Lock()


def _scores_pictures(model: Any) -> bool:
    """Whether a model already scores picture card ids itself (caption or CLIP backend)."""
    from ..embeddings.captions import CaptionEmbedding

    if isinstance(model, CaptionEmbedding):
        return True
    clip = sys.modules.get("spymaster_ai.embeddings.clip")  # only a loaded module can have made one
    return clip is not None and isinstance(model, clip.ClipEmbedding)


class PictureBoardModel:
    """A model that scores picture cards, as a picture board's agents use it: the clue
    vocabulary leaves out the words the Pictures rules refuse on every board.

    Why: the agents check clues with the word rules, which allow colour words; on picture
    cards (RULES.md §2) "red" or "orange" is refused whatever the board, so a spymaster that
    picked one would forfeit. Board-dependent rules stay with the agents' own checker.
    Everything else (similarities, scale, ``knows``) is the wrapped model's own.
    """

    def __init__(self, model: Any, lang: str = "en") -> None:
        self.model = model
        self.name = model.name
        self.board_lang = lang
        self._keep: Any = None
        self._vocab: Optional[tuple[str, ...]] = None

    def clue_vocabulary(self) -> tuple[str, ...]:
        if self._vocab is None:
            import numpy as np

            from ..rules.legality import LegalityOptions, legal_mask

            words = tuple(self.model.clue_vocabulary())
            options = LegalityOptions(pictures=True, lang=self.board_lang)
            self._keep = np.asarray(legal_mask(list(words), [], options), dtype=bool)
            self._vocab = tuple(w for w, k in zip(words, self._keep) if k)
        return self._vocab

    def clue_zipf(self) -> Any:
        import numpy as np

        self.clue_vocabulary()
        return np.asarray(self.model.clue_zipf())[self._keep]

    def __getattr__(self, name: str) -> Any:
        if name == "model":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.model, name)


def _captioned(model: Any, lang: str = "en") -> Any:
    """``model`` as a picture board's agents use it, one wrapper per model and board language
    (shared by agents).

    A text model is wrapped in the caption backend first, reading the captions in ``lang``
    (``pictures.load_deck(lang)``); a caption or CLIP backend already scores card ids. Either
    way the clue vocabulary drops the words Pictures always refuses in that language.
    """
    if isinstance(model, PictureBoardModel):
        return model
    wrapped = _CAPTIONED.setdefault(model, {}).get(lang) if _weakable(model) else None
    if wrapped is None:
        if _scores_pictures(model):
            wrapped = PictureBoardModel(model, lang)
        else:
            from ..embeddings.captions import CaptionEmbedding
            from ..pictures import load_deck

            wrapped = PictureBoardModel(CaptionEmbedding(model, deck=load_deck(lang)), lang)
        if _weakable(model):
            _CAPTIONED[model][lang] = wrapped
    return wrapped


def _weakable(model: Any) -> bool:
    try:
        weakref.ref(model)
    except TypeError:
        return False
    return True


def for_picture_cards(agent: Any, lang: str = "en") -> Any:
    """The agent as it plays a board of picture cards whose captions are read in ``lang``.

    A built-in embedding agent (it holds its model as ``embedding``, a spymaster also its
    ``partners``) plays through a twin whose text models are wrapped in the caption backend:
    clues stay words, and each card id is scored through its captions and tags (word-to-word
    scores are the text model's own). A ``captions:...`` or ``clip:...`` model scores card
    ids itself and is kept. Every model's clue vocabulary leaves out the words Pictures
    refuses on any board (colour words; :class:`PictureBoardModel`). An agent with no
    ``embedding`` (a custom class) gets the card ids as they are; one with a
    ``for_picture_cards(wrap)`` method builds its own twin, ``wrap`` turning each of its
    models into the picture board's. The twin is built once per agent and kept, so its clue vocabulary
    is computed once; the caller's agent is never changed.
    """
    def wrap(model: Any) -> Any:
        return _captioned(model, lang)

    hook = getattr(agent, "for_picture_cards", None)
    if callable(hook):  # an agent that reads through models of its own (the human guesser's reader)
        with _TWIN_LOCK:
            twins = _PICTURE_TWINS.setdefault(agent, {})
            if lang not in twins:
                twins[lang] = hook(wrap)
            return twins[lang]
    model = getattr(agent, "embedding", None)
    if model is None or not callable(getattr(model, "similarity", None)):
        return agent
    partners = getattr(agent, "partners", None)
    if all(wrap(m) is m for m in [model, *(partners or ())]):
        return agent
    with _TWIN_LOCK:
        try:
            twin = _PICTURE_TWINS.get(agent, {}).get(lang)
        except TypeError:  # not weak-referenceable: a fresh twin each game
            twin = None
        if twin is None:
            twin = copy.copy(agent)
            twin.embedding = wrap(model)
            if partners is not None:
                twin.partners = [wrap(m) for m in partners]
            # Per-model caches the copy shares with the agent are recomputed from the new
            # models (ClueVocabularyAgent's lazy vocabulary; the per-board matrices).
            for cache in ("_vocab", "_board", "_short"):
                if hasattr(twin, cache):
                    setattr(twin, cache, None)
            try:
                _PICTURE_TWINS.setdefault(agent, {})[lang] = twin
            except TypeError:
                pass
    return twin


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


def _cover_rng(seed: int) -> random.Random:
    """Seeded choices of cards to cover when no agent chooses (simulated opponents, plain agents)."""
    return random.Random(derive_seed(seed, "covers"))


def _run_guarded(drive: Callable[[], Any], table: _Table, seed: int) -> Optional[_Fault]:
    """Reset the agents and play; an agent's misbehaviour comes back as the fault, not an exception."""
    try:
        if table.new_match:
            _start_match(table.agents, seed)
        _reset_agents(table.agents, seed)
        drive()
    except _Fault as exc:
        return exc
    return None


# ----------------------------------------------------------------------------- duet


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


# ----------------------------------------------------------------------------- entry point


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
    tally: _Tally = out["tally"]
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
