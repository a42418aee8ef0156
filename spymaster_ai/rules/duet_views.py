"""What each Duet player sees (RULES.md §3): its own key side as a clue giver, the table and
its partner's clues as a guesser, never the partner's side.

Why a module of its own: hiding the other side of the key is the whole job, so it is read in
one place. Views sit one layer above rules (:mod:`spymaster_ai.views`): they are imported
lazily by these methods, so the engine loads without them. :class:`DuetViews` is a base of
:class:`.duet.DuetGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import DuetIdentity, Player
from .duet_state import _AGENT, _MARKS, DuetState, _player
from .moves import Phase

if TYPE_CHECKING:  # views sit one layer above rules: imported lazily by the view methods
    from ..views import ClueHistoryEntry, GuesserView, SpymasterView


class DuetViews(DuetState):
    """The per-role views of :class:`.duet.DuetGame`."""

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
            found_by_me=tuple(g["word"] for g in self._sd_guesses
                              if g["player"] == player.value and g["outcome"] == DuetIdentity.GREEN.value),
            sudden_death=self._phase is Phase.SUDDEN_DEATH,
            own_side=tuple(c.value for c in self._key.side(player)),
            marked_by_me=self.marked_by(player),
            tokens_left=self.tokens_left,
            turns_played=self._turns,
        ))
