"""What the human's screen holds, built only from the views of the human's own seat.

Why: the screen builder never reads the key card. A classic spymaster's screen is built
from its SpymasterView (which is the key); a guesser's from its GuesserView (no key at all);
a Duet player's from player A's views (side A only). Besides the views it reads only public
facts: the clue being guessed, the starting team, the layout and the token bank. So no rendering bug, option or
explanation can put a card's hidden identity on a guesser's screen. The full key is drawn
only by :func:`key_screen`, which the session calls once the game is over. In Duet it also
shows how many greens each player still has to find (a count partners say aloud at the table)
and, once the game is lost, the card whose touch lost it (a public move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from ..rules.cards import Identity, Player, Team
from ..rules.classic import KINDS, ClassicGame
from ..rules.duet import TOTAL_GREENS, DuetGame
from .leftover import meant_note

__all__ = ["Cell", "ClueLine", "Screen", "classic_screen", "duet_screen", "key_screen"]


@dataclass(frozen=True)
class Cell:
    """One card as the human sees it.

    ``identity``: for a covered card, what it was revealed as; for an uncovered card, what
    the human's own key says (classic spymaster, Duet own side), else None. ``marks``: Duet
    bystander marks on a visible card ("you": you guessed it, "AI": the AI guessed it).
    ``lost_by``: who touched this card when that touch lost the game ("you" or "AI"), else None.
    """

    card: str
    label: str
    covered: bool
    identity: Optional[str]
    marks: tuple[str, ...] = ()
    lost_by: Optional[str] = None


@dataclass(frozen=True)
class ClueLine:
    """One clue of the public history: who gave it, the clue, each guess and its public result.

    ``meant``: for each guess, the earlier clue it was meant for when it was a leftover of
    one (:mod:`.leftover`), "(past the count)", or "" (shorter: none after the last noted)."""

    giver: str
    clue: str
    guesses: tuple[tuple[str, str], ...] = ()
    note: str = ""
    meant: tuple[str, ...] = ()

    def shown(self) -> tuple[tuple[str, str, str], ...]:
        """(card, outcome, earlier clue it was meant for or "") for each guess."""
        meant = self.meant + ("",) * (len(self.guesses) - len(self.meant))
        return tuple((label, outcome, m) for (label, outcome), m in zip(self.guesses, meant))

    def noted(self) -> tuple[tuple[str, str, str], ...]:
        """(card, outcome, what the log says of it: "for BEACH", "past the count" or "")."""
        return tuple((label, outcome, meant_note(m)) for label, outcome, m in self.shown())


@dataclass(frozen=True)
class Screen:
    """Everything drawn for the human at one moment."""

    title: str
    cells: tuple[Cell, ...]
    palette: str  # "classic" or "duet": how identities are coloured
    key_legend: Optional[str]  # set when uncovered cells show a key (whose key it is)
    status: tuple[str, ...]
    clues: tuple[ClueLine, ...] = ()
    current: Optional[str] = None
    columns: int = 5


def _label(card: str, labels: Mapping[str, str]) -> str:
    return labels.get(card, card)


def _agents_left(game: ClassicGame, revealed: tuple[tuple[str, str], ...]) -> dict[str, int]:
    """Agents each team still has to find: the layout (public) minus the cards revealed so far."""
    _, n_start, n_other, _, _ = KINDS[game.kind]
    starting = game.key.starting  # the key card's starting light is public (RULES.md §1 Setup)
    total = {starting.value: n_start, starting.other.value: n_other}
    for _, identity in revealed:
        if identity in total:
            total[identity] -= 1
    return total


def classic_screen(
    game: ClassicGame,
    team: Team,
    role: str,
    labels: Mapping[str, str],
    *,
    title: str,
    clues: tuple[ClueLine, ...],
    turn: str,
) -> Screen:
    """The screen of the human holding ``role`` for ``team``."""
    if role == "spymaster":
        sv = game.spymaster_view(team)
        revealed = sv.revealed
        key = {w: team.value for w in sv.own}
        key.update({w: team.other.value for w in sv.opponent})
        key.update({w: Identity.BYSTANDER.value for w in sv.bystanders})
        key.update({w: Identity.ASSASSIN.value for w in sv.assassins})
        legend = "your key card (only you see it)"
        clue, made, cap = game.clue, game.guesses_made, game.max_guesses
    else:
        gv = game.guesser_view(team)
        revealed = gv.revealed
        key = {}
        legend = None
        clue, made, cap = gv.clue, gv.guesses_made, gv.max_guesses
        if clue is None and game.clue is not None:  # the other team's clue is public too
            clue, made, cap = game.clue, game.guesses_made, game.max_guesses
    shown = dict(revealed)
    cells = tuple(
        Cell(w, _label(w, labels), w in shown, shown.get(w, key.get(w))) for w in game.words
    )
    left = _agents_left(game, revealed)
    if game.single_team:
        status = [
            f"Your agents left: {left[team.value]}",
            f"Opponent agents left: {left[team.other.value]} (one is covered after each of your turns that does not win)",
        ]
    else:
        status = [f"Red agents left: {left['red']}", f"Blue agents left: {left['blue']}"]
    if game.assassin_ending:
        status.append("Assassin Ending: find all your agents, then the assassin")
    status.append(turn)
    current = None
    if clue is not None and not game.is_over:
        limit = "no limit" if cap is None else f"at most {cap}"
        current = f"Clue: {str(clue).upper()} - guesses made {made} ({limit})"
    return Screen(title, cells, "classic", legend, tuple(status), clues, current)


def duet_screen(
    game: DuetGame,
    labels: Mapping[str, str],
    *,
    title: str,
    clues: tuple[ClueLine, ...],
    turn: str,
) -> Screen:
    """Player A's screen: side A of the key, both players' marks, the tokens."""
    me = Player.A
    gv = game.guesser_view(me)
    sv = game.spymaster_view(me)
    shown = dict(gv.revealed)
    mine, theirs = set(gv.marked_by_me), set(sv.partner_marked)
    own_side = gv.own_side or ()
    fatal = _losing_touch(game)
    cells = []
    for i, w in enumerate(game.words):
        marks = tuple(m for m, s in (("you", mine), ("AI", theirs)) if w in s)
        identity = shown[w] if w in shown else own_side[i]
        lost_by = fatal[1] if fatal is not None and fatal[0] == w else None
        cells.append(Cell(w, _label(w, labels), w in shown, identity, marks, lost_by))
    extra = sv.extra
    tokens = f"Timer tokens left: {sv.tokens_left} of {game.tokens}"
    mistakes = game.config()["mistakes"]
    if mistakes is not None and mistakes < game.tokens:  # a mission: the token faces matter
        tokens += f" ({extra['bystander_tokens_left']} bystander-face, {extra['marked_tokens_left']} marked-face)"
    status = [
        tokens,
        f"Green words left: {extra['greens_left']} of {TOTAL_GREENS}",
        greens_to_find(len(game.words_left_for(Player.B)), len(sv.own)),
        turn,
    ]
    current = None
    if game.clue is not None and not game.is_over:  # no clue is "current" once the game is over
        current = f"Clue: {str(game.clue).upper()} - guesses made {game.guesses_made} (no limit)"
    return Screen(title, tuple(cells), "duet", "your side of the key (the AI sees the other)", tuple(status), clues, current)


GREENS_TO_FIND = "Greens to find:"


def greens_to_find(yours: int, ais: int) -> str:
    """Who still has to find how many greens, said so that a new player sees that each player
    guesses the greens of the *partner's* side: ``yours`` are green on the AI's side (its clues
    point at them), ``ais`` green on yours (your clues point at them)."""
    return (f"{GREENS_TO_FIND} you {yours} (on the AI's side, from its clues) · "
            f"the AI {ais} (on your side, from your clues)")


def _losing_touch(game: DuetGame) -> Optional[tuple[str, str]]:
    """(card, "you" or "AI") when the game was lost by touching that card (an assassin, or a
    wrong card in sudden death or without a token to pay for it), else None. Read from the
    public moves: the last one is the touch that ended the game."""
    cause = game.loss_cause.value if game.loss_cause else ""
    if not game.is_over or game.winner or cause not in ("assassin", "mistake") or not game.actions:
        return None
    last = game.actions[-1]
    if last.get("type") == "sd_guess":
        player = Player(last["player"])
    elif last.get("type") == "guess" and game.guesser is not None:
        player = game.guesser
    else:
        return None
    return last["word"], "you" if player is Player.A else "AI"


def key_screen(game: ClassicGame | DuetGame, labels: Mapping[str, str], title: str) -> list[Screen]:
    """The whole key, for the end of the game (Duet: both sides)."""
    if isinstance(game, DuetGame):
        out = []
        for p, whose in ((Player.A, "your side"), (Player.B, "the AI's side")):
            side = game.key.side(p)
            cells = tuple(Cell(w, _label(w, labels), False, side[i].value) for i, w in enumerate(game.words))
            out.append(Screen(f"{title}: {whose}", cells, "duet", whose, ()))
        return out
    cells = tuple(
        Cell(w, _label(w, labels), w in game.covered, i.value) for w, i in zip(game.words, game.key.identities)
    )
    return [Screen(title, cells, "classic", "the key card", ())]
