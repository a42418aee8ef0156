"""The play session without a terminal: whole games in every mode, fairness, refusals, save/resume.

The AI players here load no model: a scripted spymaster (legal clues from a fixed list, one
card at a time, reporting its target) and the registry's seeded random guesser, which keeps
state between calls, so a resumed game only matches an uninterrupted one if the session
really replays the agents' history.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from pathlib import Path
from typing import Optional

import pytest

from spymaster_ai.agents.registry import make_guesser
from spymaster_ai.play import (
    PlaySettings,
    SaveFileError,
    Session,
    ai_roles,
    new_game,
    read_saved,
    resume_session,
    save_session,
    saver,
    write_board_png,
)
from spymaster_ai.play.leftover import meant_note
from spymaster_ai.rules.cards import Identity, Player, Team
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.legality import LegalityOptions, check_clue
from spymaster_ai.rules.moves import Clue, Phase
from spymaster_ai.views import GuesserView, SpymasterView

CLUE_WORDS = (
    "zebra quantum saxophone galaxy tornado wizard violin glacier falcon harbor meteor canyon jungle pirate "
    "lantern compass orbit thunder marble velvet"
).split()


class ScriptedSpymaster:
    """Clues the next legal word of a fixed list for its first own card, count 1."""

    def __init__(self) -> None:
        self.views: list[SpymasterView] = []

    def reset(self, seed: int) -> None:
        self.views = []

    def _options(self, view: SpymasterView):
        used = {h.clue.word for h in view.history}
        for word in CLUE_WORDS:
            if word not in used and check_clue(word, list(view.visible), count=1).legal:
                # no own card left (Assassin Ending: only the assassin remains to touch): no target
                yield SimpleNamespace(word=word, count=1, targets=tuple(view.own[:1]), clue=Clue(word, 1))

    def give_clue(self, view: SpymasterView) -> Clue:
        self.views.append(view)
        return next(self._options(view)).clue

    def rank_clues(self, view: SpymasterView, top: int = 1):
        return list(self._options(view))[:top]


class RecordingGuesser:
    """The seeded random guesser, keeping every view it was shown."""

    def __init__(self) -> None:
        self.inner = make_guesser("random")
        self.views: list[GuesserView] = []

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def next_guess(self, view: GuesserView) -> Optional[str]:
        self.views.append(view)
        return self.inner.next_guess(view)


def agents_for(settings: PlaySettings) -> dict:
    return {r: ScriptedSpymaster() if r.endswith("spymaster") else RecordingGuesser() for r in ai_roles(settings)}


def start(settings: PlaySettings, save=None) -> Session:
    game, labels = new_game(settings)
    return Session(settings, game, agents_for(settings), labels, save=save)


def policy(session: Session, rng: random.Random) -> str:
    """A test player: it reads the key (only to play sensibly) and types like a human would."""
    g = session.game
    prompt = session.prompt()
    assert prompt is not None
    label = lambda card: session.labels.get(card, card)  # noqa: E731
    if prompt.kind == "clue":
        visible = list(g.visible_words())
        used = {line.clue.split(":")[0] for line in session.clues}
        word = next(w for w in CLUE_WORDS if w not in used and check_clue(w, visible, count=1).legal)
        return f"{word} {rng.choice([1, 2])}"
    if isinstance(g, DuetGame):
        wanted = [w for w in g.words_left_for(Player.B) if g.can_guess(Player.A, w)]
        if prompt.kind == "sudden_death_wait":
            return "ai"
        if prompt.kind == "sudden_death":
            return label(wanted[0]) if wanted else "pass"
        if g.correct_this_turn >= 2:
            return "stop"
        return label((wanted or [w for w in g.visible_words() if g.can_guess(Player.A, w)])[0])
    if prompt.kind == "cover":
        team = g.current_team.other if g.phase is Phase.SOLO_COVER else g.current_team
        return label(g.remaining(Identity.of_team(team))[0]).upper()
    if prompt.kind == "guess" and g.guesses_made >= 2:
        return "stop"
    own = g.remaining(Identity.of_team(g.current_team))
    visible = list(g.visible_words())
    return label(own[0] if own and rng.random() < 0.7 else rng.choice(visible))


def a_legal_clue(session: Session) -> str:
    visible = list(session.game.visible_words())
    return next(w for w in CLUE_WORDS if check_clue(w, visible, count=1).legal) + " 1"


def play_out(session: Session, answers: Optional[list[str]] = None, seed: int = 0, limit: int = 400):
    """Play to the end; returns (answers typed, events shown, screens shown)."""
    rng = random.Random(seed)
    typed: list[str] = []
    events = list(session.advance())
    screens = [session.screen()]
    queue = list(answers) if answers is not None else None
    while not session.is_over and not session.error:
        if queue is not None and not queue:
            break
        line = queue.pop(0) if queue is not None else policy(session, rng)
        typed.append(line)
        reply = session.answer(line)
        events += reply.events
        if reply.moved:
            events += session.advance()
            screens.append(session.screen())
        assert len(typed) < limit, "the game did not end"
    return typed, events, screens


ALL_SETTINGS = [
    PlaySettings(mode="solo", seed=3, role="guesser"),
    PlaySettings(mode="solo", seed=4, role="spymaster"),
    PlaySettings(mode="classic", seed=5, role="guesser", team="blue"),
    PlaySettings(mode="classic", seed=6, role="spymaster", team="red"),
    PlaySettings(mode="duet", seed=7),
    PlaySettings(mode="duet", seed=8, first="human", mission="cairo"),
    PlaySettings(mode="pictures", seed=9, role="guesser"),
    PlaySettings(mode="pictures", seed=10, role="spymaster", solo=True),
    PlaySettings(mode="pictures", seed=11, role="guesser", cards="words", assassin_ending=True),
]


def _id(s: PlaySettings) -> str:
    return f"{s.mode}-{s.role}-{s.seed}"


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("settings", ALL_SETTINGS, ids=_id)
def test_every_mode_plays_to_an_end_with_a_result(settings):
    session = start(settings)
    play_out(session)
    assert session.is_over and session.error is None
    events, keys = session.summary()
    assert events[0].kind == "end"
    g = session.game
    if isinstance(g, DuetGame):
        assert ("win" in events[0].text) == bool(g.winner)
        if g.winner:
            assert f"Score: {g.score()}" in events[0].text
        assert len(keys) == 2  # both sides of the key, after the end
    else:
        assert g.winner is not None
        if g.solo and g.winner is Team.RED:
            assert f"Score: {g.score()}" in events[0].text
        assert [c.identity for c in keys[0].cells] == [i.value for i in g.key.identities]


@pytest.mark.parametrize("settings", [s for s in ALL_SETTINGS if s.mode != "duet"], ids=_id)
def test_a_classic_screen_shows_the_key_only_to_a_spymaster(settings):
    session = start(settings)
    _, _, screens = play_out(session)
    key = dict(zip(session.game.words, (i.value for i in session.game.key.identities)))
    assert len(screens) >= 2
    for screen in screens:
        for cell in screen.cells:
            if cell.covered:
                assert cell.identity == key[cell.card]  # what it was revealed as
            elif settings.role == "spymaster":
                assert cell.identity == key[cell.card]
            else:
                assert cell.identity is None, f"{cell.card} shows {cell.identity} to a guesser"
        assert (screen.key_legend is not None) == (settings.role == "spymaster")


@pytest.mark.parametrize("settings", [s for s in ALL_SETTINGS if s.mode == "duet"], ids=_id)
def test_a_duet_screen_shows_only_the_humans_side(settings):
    session = start(settings)
    _, _, screens = play_out(session)
    g = session.game
    side_a = dict(zip(g.words, (i.value for i in g.key.side(Player.A))))
    side_b = dict(zip(g.words, (i.value for i in g.key.side(Player.B))))
    differ = [w for w in g.words if side_a[w] != side_b[w]]
    assert differ
    for screen in screens:
        for cell in screen.cells:
            if not cell.covered:
                assert cell.identity == side_a[cell.card]


def test_the_ai_spymaster_keeps_its_targets_secret_until_the_end():
    session = start(PlaySettings(mode="solo", seed=12, role="guesser"))
    _, events, _ = play_out(session)
    assert session.targets  # noted while playing...
    spy = session.agents["spymaster"]
    for e in events:  # ...never said while playing
        assert "aimed" not in e.text
        for _, clue, _ in session.targets:
            assert f"{clue.upper()} -> " not in e.text
    summary, _ = session.summary()
    lines = [e.text for e in summary]
    assert any("aimed at" in t for t in lines)
    first_clue, first_target = session.targets[0][1], spy.views[0].own[0]
    assert any(f"{first_clue.upper()} -> {first_target.upper()}" in t for t in lines)


class WarningSpymaster(ScriptedSpymaster):
    """Opens with a zero clue (as the registry spymasters warn about the assassin), then clues."""

    def give_clue(self, view: SpymasterView) -> Clue:
        if not view.history:
            self.views.append(view)
            return Clue(next(self._options(view)).word, 0)
        return super().give_clue(view)


@pytest.mark.parametrize("settings", [PlaySettings(mode="classic", seed=5, role="guesser"), PlaySettings(mode="duet", seed=7)], ids=_id)
def test_an_ai_zero_clue_is_explained_to_the_human_once(settings):
    game, labels = new_game(settings)
    agents = {r: WarningSpymaster() if r.endswith("spymaster") else RecordingGuesser() for r in ai_roles(settings)}
    session = Session(settings, game, agents, labels)
    _, events, _ = play_out(session)
    texts = [e.text for e in events]
    clues = [i for i, t in enumerate(texts) if " the clue: " in t]
    zeros = [i for i in clues if texts[i].endswith(": 0")]
    assert zeros and len(zeros) < len(clues)  # each AI spymaster's first clue only
    for i in clues:
        explained = texts[i + 1].startswith("A zero clue")
        assert explained == (i in zeros)
        if explained:
            note, word = events[i + 1], texts[i].split("clue: ")[1].split(":")[0]
            assert note.kind == "info" and f"relates to {word}" in note.text
            assert "at least one guess is still due" in note.text
            mine = settings.mode == "duet" or texts[i].startswith("Your")
            assert ("It warns you " if mine else "It warns its guesser ") in note.text
            team = "red" if texts[i].startswith("Your") else "blue"
            assert (f"none of the {team} agents" if settings.mode == "classic" else "none of the words green on its side") in note.text


def test_a_humans_zero_clue_gets_no_explanation():
    session = start(PlaySettings(mode="classic", seed=6, role="spymaster", team="red"))
    session.advance()
    word = a_legal_clue(session).split()[0]
    reply = session.answer(f"{word} 0")
    assert reply.moved
    assert not any(e.text.startswith("A zero clue") for e in reply.events)


class Scored(RecordingGuesser):
    """The random guesser with a ranking to share: board order, first best."""

    def rank_cards(self, view):
        return [SimpleNamespace(word=w, score=float(-i)) for i, w in enumerate(view.visible)]


def test_the_ai_guesser_tells_a_classic_spymaster_its_confidence_but_says_nothing_in_duet():
    classic = start(PlaySettings(mode="solo", seed=13, role="spymaster"))
    _, events, _ = play_out(classic)
    assert not any("confidence" in e.text for e in events)  # the random guesser has no scores to share

    settings = PlaySettings(mode="solo", seed=13, role="spymaster")
    game, labels = new_game(settings)
    session = Session(settings, game, {"guesser": Scored()}, labels)
    _, events, _ = play_out(session)
    assert any("confidence" in e.text for e in events)

    settings = PlaySettings(mode="duet", seed=13, first="human")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": Scored()}, labels)
    _, events, _ = play_out(session)
    assert not any("confidence" in e.text for e in events)


def test_agents_see_views_of_their_role_with_picture_captions():
    settings = PlaySettings(mode="pictures", seed=14, role="guesser", team="red")
    session = start(settings)
    play_out(session)
    captions = {c.replace(" + ", " ") for c in session.labels.values()}
    spy = session.agents["red_spymaster"]
    guesser = session.agents["blue_guesser"]
    assert spy.views and guesser.views
    for view in spy.views + guesser.views:
        assert set(view.words) == captions
    assert all(isinstance(v, GuesserView) and not hasattr(v, "own") for v in guesser.views)


# ----------------------------------------------------------------------------- refusals


def _state(session: Session) -> str:
    return json.dumps(session.game.state_json(), sort_keys=True)


def test_refused_input_says_why_and_changes_nothing():
    session = start(PlaySettings(mode="solo", seed=15, role="spymaster"))
    session.advance()
    before = _state(session)
    board_word = session.game.words[0]
    for line, message in [
        (f"{board_word} 2", "illegal clue"),
        ("ocean", "a word and a number"),
        ("stop", "give a clue"),
        ("ocean 40", "at most 25"),
    ]:
        reply = session.answer(line)
        assert not reply.moved and message in reply.events[0].text
        assert _state(session) == before
    assert "rule 1" in session.answer(f"{board_word} 2").events[0].text  # the reason names the rule
    reply = session.answer(a_legal_clue(session))
    assert reply.moved
    session.advance()
    while session.prompt() is not None and session.prompt().kind != "cover":
        session.answer(policy(session, random.Random(0)))
        session.advance()
    if session.prompt() is None:
        pytest.skip("the game ended before a cover")  # pragma: no cover - seed 15 reaches a cover
    before = _state(session)
    red = session.game.remaining(Identity.RED)[0]
    reply = session.answer(red)
    assert "is not an opponent (blue) agent" in reply.events[0].text and _state(session) == before


def test_a_guesser_gets_clear_messages_for_bad_words_and_early_stops():
    session = start(PlaySettings(mode="solo", seed=16, role="guesser"))
    session.advance()
    before = _state(session)
    assert "not a card on this board" in session.answer("xyzzy").events[0].text
    assert "at least one guess" in session.answer("stop").events[0].text
    assert "Type a card name" in session.answer("help").events[0].text
    assert session.answer("board").redraw
    assert _state(session) == before
    card = session.game.visible_words()[0]
    assert session.answer(card).moved
    if session.game.phase is Phase.GUESS and card not in session.game.visible_words():
        assert "already covered" in session.answer(card).events[0].text
    assert session.answer("quit").quit


def test_a_guess_with_a_typo_is_not_played_but_answered_with_the_closest_card():
    session = start(PlaySettings(mode="solo", seed=16, role="guesser"))
    session.advance()
    before = _state(session)
    card = max(session.game.visible_words(), key=len)
    typo = card[0] + card[2] + card[1] + card[3:]  # two letters swapped
    reply = session.answer(typo)
    assert not reply.moved and _state(session) == before
    assert f"Did you mean {card.upper()}?" in reply.events[0].text
    assert session.prompt().kind == "guess"  # asked again


def test_classic_penalty_ends_the_turn_and_the_other_side_covers():
    settings = PlaySettings(mode="classic", seed=17, role="spymaster", team="red", penalty=True)
    session = start(settings)
    session.advance()
    assert session.prompt().kind == "clue"
    g = session.game
    blue_before = len(g.remaining(Identity.BLUE))
    reply = session.answer(f"{g.visible_words()[0]} 1")
    assert reply.moved and any("Penalty" in e.text for e in reply.events)
    events = session.advance()
    assert len(g.remaining(Identity.BLUE)) <= blue_before - 1 or g.is_over
    assert any("as the penalty" in e.text for e in events)


def test_duet_illegal_clue_is_free_in_strict_mode_and_costs_a_token_with_penalty():
    strict = start(PlaySettings(mode="duet", seed=18, first="human"))
    strict.advance()
    word = strict.game.visible_words()[0]
    before = _state(strict)
    reply = strict.answer(f"{word} 1")
    assert "illegal clue" in reply.events[0].text and _state(strict) == before
    assert strict.game.tokens_left == 9

    penalty = start(PlaySettings(mode="duet", seed=18, first="human", penalty=True))
    penalty.advance()
    reply = penalty.answer(f"{word} 1")
    assert reply.moved
    assert any("one timer token is discarded (9 -> 8)" in e.text for e in reply.events)
    assert penalty.game.tokens_left == 8 and penalty.game.phase is Phase.GUESS


def test_duet_sudden_death_asks_the_human_and_pass_ends_their_guessing():
    settings = PlaySettings(mode="duet", seed=19, first="human", tokens=1)
    session = start(settings)
    session.advance()
    assert session.answer(a_legal_clue(session)).moved
    events = session.advance()
    while not session.is_over and session.prompt() is not None and session.prompt().kind != "sudden_death":
        session.answer(policy(session, random.Random(1)))
        events += session.advance()
    assert session.is_over or session.game.phase is Phase.SUDDEN_DEATH
    if session.is_over:
        pytest.skip("the game ended before the human's sudden-death turn")  # pragma: no cover
    assert any("SUDDEN DEATH" in e.text for e in events)
    assert "Sudden death" in session.prompt().text
    reply = session.answer("pass")
    assert reply.moved and any("pass" in e.text for e in reply.events)
    assert Player.A not in session.game.sudden_death_players()


def _to_sudden_death_with_both_guessing(seed: int) -> Session:
    """A Duet session on one token, played up to a sudden death in which both may guess."""
    for s in range(seed, seed + 40):
        session = start(PlaySettings(mode="duet", seed=s, first="human", tokens=1))
        session.advance()
        session.answer(a_legal_clue(session))
        session.advance()
        while session.prompt() is not None and session.prompt().kind == "guess":
            session.answer(policy(session, random.Random(1)))
            session.advance()
        g = session.game
        if not g.is_over and g.phase is Phase.SUDDEN_DEATH and len(g.sudden_death_players()) == 2:
            return session
    raise AssertionError("no seed reached a two-player sudden death")  # pragma: no cover


def test_in_duet_sudden_death_the_person_chooses_the_order_and_ai_hands_over_one_guess():
    # playtests: "the screen never offered me a move" - the AI guessed first and alone
    session = _to_sudden_death_with_both_guessing(19)
    prompt = session.prompt()
    assert prompt is not None and prompt.kind == "sudden_death" and prompt.handover and "'ai'" in prompt.text
    assert session.advance() == []  # the AI waits for the person
    before = len(session.game.actions)
    reply = session.answer("ai")
    assert reply.moved and not session.game.actions[before:]  # handing over is no move of the game
    session.advance()
    made = session.game.actions[before:]
    assert len(made) == 1 and made[0]["type"] in ("sd_guess", "sd_pass") and made[0]["player"] == "B"
    if not session.is_over:  # the turn comes back to the person
        assert session.prompt() is not None and session.prompt().kind == "sudden_death"


def _to_sudden_death_with_only_the_ai_left(seed: int) -> Session:
    """A two-player sudden death in which the person has found every card of theirs."""
    for s in range(seed, seed + 40):
        session = _to_sudden_death_with_both_guessing(s)
        g = session.game
        while not g.is_over and session.prompt() is not None and session.prompt().kind == "sudden_death":
            session.answer(policy(session, random.Random(1)))  # the person's own cards, read off the key
            session.advance()
        if not g.is_over and g.phase is Phase.SUDDEN_DEATH and not g.words_left_for(Player.B):
            return session
    raise AssertionError("no seed left the AI alone in sudden death")  # pragma: no cover


def _replayed_into(whole: Session, path) -> Session:
    """A new session saving to ``path`` with ``whole``'s moves replayed into it."""
    game, labels = new_game(whole.settings)
    session = Session(whole.settings, game, agents_for(whole.settings), labels, save=saver(path))
    session.advance()
    session.replay(list(whole.game.actions))
    return session


