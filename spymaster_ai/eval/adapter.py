"""What the human-play metrics ask of an agent, asked through the agents' public methods.

Why an adapter: the metrics need three answers that the game protocols do not give directly:
(a) a full ranking of the visible cards for a clue, (b) a scored ranking of candidate clues
for a set of targets and the cards to avoid, (c) the cards a spymaster would aim at. The
adapter builds the Duet view a player would have had and asks:

* (a) ``Guesser.rank_cards(view)`` when the guesser has it (the embedding guesser does);
  otherwise the protocol itself: ``next_guess`` again and again, each time without the cards
  already chosen, which works for any guesser, a researcher's own included.
* (b) ``Spymaster.rank_clues(view, top=depth)`` with the human's targets as the only own
  cards; the human clue must be in the spymaster's public ``vocabulary`` and legal under
  ``rules.legality`` (RULES.md §4), else the turn is unscorable and counted.
* (c) ``Spymaster.rank_clues(view, top=1)[0].targets`` with the side's green cards as own.

The embedding is used directly only to tell whether the guesser can read a clue word
(``embedding.reads``, else ``knows``: GloVe reads only its own words, WordLlama any word as
the mean of its tokens, as it does in play): a clue it cannot read is unscorable, not a guess
on noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Protocol, Sequence

from ..agents.vocabulary import reads
from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView

__all__ = [
    "AgentAdapter",
    "CardRanker",
    "ClueRanking",
    "Unscorable",
    "make_adapter",
]

DUET = "duet"


class Unscorable(Exception):
    """A turn this agent cannot be scored on; ``reason`` is the short key the report counts."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class CardRanker(Protocol):
    """Anything that ranks a board's cards for a clue (an adapter, a calibrated model)."""

    name: str

    def rank_cards(self, board: Sequence[str], clue: str, count: int = 1) -> list[str]: ...


@dataclass(frozen=True)
class ClueRanking:
    """The agent's best candidate clues for a situation, best first (at most ``depth``)."""

    words: tuple[str, ...]
    scores: tuple[float, ...]

    def rank_of(self, word: str) -> Optional[int]:
        """1-based rank of ``word``; None when it is not among the ranked words."""
        try:
            return self.words.index(word) + 1
        except ValueError:
            return None


def guesser_view(board: Sequence[str], clue: str, count: int, visible: Optional[Sequence[str]] = None) -> GuesserView:
    """The Duet guesser's view of a recorded turn: the visible cards and the clue, no key."""
    words = tuple(board)
    return GuesserView(
        game=DUET, me="B", words=words, visible=tuple(visible if visible is not None else words),
        revealed=(), clue=Clue(clue, max(int(count), 1)), guesses_made=0, max_guesses=None, can_stop=False,
    )


def giver_view(own: Sequence[str], black: Sequence[str], tan: Sequence[str]) -> SpymasterView:
    """The Duet giver's view of a recorded turn: its own side, every listed card visible."""
    words = tuple(own) + tuple(black) + tuple(tan)
    return SpymasterView(
        game=DUET, me="A", words=words, visible=words, own=tuple(own), opponent=(),
        bystanders=tuple(tan), assassins=tuple(black),
    )


