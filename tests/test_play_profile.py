"""The AI partner of ``play`` learns the person: from every guess in a game, and across games
through a local profile (``--fresh`` ignores it). Cheap: the human agents read through toy
models standing in for the reader's three, with the shipped weights."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

import spymaster_ai.play as play_pkg
from spymaster_ai.agents.human import HumanGuesser
from spymaster_ai.agents.human.adapt import PersonLearner
from spymaster_ai.agents.human.reader import HumanReader, load_params
from spymaster_ai.agents.toy import ToyEmbedding
from spymaster_ai.cli import play_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app
from spymaster_ai.play import PlaySettings, Session, new_game
from spymaster_ai.play.store import session_record
from spymaster_ai.play.profile import PROFILE_ENV, load_profile, save_profile
from spymaster_ai.rules.cards import Player
from spymaster_ai.rules.wordlists import load_words

from test_play_session import ScriptedSpymaster, play_out

CLUES = "quantum saxophone galaxy tornado wizard violin glacier falcon meteor canyon jungle pirate lantern".split()


@pytest.fixture(scope="module")
def toy_reader() -> HumanReader:
    words = sorted({w.lower() for w in load_words("classic")} | set(CLUES))
    params = load_params()
    models = {}
    for k, name in enumerate(params.models):
        rng = np.random.default_rng(k)
        models[name] = ToyEmbedding({w: rng.normal(size=8) for w in words}, vocabulary=CLUES, name=name)
    return HumanReader(params, models)


def duet(seed: int = 3) -> PlaySettings:
    return PlaySettings(mode="duet", seed=seed, first="ai")


def test_every_guess_of_the_person_is_learned_once_and_replayed_guesses_are_not(toy_reader):
    settings = duet()
    game, labels = new_game(settings)
    learner = PersonLearner(toy_reader)
    agents = {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)}
    assert learner.personalise(agents) == 1 and agents["b_guesser"].reader is learner.reader
    session = Session(settings, game, agents, labels, learner=learner)
    play_out(session, seed=1)
    actions = session_record(session)["actions"]
    giver, person_guesses, clue, ai_picks, clues = None, [], None, [], set()
    for n, a in enumerate(actions):  # a Duet guess is the partner's of the last clue's giver
        if a["type"] == "clue":
            giver, clue, made = a["giver"], a, 0
        elif a["type"] == "guess" and giver == "B":
            person_guesses.append(a)
        elif a["type"] == "guess" and giver == "A":
            # the AI's pick on the person's clue, within its count, on a clue the reader reads
            if made < clue["count"] and toy_reader.reads(clue["word"]):
                ai_picks.append(a)
                clues.add(n - made)
            made += 1
    assert person_guesses and ai_picks
    a = learner.adaptation
    assert a.choices == len(person_guesses) and a.clue_picks == len(ai_picks) and a.clues == len(clues)
    assert learner.learned == len(person_guesses) + len(ai_picks)
    assert np.any(learner.adaptation.offset != 0)
    # the AI guesser now reads with the person's weights
    assert np.array_equal(agents["b_guesser"].reader.params_for([]).weights,
                          toy_reader.params.weights + learner.adaptation.offset)
    # a resumed game replays its moves without learning them a second time
    again = PersonLearner(toy_reader)
    replayed = Session(settings, new_game(settings)[0], {"b_spymaster": ScriptedSpymaster(),
                                                         "b_guesser": HumanGuesser(toy_reader)}, labels, learner=again)
    replayed.replay(actions)
    assert replayed.is_over and again.learned == 0


def test_without_a_learner_play_is_unchanged(toy_reader):
    settings = duet()
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)}, labels)
    play_out(session, seed=1)
    assert session.is_over and session.learner is None


def test_the_profile_round_trips_and_is_human_readable(tmp_path, toy_reader):
    path = tmp_path / "me" / "profile.json"
    profile, warning = load_profile(path, toy_reader.params)
    assert warning is None and profile.guesses == 0
    learner = PersonLearner(toy_reader, profile.adaptation)
    rng = np.random.default_rng(0)
    from spymaster_ai.agents.human.reader import ChoiceSet

    for _ in range(5):
        learner.adaptation.observe(ChoiceSet(rng.normal(size=(6, len(toy_reader.params.features))), 2))
    save_profile(profile)
    data = json.loads(path.read_text())
    assert data["guesses"] == 5 and set(data["offsets"]) == set(toy_reader.params.features)
    assert "Delete this file" in data["about"] and data["created"] <= data["updated"]
    again, warning = load_profile(path, toy_reader.params)
    assert warning is None and again.guesses == 5 and again.created == profile.created
    assert np.allclose(again.adaptation.offset, profile.adaptation.offset, atol=1e-6)
    assert np.allclose(again.adaptation.precision, profile.adaptation.precision, atol=1e-6)
    assert [p.name for p in path.parent.iterdir()] == ["profile.json"]  # no temporary file left


@pytest.mark.parametrize("text", ["{not json", "[]", '{"format": 1, "offsets": {"x": 1}, "precision": [], "guesses": 1}',
                                  "{\"format\": 99}"])
def test_a_malformed_profile_is_set_aside_with_a_warning_never_lost(tmp_path, toy_reader, text):
    path = tmp_path / "profile.json"
    path.write_text(text)
    profile, warning = load_profile(path, toy_reader.params)
    assert warning is not None and "could not be read" in warning and "kept as" in warning
    assert profile.guesses == 0 and not path.exists()
    aside = list(tmp_path.glob("profile.json.unreadable-*"))
    assert len(aside) == 1 and aside[0].read_text() == text


# -- through the real command ------------------------------------------------------------------


@pytest.fixture
def toy_agents(monkeypatch, toy_reader):
    def agents(settings):
        return {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)}

    monkeypatch.setattr(play_pkg, "load_session_agents", agents)


def lines_for_a_duet(seed: int) -> list[str]:
    """The AI clues first: the person guesses every card in turn (refused ones just say why)."""
    game, _ = new_game(duet(seed))
    words = list(game.words)
    random.Random(seed).shuffle(words)
    return words[:12] + ["quit"]


def safe_guesses(seed: int) -> list[str]:
    """Cards green on the AI's side (the side its clues are read against): the game goes on."""
    game, _ = new_game(duet(seed))
    return list(game.spymaster_view(Player.B).own)