def test_in_duet_sudden_death_the_ai_alone_guesses_only_when_the_person_lets_it():
    # playtests: sudden death "started with no prompt" when the person had nothing left to
    # find - the AI's guess, which lost the game, was already on the screen
    session = _to_sudden_death_with_only_the_ai_left(19)
    prompt = session.prompt()
    left = len(session.game.words_left_for(Player.A))
    assert prompt is not None and prompt.kind == "sudden_death_wait" and prompt.handover
    assert f"your last {left}" in prompt.text and "Enter" in prompt.text
    before = len(session.game.actions)
    assert session.advance() == [] and len(session.game.actions) == before  # it waits
    card = session.game.visible_words()[0]
    refused = session.answer(card)
    assert not refused.moved and "no cards left to find" in refused.events[-1].text
    reply = session.answer("")  # Enter
    assert reply.moved and len(session.game.actions) == before
    session.advance()
    made = session.game.actions[before:]
    assert len(made) == 1 and made[0] == {"type": "sd_guess", "player": "B", "word": made[0]["word"]}
    if not session.is_over:  # one guess at a time: it waits again
        assert session.prompt().kind == "sudden_death_wait"


def test_a_game_saved_while_the_ai_waits_in_sudden_death_resumes_there(tmp_path):
    path = tmp_path / "sd-wait.json"
    whole = _to_sudden_death_with_only_the_ai_left(19)
    session = _replayed_into(whole, path)
    session.save_now()
    resumed = resume_session(path, agents=agents_for(whole.settings))
    assert resumed.mismatches == 0 and resumed.game.actions == whole.game.actions
    assert resumed.advance() == [] and resumed.prompt().kind == "sudden_death_wait"
    resumed.answer("ai")
    resumed.advance()
    assert resumed.game.actions[-1]["player"] == "B" and len(resumed.game.actions) == len(whole.game.actions) + 1


