"""The Duet game's state and the questions it answers (RULES.md §3), standard library only.

Why a module of its own: the engine (:mod:`.duet`) changes this state through its moves;
the record (:mod:`.duet_record`) and the per-role views (:mod:`.duet_views`) only read it.
:class:`DuetState` holds the constructor (its checks, the bank's two kinds of token), the
missions, the read-only properties and the queries every other job asks (who may give a
clue, who may guess, what is left, whether a win is still possible) and the score.
It is a base of :class:`.duet.DuetGame`, never played on its own.
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

from .cards import DuetIdentity, DuetKey, Player, normalise_word
from .moves import Clue, LossCause, Phase

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

# How a covered card is covered.
_AGENT = "agent"  # a green agent card
_MARKS = "marks"  # bystander marks from both directions


_Game = TypeVar("_Game", bound="DuetState")


def _player(value: object) -> Player:
    try:
        return Player(value)
    except ValueError:
        raise ValueError(f"a Duet player is 'A' or 'B', got {value!r}") from None


class DuetState:
    """The state of one Duet game and its read-only queries (see :class:`.duet.DuetGame`)."""

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
    def mission(cls: type[_Game], words: Sequence[str], key: DuetKey, name: str, **kw: Any) -> _Game:
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

    # ------------------------------------------------------------------ score
    def score(self) -> int | None:
        """RULES.md §3 score on a win (3 per token left, +1 per voluntary stop, −1 after sudden death)."""
        if self._winner is not True:
            return None
        return 3 * self.tokens_left + self._voluntary_stops - (1 if self._sudden_death else 0)
