"""What each classic / Pictures role sees (RULES.md §1-2): a spymaster the key, as the
uncovered cards of each identity; operatives the table and their team's clues, no key.

Why a module of its own: what a role may see is the whole job, so it is read in one place.
:class:`ClassicViews` is a base of :class:`.classic.ClassicGame`.
"""

from __future__ import annotations

from ..views import ClueHistoryEntry, GuesserView, SpymasterView, detached
from .cards import Identity, Team
from .classic_state import ClassicState
from .moves import Phase


class ClassicViews(ClassicState):
    """The per-role views of :class:`.classic.ClassicGame`."""

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