def test_ai_is_refused_outside_sudden_death():
    session = start(PlaySettings(mode="duet", seed=19, first="ai"))
    session.advance()
    assert session.prompt().kind == "guess"
    reply = session.answer("ai")
    assert not reply.moved and "sudden death" in reply.events[-1].text


def test_a_persons_sudden_death_pass_ends_the_game_when_it_cannot_be_won():
    # a playtest: after the person's pass had made a win impossible the AI went on guessing
    # and touched an assassin
    session = _to_sudden_death_with_both_guessing(19)
    reply = session.answer("pass")
    assert session.is_over and session.game.winner is False
    assert session.game.actions[-1] == {"type": "sd_pass", "player": "A"}
    assert any("cannot be won" in e.text for e in reply.events)
    assert session.advance() == []


def test_a_resumed_sudden_death_keeps_the_order_the_person_chose(tmp_path):
    path = tmp_path / "sd.json"
    whole = _to_sudden_death_with_both_guessing(19)
    settings = whole.settings
    session = _replayed_into(whole, path)
    session.answer("ai")
    session.advance()
    session.save_now()
    resumed = resume_session(path, agents=agents_for(settings))
    assert resumed.game.actions == session.game.actions and resumed.mismatches == 0


def test_an_ai_failure_ends_the_session_cleanly_without_touching_the_game():
    class Broken(ScriptedSpymaster):
        def give_clue(self, view):
            raise RuntimeError("out of ideas")

    settings = PlaySettings(mode="solo", seed=20, role="guesser")
    game, labels = new_game(settings)
    session = Session(settings, game, {"spymaster": Broken()}, labels)
    events = session.advance()
    assert session.error and "out of ideas" in events[-1].text
    assert session.prompt() is None and session.game.actions == []


