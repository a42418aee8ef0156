"""Whole games through the real ``spymaster-ai play`` command, with scripted input and glove50.

The script of each game is written from the key (the test may read it; the player's screen
may not): it holds bad words, an ambiguous prefix, an illegal clue, a quit and a resume. The
assertions are on what the player is shown. The AI plays with GloVe 50d (fast to load),
once per test process.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spymaster_ai.cli import play_cmds  # noqa: F401  (registers the commands)
from spymaster_ai.cli.app import app
from spymaster_ai.play import PlaySettings, Session, new_game, save_session
from spymaster_ai.rules.cards import Identity, Player
from spymaster_ai.rules.moves import Clue
from spymaster_ai.rules.legality import check_clue

pytestmark = pytest.mark.models

AI = ["--agent", "glove50", "--no-color"]
CLUE_WORDS = "quantum saxophone galaxy tornado wizard violin glacier falcon meteor canyon jungle pirate lantern".split()
END_MARK = "The key card"  # the summary that reveals the key comes after this line


def run(args: list[str], lines: list[str], **kw):
    result = CliRunner().invoke(app, ["play", *args], input="".join(f"{x}\n" for x in lines), **kw)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def legal_clues(words, n: int, count: int = 1) -> list[str]:
    return [f"{w} {count}" for w in CLUE_WORDS if check_clue(w, list(words), count=count).legal][:n]


def before_the_end(output: str) -> str:
    return output.split(END_MARK)[0]


def assert_no_hidden_identity(output: str) -> None:
    """A guesser's screen names an identity only for a covered card (■) or a card just touched."""
    for line in before_the_end(output).splitlines():
        if re.search(r"assassin|bystander", line, re.IGNORECASE):
            assert "■" in line or "touch" in line or "(" in line, f"hidden identity shown: {line!r}"


def ambiguous_prefix(words) -> str:
    for n in (3, 4, 5):  # a start plays a card from 3 letters on (parse.MIN_PREFIX)
        starts: dict[str, int] = {}
        for w in words:
            starts[w[:n]] = starts.get(w[:n], 0) + 1
        many = [p for p, k in starts.items() if k > 1 and p not in words]
        if many:
            return sorted(many)[0]
    raise AssertionError("no shared prefix on this board")  # pragma: no cover


# ----------------------------------------------------------------------------- solo, human guesser


def test_solo_guesser_bad_words_quit_resume_and_score(tmp_path):
    seed = 31
    game, _ = new_game(PlaySettings(mode="solo", seed=seed))
    red = list(game.remaining(Identity.RED))
    save = tmp_path / "solo.json"

    first = run(["solo", "--seed", str(seed), "--save", str(save), *AI],
                ["xyzzy", ambiguous_prefix(game.words), "stop", red[0].upper(), "quit"])
    out1 = first.stdout
    assert first.exit_code == 0, out1
    assert "'xyzzy' is not a card on this board" in out1
    assert "is ambiguous: it could be" in out1
    assert "you may stop only after at least one guess" in out1
    assert f"You touch {red[0].upper()}: a red agent - correct" in out1
    assert "Spoiler" in out1 and str(save) in out1
    assert f"play resume {save}" in out1
    saved = json.loads(save.read_text())
    assert [a["type"] for a in saved["actions"]] == ["clue", "guess"]

    second = run(["resume", str(save), "--no-color"], red[1:] * 2)
    out2 = second.stdout
    assert second.exit_code == 0, out2
    assert "Resumed" in out2 and "2 moves replayed" in out2
    final = json.loads(save.read_text())["final_state"]
    assert final["phase"] == "over" and final["winner"] == "red"  # only red agents were guessed
    assert f"You win! Score: {final['score']}" in out2
    for out in (out1, out2):
        assert_no_hidden_identity(out)
        assert "aimed at" not in before_the_end(out).split("You win!")[0]
    assert "What the AI spymaster aimed at" in out2

    # The same lines without the interruption: the same game, move for move.
    whole = tmp_path / "whole.json"
    third = run(["solo", "--seed", str(seed), "--save", str(whole), *AI],
                ["xyzzy", ambiguous_prefix(game.words), "stop", red[0]] + red[1:] * 2)
    assert third.exit_code == 0
    assert json.loads(whole.read_text())["final_state"] == final

    again = run(["resume", str(save), "--no-color"], [])
    assert again.exit_code == 0 and "You win! Score:" in again.stdout


