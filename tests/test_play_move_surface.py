"""The play session takes its rule answers from the engine's move surface, not its own copy.

Each test changes one answer of the engine (``current_seats``, ``legal_moves``,
``clue_verdict``) on a live game and checks that the session follows it: who moves, what
the person may name or stop, what the AI may clue. A session that re-derived these from
the phase would not see the change.
"""

from __future__ import annotations

from types import SimpleNamespace

from spymaster_ai.play import PlaySettings
from spymaster_ai.rules.moves import Guess, Stop

from test_play_session import start


def _to_persons_guess(session) -> None:
    """Advance a classic session (the person a guesser) to the person's first guess."""
    session.advance()
    assert session.prompt() is not None and session.prompt().kind == "guess"


def test_the_person_may_name_only_the_engines_legal_guesses(monkeypatch):
    session = start(PlaySettings(mode="classic", seed=5, role="guesser", team="red"))
    _to_persons_guess(session)
    game = session.game
    barred, other = game.visible_words()[:2]
    legal = game.legal_moves
    monkeypatch.setattr(game, "legal_moves", lambda seat, *a, **k: tuple(
        m for m in legal(seat, *a, **k) if m != Guess(barred)))
    before = len(game.actions)
    reply = session.answer(barred)
    assert not reply.moved and reply.events[0].kind == "error" and len(game.actions) == before
    assert session.answer(other).moved


def test_stop_is_offered_when_the_engine_lists_it(monkeypatch):
    session = start(PlaySettings(mode="classic", seed=5, role="guesser", team="red"))
    _to_persons_guess(session)
    game = session.game
    assert "stop" not in session.prompt().text  # no guess yet: the engine lists no STOP
    legal = game.legal_moves
    monkeypatch.setattr(game, "legal_moves", lambda seat, *a, **k: legal(seat, *a, **k) + (Stop(),))
    assert "'stop'" in session.prompt().text
    monkeypatch.setattr(game, "stop", lambda: None)  # the engine's own stop would refuse it
    assert session.answer("stop").moved


def test_the_seat_to_move_is_the_engines(monkeypatch):
    """Duet's first clue: either player may give it, so the engine lists both seats and the
    session picks by --first; with one seat listed, that seat moves."""
    session = start(PlaySettings(mode="duet", seed=7, first="human"))
    assert session.game.current_seats() == ("a_spymaster", "b_spymaster")
    assert session.prompt() is not None and session.prompt().kind == "clue"
    monkeypatch.setattr(session.game, "current_seats", lambda: ("b_spymaster",))
    assert session.prompt() is None  # the AI's clue now
    assert session._turn_line() == "Now: the AI - give a clue"


def test_an_ai_clue_is_checked_by_the_engines_verdict(monkeypatch):
    """Under "penalty" an illegal clue is played with its penalty, so the session asks the
    engine first (``clue_verdict``) and takes the AI's next best clue instead."""
    session = start(PlaySettings(mode="classic", seed=6, role="guesser", team="blue", penalty=True))
    spymaster = session.agents[f"{session.game.current_team.value}_spymaster"]
    first = spymaster.give_clue(session._spymaster_view(SimpleNamespace(team=session.game.current_team)))
    verdict = session.game.clue_verdict
    monkeypatch.setattr(session.game, "clue_verdict", lambda clue: SimpleNamespace(legal=False, reason="barred")
                        if clue.word == first.word else verdict(clue))
    session.advance()
    given = session.game.actions[0]
    assert given["type"] == "clue" and given["word"] != first.word and given["legal"]