# ----------------------------------------------------------------------------- save and resume


@pytest.mark.parametrize("settings", ALL_SETTINGS, ids=_id)
def test_a_resumed_game_goes_on_exactly_as_an_uninterrupted_one(settings, tmp_path):
    whole = start(settings)
    answers, events_whole, _ = play_out(whole)
    assert whole.is_over

    path = tmp_path / "game.json"
    cut = len(answers) // 2
    first = start(settings, save=saver(path))
    play_out(first, answers[:cut])
    moves_saved = len(first.game.actions)
    assert json.loads(path.read_text())["actions"] == first.game.actions  # saved after every move

    resumed = resume_session(path, agents=agents_for(settings))  # fresh agents, rebuilt by replay
    assert len(resumed.game.actions) == moves_saved and resumed.mismatches == 0
    assert resumed.clues == first.clues
    play_out(resumed, answers[cut:])
    assert resumed.is_over
    assert resumed.game.state_json() == whole.game.state_json()
    assert resumed.clues == whole.clues and resumed.targets == whole.targets
    assert json.loads(path.read_text())["final_state"] == json.loads(json.dumps(whole.game.state_json()))


def test_the_save_file_holds_the_settings_and_refuses_tampering(tmp_path):
    settings = PlaySettings(mode="duet", seed=21, agent="glove50", risk=0.3, mission="cairo")
    session = start(settings)
    play_out(session, [a_legal_clue(session)] if session.prompt() else [])
    path = save_session(session, tmp_path / "s.json")
    saved = read_saved(path)
    assert saved.settings == settings and saved.record["config"]["mission"] == "cairo"

    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:-1]
    (tmp_path / "cut.json").write_text(json.dumps(data))
    with pytest.raises(SaveFileError, match="checksum"):
        read_saved(tmp_path / "cut.json")
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(SaveFileError, match="not a readable save file"):
        read_saved(tmp_path / "junk.json")
    with pytest.raises(SaveFileError, match="no such save file"):
        read_saved(tmp_path / "missing.json")

    from spymaster_ai.rules.record import save_record

    save_record(session.game, tmp_path / "plain.json")
    with pytest.raises(SaveFileError, match="not a saved play session"):
        read_saved(tmp_path / "plain.json")