def run_play(tmp_path, *extra: str, seed: int = 3):
    result = CliRunner().invoke(app, ["play", "duet", "--seed", str(seed), "--no-save", "--no-color", *extra],
                                input="".join(f"{x}\n" for x in lines_for_a_duet(seed)),
                                env={PROFILE_ENV: str(tmp_path / "profile.json")})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def test_play_says_once_where_the_profile_is_and_keeps_what_it_learned(tmp_path, toy_agents):
    path = tmp_path / "profile.json"
    out = run_play(tmp_path)
    assert out.count("The AI learns how you read clues") == 1 and "(a new profile)" in out
    assert str(path) in out and "--fresh" in out
    first = json.loads(path.read_text())
    assert first["guesses"] > 0
    out = run_play(tmp_path, seed=4)
    assert f"it knows you from {first['guesses']} guess" in out
    assert json.loads(path.read_text())["guesses"] > first["guesses"]


def test_fresh_neither_reads_nor_changes_the_profile(tmp_path, toy_agents):
    path = tmp_path / "profile.json"
    run_play(tmp_path)
    before = path.read_text()
    out = run_play(tmp_path, "--fresh", seed=4)
    assert out.count("--fresh: the AI learns from your guesses and clues in this game only") == 1
    assert "knows you" not in out and path.read_text() == before


def test_play_with_a_malformed_profile_warns_and_goes_on(tmp_path, toy_agents):
    path = tmp_path / "profile.json"
    path.write_text("{broken")
    out = run_play(tmp_path)
    assert "could not be read" in out and "profile.json.unreadable-" in out
    assert json.loads(path.read_text())["guesses"] > 0
    assert [p.read_text() for p in tmp_path.glob("profile.json.unreadable-*")] == ["{broken"]


def test_a_resumed_game_does_not_learn_its_replayed_guesses_again(tmp_path, toy_agents):
    path, save = tmp_path / "profile.json", tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "duet", "--seed", "3", "--save", str(save), "--no-color"],
                                input="".join(f"{x}\n" for x in safe_guesses(3)[:3] + ["quit"]),
                                env={PROFILE_ENV: str(path)})
    assert result.exit_code == 0, result.output
    before = path.read_text()
    assert json.loads(before)["guesses"] > 0
    resumed = CliRunner().invoke(app, ["play", "resume", str(save), "--no-color"], input="quit\n",
                                 env={PROFILE_ENV: str(path)})
    assert resumed.exit_code == 0, resumed.output
    assert "replayed" in resumed.output and resumed.output.count("The AI learns how you read clues") == 1
    assert f"it knows you from {json.loads(before)['guesses']} guess" in resumed.output
    assert path.read_text() == before


