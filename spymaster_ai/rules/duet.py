"""The Codenames Duet engine (RULES.md §3): timer tokens, directional bystander marks,
visibility, the "no words left" handover, sudden death, missions and scoring.

Standard library only. The legality checker is imported lazily (see
:func:`check_clue_legality`) so this module loads without it.

Readings of the rules this engine chose (RULES.md leaves them open):

* **Every turn consumes exactly one token**, the winning turn included (RULES.md scoring:
  "the last turn used one too"). A turn ends by a bystander guess (the mark is the token),
  a voluntary stop (the guesser takes a token), or automatically when the guesser covers
  the last green card of the giver's side mid-turn: every card left is then a mistake for
  that giver, so the turn ends and takes a token like a stop, but it does **not** count as
  a voluntary stop for scoring. An assassin or a mission loss ends the game without a token.
* **Token faces (missions).** A turn's token (stop, automatic end, winning turn) and an
  invalid-clue penalty take a marked-face token, or a bystander-face one when no
  marked-face token is left: the bystander-face tokens are the mistake allowance, and
  neither a stop nor a penalty is a mistake. A bystander guess takes a bystander-face token,
  or two marked-face tokens when none is left; with one marked-face token left it cannot be
  paid and the game is lost at once (``LossCause.MISTAKE``).
* **Invalid clue under "penalty" legality.** The giver discards one token and play continues
  on that clue. When that discard takes the last token, the bank is empty: sudden death
  starts at once and the illegal clue is not played (sudden death has no clues).
* **Sudden death** starts when a turn (or a penalty) leaves the bank empty and green words
  remain. Each player guesses the greens of the *other* side, in any order; a player may
  guess while it has words to find and has not passed. A bystander guess loses with
  ``LossCause.MISTAKE`` (a sudden-death wrong guess, see ``LossCause``), an assassin with
  ``LossCause.ASSASSIN``; as soon as a green card is left that no player who has not
  passed can find (a pass with words still to find, unless those are green on the
  passer's side too), the game is lost with ``LossCause.TIMEOUT``. The engine accepts sudden-death moves in any order; the
  self-play alternation of the RULES.md Engine note belongs to the simulator.
* **Scoring** on a win: 3 per token left in the bank + 1 per voluntary stop − 1 when the
  win needed sudden death. The formula is applied to any token setting (RULES.md gives its
  thresholds for the standard 9-token game); a sudden-death win without stops scores −1.

Where to look: this module holds the moves, the move surface (seats, legal moves, ``apply``,
returns) and how a turn, sudden death and the game end; :mod:`.duet_state` the state, its
queries and the score, :mod:`.duet_record` configuration, replay and state snapshot, and
:mod:`.duet_views` what each player sees. :class:`DuetGame` stays defined here (its other
jobs are bases it inherits), and the names those modules held here before the split are
imported from here still.
"""

from __future__ import annotations

from typing import Any, Sequence

