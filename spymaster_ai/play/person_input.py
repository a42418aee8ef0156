"""Reading what the person types into a move of the engine's, and the words of a refusal.

Why here: which moves are legal is the engine's answer (``legal_moves``); this part only
reads a line as one of them (a card by a unique start of its name or caption, a clue in
the board's language typed on an English keyboard) and says, in words a person follows,
why a card they named is not among them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..rules.moves import Clue, Cover, GiveClue, Guess, IllegalMove, Move, Pass, Phase, Stop
from .parse import InputError, match_card, names_as_typed, parse_clue, read_spelling
from .turns import Actor, Prompt

__all__ = ["HELP", "PersonInput", "Typed"]

HELP = """\
Type a card name, or a unique start of it of 3 letters or more (or of any word of a picture's caption).
  stop    end your guessing (after one guess; in Duet after a correct one: every Duet turn
          costs a timer token however it ends, so stopping saves none)
  ai      in Duet sudden death: let the AI guess one card now (you choose the order)
  pass    in Duet sudden death: guess no more (the cards only you can find stay hidden:
          the game is lost)
In Duet your guesses are judged by the AI's side of the key: a card black on your side is
black on the AI's side one time in three, and a card the AI's clue meant is green there.
  board   show the board again
  why     what the AI meant by its finished clues (the cards found so far) and its first pick for yours
  help    this text
  quit    leave; a saved game goes on with 'spymaster-ai play resume FILE'
A clue is a word and a number: 'ocean 2', 'ocean: 2', 'ocean 0', 'ocean unlimited'."""


@dataclass(frozen=True)
class Typed:
    """A line read as a move (None: the person hands the AI the next sudden-death guess),
    with how the typing was read ("read SUESSIGKEIT as SÜSSIGKEIT")."""

    move: Optional[Move]
    note: Optional[str] = None


class PersonInput:
    """The part of :class:`~spymaster_ai.play.session.Session` that reads the person's lines."""

    def _read(self, actor: Actor, prompt: Prompt, line: str, command: Optional[str]) -> Typed:
        g = self.game
        if prompt.kind == "clue":
            if command == "stop":
                raise InputError("it is your turn to give a clue (a word and a number), not to guess")
            return self._spelled_clue(parse_clue(line, len(g.words)))
        if prompt.kind == "sudden_death_wait":
            if command == "handover" or not line:
                return Typed(None)
            raise InputError("you have no cards left to find in sudden death: press Enter (or type 'ai') to let "
                             "the AI guess one of yours, or 'quit' to leave")
        if command == "handover":
            if prompt.kind != "sudden_death" or not prompt.handover:
                raise InputError("'ai' hands the AI the next guess in Duet sudden death, when it has cards to find")
            return Typed(None)
        if command == "stop":
            if self._can_pass(actor):
                return Typed(Pass())
            if prompt.kind == "sudden_death":
                raise InputError("no stopping in sudden death: the team guesses until it wins or loses")
            if prompt.kind == "cover":
                raise InputError("choose a card to cover")
            if not self._can_stop(actor):
                need = "a correct guess" if self.is_duet else "one guess"
                raise InputError(f"you may stop only after at least {need} on this clue")
            return Typed(Stop())
        allowed, why = self._choices(actor)
        fold = self._spelling_fold()
        card = match_card(line, g.words, allowed, self.labels, why, fold=fold)
        note = None
        if fold is not None and not names_as_typed(line, self.labels.get(card, card)):
            note = f"read {line.strip().upper()} as {self.labels.get(card, card).upper()}"
        return Typed(Cover(card) if prompt.kind == "cover" else Guess(card), note)

    def _spelling_fold(self) -> Optional[Callable[[str], str]]:
        """The board language's keyboard spelling fold, or None: German ae/oe/ue/ss; Persian
        Arabic yeh and kaf (ي, ك) as Persian ی, ک, ZWNJ and diacritics dropped (rules.lang's
        fa_key, as check-clue reads them); Vietnamese without its marks (tien names TIỀN)."""
        lang = self.settings.lang
        if lang == "de":
            from ..rules.lang.normalise import de_fold

            return de_fold
        if lang == "fa":
            from ..rules.lang.normalise import fa_key

            return fa_key
        if lang == "vi":
            from ..rules.lang.vietnamese import strip_marks

            return strip_marks
        return None

    def _spelled_clue(self, clue: Clue) -> Typed:
        """The person's clue, read as the word it spells on a keyboard without the language's
        letters, with a note saying so: German ae/oe/ue/ss when that is a card or a known clue
        word (SUESSIGKEIT -> SÜSSIGKEIT); Vietnamese typed without marks as the word it most
        likely is (tien -> tiền, RULES.md §4), never as English."""
        lang = self.settings.lang
        known = [self.labels.get(w, w) for w in self.game.words]
        if lang == "de":
            from wordfreq import zipf_frequency

            from ..rules.lang.normalise import de_fold, de_umlaut_spellings
            from ..rules.lang.words import clue_words

            reading = read_spelling(clue.word, [*known, *clue_words(lang)], de_fold,
                                    de_umlaut_spellings, lambda w: zipf_frequency(w, "de"))
        elif lang == "vi":
            from ..rules.lang.vietnamese import toneless_reading

            reading = toneless_reading(clue.word, tuple(known))
        else:
            reading = None
        if reading is None:
            return Typed(GiveClue(clue))
        note = f"read {clue.word.strip().upper()} as {reading.upper()}"
        return Typed(GiveClue(Clue(reading, clue.count, clue.unlimited)), note)

    def _choices(self, actor: Actor) -> tuple[set[str], dict[str, str]]:
        """The cards the person may name now (the engine's legal guesses or covers), and why
        each other card may not be named."""
        g = self.game
        allowed = {m.word for m in g.legal_moves(actor.seat) if isinstance(m, (Guess, Cover))}
        visible = set(g.visible_words())
        if self.is_duet:
            need = "is marked by your own earlier guess: you may not guess it again"
        elif actor.kind != "cover":
            need = ""  # every visible card may be guessed
        # The human covering is a spymaster: its screen shows the key, so naming the rule is fair.
        elif g.phase is Phase.SOLO_COVER:
            need = f"is not an opponent ({g.current_team.other.value}) agent"
        else:
            need = f"is not one of your own ({g.current_team.value}) agents"
        why: dict[str, str] = {}
        for w in g.words:
            if w not in visible:
                why[w] = "is already covered"
            elif w not in allowed and need:
                why[w] = need
        return allowed, why

    def _explain(self, exc: IllegalMove) -> str:
        """The engine's message with picture ids written as the captions the human sees."""
        text = str(exc)
        for card, label in sorted(self.labels.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(repr(card), label.upper()).replace(card, label.upper())
        return text

    def _unread_by_partner(self, clue: Clue) -> bool:
        """Whether the AI guesser of the person's clue cannot read its word, the first time
        this word is typed (a second time gives it anyway). Why: a Vietnamese playtest lost on
        SUY NGHĨ: 2, a word outside the glossary: the forced blind guess was the assassin."""
        if clue.is_zero:
            return False
        role = "b_guesser" if self.is_duet else f"{self.settings.team}_guesser"
        agent = self.agents.get(role)
        reads = getattr(agent, "reads", None)
        word = clue.word.strip().lower()
        if not callable(reads) or reads(clue.word) or self._unread_offered == word:
            return False
        self._unread_offered = word
        return True