@pytest.mark.parametrize("checksum", ["missing", "wrong", "not a string"])
def test_an_edited_save_without_its_checksum_or_with_a_wrong_one_is_refused(tmp_path, checksum):
    # The edit replays cleanly (the human takes the AI's seat), so only the checksum catches it.
    session = start(PlaySettings(mode="solo", seed=27, role="guesser"))
    play_out(session, seed=1)
    data = json.loads(save_session(session, tmp_path / "s.json").read_text())
    data["meta"]["play"]["settings"]["role"] = "spymaster"
    if checksum == "missing":
        del data["sha256"]
    else:
        data["sha256"] = "0" * 64 if checksum == "wrong" else None
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    message = "has no checksum" if checksum != "wrong" else "checksum does not match the content"
    with pytest.raises(SaveFileError, match=message):
        read_saved(edited)
    with pytest.raises(SaveFileError, match=message):
        resume_session(edited, agents=agents_for(PlaySettings(mode="solo", seed=27, role="spymaster")))


def test_a_save_is_atomic_and_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "g.json"
    session = start(PlaySettings(mode="solo", seed=22, role="guesser"), save=saver(path))
    play_out(session)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
    assert read_saved(path).game.is_over


def test_a_save_that_cannot_be_written_stops_saving_and_the_game_goes_on(tmp_path, read_only):
    path = tmp_path / "g.json"
    session = start(PlaySettings(mode="solo", seed=22, role="guesser"), save=saver(path))
    session.advance()
    assert session.save_now() and session.save_failure is None
    saved = json.loads(path.read_text())["actions"]

    read_only.add(tmp_path.resolve())
    rng = random.Random(0)
    reply = session.answer(policy(session, rng))  # must not raise
    assert reply.moved
    assert session.save_failure == f"cannot save the game to {path}: Permission denied"
    assert len(session.game.actions) == len(saved) + 1  # the move is kept in memory...
    assert json.loads(path.read_text())["actions"] == saved  # ...though not in the file
    session.advance()
    assert not session.save_now()  # saving is off until the front end sets another file

    other = tmp_path / "elsewhere" / "g.json"
    other.parent.mkdir()
    assert session.save_to(saver(other)) and session.save_failure is None
    play_out(session)
    assert read_saved(other).game.state_json() == session.game.state_json()
    assert json.loads(path.read_text())["actions"] == saved


