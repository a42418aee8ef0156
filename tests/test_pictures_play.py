"""Codenames Pictures end to end with real picture cards: the simulator's deal, agents on card
ids through the caption backend, legality with card ids, the bench and pictures CLIs."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from spymaster_ai.agents.registry import make_guesser, make_spymaster
from spymaster_ai.cli.app import _register, app
from spymaster_ai.embeddings.captions import CaptionEmbedding
from spymaster_ai.pictures import is_picture_id, load_deck
from spymaster_ai.rules.cards import PICTURES_LAYOUT, Identity
from spymaster_ai.rules.classic import ClassicGame
from spymaster_ai.rules.legality import COLOUR_WORDS, LegalityOptions, check_clue, legal_mask
from spymaster_ai.rules.moves import Clue, InvalidClueError, LossCause
from spymaster_ai.rules.record import from_record
from spymaster_ai.sim.play import PictureBoardModel, PlayOptions, deal_board, for_picture_cards, lineup, play_game
from spymaster_ai.sim.runner import _agents_for, registry_factory, run_games
from spymaster_ai.sim.seeds import game_seed
from spymaster_ai.views import GuesserView, SpymasterView

pytestmark = pytest.mark.models

# A smaller clue vocabulary keeps the per-board precompute short; the agents are the same.
SPYMASTER = "glove50:vocabulary_size=3000"
GUESSER = "glove50"
DECK = load_deck()

_register()
runner = CliRunner()


def _agents(game: str) -> tuple[dict, dict]:
    specs = lineup(game, SPYMASTER, GUESSER)
    return specs, _agents_for(specs, registry_factory)


# ----------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("game", ["pictures", "pictures_solo"])
def test_deal_is_twenty_seeded_picture_cards_of_the_deck(game):
    cards, key, flags = deal_board(game, 7)
    assert len(cards) == 20 == len(set(cards)) and flags == (True,) * 20
    assert all(is_picture_id(c) and c in DECK for c in cards)
    counts = {i: key.identities.count(i) for i in Identity}
    assert sorted(counts.values()) == sorted(PICTURES_LAYOUT[1:]) or (counts[Identity.ASSASSIN] == 1 and counts[Identity.BYSTANDER] == 4)
    assert deal_board(game, 7) == (cards, key, flags)
    assert deal_board(game, 8)[0] != cards


def test_word_cards_option_deals_words():
    cards, _, flags = deal_board("pictures", 7, options=PlayOptions(picture_cards=False))
    assert flags == (False,) * 20 and not any(is_picture_id(c) for c in cards)


def test_two_team_starting_team_alternates_and_solo_starts_red():
    assert deal_board("pictures", 3, 0)[1].starting.value == "red"
    assert deal_board("pictures", 3, 1)[1].starting.value == "blue"
    assert deal_board("pictures_solo", 3, 1)[1].starting.value == "red"


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    "game, assassin_ending",
    [("pictures", False), ("pictures", True), ("pictures_solo", False), ("pictures_solo", True)],
)
def test_glove_agents_play_real_picture_cards_to_a_legal_end(game, assassin_ending):
    specs, agents = _agents(game)
    options = PlayOptions(assassin_ending=assassin_ending)
    for index in range(2):
        r = play_game(game, agents, specs, seed=game_seed(5, index), index=index, options=options)
        assert r.error is None, r.error
        assert r.invalid_clues == 0  # strict legality: no clue the Pictures rules refuse
        assert r.won or r.loss_cause in {c.value for c in LossCause}
        assert r.extra["cards"] == "pictures"
        config = r.record["config"]
        assert config["pictures"] == [True] * 20 and config["kind"] == "pictures"
        assert config["assassin_ending"] is assassin_ending and config["solo"] is (game == "pictures_solo")
        assert all(c in DECK for c in config["words"])
        replayed = from_record(r.record)  # the engine replays every move to the same end
        assert replayed.is_over and replayed.state_json() == r.record["final_state"]


def test_picture_game_is_reproducible_with_fresh_agents():
    specs, agents = _agents("pictures")
    first = play_game("pictures", agents, specs, seed=11, index=1)
    fresh = {r: registry_factory(r, s) for r, s in specs.items()}
    again = play_game("pictures", fresh, specs, seed=11, index=1)
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(again.to_json(), sort_keys=True)


def test_results_file_identical_in_and_out_of_process(tmp_path):
    specs = lineup("pictures_solo", SPYMASTER, GUESSER)
    run_games("pictures_solo", specs, games=2, seed=4, results_path=tmp_path / "one.jsonl")
    run_games("pictures_solo", specs, games=2, seed=4, jobs=2, chunk_size=2, results_path=tmp_path / "two.jsonl")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


class _Spy:
    """Records every view an agent receives, and passes the call on."""

    def __init__(self, agent):
        self.agent, self.views = agent, []

    def reset(self, seed):
        self.agent.reset(seed)

    def give_clue(self, view):
        self.views.append(view)
        return self.agent.give_clue(view)

    def next_guess(self, view):
        self.views.append(view)
        return self.agent.next_guess(view)


def test_guessers_see_card_ids_and_never_the_key():
    specs, agents = _agents("pictures")
    spies = {r: _Spy(for_picture_cards(a)) for r, a in agents.items()}
    r = play_game("pictures", spies, specs, seed=3)
    assert r.error is None
    key_fields = {"own", "opponent", "bystanders", "assassins"}
    for role, spy in spies.items():
        assert spy.views, role
        for view in spy.views:
            assert all(is_picture_id(c) for c in view.words)
            if role.endswith("guesser"):
                assert isinstance(view, GuesserView) and view.own_side is None
                assert not key_fields & {f.name for f in dataclasses.fields(view)}
            else:
                assert isinstance(view, SpymasterView) and set(view.own) <= set(view.visible)


# ----------------------------------------------------------------------------- agents on card ids


def test_picture_twin_wraps_the_models_and_leaves_the_agent_alone():
    spy = make_spymaster(SPYMASTER)
    twin = for_picture_cards(spy)
    assert twin is not spy and for_picture_cards(spy) is twin and for_picture_cards(twin) is twin
    assert isinstance(twin.embedding, PictureBoardModel) and isinstance(twin.embedding.model, CaptionEmbedding)
    assert twin.embedding.model.text is spy.embedding
    assert twin.partners == [twin.embedding]  # a mirror partner stays the own model
    assert not isinstance(spy.embedding, CaptionEmbedding)
    guesser = make_guesser(GUESSER)
    assert for_picture_cards(guesser).embedding is twin.embedding  # one wrapper per model
    custom = _Spy(guesser)
    assert for_picture_cards(custom) is custom  # a custom agent gets the card ids as they are


def test_twin_vocabulary_drops_colour_words_even_after_word_games():
    spy = make_spymaster(SPYMASTER)
    words = spy.vocabulary  # computed on a word board first
    colours = [w for w in words if w in COLOUR_WORDS]
    assert colours  # the word vocabulary holds colour words ("red", "black"...)
    twin = for_picture_cards(spy)
    assert not set(twin.vocabulary) & COLOUR_WORDS
    # The same words in the same order, less those Pictures refuses on any board (more words
    # fill the freed places up to the size limit).
    kept = tuple(w for w in words if check_clue(w, [], LegalityOptions(pictures=True)).legal)
    assert len(kept) < len(words) and twin.vocabulary[: len(kept)] == kept


def test_spymaster_on_red_things_never_says_a_colour():
    reds = [c for c in ("pic:tomato", "pic:strawberry", "pic:cherries", "pic:fire_engine", "pic:apple") if c in DECK]
    assert len(reds) >= 4
    others = [c for c in DECK.ids if c not in reds and "+" not in c][:16]
    words = tuple(reds[:4] + others)
    view = SpymasterView(game="pictures", me="red", words=words, visible=words, own=tuple(reds[:4] + others[:4]),
                         opponent=tuple(others[4:11]), bystanders=tuple(others[11:15]), assassins=(others[15],))
    twin = for_picture_cards(make_spymaster(SPYMASTER))
    twin.reset(0)
    for option in twin.rank_clues(view, top=20):
        assert option.word not in COLOUR_WORDS
        assert check_clue(option.word, [], LegalityOptions(pictures=True)).legal
    assert set(twin.rank_clues(view, top=1)[0].targets) <= set(view.own)


# ----------------------------------------------------------------------------- legality with card ids


def test_checker_does_not_read_card_ids_as_words():
    visible = ["pic:dog", "pic:tram+feather", "pic:lotus"]
    pictures = LegalityOptions(pictures=True)
    for word in ("dog", "tram", "feather", "pic", "lotus", "animal"):
        assert check_clue(word, visible, pictures).legal, word  # captions are legal clues (§2)
    assert not check_clue("red", visible, pictures).legal  # colours are not
    assert check_clue("dark", visible, pictures).legal  # §2: "dark" for night or evil things


def test_engine_on_a_picture_board_refuses_colours_and_keeps_its_state():
    cards, key, flags = deal_board("pictures", 2)
    game = ClassicGame(cards, key, pictures=flags, kind="pictures")
    before = game.state_json()
    with pytest.raises(InvalidClueError, match="colour"):
        game.give_clue(Clue("red", 2))
    assert game.state_json() == before
    caption_word = DECK[cards[0]].parts[0].split()[-1]
    game.give_clue(Clue(caption_word, 1))  # a caption is a legal clue on picture cards


def test_word_cards_on_the_pictures_grid_keep_the_word_rules():
    cards, key, flags = deal_board("pictures", 2, options=PlayOptions(picture_cards=False))
    game = ClassicGame(cards, key, pictures=flags, kind="pictures")
    with pytest.raises(InvalidClueError):
        game.give_clue(Clue(cards[0], 1))  # a visible word is never a clue


def test_strict_captions_forbids_a_visible_cards_caption():
    strict = LegalityOptions(pictures=True, strict_captions=True)
    verdict = check_clue("dog", ["pic:dog", "pic:space_invader", "pic:rocket+moose"], strict)
    assert not verdict.legal and verdict.collides_with == "pic:dog"
    assert not check_clue("invader", ["pic:space_invader"], strict).legal
    assert not check_clue("moose", ["pic:rocket+moose"], strict).legal
    assert check_clue("cat", ["pic:dog", "pic:rocket+moose"], strict).legal
    # Without the house option a caption is a legal clue (RULES.md §2).
    assert check_clue("dog", ["pic:dog"], LegalityOptions(pictures=True)).legal
    assert legal_mask(["dog", "cat"], ["pic:dog"], strict) == [False, True]


# ----------------------------------------------------------------------------- command line


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_bench_pictures_json_plays_picture_cards(tmp_path):
    results = tmp_path / "p.jsonl"
    res = invoke("bench", "pictures", "--games", 2, "--seed", 1, "--red", SPYMASTER, "--red-guesser", GUESSER,
                 "--blue", SPYMASTER, "--blue-guesser", GUESSER, "--json", "--no-progress", "--results", results)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["games"] == 2 and report["errors"] == 0 and report["game"] == "pictures"
    assert report["options"]["picture_cards"] is True
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert all(c in DECK for line in lines for c in line["record"]["config"]["words"])


def test_bench_pictures_solo_assassin_ending_and_word_cards():
    base = ("bench", "pictures", "--games", 1, "--red", SPYMASTER, "--red-guesser", GUESSER, "--json", "--no-progress")
    solo = json.loads(invoke(*base, "--solo", "--assassin-ending").stdout)
    assert solo["game"] == "pictures_solo" and solo["options"]["assassin_ending"] is True
    assert set(solo["agents"]) == {"spymaster", "guesser"} and solo["errors"] == 0
    words = invoke(*base, "--word-cards", "--only-game", 0)
    assert words.exit_code == 0, words.output
    record = json.loads(words.stdout)["result"]["record"]
    assert not any(is_picture_id(c) for c in record["config"]["words"])


def test_bench_pictures_solo_with_a_blue_team_is_bad_input():
    res = invoke("bench", "pictures", "--solo", "--blue", GUESSER, "--games", 1)
    assert res.exit_code == 2 and "--solo has no blue team" in res.output


def test_tournament_on_pictures():
    res = invoke("tournament", "--game", "pictures", "--spymasters", SPYMASTER, "--guessers", GUESSER,
                 "--opponent", GUESSER, "--games", 1, "--json", "--no-progress")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["game"] == "pictures"


def test_pictures_board_and_clue_commands(tmp_path):
    png = tmp_path / "board.png"
    board = json.loads(invoke("pictures", "board", "--seed", 4, "--index", 1, "--png", png, "--json").stdout)
    cards, key, _ = deal_board("pictures", game_seed(4, 1), 1)  # game 1 of a run with master seed 4
    assert [c["id"] for c in board["cards"]] == list(cards)
    assert [c["identity"] for c in board["cards"]] == [i.value for i in key.identities]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    hidden = json.loads(invoke("pictures", "board", "--seed", 4, "--no-key", "--json").stdout)
    assert all(c["identity"] is None for c in hidden["cards"])
    res = invoke("pictures", "clue", "--seed", 4, "--index", 1, "--spymaster", SPYMASTER, "--team", "blue", "--top", 2, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    blue = {c["id"] for c in board["cards"] if c["identity"] == "blue"}
    assert out["team"] == "blue" and len(out["clues"]) == 2
    for option in out["clues"]:
        assert set(option["targets"]) <= blue and len(option["target_captions"]) == len(option["targets"])
    assert invoke("pictures", "clue", "--team", "green").exit_code == 2
    assert invoke("pictures", "clue", "--spymaster", "nosuchmodel").exit_code == 2


def test_pictures_board_is_the_board_bench_plays():
    played = run_games("pictures_solo", lineup("pictures_solo", SPYMASTER, GUESSER), games=3, seed=9, indices=[2])
    board = json.loads(invoke("pictures", "board", "--solo", "--seed", 9, "--index", 2, "--json").stdout)
    config = played.results[0].record["config"]
    assert [c["id"] for c in board["cards"]] == config["words"]


@pytest.mark.parametrize("solo", [[], ["--solo"]], ids=["two-team", "solo"])
def test_pictures_board_shows_the_board_play_pictures_deals_for_a_seed(tmp_path, solo):
    seed = 5
    save = tmp_path / "game.json"
    # The human gives the first clue (red starts game 0), so no AI move comes before the quit.
    played = runner.invoke(app, ["play", "pictures", "--role", "spymaster", *solo, "--seed", str(seed),
                                 "--agent", "glove50", "--save", str(save), "--no-color"], input="quit\n")
    assert played.exit_code == 0, played.output
    config = json.loads(save.read_text())["config"]
    shown = json.loads(invoke("pictures", "board", *solo, "--seed", seed, "--json").stdout)
    assert [c["id"] for c in shown["cards"]] == config["words"]
    assert [c["identity"] for c in shown["cards"]] == config["key"]["identities"]
    assert shown["starting"] == config["key"]["starting"]
