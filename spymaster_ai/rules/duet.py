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
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Sequence

from .cards import DuetIdentity, DuetKey, Player, normalise_word, quoted
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

if TYPE_CHECKING:  # views sit one layer above rules: imported lazily by the view methods
    from ..views import ClueHistoryEntry, GuesserView, SpymasterView

# Missions named in RULES.md §3: name -> (tokens, bystander-face tokens).
MISSIONS: dict[str, tuple[int, int]] = {
    "prague": (9, 9),
    "moscow": (8, 8),
    "bangkok": (7, 7),
    "singapore": (6, 6),
    "cairo": (9, 5),
    "berlin": (11, 11),
}

LEGALITY_MODES = ("strict", "penalty", "off")
TOTAL_GREENS = 15
SEATS = ("a_spymaster", "a_guesser", "b_spymaster", "b_guesser")
# returns() of a lost game: one below the lowest score a win can have (-1, a sudden-death win
# without stops), so every win is worth more than every loss.
LOSS_RETURN = -2.0

# How a covered card is covered.
_AGENT = "agent"  # a green agent card
_MARKS = "marks"  # bystander marks from both directions


class NotYourTurnError(WrongPhaseError):
    """A move by a player who may not make it now (wrong giver, passed sudden-death player)."""


def check_clue_legality(word: str, visible: Sequence[str], options: object | None, count: int | None) -> Any:
    """Ask the legality module for a verdict. A module-level hook so tests can replace it."""
    from .legality import check_clue

    return check_clue(word, visible, options, count=count)


def _seat(player: Player, role: str) -> str:
    return f"{player.value.lower()}_{role}"


def _player(value: object) -> Player:
    try:
        return Player(value)
    except ValueError:
        raise ValueError(f"a Duet player is 'A' or 'B', got {value!r}") from None


