"""Which earlier clue a guess was meant for, so the clue log can say so.

Why: the log files every guess under the clue being guessed, so a turn that went on to the
leftovers of earlier clues read "ISLAND: 1 → BAY, TOWEL, STABLE" as if ISLAND had meant them
all. A guess past the current clue's count is marked for the unfinished earlier clue that
reads the card best, when that clue reads it better than the current one does: the AI
guesser's own reading (``probabilities(view, clue_word)``), for its guesses on the person's
clues. A person's guess on the AI's clues is filed by what the AI aimed at
(:func:`aimed_for`), which the AI knows, not by a reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..views import GuesserView

__all__ = ["PAST_THE_COUNT", "past_the_count", "meant_for", "aimed_for", "aimed_now", "meant_note"]

# Filed for a person's guess past the count that no earlier AI clue aimed at: it was no card of
# the clue being guessed either (a playtester's guess for CÚ read as one for the later NGỒI).
# No clue word is written in parentheses.
PAST_THE_COUNT = "(past the count)"


def meant_note(meant: str) -> str:
    """What the clue log says after a guess's outcome: "for BEACH", "past the count" or ""."""
    if not meant:
        return ""
    return "past the count" if meant == PAST_THE_COUNT else f"for {meant.upper()}"


def past_the_count(view: GuesserView) -> bool:
    """Whether the next guess on this view goes beyond what the current clue asked for (a
    zero clue asks for its one due guess; an unlimited clue never runs out)."""
    clue = view.clue
    if clue is None or clue.unlimited:
        return False
    return view.guesses_made >= max(clue.count, 1)


def _open_earlier(view: GuesserView) -> list:
    """The history entries of earlier clues that may still point at cards (not the clue
    being guessed now, no zero clue)."""
    history = view.history
    if history and history[-1].clue == view.clue:  # the clue being guessed now
        history = history[:-1]
    return [e for e in history if e.unfinished and e.clue.count > 0 and not e.clue.is_zero]


def meant_for(reader: Any, view: GuesserView, word: str) -> Optional[str]:
    """The word of the earlier unfinished clue that ``word`` (a card, as the view names it)
    was meant for, or None: it is filed under the current clue. Asked before the guess is
    made, on the guesser's view. ``reader``: anything with ``probabilities(view, clue_word)``
    giving an array over ``view.words``; without one, nothing is attributed."""
    if not past_the_count(view) or not callable(getattr(reader, "probabilities", None)):
        return None
    earlier = [e.clue.word for e in _open_earlier(view)]
    if word not in view.words or not earlier:
        return None
    i = view.words.index(word)
    now = float(reader.probabilities(view, view.clue.word)[i])
    best, best_p = None, now
    for clue_word in dict.fromkeys(earlier):  # each clue word once, oldest first on ties
        p = float(reader.probabilities(view, clue_word)[i])
        if p > best_p:
            best, best_p = clue_word, p
    return best


def aimed_for(view: GuesserView, word: str, aims: Sequence[tuple[str, Sequence[str]]]) -> Optional[str]:
    """The word of the earlier unfinished clue whose targets hold ``word``, or None: for a
    person guessing the AI's clue. ``aims``: (the clue as ``str(clue)``, its targets as the
    view names the cards) for each clue the AI gave, in order. A card the clue being guessed
    aimed at is its own; any other card an earlier clue aimed at is that clue's, within the
    count or past it (English playtest round 11: MUMMY, INFANT: 2's target taken as the second
    card of INFINITE: 2, was filed under INFINITE).

    Why: filed by the reader's guess, the person's extra cards read as the AI's word on its
    own clues: "(green, for PFARRER)" for a card PFARRER never aimed at misled three native
    playtesters (2026-12-06). The AI knows what it aimed at; for a card no earlier clue aimed
    at the caller files :data:`PAST_THE_COUNT` when it is past the count. Naming a covered
    card's clue tells nothing that ``why`` does not."""
    if aimed_now(view, word, aims):
        return None
    unfinished = {str(e.clue): e.clue.word for e in _open_earlier(view)}
    for clue_text, targets in reversed(list(aims)):
        if clue_text in unfinished and word in targets:
            return unfinished[clue_text]
    return None


def aimed_now(view: GuesserView, word: str, aims: Sequence[tuple[str, Sequence[str]]]) -> bool:
    """Whether the AI clue being guessed aimed at ``word``: then the guess is that clue's, even
    past its count (round 13: LID, FINGER: 2's own target, taken third after BULLY's PUPPET,
    read "past the count")."""
    now = [targets for clue_text, targets in aims if view.clue is not None and clue_text == str(view.clue)]
    return bool(now) and word in now[-1]
