"""The classic Codenames and Codenames Pictures engine (RULES.md §1-2), standard library only.

One :class:`ClassicGame` plays a 5x5 word board, a 5x4 Pictures board or a mixed board, with
the variants of the rule book as options: the two-player (solo) variant, the three-player
variant, Assassin Ending, and the Kim et al. 2019 single-team protocol (``kind="kim2019"``).

Every move is checked before anything changes: a refused move raises a specific
:class:`~spymaster_ai.rules.moves.IllegalMove` subclass and leaves the game exactly as it was.
Accepted moves are logged in :attr:`ClassicGame.actions` so that :meth:`ClassicGame.replay`
reproduces the game (and :meth:`ClassicGame.state_json`) exactly.

Rule readings this engine makes (RULES.md leaves them open):

* ``current_team`` is always the team whose player must act now: during ``PENALTY_COVER`` it
  is the team whose spymaster covers one of its own agents (the team that plays next).
* ``turns[team]`` counts the clues a team has given, a penalised invalid clue included (that
  turn ends at once); an Assassin Ending sudden-death turn is the same turn, not a new one.
* An invalid clue in ``penalty`` mode when the opposing team has no agent left to cover
  (possible only with Assassin Ending) skips the cover.
* Single-team games (solo, and ``kind="kim2019"`` where the opponent never plays): only the
  starting team gives clues; the team loses on the assassin or when all opponent agents are
  covered (the solo rule, which is also how the Kim et al. 2019 framework ends a game). In solo,
  an invalid clue under ``penalty`` legality costs two opponent cards: the simulated opponent's
  penalty cover, then the ordinary end-of-turn solo cover.
* Assassin Ending: a team whose last agent is covered (by itself, by the other team's guess or
  by a penalty cover) has not won; it must still touch the assassin on its own turn. Touching
  the assassin covers it; with agents left, the turn becomes sudden death (``Phase.SUDDEN_DEATH``):
  no clue, no cap, no stopping (the turn continues until the team wins or loses); a bystander or
  an opponent agent loses (``LossCause.MISTAKE``), covering the last own agent wins.
* ``loss_cause`` is the loser's cause: ``ASSASSIN`` (assassin touched, classic rules),
  ``OPPONENT`` (the winning team had all its agents covered, or Assassin Ending completed, or the
  solo opponent's agents all got covered), ``MISTAKE`` (a wrong guess in sudden death).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from ..views import ClueHistoryEntry, GuesserView, SpymasterView, detached
from .cards import CLASSIC_LAYOUT, KIM2019_LAYOUT, PICTURES_LAYOUT, ClassicKey, Identity, Team, normalise_word, quoted
from .moves import (
    AlreadyCoveredError,
    Clue,
    ClueResult,
    Cover,
    GameOverError,
    GiveClue,
    Guess,
    GuessResult,
    IllegalMove,
    InvalidClueError,
    LossCause,
    Move,
    NotOnBoardError,
    Pass,
    Phase,
    Stop,
    WrongPhaseError,
    check_move,
)

__all__ = ["ClassicGame", "ClueResult", "GuessResult", "WrongCardError", "KINDS", "LEGALITY_MODES"]

KINDS: dict[str, tuple[int, int, int, int, int]] = {
    "classic": CLASSIC_LAYOUT,
    "pictures": PICTURES_LAYOUT,
    "kim2019": KIM2019_LAYOUT,
}
LEGALITY_MODES = ("strict", "penalty", "off")


class WrongCardError(IllegalMove):
    """A cover of a card this player may not cover (not an agent of the required team)."""


def _check_clue(
    clue_word: str, visible_words: Sequence[str], *, options: object | None, count: int | None, pictures: bool
) -> Any:
    """The legality hook: ``check_clue`` for one kind of card (tests may replace this function).

    Imported lazily so the engine works (with ``legality="off"``) without the legality module.
    ``pictures`` selects the Pictures reading for picture cards and the word rules for word
    cards: the board's per-card flags decide, overriding any ``pictures`` field of the options
    (the other options, e.g. ``multi_word`` or ``forbid_shapes``, pass through unchanged).
    """
    from .legality import LegalityOptions, check_clue

    if options is None:
        opts = LegalityOptions(pictures=True) if pictures else None
    elif isinstance(options, dict):
        opts = LegalityOptions(**{**options, "pictures": pictures})
    elif dataclasses.is_dataclass(options) and hasattr(options, "pictures"):
        opts = dataclasses.replace(options, pictures=pictures)
    else:
        opts = options
    return check_clue(clue_word, visible_words, opts, count=count)


def _options_json(options: object | None) -> dict | None:
    if options is None:
        return None
    if isinstance(options, dict):
        return dict(options)
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        data = dataclasses.asdict(options)
        if data.get("lang") == "en":  # English records stay as they were before languages
            del data["lang"]
        return data
    raise ValueError(f"legality_options must be None, a dict or a LegalityOptions, got {type(options).__name__}")


class ClassicGame:
    """Classic Codenames / Codenames Pictures with its variants; see the module docstring."""

    def __init__(
        self,
        words: Sequence[str],
        key: ClassicKey,
        *,
        solo: bool = False,
        three_player: bool = False,
        assassin_ending: bool = False,
        legality: str = "strict",
        legality_options: object | None = None,
        pictures: Sequence[bool] | None = None,
        kind: str | None = None,
    ) -> None:
        if isinstance(words, (str, bytes)) or not isinstance(words, Sequence):
            raise ValueError("words must be a sequence of card words, not a single string")
        normalised = tuple(normalise_word(w) for w in words)
        size = len(normalised)
        if size not in (25, 20):
            raise ValueError(f"a classic board has 25 cards and a Pictures board 20; got {size}")
        if any(not w for w in normalised):
            raise ValueError("card words must not be empty")
        if len(set(normalised)) != size:
            seen: set[str] = set()
            dupes = sorted({w for w in normalised if w in seen or seen.add(w)})
            raise ValueError(f"card words must be distinct; repeated: {', '.join(dupes)}")
        if kind is None:
            kind = "classic" if size == 25 else "pictures"
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
        layout = KINDS[kind]
        if size != layout[0]:
            raise ValueError(f"a {kind} board has {layout[0]} cards; got {size}")
        if not isinstance(key, ClassicKey):
            raise ValueError(f"key must be a ClassicKey, got {type(key).__name__}")
        if key.size != size:
            raise ValueError(f"the key card has {key.size} positions but the board has {size} cards")
        key.validate(layout)
        if pictures is None:
            flags = (kind == "pictures",) * size
        else:
            flags = tuple(pictures)
            if len(flags) != size or not all(isinstance(f, bool) for f in flags):
                raise ValueError(f"pictures must be {size} booleans, one per card")
        if legality not in LEGALITY_MODES:
            raise ValueError(f"legality must be one of {', '.join(LEGALITY_MODES)}; got {legality!r}")
        _options_json(legality_options)  # refuse unusable options now, not at the first clue

        self._words = normalised
        self._index = {w: i for i, w in enumerate(normalised)}
        self._key = key
        self._kind = kind
        self._pictures = flags
        self._solo = bool(solo)
        self._three_player = bool(three_player)
        self._assassin_ending = bool(assassin_ending)
        self._legality = legality
        self._legality_options = legality_options

        self._phase = Phase.CLUE
        self._team = key.starting
        self._clue: Clue | None = None
        self._guesses_made = 0
        self._max_guesses: int | None = None
        self._winner: Team | None = None
        self._loss_cause: LossCause | None = None
        self._turns = {Team.RED: 0, Team.BLUE: 0}
        self._covered: dict[str, Identity] = {}  # in the order covered
        self._history: list[dict] = []  # one entry per accepted clue
        self._actions: list[dict] = []

    # ----------------------------------------------------------------- state
    @property
    def words(self) -> tuple[str, ...]:
        return self._words

    @property
    def key(self) -> ClassicKey:
        return self._key

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def pictures(self) -> tuple[bool, ...]:
        return self._pictures

    @property
    def solo(self) -> bool:
        return self._solo

    @property
    def three_player(self) -> bool:
        return self._three_player

    @property
    def assassin_ending(self) -> bool:
        return self._assassin_ending

    @property
    def legality(self) -> str:
        return self._legality

    @property
    def single_team(self) -> bool:
        """Only the starting team plays turns (solo variant, Kim et al. 2019 protocol)."""
        return self._solo or self._kind == "kim2019"

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_team(self) -> Team:
        return self._team

    @property
    def clue(self) -> Clue | None:
        return self._clue

    @property
    def guesses_made(self) -> int:
        return self._guesses_made

    @property
    def max_guesses(self) -> int | None:
        return self._max_guesses

    @property
    def winner(self) -> Team | None:
        return self._winner

    @property
    def loser(self) -> Team | None:
        return None if self._winner is None else self._winner.other

    @property
    def loss_cause(self) -> LossCause | None:
        return self._loss_cause

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def turns(self) -> dict[Team, int]:
        return dict(self._turns)

    @property
    def covered(self) -> dict[str, Identity]:
        return dict(self._covered)

    @property
    def actions(self) -> list[dict]:
        return [dict(a) for a in self._actions]

    def visible_words(self) -> tuple[str, ...]:
        return tuple(w for w in self._words if w not in self._covered)

    def remaining(self, identity: Identity) -> tuple[str, ...]:
        identity = Identity(identity)
        return tuple(
            w for w, i in zip(self._words, self._key.identities) if i is identity and w not in self._covered
        )

    def identity_of(self, word: str) -> Identity:
        """The key identity of a card (engine-side helper; never shown to a guesser)."""
        return self._key.identities[self._position(word)]

    def score(self) -> int | None:
        """Solo variant: opponent agents not yet covered, on a win; otherwise None."""
        if not self._solo or self._winner is not self._key.starting:
            return None
        return len(self.remaining(Identity.of_team(self._key.starting.other)))

    # ----------------------------------------------------------------- moves
    def give_clue(self, clue: Clue) -> ClueResult:
        """The current team's spymaster gives a clue (checked by the legality mode)."""
        self._require_live()
        if self._phase is not Phase.CLUE:
            raise WrongPhaseError(f"no clue now: the game is in phase {self._phase.value!r}")
        clue = self._validated_clue(clue)
        verdict = None
        legal = True
        if self._legality != "off":
            verdict = self._verdict(clue)
            legal = bool(verdict.legal)
            if not legal and self._legality == "strict":
                reason = getattr(verdict, "reason", "") or "refused by the legality checker"
                raise InvalidClueError(f"illegal clue {quoted(clue.word)}: {reason}", verdict)
        team = self._team
        self._turns[team] += 1
        self._history.append({"team": team, "clue": clue, "guesses": [], "outcomes": [], "legal": legal})
        self._actions.append({"type": "clue", "team": team.value, **clue.to_json(), "legal": legal})
        if not legal:
            self._start_penalty()
            return ClueResult(clue, False, verdict, True)
        self._clue = clue
        self._guesses_made = 0
        capped = not clue.unlimited and clue.count > 0
        self._max_guesses = clue.count + 1 if capped else None
        self._phase = Phase.GUESS
        return ClueResult(clue, legal, verdict, False)

    def guess(self, word: str) -> GuessResult:
        """The current team's operatives touch a card."""
        self._require_live()
        if self._phase not in (Phase.GUESS, Phase.SUDDEN_DEATH):
            raise WrongPhaseError(f"no guess now: the game is in phase {self._phase.value!r} (a clue comes first)")
        card = self._uncovered_card(word)
        identity = self._key.identities[self._index[card]]
        team = self._team
        own = Identity.of_team(team)
        self._covered[card] = identity
        self._guesses_made += 1
        entry = self._history[-1]
        entry["guesses"].append(card)
        entry["outcomes"].append(self._outcome(identity, team))
        self._actions.append({"type": "guess", "word": card})

        turn_over = False
        if self._phase is Phase.SUDDEN_DEATH:
            if identity is not own:
                self._finish(team.other, LossCause.MISTAKE)
            elif not self.remaining(own):
                self._finish(team, LossCause.OPPONENT)
        elif identity is Identity.ASSASSIN:
            if not self._assassin_ending:
                self._finish(team.other, LossCause.ASSASSIN)
            elif not self.remaining(own):
                self._finish(team, LossCause.OPPONENT)
            else:
                self._phase = Phase.SUDDEN_DEATH
                self._max_guesses = None
        else:
            if identity in (Identity.RED, Identity.BLUE):
                self._check_completion(Team(identity.value))
            if not self.is_over:
                cap_reached = self._max_guesses is not None and self._guesses_made >= self._max_guesses
                if identity is not own or cap_reached:
                    self._end_turn()
                    turn_over = True
        game_over = self.is_over
        return GuessResult(card, identity, identity is own, turn_over or game_over, game_over)

    def stop(self) -> None:
        """End guessing for this turn; allowed only after at least one guess on this clue."""
        self._require_live()
        if self._phase is Phase.SUDDEN_DEATH:
            raise WrongPhaseError("no stopping in sudden death: the team guesses until it wins or loses")
        if self._phase is not Phase.GUESS:
            raise WrongPhaseError(f"nothing to stop: the game is in phase {self._phase.value!r}")
        if self._guesses_made < 1:
            raise WrongPhaseError("at least one guess is mandatory before stopping")
        self._actions.append({"type": "stop"})
        self._end_turn()

    def penalty_cover(self, word: str) -> None:
        """After an invalid clue, the opposing spymaster covers one of its own agents."""
        self._require_live()
        if self._phase is not Phase.PENALTY_COVER:
            raise WrongPhaseError(f"no penalty cover now: the game is in phase {self._phase.value!r}")
        card = self._uncovered_card(word)
        team = self._team
        identity = self._key.identities[self._index[card]]
        if identity is not Identity.of_team(team):
            raise WrongCardError(f"the {team.value} spymaster must cover one of its own agents; {card!r} is not one")
        self._covered[card] = identity
        self._actions.append({"type": "penalty_cover", "word": card})
        self._check_completion(team)
        if not self.is_over:
            self._after_penalty()

    def solo_cover(self, word: str) -> None:
        """Solo variant: after a turn without a win, the spymaster covers one opponent agent."""
        self._require_live()
        if self._phase is not Phase.SOLO_COVER:
            raise WrongPhaseError(f"no solo cover now: the game is in phase {self._phase.value!r}")
        card = self._uncovered_card(word)
        opponent = self._key.starting.other
        identity = self._key.identities[self._index[card]]
        if identity is not Identity.of_team(opponent):
            raise WrongCardError(f"the solo cover must be an opponent ({opponent.value}) agent; {card!r} is not one")
        self._covered[card] = identity
        self._actions.append({"type": "solo_cover", "word": card})
        self._check_completion(opponent)
        if not self.is_over:
            self._phase = Phase.CLUE

    # ----------------------------------------------------------------- move surface
    @property
    def seats(self) -> tuple[str, ...]:
        """Every seat that can move in this game. Single-team games: the starting team's two,
        plus the simulated opponent's spymaster when an invalid clue costs a penalty cover."""
        if not self.single_team:
            return tuple(f"{t.value}_{r}" for t in (Team.RED, Team.BLUE) for r in ("spymaster", "guesser"))
        start = self._key.starting
        seats = (f"{start.value}_spymaster", f"{start.value}_guesser")
        return seats + ((f"{start.other.value}_spymaster",) if self._legality == "penalty" else ())

    def current_seats(self) -> tuple[str, ...]:
        """The seat that moves now (one at most in classic; none when the game is over)."""
        if self.is_over:
            return ()
        role = "guesser" if self._phase in (Phase.GUESS, Phase.SUDDEN_DEATH) else "spymaster"
        return (f"{self._team.value}_{role}",)

    def legal_moves(self, seat: str, clue_words: Sequence[str] = (), max_count: int | None = None) -> tuple[Move, ...]:
        """The moves ``seat`` may make now; each of them :meth:`apply` accepts.

        A clue turn lists a :class:`GiveClue` for every word of ``clue_words`` the rules accept
        with every count from 0 to ``max_count`` (default: the giver's agents left); under
        strict legality the checker decides each (word, count), under "penalty" or "off" every
        word is playable. Guesses and covers are listed in grid order, STOP last.
        """
        if seat not in self.current_seats():
            return ()
        team, phase = self._team, self._phase
        if phase is Phase.CLUE:
            top = len(self.remaining(Identity.of_team(team))) if max_count is None else max_count
            return tuple(
                GiveClue(Clue(word, count))
                for word in dict.fromkeys(normalise_word(w) for w in clue_words if normalise_word(w))
                for count in range(top + 1)
                if self._legality != "strict" or self._verdict(Clue(word, count)).legal
            )
        if phase in (Phase.GUESS, Phase.SUDDEN_DEATH):
            guesses: tuple[Move, ...] = tuple(Guess(w) for w in self.visible_words())
            return guesses + ((Stop(),) if phase is Phase.GUESS and self._guesses_made >= 1 else ())
        if phase is Phase.PENALTY_COVER:
            return tuple(Cover(w) for w in self.remaining(Identity.of_team(team)))
        return tuple(Cover(w) for w in self.remaining(Identity.of_team(self._key.starting.other)))  # SOLO_COVER

    def clue_verdict(self, clue: Clue) -> Any:
        """The legality checker's verdict on ``clue`` now, as :meth:`give_clue` would judge it,
        whatever the legality mode: under "penalty" an illegal clue is played and penalised, so
        a player who wants no penalty asks first. A malformed clue raises InvalidClueError."""
        return self._verdict(self._validated_clue(clue))

    def apply(self, seat: str, move: Move) -> ClueResult | GuessResult | None:
        """Play ``move`` for ``seat`` through the verbs (which check it); a refused move raises
        an :class:`~spymaster_ai.rules.moves.IllegalMove` and changes nothing."""
        self._require_live()
        check_move(seat, move, self.seats, self.current_seats())
        if isinstance(move, GiveClue):
            return self.give_clue(move.clue)
        if isinstance(move, Guess):
            return self.guess(move.word)
        if isinstance(move, Stop):
            return self.stop()
        if isinstance(move, Cover):
            if self._phase is Phase.PENALTY_COVER:
                return self.penalty_cover(move.word)
            if self._phase is Phase.SOLO_COVER:
                return self.solo_cover(move.word)
            raise WrongPhaseError(f"no card to cover now: the game is in phase {self._phase.value!r}")
        assert isinstance(move, Pass)
        raise WrongPhaseError("passing is a Duet sudden-death move; classic has none")

    def returns(self) -> dict[str, float]:
        """Every seat's result: +1 for the winning team's seats, -1 for the loser's, 0 while the
        game runs (single-team games: +1 a win, -1 a loss, whoever covered the cards)."""
        if not self.is_over:
            return {seat: 0.0 for seat in self.seats}
        return {seat: (1.0 if seat.startswith(self._winner.value) else -1.0) for seat in self.seats}

    # ----------------------------------------------------------------- views
    def spymaster_view(self, team: Team) -> SpymasterView:
        """What ``team``'s spymaster sees: the key, as the uncovered cards of each identity.

        The view holds its own copies (:func:`~spymaster_ai.views.detached`), none of the game's objects.
        """
        team = Team(team)
        return detached(SpymasterView(
            game=self._kind,
            me=team.value,
            words=self._words,
            visible=self.visible_words(),
            own=self.remaining(Identity.of_team(team)),
            opponent=self.remaining(Identity.of_team(team.other)),
            bystanders=self.remaining(Identity.BYSTANDER),
            assassins=self.remaining(Identity.ASSASSIN),
            revealed=self._revealed(),
            history=self._history_entries(team, finished_only=False),
            extra=self._public_facts(),
        ))

    def guesser_view(self, team: Team) -> GuesserView:
        """What ``team``'s operatives see: the table and their clues, no key information.

        ``clue`` is the clue being guessed now (only during this team's guessing); ``history``
        holds this team's earlier clues (penalised ones included, with no guesses), not that one.
        The view holds its own copies (:func:`~spymaster_ai.views.detached`), none of the game's objects.
        """
        team = Team(team)
        guessing = self._phase in (Phase.GUESS, Phase.SUDDEN_DEATH) and self._team is team
        return detached(GuesserView(
            game=self._kind,
            me=team.value,
            words=self._words,
            visible=self.visible_words(),
            revealed=self._revealed(),
            clue=self._clue if guessing else None,
            guesses_made=self._guesses_made if guessing else 0,
            max_guesses=self._max_guesses if guessing else None,
            can_stop=guessing and self._phase is Phase.GUESS and self._guesses_made >= 1,
            history=self._history_entries(team, finished_only=True),
            sudden_death=guessing and self._phase is Phase.SUDDEN_DEATH,
            own_left=len(self.remaining(Identity.of_team(team))),
        ))

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
    def from_config(cls, config: dict) -> "ClassicGame":
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

    # ----------------------------------------------------------------- internals
    def _require_live(self) -> None:
        if self.is_over:
            winner = self._winner.value if self._winner else "nobody"
            raise GameOverError(f"the game is over ({winner} won); no more moves")

    def _position(self, word: str) -> int:
        card = normalise_word(word)
        if card not in self._index:
            raise NotOnBoardError(f"{quoted(word)} is not a card on this board")
        return self._index[card]

    def _uncovered_card(self, word: str) -> str:
        card = self._words[self._position(word)]
        if card in self._covered:
            raise AlreadyCoveredError(f"{card!r} is already covered")
        return card

    @staticmethod
    def _validated_clue(clue: Clue) -> Clue:
        if not isinstance(clue, Clue):
            raise InvalidClueError(f"a clue must be a Clue(word, count), got {type(clue).__name__}")
        if not isinstance(clue.word, str) or not normalise_word(clue.word):
            raise InvalidClueError("a clue needs a word")
        if not isinstance(clue.count, int) or isinstance(clue.count, bool):
            raise InvalidClueError(f"the clue number must be an integer, got {clue.count!r}")
        if clue.count < 0:
            raise InvalidClueError(f"the clue number cannot be negative, got {clue.count}")
        if not isinstance(clue.unlimited, bool):
            raise InvalidClueError(f"'unlimited' must be true or false, got {clue.unlimited!r}")
        return Clue(normalise_word(clue.word), clue.count, clue.unlimited)

    def _verdict(self, clue: Clue) -> Any:
        """Check the clue against the visible word cards, then the visible picture cards.

        A mixed board needs a clue valid for both (RULES.md §2); the first illegal verdict wins.
        """
        count = None if clue.unlimited else clue.count
        verdict = None
        for pictures in (False, True):
            if pictures not in self._pictures:
                continue
            visible = [w for w, p in zip(self._words, self._pictures) if p is pictures and w not in self._covered]
            verdict = _check_clue(
                clue.word, visible, options=self._legality_options, count=count, pictures=pictures
            )
            if not verdict.legal:
                return verdict
        return verdict

    def _outcome(self, identity: Identity, team: Team) -> str:
        if identity in (Identity.RED, Identity.BLUE):
            return "own" if identity is Identity.of_team(team) else "opponent"
        return identity.value

    def _finish(self, winner: Team, cause: LossCause) -> None:
        self._winner = winner
        self._loss_cause = cause
        self._phase = Phase.OVER

    def _check_completion(self, owner: Team) -> None:
        """React to ``owner``'s agents all being covered (RULES.md §1 End, solo, Assassin Ending)."""
        if self.remaining(Identity.of_team(owner)):
            return
        if self.single_team and owner is not self._key.starting:
            self._finish(owner, LossCause.OPPONENT)  # all opponent agents covered: the solo team loses
        elif not self._assassin_ending:
            self._finish(owner, LossCause.OPPONENT)

    def _end_turn(self) -> None:
        self._clue = None
        self._guesses_made = 0
        self._max_guesses = None
        if self.single_team:
            self._team = self._key.starting
            self._phase = Phase.SOLO_COVER if self._solo else Phase.CLUE
        else:
            self._team = self._team.other
            self._phase = Phase.CLUE

    def _start_penalty(self) -> None:
        self._clue = None
        self._guesses_made = 0
        self._max_guesses = None
        covering = self._team.other
        self._team = covering
        if self.remaining(Identity.of_team(covering)):
            self._phase = Phase.PENALTY_COVER
        else:
            self._after_penalty()

    def _after_penalty(self) -> None:
        if self.single_team:
            self._team = self._key.starting
            self._phase = Phase.SOLO_COVER if self._solo else Phase.CLUE
        else:
            self._phase = Phase.CLUE  # the covering team plays next

    def _revealed(self) -> tuple[tuple[str, str], ...]:
        return tuple((w, i.value) for w, i in self._covered.items())

    def _history_entries(self, team: Team, *, finished_only: bool) -> tuple[ClueHistoryEntry, ...]:
        entries = self._history
        in_progress = self._phase in (Phase.GUESS, Phase.SUDDEN_DEATH)
        if finished_only and in_progress and entries and entries[-1]["team"] is team:
            entries = entries[:-1]  # the clue being guessed is GuesserView.clue, not history
        return tuple(
            ClueHistoryEntry(e["team"].value, e["clue"], tuple(e["guesses"]), tuple(e["outcomes"]))
            for e in entries
            if e["team"] is team
        )

    def _public_facts(self) -> dict:
        return {
            "phase": self._phase.value,
            "current_team": self._team.value,
            "starting": self._key.starting.value,
            "turns": {t.value: n for t, n in self._turns.items()},
            "agents_left": {t.value: len(self.remaining(Identity.of_team(t))) for t in Team},
            "solo": self._solo,
            "three_player": self._three_player,
            "assassin_ending": self._assassin_ending,
            "single_team": self.single_team,
        }