class DuetGame:
    """One game of Codenames Duet between players A and B, enforcing RULES.md §3."""

    def __init__(
        self,
        words: Sequence[str],
        key: DuetKey,
        *,
        tokens: int = 9,
        mistakes: int | None = None,
        legality: str = "strict",
        legality_options: object | None = None,
    ) -> None:
        norm = tuple(normalise_word(w) for w in words)
        if len(norm) != 25:
            raise ValueError(f"a Duet board has 25 cards, got {len(norm)}")
        if any(not w for w in norm):
            raise ValueError("a Duet board card is empty")
        dupes = sorted({w for w in norm if norm.count(w) > 1})
        if dupes:
            raise ValueError(f"Duet board cards must be distinct; repeated: {', '.join(dupes)}")
        if not isinstance(key, DuetKey):
            raise TypeError(f"key must be a DuetKey, got {type(key).__name__}")
        key.validate()
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
            raise ValueError(f"tokens must be a positive integer, got {tokens!r}")
        if mistakes is not None and (
            isinstance(mistakes, bool) or not isinstance(mistakes, int) or not 0 <= mistakes <= tokens
        ):
            raise ValueError(f"mistakes must be an integer from 0 to tokens ({tokens}), got {mistakes!r}")
        if legality not in LEGALITY_MODES:
            raise ValueError(f"legality must be one of {', '.join(LEGALITY_MODES)}, got {legality!r}")
        if isinstance(legality_options, dict):
            from .legality import LegalityOptions

            legality_options = LegalityOptions(**legality_options)

        self._words = norm
        self._index = {w: i for i, w in enumerate(norm)}
        self._key = key
        self._green = {p: frozenset(i for i, c in enumerate(key.side(p)) if c is DuetIdentity.GREEN) for p in Player}
        self._tokens = tokens
        self._mistakes = mistakes
        self._legality = legality
        self._legality_options = legality_options
        self._mission: str | None = None

        bystander_face = tokens if mistakes is None else mistakes
        self._bystander_left = bystander_face
        self._marked_left = tokens - bystander_face

        self._phase = Phase.CLUE
        self._giver: Player | None = None
        self._last_giver: Player | None = None
        self._clue: Clue | None = None
        self._guesses_made = 0
        self._correct = 0
        self._turns = 0
        self._winner: bool | None = None
        self._loss_cause: LossCause | None = None
        self._covered: dict[int, str] = {}
        self._marks: set[tuple[int, Player]] = set()  # (card, guesser P): bystander on P's partner's side
        self._assassin: int | None = None
        self._voluntary_stops = 0
        self._penalties = 0
        self._double_marks = 0
        self._sudden_death = False
        self._passed: set[Player] = set()
        self._hopeless_pass_ends = True  # False only to replay a record made before that rule
        self._history: list[dict] = []  # one per clue: giver, clue, guesses, outcomes, penalised
        self._sd_guesses: list[dict] = []
        self.actions: list[dict] = []

    # ------------------------------------------------------------------ construction
    @classmethod
    def mission(cls, words: Sequence[str], key: DuetKey, name: str, **kw: Any) -> "DuetGame":
        """A campaign mission from RULES.md §3 by name (tokens and bystander-face tokens)."""
        lowered = str(name).strip().lower()
        if lowered not in MISSIONS:
            raise ValueError(f"unknown Duet mission {name!r}; known: {', '.join(MISSIONS)}")
        clash = {"tokens", "mistakes"} & set(kw)
        if clash:
            raise ValueError(f"a mission sets its own tokens and mistakes; do not pass {', '.join(sorted(clash))}")
        tokens, mistakes = MISSIONS[lowered]
        game = cls(words, key, tokens=tokens, mistakes=mistakes, **kw)
        game._mission = lowered
        return game

    # ------------------------------------------------------------------ read-only state
    @property
    def words(self) -> tuple[str, ...]:
        return self._words

    @property
    def key(self) -> DuetKey:
        return self._key

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def giver(self) -> Player | None:
        return self._giver

    @property
    def guesser(self) -> Player | None:
        return self._giver.other if self._giver is not None else None

    @property
    def clue(self) -> Clue | None:
        return self._clue

    @property
    def guesses_made(self) -> int:
        return self._guesses_made

    @property
    def correct_this_turn(self) -> int:
        return self._correct

    @property
    def tokens(self) -> int:
        return self._tokens

    @property
    def tokens_left(self) -> int:
        return self._bystander_left + self._marked_left

    @property
    def bystander_tokens_left(self) -> int:
        return self._bystander_left

    @property
    def marked_tokens_left(self) -> int:
        return self._marked_left

    @property
    def turns_played(self) -> int:
        return self._turns

    @property
    def winner(self) -> bool | None:
        return self._winner

    @property
    def loss_cause(self) -> LossCause | None:
        return self._loss_cause

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def voluntary_stops(self) -> int:
        return self._voluntary_stops

    @property
    def needed_sudden_death(self) -> bool:
        return self._sudden_death

    def visible_words(self) -> tuple[str, ...]:
        """Cards not covered by a green agent nor by marks from both directions."""
        return tuple(w for i, w in enumerate(self._words) if i not in self._covered)

    def can_guess(self, player: Player, word: str) -> bool:
        """Whether ``player`` may guess ``word``: visible, and not already marked by its own guess."""
        i = self._index.get(normalise_word(word))
        return i is not None and i not in self._covered and (i, _player(player)) not in self._marks

    def words_left_for(self, player: Player) -> tuple[str, ...]:
        """Green cards on ``player``'s side not yet covered: what the partner must find from its clues."""
        return tuple(self._words[i] for i in sorted(self._green[_player(player)]) if i not in self._covered)

    def marked_by(self, player: Player) -> tuple[str, ...]:
        """Visible cards ``player`` guessed as bystanders (it may not guess them again)."""
        p = _player(player)
        return tuple(w for i, w in enumerate(self._words) if (i, p) in self._marks and i not in self._covered)

    def greens_left(self) -> int:
        """Green words (of the 15) not yet covered."""
        return len((self._green[Player.A] | self._green[Player.B]) - self._covered.keys())

    def allowed_givers(self) -> tuple[Player, ...]:
        """Who may give the next clue: either at first, then alternating; never a player with no words left."""
        if self._phase is not Phase.CLUE:
            return ()
        has_words = [p for p in Player if self.words_left_for(p)]
        if self._last_giver is None:
            return tuple(has_words)
        preferred = self._last_giver.other
        return (preferred,) if preferred in has_words else tuple(p for p in has_words if p is self._last_giver)

    def sudden_death_players(self) -> tuple[Player, ...]:
        """Players that may still guess in sudden death: words left to find and not passed."""
        if self._phase is not Phase.SUDDEN_DEATH:
            return ()
        return tuple(p for p in Player if p not in self._passed and self.words_left_for(p.other))

    def win_still_possible(self) -> bool:
        """Whether every green card left can still be found by a player who has not passed.

        A player finds the cards green on the partner's side, so a pass leaves the passer's
        words to find unfound unless they are green on its own side too (then the partner can
        find them). When none can be, the game is lost now: guessing on could only end in a
        loss, and a person who passed should not watch the AI touch an assassin after that.
        """
        if not self._hopeless_pass_ends:
            return bool(self.sudden_death_players())
        left = (self._green[Player.A] | self._green[Player.B]) - self._covered.keys()
        reachable: set[int] = set()
        for p in Player:
            if p not in self._passed:
                reachable |= self._green[p.other]
        return left <= reachable

    def follow_recorded_passes(self, actions: Sequence[dict]) -> None:
        """Replay ``actions`` under the rule they were played by: a record in which moves
        follow a sudden-death pass was made before a hopeless pass ended the game, so such a
        game ends, as it did then, only when no player may guess. Before 2026-12-04 that was
        the only rule; both rules agree on every game without a hopeless pass."""
        passed = False
        for action in actions:
            kind = action.get("type") if isinstance(action, dict) else None
            if passed and kind in ("sd_guess", "sd_pass"):
                self._hopeless_pass_ends = False
                return
            passed = passed or kind == "sd_pass"

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

    # ------------------------------------------------------------------ views
    def _history_for_giver(self, giver: Player) -> tuple[ClueHistoryEntry, ...]:
        from ..views import ClueHistoryEntry

        return tuple(
            ClueHistoryEntry(h["giver"], h["clue"], tuple(h["guesses"]), tuple(h["outcomes"]))
            for h in self._history
            if h["giver"] == giver.value
        )

    def _revealed(self) -> tuple[tuple[str, str], ...]:
        out = []
        for i, w in enumerate(self._words):
            if self._covered.get(i) == _AGENT:
                out.append((w, DuetIdentity.GREEN.value))
            elif self._covered.get(i) == _MARKS:
                out.append((w, DuetIdentity.BYSTANDER.value))
            elif i == self._assassin:
                out.append((w, DuetIdentity.BLACK.value))
        return tuple(out)

    def spymaster_view(self, player: Player) -> SpymasterView:
        """What ``player`` sees as a clue giver: its own side only, never the partner's.

        The view holds its own copies (:func:`~spymaster_ai.views.detached`), none of the game's objects.
        """
        from ..views import SpymasterView, detached

        player = _player(player)
        side = self._key.side(player)
        visible = [i for i in range(25) if i not in self._covered]

        def of(identity: DuetIdentity) -> tuple[str, ...]:
            return tuple(self._words[i] for i in visible if side[i] is identity)

        return detached(SpymasterView(
            game="duet",
            me=player.value,
            words=self._words,
            visible=self.visible_words(),
            own=of(DuetIdentity.GREEN),
            opponent=(),
            bystanders=of(DuetIdentity.BYSTANDER),
            assassins=of(DuetIdentity.BLACK),
            revealed=self._revealed(),
            history=self._history_for_giver(player),
            partner_marked=self.marked_by(player.other),
            tokens_left=self.tokens_left,
            clue_number_cap=None,
            extra={
                "turns_played": self._turns,
                "bystander_tokens_left": self._bystander_left,
                "marked_tokens_left": self._marked_left,
                "greens_left": self.greens_left(),
                "my_marked": self.marked_by(player),
                "partner_has_words": bool(self.words_left_for(player.other)),
                "sudden_death": self._phase is Phase.SUDDEN_DEATH,
            },
        ))

    def guesser_view(self, player: Player) -> GuesserView:
        """What ``player`` sees as a guesser: the table, its partner's clues, and its own side.

        The view holds its own copies (:func:`~spymaster_ai.views.detached`), none of the game's objects.
        """
        from ..views import GuesserView, detached

        player = _player(player)
        guessing = self._phase is Phase.GUESS and self.guesser is player
        return detached(GuesserView(
            game="duet",
            me=player.value,
            words=self._words,
            visible=tuple(w for w in self.visible_words() if self.can_guess(player, w)),
            revealed=self._revealed(),
            clue=self._clue if guessing else None,
            guesses_made=self._guesses_made if guessing else 0,
            max_guesses=None,
            can_stop=guessing and self._correct >= 1,
            history=self._history_for_giver(player.other),
            given=self._history_for_giver(player),
            sudden_death=self._phase is Phase.SUDDEN_DEATH,
            own_side=tuple(c.value for c in self._key.side(player)),
            marked_by_me=self.marked_by(player),
            tokens_left=self.tokens_left,
            turns_played=self._turns,
        ))

    def score(self) -> int | None:
        """RULES.md §3 score on a win (3 per token left, +1 per voluntary stop, −1 after sudden death)."""
        if self._winner is not True:
            return None
        return 3 * self.tokens_left + self._voluntary_stops - (1 if self._sudden_death else 0)

    # ------------------------------------------------------------------ records
    def config(self) -> dict:
        """JSON-serialisable constructor arguments."""
        options = self._legality_options
        if options is not None:
            if not dataclasses.is_dataclass(options):
                raise TypeError(f"legality_options of type {type(options).__name__} cannot be saved")
            options = dataclasses.asdict(options)
            if options.get("lang") == "en":  # English records stay as they were before languages
                del options["lang"]
        return {
            "game": "duet",
            "words": list(self._words),
            "key": self._key.to_json(),
            "tokens": self._tokens,
            "mistakes": self._mistakes,
            "mission": self._mission,
            "legality": self._legality,
            "legality_options": options,
        }

    @classmethod
    def from_config(cls, config: dict) -> "DuetGame":
        if config.get("game", "duet") != "duet":
            raise ValueError(f"not a Duet configuration (game is {config.get('game')!r})")
        game = cls(
            config["words"],
            DuetKey.from_json(config["key"]),
            tokens=config.get("tokens", 9),
            mistakes=config.get("mistakes"),
            legality=config.get("legality", "strict"),
            legality_options=config.get("legality_options"),
        )
        mission = config.get("mission")
        if mission is not None:
            if mission not in MISSIONS or MISSIONS[mission] != (game._tokens, game._mistakes):
                raise ValueError(f"mission {mission!r} does not match tokens {game._tokens} / mistakes {game._mistakes}")
            game._mission = mission
        return game

    def replay(self, actions: Sequence[dict]) -> None:
        """Apply logged actions in order through the normal moves (so the rules check them)."""
        self.follow_recorded_passes(actions)
        for n, action in enumerate(actions):
            kind = action.get("type") if isinstance(action, dict) else None
            if kind == "clue":
                clue = Clue.from_json(action)
                result = self.give_clue(action["giver"], clue)
                if "penalised" in action and bool(action["penalised"]) != result.penalised:
                    raise ValueError(
                        f"action {n}: clue {clue.word!r} was {'' if action['penalised'] else 'not '}penalised "
                        "in the record but the legality checker now judges it otherwise"
                    )
            elif kind == "guess":
                self.guess(action["word"])
            elif kind == "stop":
                self.stop()
            elif kind == "sd_guess":
                self.sudden_death_guess(action["player"], action["word"])
            elif kind == "sd_pass":
                self.sudden_death_pass(action["player"])
            else:
                raise ValueError(f"action {n}: unknown Duet action {action!r}")

    def state_json(self) -> dict:
        """A full JSON snapshot of the state, to compare a replay with the original."""
        return {
            "phase": self._phase.value,
            "giver": self._giver.value if self._giver else None,
            "last_giver": self._last_giver.value if self._last_giver else None,
            "clue": self._clue.to_json() if self._clue else None,
            "guesses_made": self._guesses_made,
            "correct_this_turn": self._correct,
            "tokens_left": self.tokens_left,
            "bystander_tokens_left": self._bystander_left,
            "marked_tokens_left": self._marked_left,
            "turns_played": self._turns,
            "winner": self._winner,
            "loss_cause": self._loss_cause.value if self._loss_cause else None,
            "covered": {self._words[i]: how for i, how in sorted(self._covered.items())},
            "marks": sorted([self._words[i], p.value] for i, p in self._marks),
            "assassin": self._words[self._assassin] if self._assassin is not None else None,
            "words_left": {p.value: list(self.words_left_for(p)) for p in Player},
            "voluntary_stops": self._voluntary_stops,
            "penalties": self._penalties,
            "double_marks": self._double_marks,
            "sudden_death": self._sudden_death,
            "passed": sorted(p.value for p in self._passed),
            "history": [
                {"giver": h["giver"], "clue": h["clue"].to_json(), "guesses": list(h["guesses"]),
                 "outcomes": list(h["outcomes"]), "penalised": h["penalised"]}
                for h in self._history
            ],
            "sudden_death_guesses": [dict(g) for g in self._sd_guesses],
            "actions": len(self.actions),
            "score": self.score(),
        }

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