# ----------------------------------------------------------------------------- solo, human spymaster


def test_solo_spymaster_illegal_clue_covers_and_ai_confidence(tmp_path):
    seed = 32
    game, _ = new_game(PlaySettings(mode="solo", seed=seed, role="spymaster"))
    blue = [w.upper() for w in game.remaining(Identity.BLUE)]
    red = game.remaining(Identity.RED)
    lines = [f"{red[0]} 2", f"{game.remaining(Identity.BLUE)[0]}s 1"]  # a board word, then a form of one
    for clue in legal_clues(game.words, 10):
        lines += [clue, game.remaining(Identity.RED)[0]] + blue  # a red card is refused as a cover
    result = run(["solo", "--role", "spymaster", "--seed", str(seed), "--save", str(tmp_path / "s.json"), *AI], lines)
    out = result.stdout
    assert result.exit_code == 0, out
    assert "rule 1: a visible word is not a clue" in out and "it costs nothing" in out
    assert "rule 2" in out
    assert re.search(r"Your AI guesser picks \S.* \(confidence \d+%\)", out)
    assert "is not an opponent (blue) agent" in out
    assert "for the simulated opponent (a blue agent)" in out
    assert "Spoiler" not in out  # the spymaster holds the key anyway
    assert re.search(r"^│.*│ assassin", before_the_end(out), re.MULTILINE)  # the key under an uncovered card
    final = json.loads((tmp_path / "s.json").read_text())["final_state"]
    assert final["phase"] == "over"
    assert ("You win! Score:" in out) == (final["winner"] == "red")


# ----------------------------------------------------------------------------- classic, two teams


def test_classic_guesser_sees_both_teams_play_and_no_key(tmp_path):
    seed = 33
    game, _ = new_game(PlaySettings(mode="classic", seed=seed))
    blue = list(game.remaining(Identity.BLUE))
    # one guess, then stop: the first clue may be a zero-clue warning, which lifts the cap on guesses
    result = run(["classic", "--team", "blue", "--seed", str(seed), "--save", str(tmp_path / "c.json"), *AI],
                 ["board", blue[0], "stop", *blue[1:], *blue])
    out = result.stdout
    assert result.exit_code == 0, out
    assert "The red AI spymaster gives the clue:" in out
    assert "Your AI spymaster gives the clue:" in out
    assert re.search(r"(Red|Blue) wins - you (win|lose)", out)
    assert_no_hidden_identity(out)


def test_classic_spymaster_penalty_for_an_illegal_clue(tmp_path):
    seed = 34
    game, _ = new_game(PlaySettings(mode="classic", seed=seed))
    team = game.key.starting.value  # the human's team gives the first clue
    save = tmp_path / "p.json"
    result = run(["classic", "--role", "spymaster", "--team", team, "--penalty", "--seed", str(seed),
                  "--save", str(save), *AI], [f"{game.words[3]} 1", "quit"])
    out = result.stdout
    assert result.exit_code == 0, out
    assert "That clue is illegal" in out and "Penalty: the turn ends at once" in out
    assert "as the penalty" in out  # the other side's AI spymaster covered one of its agents
    actions = json.loads(save.read_text())["actions"]
    assert actions[0]["type"] == "clue" and actions[0]["legal"] is False
    assert actions[1]["type"] == "penalty_cover"


# ----------------------------------------------------------------------------- duet