def test_only_the_persons_partners_learn_them_whether_the_person_guesses_or_gives_clues(tmp_path, toy_reader):
    from spymaster_ai.play.profile import start_learning

    roles = ("red_spymaster", "blue_spymaster", "blue_guesser")
    agents = {r: HumanGuesser(toy_reader) for r in roles}  # stand-ins: any human agent
    learner, profile, said, warned = start_learning(PlaySettings(mode="classic", seed=1), agents,
                                                    path=tmp_path / "p.json")
    assert learner is not None and len(said) == 1 and not warned
    assert agents["red_spymaster"].reader is learner.reader
    assert all(agents[r].reader is toy_reader for r in ("blue_spymaster", "blue_guesser"))
    # a spymaster person: their AI guesser learns from its picks on their clues, the other team not
    roles = ("red_guesser", "blue_spymaster", "blue_guesser")
    agents = {r: HumanGuesser(toy_reader) for r in roles}
    spymaster = PlaySettings(mode="classic", seed=1, role="spymaster")
    learner, *_ = start_learning(spymaster, agents, path=tmp_path / "p.json")
    assert learner is not None and agents["red_guesser"].reader is learner.reader
    assert all(agents[r].reader is toy_reader for r in ("blue_spymaster", "blue_guesser"))
    pictures = PlaySettings(mode="pictures", seed=1)
    assert start_learning(pictures, {r: HumanGuesser(toy_reader) for r in roles}) == (None, None, [], [])


def test_a_learner_that_fails_stops_learning_with_a_warning_and_the_game_goes_on(toy_reader):
    class Broken:
        def observe_guess(self, view, card):
            raise RuntimeError("no room")

    settings = duet()
    game, labels = new_game(settings)
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)},
                      labels, learner=Broken())
    session.advance()
    reply = session.answer(safe_guesses(3)[0])
    assert reply.moved and session.learner is None
    assert [e.text for e in reply.events if e.kind == "warning"] == [
        "The AI stops learning from you this game (RuntimeError: no room)."]
    play_out(session, seed=1)
    assert session.is_over


def test_the_ai_picks_on_the_persons_clues_are_learned_with_their_true_colour_on_the_persons_side(toy_reader):
    """Each pick the AI makes for a clue of the person's reaches the learner once, with whether
    the card is green on the person's side of the key, and the view the AI guessed from."""

    class Spy:
        def __init__(self) -> None:
            self.picks: list[tuple[str, bool, int]] = []

        def observe_guess(self, view, card):
            pass

        def observe_clue_pick(self, view, card, hit):
            assert view.me == "B" and view.clue is not None and card in view.visible
            self.picks.append((card, hit, view.guesses_made))

    settings = duet(5)
    game, labels = new_game(settings)
    greens_a = set(game.spymaster_view(Player.A).own)  # the person's side, at the start
    spy = Spy()
    session = Session(settings, game, {"b_spymaster": ScriptedSpymaster(), "b_guesser": HumanGuesser(toy_reader)},
                      labels, learner=spy)
    play_out(session, seed=2)
    ai_on_person = []
    giver = None
    for a in session_record(session)["actions"]:
        giver = a["giver"] if a["type"] == "clue" else giver
        if a["type"] == "guess" and giver == "A":
            ai_on_person.append(a["word"])
    assert [c for c, _, _ in spy.picks] == ai_on_person and ai_on_person
    assert [hit for _, hit, _ in spy.picks] == [c in greens_a for c in ai_on_person]
    assert any(hit for _, hit, _ in spy.picks) and not all(hit for _, hit, _ in spy.picks)


# -- saying what it learned, forgetting it -----------------------------------------------------


def _profile_with(path, toy_reader, shifts: dict, guesses=5, clues=3, picks=4, precision=400.0):
    """A profile with these offsets, as sure of them as ``precision`` per feature says (400:
    a standard deviation of 0.05, as after many guesses; the prior alone is 10)."""
    from spymaster_ai.agents.human.adapt import ReaderAdaptation
    from spymaster_ai.play.profile import Profile

    base = toy_reader.params
    offset = np.array([shifts.get(f, 0.01) for f in base.features])
    adaptation = ReaderAdaptation(base, offset, precision=precision * np.eye(len(offset)), choices=guesses,
                                  clues=clues, clue_picks=picks)
    save_profile(Profile(path, adaptation, "2026-01-01T00:00:00+00:00"))


def test_play_profile_says_where_it_is_what_it_learned_from_and_its_three_largest_shifts_in_words(tmp_path, toy_reader):
    path = tmp_path / "profile.json"
    _profile_with(path, toy_reader, {"spelled_like": -0.8, "minilm:evoke": 0.5, "card_zipf": 0.3, "glove50:lead": 0.1})
    before = path.read_text()
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert str(path) in lines[0] and "5 guesses of yours and 3 clues of yours (4 AI picks on them)" in out.output
    shifts = [line for line in lines if line.startswith("  - ")]
    w = dict(zip(toy_reader.params.features, toy_reader.params.weights))
    assert shifts == [  # the three largest, largest first, each with the weight it changed
        "  - you take cards spelled like the clue (CRAB for GRAB) less readily than most people "
        f"(spelled_like: {w['spelled_like']:+.2f} -> {w['spelled_like'] - 0.8:+.2f})",
        "  - you take cards that call the clue strongly to mind, as MiniLM reads them, more readily than most people "
        f"(minilm:evoke: {w['minilm:evoke']:+.2f} -> {w['minilm:evoke'] + 0.5:+.2f})",
        "  - you take cards with common words more readily than most people "
        f"(card_zipf: {w['card_zipf']:+.2f} -> {w['card_zipf'] + 0.3:+.2f})",
    ]
    assert "spymaster-ai play forget" in out.output and path.read_text() == before  # showing changes nothing


