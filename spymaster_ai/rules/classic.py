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

Where to look: this module holds the moves, the move surface (seats, legal moves, ``apply``,
returns), the legality hook and how a turn, a penalty and the game end; :mod:`.classic_state`
the kinds of board, the state, its queries and the solo score, :mod:`.classic_record`
configuration, replay and state snapshot, and :mod:`.classic_views` what each role sees.
:class:`ClassicGame` stays defined here (its other jobs are bases it inherits), and the
names those modules held here before the split are imported from here still.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from .cards import Identity, Team, normalise_word, quoted
from .classic_record import ClassicRecord
from .classic_state import KINDS, LEGALITY_MODES
from .classic_views import ClassicViews
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
    Pass,
    Phase,
    Stop,
    WrongPhaseError,
    check_move,
)

# Names this module held before the split (issue 43), importable from here still.
from ..views import ClueHistoryEntry, GuesserView, SpymasterView, detached  # noqa: F401
from .cards import CLASSIC_LAYOUT, KIM2019_LAYOUT, PICTURES_LAYOUT, ClassicKey  # noqa: F401
from .classic_state import _options_json  # noqa: F401
from .moves import NotOnBoardError  # noqa: F401

__all__ = ["ClassicGame", "ClueResult", "GuessResult", "WrongCardError", "KINDS", "LEGALITY_MODES"]


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


class ClassicGame(ClassicRecord, ClassicViews):
    """Classic Codenames / Codenames Pictures with its variants; see the module docstring."""

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

    # ----------------------------------------------------------------- internals
    def _require_live(self) -> None:
        if self.is_over:
            winner = self._winner.value if self._winner else "nobody"
            raise GameOverError(f"the game is over ({winner} won); no more moves")

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
