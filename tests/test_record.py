"""Game records: every game writes as JSON and replays to the same state; bad files are refused."""

from __future__ import annotations

import json

import pytest

from spymaster_ai.rules.cards import deal_words, generate_classic_key, generate_duet_key
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.duet import DuetGame
from spymaster_ai.rules.moves import Clue
from spymaster_ai.rules.record import RecordError, from_record, load_record, save_record, to_record
from spymaster_ai.rules.wordlists import load_words


def _classic_game() -> ClassicGame:
    words = deal_words(load_words("classic"), 25, seed=3)
    game = ClassicGame(words, generate_classic_key(seed=3), legality="off")
    # Play a few turns: clue, then guess cards in grid order until the turn passes.
    for _ in range(4):
        if game.is_over:
            break
        game.give_clue(Clue("thing", 2))
        while not game.is_over and game.phase.value == "guess":
            result = game.guess(game.visible_words()[0])
            if result.turn_over:
                break
            game.stop()
            break
    return game


def _duet_game() -> DuetGame:
    words = deal_words(load_words("classic"), 25, seed=5)
    game = DuetGame(words, generate_duet_key(seed=5), legality="off")
    from spymaster_ai.rules.cards import Player

    giver = Player.A
    for _ in range(3):
        if game.is_over or game.phase.value != "clue":
            break
        giver = game.allowed_givers()[0]
        game.give_clue(giver, Clue("thing", 1))
        guesser = giver.other
        candidates = [w for w in game.visible_words() if game.can_guess(guesser, w)]
        game.guess(candidates[-1])
        if not game.is_over and game.phase.value == "guess":
            game.stop()
    return game


@pytest.mark.parametrize("make", [_classic_game, _duet_game])
def test_record_round_trip_replays_to_same_state(make, tmp_path):
    game = make()
    assert game.actions, "the scripted game made moves"
    path = save_record(game, tmp_path / "game.json", meta={"note": "test"})
    replayed = load_record(path)
    assert type(replayed) is type(game)
    assert json.loads(json.dumps(replayed.state_json())) == json.loads(json.dumps(game.state_json()))
    assert replayed.actions == json.loads(json.dumps(game.actions))


@pytest.mark.parametrize("make", [_classic_game, _duet_game])
def test_tampered_record_is_refused(make, tmp_path):
    record = to_record(make())
    forged = json.loads(json.dumps(record))
    forged["final_state"]["phase"] = "over" if forged["final_state"].get("phase") != "over" else "clue"
    with pytest.raises(RecordError, match="checksum"):
        from_record(forged)
    # Even with a recomputed checksum removed, the replay disagrees with the stored state.
    del forged["sha256"]
    with pytest.raises(RecordError, match="final state"):
        from_record(forged)


def test_record_with_illegal_move_is_refused():
    record = json.loads(json.dumps(to_record(_classic_game())))
    del record["sha256"]
    record["actions"].insert(0, {"type": "guess", "word": record["config"]["words"][0]})
    with pytest.raises(RecordError, match="refuse"):
        from_record(record)


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json {", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "something else"}', "not a spymaster_ai game record"),
        ('{"format": "spymaster_ai.game-record", "version": 99}', "unsupported record version"),
        ('{"format": "spymaster_ai.game-record", "version": 1, "engine": "classic"}', "missing"),
    ],
)
def test_malformed_record_files_give_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        load_record(path)


@pytest.mark.parametrize("make", [_classic_game, _duet_game])
@pytest.mark.parametrize("field, value, message", [
    ("count", 2.5, "count must be an integer"),
    ("count", "2", "count must be an integer"),
    ("count", True, "count must be an integer"),
    ("word", 7, "word must be a string"),
    ("unlimited", "yes", "'unlimited' must be true or false"),
])
def test_a_clue_of_the_wrong_type_is_refused_not_coerced(make, field, value, message):
    record = json.loads(json.dumps(to_record(make())))
    del record["sha256"]
    clue = next(a for a in record["actions"] if a["type"] == "clue")
    clue[field] = value
    with pytest.raises(RecordError, match=message):
        from_record(record)


def test_clue_json_round_trip():
    for clue in (Clue("ocean", 2), Clue("ocean", 0), Clue("ocean", 0, unlimited=True)):
        assert Clue.from_json(clue.to_json()) == clue


def test_missing_record_file():
    with pytest.raises(RecordError, match="no such record file"):
        load_record("/nonexistent/game.json")


def test_unknown_engine_is_refused():
    record = json.loads(json.dumps(to_record(_classic_game())))
    record["engine"] = "chess"
    del record["sha256"]
    with pytest.raises(RecordError, match="unknown engine"):
        from_record(record)