def test_play_profile_says_only_the_shifts_clear_of_its_own_uncertainty(tmp_path, toy_reader):
    """With the prior's precision alone (sd 0.32), only a shift beyond two sd is said: a
    playtester read small shifts that changed every game as noise."""
    path = tmp_path / "profile.json"
    _profile_with(path, toy_reader, {"spelled_like": -0.8, "minilm:evoke": 0.5, "card_zipf": 0.3}, precision=10.0)
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    shifts = [line for line in out.output.splitlines() if line.startswith("  - ")]
    assert len(shifts) == 1 and "spelled like the clue" in shifts[0]
    _profile_with(path, toy_reader, {"minilm:evoke": 0.5}, precision=10.0)
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    assert "No clear difference from most people learned yet" in out.output


def test_play_profile_without_a_profile_or_with_a_broken_one_says_so_and_moves_nothing(tmp_path):
    path = tmp_path / "profile.json"
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    assert out.exit_code == 0 and "No profile yet" in out.output and not path.exists()
    path.write_text("{broken")
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    assert out.exit_code == 2 and "cannot be read" in out.output and "play forget" in out.output
    assert path.read_text() == "{broken" and [p.name for p in tmp_path.iterdir()] == ["profile.json"]


def test_a_profile_that_learned_nothing_clear_says_so(tmp_path, toy_reader):
    path = tmp_path / "profile.json"
    _profile_with(path, toy_reader, {})
    out = CliRunner().invoke(app, ["play", "profile"], env={PROFILE_ENV: str(path)})
    assert "No clear difference from most people learned yet" in out.output and "  - " not in out.output


def test_play_forget_deletes_the_profile(tmp_path, toy_reader):
    path = tmp_path / "profile.json"
    _profile_with(path, toy_reader, {"card_zipf": 0.3})
    out = CliRunner().invoke(app, ["play", "forget"], env={PROFILE_ENV: str(path)})
    assert out.exit_code == 0 and f"Deleted {path}" in out.output and not path.exists()
    out = CliRunner().invoke(app, ["play", "forget"], env={PROFILE_ENV: str(path)})
    assert out.exit_code == 0 and "nothing to forget" in out.output


def test_after_the_game_play_says_what_it_learned_and_where_to_see_it(tmp_path, toy_agents):
    out = run_play(tmp_path)
    data = json.loads((tmp_path / "profile.json").read_text())
    said = [line for line in out.splitlines() if line.startswith("The AI learned from")]
    assert len(said) == 1 and f"from {data['guesses']} guess" in said[0] and said[0].endswith(
        "See 'spymaster-ai play profile'.")
    assert "So far, you " not in said[0]  # one short game: no shift is clear of its uncertainty yet
    assert "What it learned: 'spymaster-ai play profile'" in out  # said at the start too


def test_a_resumed_game_says_past_ai_moves_differ_because_it_has_learned_from_you(tmp_path, toy_agents, toy_reader):
    """A saved game in which the AI guessed for the person's clue, resumed after the profile
    changed a lot: the replayed AI picks differ, and play says why."""
    path, save = tmp_path / "profile.json", tmp_path / "game.json"
    first = safe_guesses(4)[0]  # seed 3's game now ends on the AI's guesses (the reader gained a feature)
    lines = [first, "stop", "quantum 3", "quit"]
    result = CliRunner().invoke(app, ["play", "duet", "--seed", "4", "--save", str(save), "--no-color", "--fresh"],
                                input="".join(f"{x}\n" for x in lines), env={PROFILE_ENV: str(path)})
    assert result.exit_code == 0, result.output
    assert "You give the clue: QUANTUM: 3\nThe AI touches" in result.output
    _profile_with(path, toy_reader, {f: -3.0 * w for f, w in zip(toy_reader.params.features, toy_reader.params.weights)})
    resumed = CliRunner().invoke(app, ["play", "resume", str(save), "--no-color"], input="quit\n",
                                 env={PROFILE_ENV: str(path)})
    assert resumed.exit_code == 0, resumed.output
    assert "would come out differently now: the AI has since learned more of how you read clues" in resumed.output
    assert "this version of the AI" not in resumed.output
