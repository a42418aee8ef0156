"""Bots written for Kim et al.'s framework run unchanged here (issue 42 item 3): the
``kim:PATH/file.py:Class`` spec, what their interfaces are handed, the ``kim2019`` preset,
board pools from a file, and their sources' hashes in every result. The bots are our own
small ones in tests/kim_agents/, written to their interfaces (none of their code is here)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spymaster_ai.cli.bench_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.agents.registry import AgentSpecError, make_guesser, make_spymaster, resolve_spec
from spymaster_ai.cli.app import app
from spymaster_ai.provenance import file_sha256, source_hashes
from spymaster_ai.rules.cards import Team
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.moves import Clue, GiveClue, Guess, Stop
from spymaster_ai.rules.wordlists import load_words
from spymaster_ai.sim.play import PlayOptions, deal_board, lineup
from spymaster_ai.sim.presets import apply_preset

BOTS = Path(__file__).parent / "kim_agents" / "bots"
POOL = Path(__file__).parent / "kim_agents" / "wordpool.txt"
CM = f"kim:{BOTS / 'vector_codemaster.py'}:VectorCodemaster"
GUESSER = f"kim:{BOTS / 'vector_guesser.py'}:VectorGuesser"
RECORDING_CM = f"kim:{BOTS / 'recorders.py'}:RecordingCodemaster"
SCRIPTED = f"kim:{BOTS / 'recorders.py'}:ScriptedGuesser"


def _game(seed: int = 3) -> ClassicGame:
    words, key, _ = deal_board("kim2019", seed, 0, PlayOptions(wordlist=str(POOL)))
    return ClassicGame(words, key, kind="kim2019", legality="off")


def _recorders():
    return sys.modules["bots.recorders"]


def test_a_board_pool_from_a_file_deals_its_cards():
    words = load_words(str(POOL))
    assert len(words) == 111 and words[0] == "africa"
    cards, _, _ = deal_board("kim2019", 1, 0, PlayOptions(wordlist=str(POOL)))
    assert set(cards) <= set(words)
    with pytest.raises(ValueError, match="no word list file"):
        load_words(str(POOL.with_name("missing.txt")))


def test_their_codemaster_is_handed_their_board_and_key_shapes():
    spy = make_spymaster(f"{RECORDING_CM}:clue=alpha,number=2,glove=none", isolate=False)
    spy.reset(0)
    game = _game()
    view = game.spymaster_view(Team.RED)
    game.apply("red_spymaster", GiveClue(spy.give_clue(view)))
    own, opp = view.own[0], view.opponent[0]
    game.apply("red_guesser", Guess(own))
    game.apply("red_guesser", Guess(opp))  # the turn ends
    clue = spy.give_clue(game.spymaster_view(Team.RED))
    assert (clue.word, clue.count) == ("alpha", 2)
    calls = [c for c in _recorders().CALLS if c[0] == "set_game_state"][-1]
    _, board, key = calls
    words = game.words
    assert board[words.index(own)] == "*Red*" and board[words.index(opp)] == "*Blue*"
    assert all(b == w.upper() for b, w in zip(board, words) if w not in (own, opp))
    assert set(key) == {"Red", "Blue", "Civilian", "Assassin"} and key.count("Red") == 8
    assert key.count("Blue") == 7 and key.count("Civilian") == 9 and key.count("Assassin") == 1
    assert key[words.index(view.assassins[0])] == "Assassin"
    assert all(key[words.index(w)] == "Red" for w in view.own)


def test_their_guesser_gets_one_clue_a_turn_keep_guessing_after_each_hit_and_their_cap():
    guesser = make_guesser(f"{SCRIPTED}:glove=none", isolate=False)
    rec = _recorders()
    game = _game()
    view = game.spymaster_view(Team.RED)
    rec.ScriptedGuesser.order = [w.upper() for w in view.own]
    rec.ScriptedGuesser.keep = True
    guesser.reset(0)
    rec.CALLS.clear()
    game.apply("red_spymaster", GiveClue(Clue("word", 0)))
    # A 0 clue allows one guess in their game (guess_num <= clue_num), not the unlimited guesses of ours.
    first = guesser.next_guess(game.guesser_view(Team.RED))
    assert first == view.own[0]
    game.apply("red_guesser", Guess(first))
    assert guesser.next_guess(game.guesser_view(Team.RED)) is None
    assert [c[0] for c in rec.CALLS] == ["set_clue", "set_board", "get_answer"]
    assert rec.CALLS[0] == ("set_clue", "word", 0)


def test_keep_guessing_false_ends_the_turn_and_a_guess_maps_back_to_our_card():
    guesser = make_guesser(f"{SCRIPTED}:glove=none", isolate=False)
    rec = _recorders()
    game = _game()
    view = game.spymaster_view(Team.RED)
    rec.ScriptedGuesser.order = [w.upper() for w in view.own]
    guesser.reset(0)
    rec.CALLS.clear()
    game.apply("red_spymaster", GiveClue(Clue("word", 3)))
    rec.ScriptedGuesser.keep = True
    game.apply("red_guesser", Guess(guesser.next_guess(game.guesser_view(Team.RED))))
    rec.ScriptedGuesser.keep = False
    assert guesser.next_guess(game.guesser_view(Team.RED)) is None
    assert [c[0] for c in rec.CALLS] == ["set_clue", "set_board", "get_answer", "keep_guessing"]
    board = [c for c in rec.CALLS if c[0] == "set_board"][0][1]
    assert board == [w.upper() for w in game.words]


def test_a_bot_that_answers_a_covered_card_is_an_error():
    guesser = make_guesser(f"{SCRIPTED}:glove=none", isolate=False)
    rec = _recorders()
    game = _game()
    own = game.spymaster_view(Team.RED).own[0]
    guesser.reset(0)
    game.apply("red_spymaster", GiveClue(Clue("word", 2)))
    rec.ScriptedGuesser.order, rec.ScriptedGuesser.keep = ["NOT-A-CARD"], True
    with pytest.raises(ValueError, match="not a card still on the board"):
        guesser.next_guess(game.guesser_view(Team.RED))
    game.apply("red_guesser", Guess(own))
    rec.ScriptedGuesser.order = ["*Red*"]  # on their board, but a covered card's token
    with pytest.raises(ValueError, match="not a card still on the board"):
        guesser.next_guess(game.guesser_view(Team.RED))


def test_their_bots_get_our_glove_as_glove_vecs_and_play_a_self_play_game_to_its_end():
    spy = make_spymaster(CM, isolate=False)
    guesser = make_guesser(GUESSER, isolate=False)
    vecs = spy.kwargs["glove_vecs"]
    assert vecs["dog"].dtype.name == "float64" and vecs["dog"].shape == (50,) and "dog" in vecs
    with pytest.raises(KeyError):
        vecs["not-a-glove-word"]
    spy.reset(1)
    guesser.reset(1)
    game = _game(1)
    for _ in range(200):
        if game.is_over:
            break
        if game.current_seats() == ("red_spymaster",):
            game.apply("red_spymaster", GiveClue(spy.give_clue(game.spymaster_view(Team.RED))))
            continue
        card = guesser.next_guess(game.guesser_view(Team.RED))
        game.apply("red_guesser", Stop() if card is None else Guess(card))
    assert game.is_over
    assert any(identity == "red" for _, identity in game.guesser_view(Team.RED).revealed)


def test_kim_specs_are_checked_and_resolved():
    resolved = resolve_spec("guesser", f"{GUESSER}:glove=glove50", isolate=False)
    assert resolved["class"].endswith("KimGuesser")
    assert resolved["parameters"]["class_name"] == "VectorGuesser"
    with pytest.raises(AgentSpecError, match="no file"):
        make_guesser(f"kim:{BOTS / 'missing.py'}:X", isolate=False)
    with pytest.raises(AgentSpecError, match="has no class .NoSuchClass."):
        make_guesser(f"kim:{BOTS / 'vector_guesser.py'}:NoSuchClass", isolate=False)


def test_kim_specs_sources_are_hashed_as_plug_ins_are():
    specs = {"spymaster": CM, "guesser": f"{GUESSER}:glove=glove50"}
    assert source_hashes(specs) == {
        CM: file_sha256(BOTS / "vector_codemaster.py"),
        GUESSER: file_sha256(BOTS / "vector_guesser.py"),
    }


def test_the_kim2019_preset_turns_the_opener_and_the_clue_check_off_for_our_agents_only():
    specs, options = apply_preset("kim2019", "kim2019", lineup("kim2019", "glove50", GUESSER), PlayOptions())
    assert specs == {"spymaster": "glove50:warn_cards=0", "guesser": GUESSER}
    assert options.legality == "off"
    specs, _ = apply_preset("kim2019", "kim2019", lineup("kim2019", "robust:risk=0.4", "glove50"), PlayOptions())
    assert specs["spymaster"] == "robust:risk=0.4,warn_cards=0"
    specs, _ = apply_preset("kim2019", "kim2019", lineup("kim2019", "glove50:warn_cards=3", "glove50"), PlayOptions())
    assert specs["spymaster"] == "glove50:warn_cards=3"  # the user's own value wins
    specs, _ = apply_preset("kim2019", "kim2019", lineup("kim2019", CM, GUESSER), PlayOptions())
    assert specs["spymaster"] == CM  # their codemaster takes no warn_cards
    with pytest.raises(ValueError, match="bench kim2019"):
        apply_preset("kim2019", "duet", {}, PlayOptions())


def test_bench_kim2019_plays_their_interfaces_both_ways_with_sources_in_the_result():
    runner = CliRunner()
    res = runner.invoke(app, ["bench", "kim2019", "--games", "2", "--seed", "0", "--spymaster", CM,
                              "--guesser", "glove50", "--preset", "kim2019", "--wordlist", str(POOL), "--json"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["errors"] == 0 and data["games"] == 2
    assert data["options"]["legality"] == "off" and data["options"]["wordlist"] == str(POOL)
    assert data["provenance"]["sources"] == {CM: file_sha256(BOTS / "vector_codemaster.py"),
                                             f"wordlist:{POOL}": file_sha256(POOL)}
    assert data["provenance"]["parameters"]["spymaster"]["class"].endswith("KimCodemaster")
    res = runner.invoke(app, ["bench", "kim2019", "--games", "2", "--seed", "0", "--spymaster", "glove50",
                              "--guesser", GUESSER, "--preset", "kim2019", "--wordlist", str(POOL), "--json"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["errors"] == 0 and data["agents"]["spymaster"] == "glove50:warn_cards=0"


def test_bench_refuses_a_missing_wordlist_file_in_one_line():
    res = CliRunner().invoke(app, ["bench", "kim2019", "--games", "1", "--spymaster", "glove50", "--guesser", "random",
                                   "--wordlist", str(POOL.with_name("missing.txt"))])
    assert res.exit_code == 2
    assert "--wordlist: no word list file" in res.stderr and "Traceback" not in res.stderr