def test_duet_with_the_ai_partner(tmp_path):
    seed = 35
    game, _ = new_game(PlaySettings(mode="duet", seed=seed, mission="cairo"))
    theirs = [w for w in game.words_left_for(Player.B)]
    clues = legal_clues(game.words, 12, count=2)
    lines = [f"{game.words[0]} 2", clues[0], *theirs, *clues[1:]]
    save = tmp_path / "d.json"
    result = run(["duet", "--mission", "cairo", "--first", "human", "--seed", str(seed), "--save", str(save), *AI], lines)
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Codenames Duet (mission cairo)" in out
    assert "Timer tokens left: 9 of 9 (5 bystander-face, 4 marked-face)" in out
    assert "rule 1" in out and "it costs nothing" in out
    assert "The AI touches" in out and "The AI gives the clue:" in out
    assert "confidence" not in out  # the AI partner explains nothing in Duet
    assert "Spoiler" in out
    assert re.search(r"You (win|lose) together", out)
    state = json.loads(save.read_text())["final_state"]
    assert state["phase"] == "over"
    tail = out.split(END_MARK, 1)[-1]
    assert "your side" in tail and "the AI's side" in tail


def test_duet_penalty_costs_a_token_and_tokens_mistakes_options(tmp_path):
    seed = 36
    game, _ = new_game(PlaySettings(mode="duet", seed=seed))
    result = run(["duet", "--tokens", "9", "--mistakes", "5", "--first", "human", "--penalty", "--seed", str(seed),
                  "--no-save", *AI], [f"{game.words[1]} 1", "quit"])
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Codenames Duet (9 tokens, 5 mistakes)" in out
    assert "Penalty: one timer token is discarded (9 -> 8)" in out
    assert "not saved" in out
    assert "the game is saved" not in out and "--no-save: the game is not kept" in out


# ----------------------------------------------------------------------------- pictures


def test_pictures_by_caption_with_a_png_board(tmp_path):
    seed = 37
    game, labels = new_game(PlaySettings(mode="pictures", seed=seed))
    mine = [labels[c] for c in game.remaining(Identity.RED)]
    png = tmp_path / "board.png"
    result = run(["pictures", "--seed", str(seed), "--png", str(png), "--save", str(tmp_path / "p.json"), *AI],
                 [*mine, *mine])
    out = result.stdout
    assert result.exit_code == 0, out
    assert f"Board image: {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any(label.upper() in out for label in labels.values())
    assert "pic:" not in before_the_end(out)  # cards are shown by their captions, never by id
    assert re.search(r"(Red|Blue) wins - you (win|lose)", out)
    assert_no_hidden_identity(out)


# ----------------------------------------------------------------------------- bad usage


@pytest.mark.parametrize(
    "args, message",
    [
        (["duet", "--mission", "atlantis", "--no-save"], "unknown mission"),
        (["pictures", "--solo", "--team", "blue", "--no-save"], "--team does not apply"),
        (["solo", "--png", "x.png", "--no-save"], "No such option"),
        (["classic", "--png", "x.png", "--no-save"], "No such option"),
        (["resume", "missing.json"], "no such save file"),
        (["solo", "--risk", "2", "--no-save"], "--risk"),
        (["solo", "--agent", "nosuchmodel", "--no-save"], "nosuchmodel"),
    ],
)
def test_bad_options_fail_with_one_line_and_status_2(args, message):
    result = CliRunner().invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert message in result.output + (result.stderr or "")


def test_an_existing_save_is_not_overwritten_without_force(tmp_path):
    save = tmp_path / "exists.json"
    save.write_text("{}")
    result = CliRunner().invoke(app, ["play", "solo", "--save", str(save), *AI])
    assert result.exit_code == 2 and "play resume" in result.stderr
    assert save.read_text() == "{}"


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_folder_as_the_save_file_is_refused_with_or_without_force(tmp_path, force):
    result = CliRunner().invoke(app, ["play", "solo", "--save", str(tmp_path), *force, *AI])
    assert result.exit_code == 2 and "is a folder" in result.stderr and "play resume" not in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_save_and_no_save_together_are_refused(tmp_path):
    save = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "solo", "--save", str(save), "--no-save", *AI])
    assert result.exit_code == 2 and "--no-save" in result.stderr and not save.exists()


class _Idle:
    """An AI player that is never asked to move (the game below is saved before any move)."""

    def reset(self, seed: int) -> None:
        pass