def test_the_console_offers_another_file_when_the_save_folder_turns_read_only_mid_game(tmp_path, read_only):
    from io import StringIO

    from rich.console import Console

    from spymaster_ai.play import run_console

    path, other = tmp_path / "ro" / "g.json", tmp_path / "other.json"
    path.parent.mkdir()
    session = start(PlaySettings(mode="solo", seed=22, role="spymaster"), save=saver(path))
    assert session.save_now()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Another save file"):
            return str(other)
        if len(prompts) == 2:
            read_only.add(path.parent.resolve())  # the folder turns read-only during the game
        if len(prompts) == 4:
            return "quit"
        return policy(session, random.Random(len(prompts)))

    out = StringIO()
    status = run_console(session, Console(file=out, width=100), read=read, save_path=path, echo=True)
    text = out.getvalue()
    assert status == 0
    assert text.count(f"cannot save the game to {path}: Permission denied. The game goes on in memory.") == 1
    assert prompts[2].startswith("Another save file")
    assert f"The game is saved in {other}. Continue it with: spymaster-ai play resume {other}" in text
    assert json.loads(other.read_text())["actions"] == json.loads(json.dumps(session.game.actions))
    assert len(json.loads(path.read_text())["actions"]) < len(session.game.actions)


# ----------------------------------------------------------------------------- pictures image