from .cards import DuetIdentity, Player, normalise_word, quoted
from .duet_record import DuetRecord
from .duet_state import _AGENT, _MARKS, MISSIONS, _player
from .duet_views import DuetViews
from .moves import (
    AlreadyCoveredError,
    Clue,
    ClueResult,
    Cover,
    GameOverError,
    GiveClue,
    Guess,
    GuessResult,
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

# Names this module held before the split (issue 43), importable from here still.
from .cards import DuetKey  # noqa: F401
from .duet_state import LEGALITY_MODES, TOTAL_GREENS  # noqa: F401

SEATS = ("a_spymaster", "a_guesser", "b_spymaster", "b_guesser")
# returns() of a lost game: one below the lowest score a win can have (-1, a sudden-death win
# without stops), so every win is worth more than every loss.
LOSS_RETURN = -2.0


class NotYourTurnError(WrongPhaseError):
    """A move by a player who may not make it now (wrong giver, passed sudden-death player)."""


def check_clue_legality(word: str, visible: Sequence[str], options: object | None, count: int | None) -> Any:
    """Ask the legality module for a verdict. A module-level hook so tests can replace it."""
    from .legality import check_clue

    return check_clue(word, visible, options, count=count)


def _seat(player: Player, role: str) -> str:
    return f"{player.value.lower()}_{role}"


class DuetGame(DuetRecord, DuetViews):
    """One game of Codenames Duet between players A and B, enforcing RULES.md §3."""

    # ------------------------------------------------------------------ moves
    def give_clue(self, giver: Player, clue: Clue) -> ClueResult:
        """``giver`` gives ``clue``; its partner then guesses, judged by the giver's side.

        Under "penalty" legality an illegal clue costs a token first; if that was the last
        token the game is in sudden death on return (check ``phase``), without the clue.
        """
        self._require_running()
        if self._phase is not Phase.CLUE:
            raise WrongPhaseError(f"no clue can be given now (phase: {self._phase.value})")
        giver = _player(giver)
        allowed = self.allowed_givers()
        if giver not in allowed:
            why = "has no words left" if not self.words_left_for(giver) else "gave the last clue"
            raise NotYourTurnError(
                f"player {giver.value} may not give this clue ({why}); "
                f"allowed: {', '.join(p.value for p in allowed)}"
            )
        if not isinstance(clue, Clue):
            raise TypeError(f"clue must be a Clue, got {type(clue).__name__}")
        word = normalise_word(clue.word)
        if not word:
            raise InvalidClueError("a clue needs a word")
        if isinstance(clue.count, bool) or not isinstance(clue.count, int) or clue.count < 0:
            raise InvalidClueError(f"a clue count is a whole number >= 0, got {clue.count!r}")
        clue = Clue(word, clue.count, bool(clue.unlimited))

        legal, verdict = True, None
        if self._legality != "off":
            verdict = self.clue_verdict(clue)
            legal = bool(verdict.legal)
            if not legal and self._legality == "strict":
                raise InvalidClueError(f"illegal clue {quoted(word)}: {verdict.reason}", verdict)
        penalised = not legal

        self.actions.append(
            {"type": "clue", "giver": giver.value, "word": word, "count": clue.count,
             "unlimited": clue.unlimited, "penalised": penalised}
        )
        self._history.append({"giver": giver.value, "clue": clue, "guesses": [], "outcomes": [],
                              "penalised": penalised})
        self._last_giver = giver
        if penalised:
            self._penalties += 1
            self._take_turn_tokens(1)
            if self.tokens_left == 0:
                self._enter_sudden_death()
                return ClueResult(clue, legal, verdict, penalised)
        self._giver = giver
        self._clue = clue
        self._phase = Phase.GUESS
        return ClueResult(clue, legal, verdict, penalised)

    def guess(self, word: str) -> GuessResult:
        """The current guesser guesses ``word``; the giver's side of the key decides."""
        self._require_running()
        if self._phase is not Phase.GUESS:
            raise WrongPhaseError(f"no guess can be made now (phase: {self._phase.value})")
        giver = self._giver
        assert giver is not None
        i = self._card_for(giver.other, word)
        identity = self._key.side(giver)[i]
        entry = self._history[-1]
        self.actions.append({"type": "guess", "word": self._words[i]})
        entry["guesses"].append(self._words[i])
        entry["outcomes"].append(identity.value)
        self._guesses_made += 1

        if identity is DuetIdentity.BLACK:
            self._assassin = i
            self._lose(LossCause.ASSASSIN)
            return GuessResult(self._words[i], identity, False, True, True)

        if identity is DuetIdentity.GREEN:
            self._covered[i] = _AGENT
            self._correct += 1
            if self.greens_left() == 0:
                self._take_turn_tokens(1)
                self._end_turn()
                self._win()
                return GuessResult(self._words[i], identity, True, True, True)
            if not self.words_left_for(giver):
                self._take_turn_tokens(1)
                self._end_turn()
                return GuessResult(self._words[i], identity, True, True, self.is_over)
            return GuessResult(self._words[i], identity, True, False, False)

        # Bystander on the giver's side: a mark pointing from giver to guesser, paid from the bank.
        if self._bystander_left:
            self._bystander_left -= 1
        elif self._marked_left >= 2:
            self._marked_left -= 2
            self._double_marks += 1
        else:
            self._lose(LossCause.MISTAKE)
            return GuessResult(self._words[i], identity, False, True, True)
        self._marks.add((i, giver.other))
        if (i, giver) in self._marks:
            self._covered[i] = _MARKS
        self._end_turn()
        return GuessResult(self._words[i], identity, False, True, self.is_over)

    def stop(self) -> None:
        """The guesser stops after at least one correct guess, taking a token."""
        self._require_running()
        if self._phase is not Phase.GUESS:
            raise WrongPhaseError(f"no guessing to stop now (phase: {self._phase.value})")
        if self._correct < 1:
            raise WrongPhaseError("the guesser may stop only after at least one correct guess")
        self.actions.append({"type": "stop"})
        self._voluntary_stops += 1
        self._take_turn_tokens(1)
        self._end_turn()

    def sudden_death_guess(self, player: Player, word: str) -> GuessResult:
        """In sudden death ``player`` guesses ``word``, judged by the other side; any mistake loses."""
        self._require_running()
        if self._phase is not Phase.SUDDEN_DEATH:
            raise WrongPhaseError(f"not in sudden death (phase: {self._phase.value})")
        player = self._sudden_death_player(player)
        i = self._card_for(player, word)
        identity = self._key.side(player.other)[i]
        self.actions.append({"type": "sd_guess", "player": player.value, "word": self._words[i]})
        self._sd_guesses.append({"player": player.value, "word": self._words[i], "outcome": identity.value})
        if identity is DuetIdentity.GREEN:
            self._covered[i] = _AGENT
            if self.greens_left() == 0:
                self._win()
                return GuessResult(self._words[i], identity, True, True, True)
            if not self.win_still_possible():  # the partner passed; greens only it could find remain
                self._lose(LossCause.TIMEOUT)
                return GuessResult(self._words[i], identity, True, True, True)
            done = player not in self.sudden_death_players()
            return GuessResult(self._words[i], identity, True, done, False)
        if identity is DuetIdentity.BLACK:
            self._assassin = i
            self._lose(LossCause.ASSASSIN)
        else:
            self._lose(LossCause.MISTAKE)
        return GuessResult(self._words[i], identity, False, True, True)

    def sudden_death_pass(self, player: Player) -> None:
        """``player`` will guess no more; when no one may guess and greens remain, the game is lost."""
        self._require_running()
        if self._phase is not Phase.SUDDEN_DEATH:
            raise WrongPhaseError(f"not in sudden death (phase: {self._phase.value})")
        player = self._sudden_death_player(player)
        self.actions.append({"type": "sd_pass", "player": player.value})
        self._passed.add(player)
        if not self.win_still_possible():
            self._lose(LossCause.TIMEOUT)

    # ------------------------------------------------------------------ move surface
    seats = SEATS

    def current_seats(self) -> tuple[str, ...]:
        """Who may move now: the allowed givers' spymaster seats, the guesser's seat, or in
        sudden death every player still able to guess (the engine takes them in any order)."""
        if self._phase is Phase.CLUE:
            return tuple(_seat(p, "spymaster") for p in self.allowed_givers())
        if self._phase is Phase.GUESS:
            return (_seat(self.guesser, "guesser"),)
        if self._phase is Phase.SUDDEN_DEATH:
            return tuple(_seat(p, "guesser") for p in self.sudden_death_players())
        return ()

    def legal_moves(self, seat: str, clue_words: Sequence[str] = (), max_count: int | None = None) -> tuple[Move, ...]:
        """The moves ``seat`` may make now; each of them :meth:`apply` accepts.

        A clue turn lists a :class:`GiveClue` for every word of ``clue_words`` the rules accept
        with every count from 0 to ``max_count`` (default: the giver's green words left);
        guesses are the cards this player may still guess, in grid order, then STOP or PASS.
        """
        if seat not in self.current_seats():
            return ()
        player = Player(seat[0].upper())
        if self._phase is Phase.CLUE:
            top = len(self.words_left_for(player)) if max_count is None else max_count
            visible = self.visible_words()
            moves = []
            for word in dict.fromkeys(normalise_word(w) for w in clue_words if normalise_word(w)):
                for count in range(top + 1):
                    if self._legality != "strict" or check_clue_legality(
                        word, visible, self._legality_options, count
                    ).legal:
                        moves.append(GiveClue(Clue(word, count)))
            return tuple(moves)
        guesses: tuple[Move, ...] = tuple(Guess(w) for w in self.visible_words() if self.can_guess(player, w))
        if self._phase is Phase.GUESS:
            return guesses + ((Stop(),) if self._correct >= 1 else ())
        return guesses + (Pass(),)

    def clue_verdict(self, clue: Clue) -> Any:
        """The legality checker's verdict on ``clue`` now, as :meth:`give_clue` would judge it,
        whatever the legality mode: under "penalty" an illegal clue is played and costs a token,
        so a player who wants no penalty asks first. A clue without a word raises InvalidClueError."""
        if not isinstance(clue, Clue):
            raise InvalidClueError(f"a clue must be a Clue(word, count), got {type(clue).__name__}")
        word = normalise_word(clue.word) if isinstance(clue.word, str) else ""
        if not word:
            raise InvalidClueError("a clue needs a word")
        return check_clue_legality(word, self.visible_words(), self._legality_options,
                                   None if clue.unlimited else clue.count)

    def apply(self, seat: str, move: Move) -> ClueResult | GuessResult | None:
        """Play ``move`` for ``seat`` through the verbs (which check it); a refused move raises
        an :class:`~spymaster_ai.rules.moves.IllegalMove` and changes nothing."""
        self._require_running()
        check_move(seat, move, SEATS, self.current_seats())
        player = Player(seat[0].upper())
        if isinstance(move, GiveClue):
            return self.give_clue(player, move.clue)
        sudden_death = self._phase is Phase.SUDDEN_DEATH
        if isinstance(move, Guess):
            return self.sudden_death_guess(player, move.word) if sudden_death else self.guess(move.word)
        if isinstance(move, Stop):
            return self.stop()
        if isinstance(move, Pass):
            if not sudden_death:
                raise WrongPhaseError("passing is a sudden-death move; outside it a guesser stops")
            return self.sudden_death_pass(player)
        assert isinstance(move, Cover)
        raise WrongPhaseError("Duet has no covers: cards are covered by guesses")

    def returns(self) -> dict[str, float]:
        """Both players' result, the same for every seat: the score on a win, ``LOSS_RETURN``
        on a loss, 0 while the game runs."""
        if not self.is_over:
            value = 0.0
        elif self._winner:
            value = float(self.score())
        else:
            value = LOSS_RETURN
        return {seat: value for seat in SEATS}

    # ------------------------------------------------------------------ internals
    def _require_running(self) -> None:
        if self._phase is Phase.OVER:
            outcome = "won" if self._winner else f"lost ({self._loss_cause.value})"  # type: ignore[union-attr]
            raise GameOverError(f"the game is over: {outcome}")

    def _card_for(self, guesser: Player, word: str) -> int:
        """The position ``guesser`` may guess for ``word``, or a specific IllegalMove."""
        w = normalise_word(word)
        i = self._index.get(w)
        if i is None:
            raise NotOnBoardError(f"{quoted(word)} is not a card on this board")
        if i in self._covered:
            raise AlreadyCoveredError(f"{w!r} is already covered")
        if (i, guesser) in self._marks:
            raise AlreadyCoveredError(f"player {guesser.value} already guessed {w!r} as a bystander")
        return i

    def _sudden_death_player(self, player: object) -> Player:
        p = _player(player)
        if p not in self.sudden_death_players():
            why = "has passed" if p in self._passed else "has no words left to find"
            raise NotYourTurnError(f"player {p.value} may not guess in sudden death: it {why}")
        return p

    def _take_turn_tokens(self, n: int) -> None:
        """Take ``n`` tokens for a turn or a penalty: marked-face first, then bystander-face."""
        for _ in range(n):
            if self._marked_left:
                self._marked_left -= 1
            else:
                self._bystander_left -= 1

    def _end_turn(self) -> None:
        self._turns += 1
        self._giver = None
        self._clue = None
        self._guesses_made = 0
        self._correct = 0
        self._phase = Phase.CLUE
        if self.tokens_left == 0 and self.greens_left() > 0:
            self._enter_sudden_death()

    def _enter_sudden_death(self) -> None:
        self._giver = None
        self._clue = None
        self._guesses_made = 0
        self._correct = 0
        self._sudden_death = True
        self._phase = Phase.SUDDEN_DEATH

    def _win(self) -> None:
        self._winner = True
        self._phase = Phase.OVER

    def _lose(self, cause: LossCause) -> None:
        if self._phase is Phase.GUESS:
            self._turns += 1
        self._winner = False
        self._loss_cause = cause
        self._phase = Phase.OVER


__all__ = [
    "LOSS_RETURN",
    "MISSIONS",
    "SEATS",
    "ClueResult",
    "DuetGame",
    "GuessResult",
    "NotYourTurnError",
    "check_clue_legality",
]