def a_fresh_save(path, finished: bool = False, **settings) -> None:
    """A solo save (glove50, should a model be loaded); ``finished``: the first guess is the assassin."""
    settings = PlaySettings(**{"mode": "solo", "seed": 38, "agent": "glove50", **settings})
    game, labels = new_game(settings)
    if finished:
        game.give_clue(Clue(legal_clues(game.words, 1)[0].split()[0], 1))
        game.guess(game.remaining(Identity.ASSASSIN)[0])
        assert game.is_over
    save_session(Session(settings, game, {"spymaster": _Idle(), "guesser": _Idle()}, labels), path)


def test_a_finished_save_is_shown_with_its_result_not_resumed(tmp_path):
    save = tmp_path / "over.json"
    a_fresh_save(save, finished=True)
    before = save.read_bytes()
    result = run(["resume", str(save), "--no-color"], ["quit"])
    out = result.stdout
    assert result.exit_code == 0, out
    assert f"{save} holds a finished game: it is over, there is nothing to resume." in out
    assert "You lose: your team touched the assassin." in out and END_MARK in out
    assert "Resumed" not in out and "saved after every move" not in out and "> " not in out
    assert save.read_bytes() == before


def test_starting_over_a_finished_save_shows_its_result_and_offers_no_resume(tmp_path):
    save = tmp_path / "over.json"
    a_fresh_save(save, finished=True)
    result = CliRunner().invoke(app, ["play", "solo", "--seed", "38", "--save", str(save), *AI])
    assert result.exit_code == 2
    assert "holds a finished game (You lose: your team touched the assassin.)" in result.stderr
    assert "resume" not in result.stderr and "--force" in result.stderr


def test_resuming_a_save_without_its_checksum_is_refused_in_one_line(tmp_path):
    save = tmp_path / "edited.json"
    a_fresh_save(save)
    data = json.loads(save.read_text())
    del data["sha256"]
    data["meta"]["play"]["settings"]["role"] = "spymaster"  # a hand edit: the guesser takes the key
    save.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["play", "resume", str(save)])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error:") and len(result.stderr.strip().splitlines()) == 1
    assert "has no checksum" in result.stderr and "Traceback" not in result.output


def test_an_unwritable_save_path_is_one_line_and_another_path_is_offered(tmp_path, read_only):
    seed = 39
    game, _ = new_game(PlaySettings(mode="solo", seed=seed))
    red = game.remaining(Identity.RED)
    folder, other = tmp_path / "read-only", tmp_path / "other.json"
    folder.mkdir()
    read_only.add(folder.resolve())
    save = folder / "game.json"
    result = run(["solo", "--seed", str(seed), "--save", str(save), *AI], ["notes", str(other), red[0], "quit"])
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Traceback" not in result.output
    assert f"cannot save the game to {save}: Permission denied. The game goes on in memory.\n" in out
    assert "Another save file (a .json path), or Enter to go on unsaved> " in out
    assert "a save file name ends in .json" in out  # "notes" is not taken for a file name
    assert f"The game is saved after every move in {other}. It holds the key card" in out
    assert f"The game is saved after every move in {save}" not in out
    assert f"You touch {red[0].upper()}: a red agent - correct" in out
    assert [a["type"] for a in json.loads(other.read_text())["actions"]] == ["clue", "guess"]
    assert not save.exists() and not any(folder.iterdir())
    assert f"play resume {other}" in out


def test_resuming_a_save_in_a_read_only_folder_goes_on_in_memory(tmp_path, read_only):
    save = tmp_path / "read-only" / "game.json"
    save.parent.mkdir()
    a_fresh_save(save)
    before = save.read_bytes()
    read_only.add(save.parent.resolve())
    game, _ = new_game(PlaySettings(mode="solo", seed=38))
    red = game.remaining(Identity.RED)
    result = run(["resume", str(save), "--no-color"], ["", red[0], "quit"])
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Traceback" not in result.output
    assert f"cannot save the game to {save}: Permission denied. The game goes on in memory." in out
    assert "The game goes on without saving." in out
    assert "saved after every move" not in out
    assert f"You touch {red[0].upper()}: a red agent - correct" in out  # the move is played, in memory
    assert "This game was not saved (the save file could not be written)." in out
    assert save.read_bytes() == before