def test_the_png_board_shows_key_colours_only_on_a_spymasters_screen(tmp_path):
    from PIL import Image

    from spymaster_ai.pictures.board_image import BORDER, GAP, KEY_COLOURS, NO_KEY

    for role in ("guesser", "spymaster"):
        session = start(PlaySettings(mode="pictures", seed=23, role=role))
        session.advance()
        path = write_board_png(session.screen(), tmp_path / f"{role}.png")
        image = Image.open(path).convert("RGB")
        corner = image.getpixel((GAP + BORDER // 2, GAP + BORDER // 2))  # the first card's frame
        first = session.game.words[0]
        if first in session.game.covered:
            continue  # pragma: no cover - the first card is still uncovered at the start
        if role == "guesser":
            assert corner == NO_KEY
        else:
            assert corner == KEY_COLOURS[session.game.key.identities[0]]


def test_an_ai_clue_the_pictures_rules_refuse_is_replaced_by_its_next_best():
    class ColourFirst(ScriptedSpymaster):
        """Its own checker reads captions as words and allows 'red'; Pictures rules do not."""

        def _options(self, view):
            yield SimpleNamespace(word="red", count=1, targets=(view.own[0],), clue=Clue("red", 1))
            yield from super()._options(view)

    settings = PlaySettings(mode="pictures", seed=24, role="guesser", solo=True)
    game, labels = new_game(settings)
    session = Session(settings, game, {"spymaster": ColourFirst()}, labels)
    events = session.advance()
    assert session.error is None
    assert session.game.actions[0]["word"] != "red"
    assert session.game.actions[0]["legal"] is True
    assert "colour" in check_clue("red", [], LegalityOptions(pictures=True)).reason  # why it was replaced
    assert session.targets[0][1] == str(Clue(session.game.actions[0]["word"], 1))
    assert any("gives the clue" in e.text for e in events)


def test_a_human_pictures_clue_follows_the_pictures_rules():
    settings = PlaySettings(mode="pictures", seed=25, role="spymaster", solo=True)
    session = start(settings)
    session.advance()
    reply = session.answer("green 2")
    assert not reply.moved and "colour word" in reply.events[0].text
    caption_word = session.labels[session.game.words[0]].split()[0]
    reply = session.answer(f"{caption_word} 1")  # a caption is what the picture shows: a legal clue
    assert reply.moved, reply.events


def test_solo_penalty_lets_the_simulated_opponent_cover_then_the_spymaster():
    settings = PlaySettings(mode="solo", seed=26, role="spymaster", penalty=True)
    session = start(settings)
    session.advance()
    g = session.game
    reply = session.answer(f"{g.visible_words()[0]} 1")
    assert reply.moved and any("Penalty" in e.text for e in reply.events)
    events = session.advance()
    assert any("The simulated opponent covers" in e.text and "as the penalty" in e.text for e in events)
    assert session.prompt().kind == "cover" and g.phase is Phase.SOLO_COVER
    assert [a["type"] for a in g.actions] == ["clue", "penalty_cover"]


def test_an_ai_guess_on_a_zero_clue_claims_no_confidence_from_the_clue_it_steers_away_from():
    # The AI's ranking for "word: 0" puts first the cards the word calls to mind: the ones to
    # avoid. A confidence read from it said "0%" for a deliberate pick.
    settings = PlaySettings(mode="solo", seed=13, role="spymaster")
    game, labels = new_game(settings)
    session = Session(settings, game, {"guesser": Scored()}, labels)
    first = session.advance()
    word = a_legal_clue(session).split()[0]
    reply = session.answer(f"{word} 0")
    picks = [e.text for e in [*first, *reply.events, *session.advance()] if " picks " in e.text]
    assert picks and "confidence" not in picks[0]
    assert f"away from what {word.upper()} calls to mind" in picks[0]
    assert all("confidence" not in p for p in picks)


class Reading(RecordingGuesser):
    """The random guesser that also says how it read a clue (as the human guesser does)."""

    def reading(self, view):
        return [(w, 1.0 / len(view.visible)) for w in view.visible]


def test_why_names_only_found_targets_of_finished_ai_clues_and_the_ai_reading_of_mine():
    settings = PlaySettings(mode="duet", seed=21, first="ai")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": Reading()}, labels)
    session.advance()
    assert session.prompt().kind == "guess"
    current = session.targets[-1]
    text = session.answer("why").events[0].text
    assert current[1].upper() not in text  # the clue being guessed now is not explained
    target = current[2][0]
    session.answer(target)  # the AI's own target: green on its side
    while session.prompt() is not None and session.prompt().kind == "guess":
        session.answer("stop")
        session.advance()
    if session.prompt() is not None and session.prompt().kind == "clue":
        mine = next(w for w in CLUE_WORDS if session._refusal(Clue(w, 1)) is None)
        session.answer(f"{mine} 1")
        session.advance()
        text = session.answer("why").events[0].text
        assert f"your {mine.upper()}: 1: how the AI read it, its likeliest cards:" in text
    assert f"aimed at {target.upper()}" in text
    # an AI target that is not yet found is never named before the end
    hidden = [t for _, _, ts in session.targets for t in ts if t in session.game.visible_words()]
    assert not any(f" {t.upper()}" in text for t in hidden)


def test_why_names_every_target_of_an_ai_clue_once_the_game_is_over():
    """During play an AI target not yet found is a card of its key and stays unnamed (above);
    once the game ends, `why` names them all, as the summary does."""
    from spymaster_ai.rules.duet import Player

    settings = PlaySettings(mode="duet", seed=21, first="ai")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": Reading()}, labels)
    session.advance()
    giver, clue, targets = session.targets[-1]
    assert targets and session.prompt().kind == "guess"
    black = next(w for w in game.spymaster_view(Player.B).assassins if w not in targets)
    session.answer(black)  # a black card on the AI's side: the game is lost
    assert session.is_over
    text = session.why()
    assert f"aimed at {', '.join(t.upper() for t in targets)}" in text and "not found yet" not in text


def test_the_end_summary_shows_how_the_ai_read_the_persons_clues():
    # 'why' cannot be typed once a terminal game has ended: playtesters never saw the readings
    session = start(PlaySettings(mode="duet", seed=19, first="human"))
    session.readings.append(("ocean", [(session.game.words[0], 0.6), (session.game.words[1], 0.3)]))
    events, _ = session.summary()
    text = "\n".join(e.text for e in events)
    assert "How the AI read your clues" in text and f"OCEAN: {session.game.words[0].upper()} 60%" in text


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("config", "x", "config"),
        ("config", {"seed": "abc"}, "config"),
        ("actions", "abc", "actions"),
        ("actions", [["clue", 3]], "move"),
        ("actions", [None], "move"),
        ("engine", ["duet"], "engine"),
        ("final_state", "x", "final_state"),
        ("labels", ["x"], "labels"),
        ("settings", "x", "settings"),
        ("settings", {"mode": ["duet"]}, "settings"),
        ("version", {"x": 1}, "version"),
    ],
)
def test_a_forged_save_with_a_recomputed_checksum_is_a_save_file_error(tmp_path, field, value, message):
    """issue 41 item 10: the checksum is unkeyed, so a forged save passes it; what it holds is
    checked field by field and refused as SaveFileError naming the field, never a traceback."""
    from spymaster_ai.rules.record import checksum

    session = start(PlaySettings(mode="duet", seed=21, agent="glove50", risk=0.3))
    play_out(session, [a_legal_clue(session)] if session.prompt() else [])
    data = json.loads(save_session(session, tmp_path / "s.json").read_text())
    if field in ("labels", "settings", "version"):
        data["meta"]["play"][field] = value
    else:
        data[field] = value
    data["sha256"] = checksum(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    with pytest.raises(SaveFileError, match=message):
        read_saved(forged)


class UnreadingGuesser(RecordingGuesser):
    """A guesser that knows no word (as the partner with a word outside its glossary)."""

    def reads(self, word: str) -> bool:
        return False


def test_the_person_is_told_when_the_ai_cannot_read_their_clue() -> None:
    settings = PlaySettings(mode="duet", seed=3, first="human", agent="glove50")
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": UnreadingGuesser()}, labels)
    word = next(w for w in ("zebra", "violin", "planet") if all(w not in c for c in game.words))
    first = session.answer(f"{word} 2")  # offered back once: nothing is played
    assert not first.moved and any(f"does not know the word {word.upper()}" in e.text for e in first.events)
    assert not [a for a in session.game.actions if a["type"] == "clue"]
    session.answer(f"{word} 2")  # the same clue again: given anyway
    said = [e.text for e in session.advance() if e.kind == "ai"]
    assert any(f"does not know the word {word.upper()}" in t for t in said), said
    session = Session(settings, new_game(settings)[0], agents_for(settings), labels)
    session.answer(f"{word} 2")  # a guesser that reads says nothing of the kind
    events = session.advance()
    assert events and not any("does not know" in e.text for e in events)



class AimsInTurn:
    """Clues of count ``counts[k]`` for the k-th clue, aimed at the next own cards in turn."""

    def __init__(self, counts) -> None:
        self.counts = list(counts)

    def reset(self, seed: int) -> None:
        pass

    def _options(self, view: SpymasterView):
        used = {h.clue.word for h in view.history}
        given = sum(1 for w in used if w in CLUE_WORDS[:10])  # the AI's words; the person's are later ones
        count = self.counts[min(given, len(self.counts) - 1)]
        aimed = view.own[2 * given: 2 * given + count]
        for word in CLUE_WORDS[:10]:
            if word not in used and check_clue(word, list(view.visible), count=count).legal:
                yield SimpleNamespace(word=word, count=count, targets=tuple(aimed), clue=Clue(word, count))

    def give_clue(self, view: SpymasterView) -> Clue:
        return next(self._options(view)).clue

    def rank_clues(self, view: SpymasterView, top: int = 1):
        return list(self._options(view))[:top]


class ReadsAs:
    """A guesser that reads each clue word as one card (``likes``) and guesses a card green
    on the person's side, then stops (a test double: it is given that card)."""

    def __init__(self, likes: dict, safe) -> None:
        self.likes, self.safe = likes, safe

    def reset(self, seed: int) -> None:
        pass

    def next_guess(self, view: GuesserView) -> Optional[str]:
        return None if view.guesses_made else self.safe()

    def probabilities(self, view: GuesserView, clue: str):
        return [0.9 if w == self.likes.get(clue) else 0.01 for w in view.words]


def test_a_persons_guess_past_the_count_is_filed_by_what_the_ai_aimed_at_not_by_a_reading():
    # Native playtests (2026-12-06): the person's extra cards were filed "for PFARRER" by the
    # AI's reading, and read as the AI's word that PFARRER had meant them.
    from spymaster_ai.rules.duet import Player

    settings = PlaySettings(mode="duet", seed=21, first="ai")
    game, labels = new_game(settings)
    ai_own = game.spymaster_view(Player.B).own
    person_own = game.spymaster_view(Player.A).own
    spare = next(w for w in ai_own[6:])  # green on the AI's side, aimed at by no clue
    likes: dict = {}
    safe = lambda: next(w for w in person_own if w in game.visible_words())  # noqa: E731
    session = Session(settings, game, {"b_spymaster": AimsInTurn([2, 1]), "b_guesser": ReadsAs(likes, safe)}, labels)
    session.advance()
    _, first_clue, first_targets = session.targets[-1]
    likes[first_clue.split(":")[0]] = spare  # the reading files SPARE under the first clue
    session.answer(first_targets[0])
    session.answer("stop")  # the first clue is left with one card to find
    session.advance()
    mine = next(w for w in CLUE_WORDS[10:] if session._refusal(Clue(w, 1)) is None)
    session.answer(f"{mine} 1")
    session.advance()  # the AI guesses a card of mine, stops, and gives its second clue
    _, second_clue, second_targets = session.targets[-1]
    assert session.prompt().kind == "guess" and second_clue != first_clue and len(second_targets) == 1
    session.answer(second_targets[0])  # the second clue's count is met: what follows is past it
    session.answer(first_targets[1])  # the first clue's open target
    session.answer(spare)  # green on the AI's side, but no clue aimed at it: past the count, for no clue
    first_word = first_clue.split(":")[0].upper()
    line = session.clues[-1].shown()
    assert [(label.lower(), meant_note(meant)) for label, _, meant in line] == [
        (second_targets[0].lower(), ""), (first_targets[1].lower(), f"for {first_word}"),
        (spare.lower(), "past the count")]


def _on_the_second_ai_clue() -> tuple[Session, str, tuple, tuple]:
    """A Duet session (seed 21) at the person's first guess on the AI's second clue, both of
    count 2, the first left with one target open: (session, first clue, its targets, the
    second's targets)."""
    from spymaster_ai.rules.duet import Player

    settings = PlaySettings(mode="duet", seed=21, first="ai")
    game, labels = new_game(settings)
    person_own = game.spymaster_view(Player.A).own
    safe = lambda: next(w for w in person_own if w in game.visible_words())  # noqa: E731
    session = Session(settings, game, {"b_spymaster": AimsInTurn([2, 2]), "b_guesser": ReadsAs({}, safe)}, labels)
    session.advance()
    _, first_clue, first_targets = session.targets[-1]
    session.answer(first_targets[0])
    session.answer("stop")  # the first clue is left with one card to find
    session.advance()
    mine = next(w for w in CLUE_WORDS[10:] if session._refusal(Clue(w, 1)) is None)
    session.answer(f"{mine} 1")
    session.advance()
    _, second_clue, second_targets = session.targets[-1]
    assert session.prompt().kind == "guess" and second_clue != first_clue and len(second_targets) == 2
    return session, first_clue.split(":")[0].upper(), first_targets, second_targets


def _logged(session: Session) -> list[tuple[str, str]]:
    return [(label.lower(), meant_note(meant)) for label, _, meant in session.clues[-1].shown()]


def test_a_persons_guess_within_the_count_of_a_card_an_earlier_clue_aimed_at_is_filed_there():
    # English playtest round 11 (seed 10017): MUMMY, INFANT: 2's open target, taken as the
    # second card of INFINITE: 2, was filed under INFINITE, whose targets were YETI and PUZZLE
    session, first_word, first_targets, second_targets = _on_the_second_ai_clue()
    session.answer(second_targets[0])
    session.answer(first_targets[1])  # within the second clue's count, but the first clue's card
    assert _logged(session) == [(second_targets[0].lower(), ""), (first_targets[1].lower(), f"for {first_word}")]


def test_a_persons_guess_of_the_current_clues_own_target_past_its_count_is_that_clues():
    # English playtest round 13 (seed 10037): PUPPET (BULLY: 2's) taken first on FINGER: 2, then
    # TOOTH FAIRY, then LID, FINGER's own target, which the log read "past the count"
    session, first_word, first_targets, second_targets = _on_the_second_ai_clue()
    session.answer(first_targets[1])  # the earlier clue's card
    session.answer(second_targets[0])
    session.answer(second_targets[1])  # the third guess of a 2: past the count, but this clue's own
    assert _logged(session) == [(first_targets[1].lower(), f"for {first_word}"), (second_targets[0].lower(), ""),
                                (second_targets[1].lower(), "")]