class AgentAdapter:
    """One agent (a guesser and/or a spymaster) answering the metrics' three questions."""

    def __init__(self, guesser: Any = None, spymaster: Any = None, *, name: str = "agent",
                 seed: int = 0, guesser_note: str = "", spymaster_note: str = "") -> None:
        self.guesser = guesser
        self.spymaster = spymaster
        self.name = name
        self.seed = int(seed)
        # Why a role is missing (e.g. "'robust' is a spymaster, not a guesser"), for the report.
        self.guesser_note = guesser_note
        self.spymaster_note = spymaster_note
        self._vocab_cache: Optional[tuple[Any, frozenset[str]]] = None

    # -- capabilities -----------------------------------------------------------------------

    @property
    def can_guess(self) -> bool:
        return self.guesser is not None

    @property
    def can_rank_clues(self) -> bool:
        return self.spymaster is not None and callable(getattr(self.spymaster, "rank_clues", None))

    @property
    def guess_method(self) -> str:
        """How card rankings are obtained (reported beside the figures)."""
        if self.guesser is None:
            return "none"
        return "rank_cards" if callable(getattr(self.guesser, "rank_cards", None)) else "next_guess"

    @property
    def embedding(self) -> Any:
        """The guesser's embedding, if it exposes one (used by --calibrate and the OOV test)."""
        return getattr(self.guesser, "embedding", None)

    # -- (a) ranking the cards for a clue ------------------------------------------------------

    def rank_cards(self, board: Sequence[str], clue: str, count: int = 1) -> list[str]:
        """Every card of ``board``, the guesser's first choice for ``clue`` first."""
        if self.guesser is None:
            raise Unscorable("no-guesser", self.guesser_note)
        emb = self.embedding
        if emb is not None and callable(getattr(emb, "knows", None)) and not reads(emb, clue):
            raise Unscorable("clue-unknown", f"{self.name} cannot read {clue!r}")
        self.guesser.reset(self.seed)
        method = getattr(self.guesser, "rank_cards", None)
        if callable(method):
            ranked = [getattr(c, "word", c) for c in method(guesser_view(board, clue, count))]
        else:
            ranked = self._rank_by_guessing(board, clue, count)
        if sorted(ranked) != sorted(board):
            raise RuntimeError(f"{self.name}: the card ranking for {clue!r} is not a ranking of the board")
        return ranked

    def _rank_by_guessing(self, board: Sequence[str], clue: str, count: int) -> list[str]:
        left = list(board)
        ranked: list[str] = []
        while left:
            word = self.guesser.next_guess(guesser_view(board, clue, count, visible=left))
            if word not in left:
                raise RuntimeError(f"{self.name}: next_guess returned {word!r}, not a visible card")
            ranked.append(word)
            left.remove(word)
        return ranked

    # -- (b) ranking candidate clues ---------------------------------------------------------

    def check_clue_candidate(self, clue: str, targets: Sequence[str], black: Sequence[str], tan: Sequence[str]) -> None:
        """Raise Unscorable when the spymaster could never say ``clue`` here."""
        if not self.can_rank_clues:
            raise Unscorable("no-clue-ranking", self.spymaster_note)
        vocabulary = self._vocabulary_set()
        if vocabulary is not None and clue not in vocabulary:
            raise Unscorable("outside-vocabulary", f"{clue!r} is not a candidate clue of {self.name}")
        from ..rules.legality import check_clue

        verdict = check_clue(clue, list(targets) + list(black) + list(tan))
        if not verdict.legal:
            raise Unscorable("illegal-clue", f"{clue!r}: {getattr(verdict, 'reason', 'refused')}")

    def rank_clues(self, targets: Sequence[str], black: Sequence[str], tan: Sequence[str], depth: int) -> ClueRanking:
        """The spymaster's ``depth`` best clues for these targets, avoiding black and tan."""
        if not self.can_rank_clues:
            raise Unscorable("no-clue-ranking", self.spymaster_note)
        self.spymaster.reset(self.seed)
        options = self.spymaster.rank_clues(giver_view(targets, black, tan), top=depth)
        return ClueRanking(tuple(o.word for o in options), tuple(float(o.score) for o in options))

    def _vocabulary_set(self) -> Optional[frozenset[str]]:
        """The spymaster's public ``vocabulary`` as a set (rebuilt only if it changes)."""
        vocabulary = getattr(self.spymaster, "vocabulary", None)
        if vocabulary is None:
            return None
        if self._vocab_cache is None or self._vocab_cache[0] is not vocabulary:
            self._vocab_cache = (vocabulary, frozenset(vocabulary))
        return self._vocab_cache[1]

    # -- (c) choosing targets ----------------------------------------------------------------

    def choose_targets(self, green: Sequence[str], black: Sequence[str], tan: Sequence[str]) -> tuple[str, ...]:
        """The green cards the spymaster's best clue aims at."""
        if not self.can_rank_clues:
            raise Unscorable("no-clue-ranking", self.spymaster_note)
        self.spymaster.reset(self.seed)
        best = self.spymaster.rank_clues(giver_view(green, black, tan), top=1)[0]
        return tuple(best.targets)


def make_adapter(agent: str = "minilm", *, guesser: Optional[str] = None, spymaster: Optional[str] = None,
                 seed: int = 0) -> AgentAdapter:
    """An adapter for agent specs (``spymaster_ai.agents.registry``): ``agent`` for both roles,
    ``guesser``/``spymaster`` to override one. A spec that names a one-role agent (``robust``,
    ``random``) leaves the other role empty, with the reason kept for the report."""
    from ..agents.registry import AgentSpecError, make_guesser, make_spymaster

    g_spec, s_spec = guesser or agent, spymaster or agent
    g = s = None
    g_note = s_note = ""
    try:
        g = make_guesser(g_spec, isolate=False)  # in this process: the adapter reads rankings (docs/isolation.md)
    except AgentSpecError as exc:
        if guesser is not None or "is a spymaster" not in str(exc):
            raise
        g_note = str(exc)
    try:
        s = make_spymaster(s_spec, isolate=False)
    except AgentSpecError as exc:
        if spymaster is not None or "is a guesser" not in str(exc):
            raise
        s_note = str(exc)
    name = g_spec if g_spec == s_spec else f"guesser={g_spec}, spymaster={s_spec}"
    return AgentAdapter(g, s, name=name, seed=seed, guesser_note=g_note, spymaster_note=s_note)
