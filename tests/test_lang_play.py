"""Boards in German, Vietnamese and Persian through the whole stack: options, agents, the
simulator, play settings and the command line (issue: play in the rule books' languages).

e5small runs on a 300-word clue vocabulary here (its full ones are cached by benchmarks), so
these games say that the path works and stays legal, not how well the agents play.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import small_vocabulary_models

from spymaster_ai.agents.registry import AgentSpecError, add_language, make_guesser, make_spymaster
from spymaster_ai.cli.app import app
from spymaster_ai.rules.lang.words import clue_words
from spymaster_ai.rules.legality import LegalityOptions, check_clue
from spymaster_ai.rules.wordlists import load_words
from spymaster_ai.sim.play import PlayOptions
from spymaster_ai.sim.runner import run_games

LANGS = ["de", "vi", "fa"]
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def small_models(tmp_path_factory):
    with small_vocabulary_models(tmp_path_factory.mktemp("cache"), 300):
        yield


def test_english_options_are_written_as_before() -> None:
    assert "lang" not in PlayOptions().to_json()
    german = PlayOptions(lang="de")
    assert german.to_json()["lang"] == "de" and PlayOptions.from_json(german.to_json()) == german
    with pytest.raises(ValueError, match="unknown language"):
        PlayOptions(lang="xx")


def test_add_language_marks_registry_specs_only() -> None:
    assert add_language("e5small", "de") == "e5small:lang=de"
    assert add_language("e5small:risk=0.6", "vi") == "e5small:risk=0.6,lang=vi"
    assert add_language("e5small", "en") == "e5small"
    assert add_language("e5small:lang=fa", "de") == "e5small:lang=fa"


@pytest.mark.parametrize("lang", LANGS)
def test_e5small_plays_a_legal_game_in_each_language(lang) -> None:
    run = run_games("kim2019", {"spymaster": "e5small", "guesser": "e5small"}, games=2, seed=1,
                    options=PlayOptions(lang=lang))
    cards, vocab = set(load_words(lang)), set(clue_words(lang))
    for game in run.results:
        assert game.error is None, game.error
        config = game.record["config"]
        assert set(config["words"]) <= cards and config["legality_options"]["lang"] == lang
        visible = list(config["words"])
        clues = [a for a in game.record["actions"] if a.get("type") == "clue"]
        assert clues
        for action in clues:  # each clue is a word of the language's vocabulary, legal on the full board
            assert action["word"] in vocab
            assert check_clue(action["word"], visible, LegalityOptions(lang=lang)).rule != "visible-word"


def test_english_only_models_are_refused_on_other_boards() -> None:
    with pytest.raises(AgentSpecError, match="'minilm' reads English only and cannot play a German board"):
        make_spymaster("minilm:lang=de", load=False)
    with pytest.raises(AgentSpecError, match="reads English only"):
        make_spymaster("robust:lang=vi", load=False)  # its default partners are English models
    make_guesser("human:lang=fa", load=False)  # the human agents read other boards through a glossary
    with pytest.raises(AgentSpecError, match="unknown language"):
        make_guesser("human:lang=xx", load=False)
    with pytest.raises(AgentSpecError, match="unknown language"):
        make_guesser("e5small:lang=xx", load=False)
    with pytest.raises(AgentSpecError, match="reads English only"):
        run_games("kim2019", {"spymaster": "glove50", "guesser": "e5small"}, games=1, seed=0,
                  options=PlayOptions(lang="fa"))


def test_check_clue_command_reads_the_language() -> None:
    board = ",".join(load_words("de")[:25])
    part = load_words("de")[:25]
    result = runner.invoke(app, ["check-clue", "apple", "--board", board, "--lang", "de", "--json"])
    assert result.exit_code in (0, 1)
    verdict = json.loads(result.stdout)
    assert verdict["legal"] is (verdict["rule"] is None)
    visible = runner.invoke(app, ["check-clue", part[0], "--board", board, "--lang", "de"])
    assert visible.exit_code == 1 and "visible-word" in visible.stdout
    assert runner.invoke(app, ["check-clue", "x", "--board", board, "--lang", "xx"]).exit_code == 2


def test_bench_clue_and_guess_commands_in_vietnamese() -> None:
    bench = runner.invoke(app, ["bench", "kim2019", "--games", "1", "--seed", "3", "--spymaster", "e5small",
                                "--guesser", "e5small", "--lang", "vi", "--json", "--no-progress"])
    assert bench.exit_code == 0, bench.output
    report = json.loads(bench.stdout.strip().splitlines()[-1])
    assert report["options"]["lang"] == "vi" and report["errors"] == 0
    cards = load_words("vi")[:25]
    clue = runner.invoke(app, ["clue", "--board", ",".join(cards), "--team", ",".join(cards[:8]),
                               "--assassin", cards[8], "--opponent", ",".join(cards[9:16]), "--agent", "e5small",
                               "--lang", "vi", "--json"])
    assert clue.exit_code == 0, clue.output
    best = json.loads(clue.stdout)["clues"][0]
    assert best["word"] in clue_words("vi") and set(best["targets"]) <= set(cards[:8])
    guess = runner.invoke(app, ["guess", "--board", ",".join(cards), "--clue", best["word"], "--count", "1",
                                "--agent", "e5small", "--lang", "vi", "--json"])
    assert guess.exit_code == 0 and json.loads(guess.stdout)["guesses"]
    refused = runner.invoke(app, ["clue", "--board", ",".join(cards), "--team", cards[0], "--assassin", cards[1],
                                  "--agent", "minilm", "--lang", "vi"])
    assert refused.exit_code == 2 and "reads English only" in refused.output


def test_eval_refuses_other_languages() -> None:
    result = runner.invoke(app, ["eval", "human", "--data", "/nonexistent", "--lang", "de"])
    assert result.exit_code == 2 and "the human games are English" in result.output


def test_play_settings_deal_the_language_and_save_it() -> None:
    from spymaster_ai.play import PlaySettings, new_game
    from spymaster_ai.play.settings import SettingsError

    english = PlaySettings(mode="duet", seed=4)
    assert "lang" not in english.to_json()
    persian = PlaySettings(mode="duet", seed=4, lang="fa", agent="e5small")
    game, _ = new_game(persian)
    assert set(game.words) <= set(load_words("fa")) and "Persian board" in persian.describe()
    assert PlaySettings.from_json(persian.to_json()) == persian
    assert persian.spec_for("b_spymaster").startswith("e5small")
    german_pictures = PlaySettings(mode="pictures", seed=1, lang="de")  # captions in German (tests/test_lang_pictures.py)
    with pytest.raises(SettingsError, match="--lang must be one of"):
        PlaySettings(mode="pictures", seed=1, lang="xx")
    assert german_pictures.lang == "de"


def test_use3_plays_german_and_is_refused_where_it_was_not_trained() -> None:
    assert make_spymaster("use3:lang=de", load=False)
    with pytest.raises(AgentSpecError, match="'use3' was not trained on Vietnamese .* use e5small"):
        make_guesser("use3:lang=vi", load=False)


def test_use3_reads_german_words_alike_in_any_batch() -> None:
    import numpy as np

    from spymaster_ai.embeddings import load_embedding

    model = load_embedding("use3", lang="de")
    assert model.lang == "de" and len(model.clue_vocabulary()) == 300
    alone = model.vectors(["hund"])
    assert np.array_equal(alone, model.vectors(["katze", "hund", "mond"])[1:2])
    sims = model.similarity(["hund", "tisch"], ["katze", "stuhl"])
    assert sims.shape == (2, 2) and sims[0, 0] > sims[0, 1] and sims[1, 1] > sims[1, 0]


def test_the_german_partner_gives_nouns_only_and_other_languages_refuse_the_option() -> None:
    """nouns_only: a German playtest found adverb and adjective clues (UMSO, TYPISCH) unusable."""
    from spymaster_ai.play import PlaySettings, new_game
    from spymaster_ai.play.settings import LANGUAGE_PARTNER
    from spymaster_ai.rules.duet import Player
    from spymaster_ai.rules.lang.german import is_noun

    assert "nouns_only=true" in LANGUAGE_PARTNER["de"]
    game, _ = new_game(PlaySettings(mode="duet", seed=4, lang="de", agent="e5small"))
    view = game.spymaster_view(Player.B)
    ranked = {}
    for nouns in (False, True):
        spymaster = make_spymaster(add_language(f"e5small:nouns_only={str(nouns).lower()}", "de"))
        spymaster.reset(0)
        ranked[nouns] = [o.word for o in spymaster.rank_clues(view, top=40)]
        assert is_noun(spymaster.give_clue(view).word) or not nouns
    assert ranked[True] and all(is_noun(w) for w in ranked[True])
    assert not all(is_noun(w) for w in ranked[False])  # the filter has something to remove
    vietnamese = make_spymaster(add_language("e5small:nouns_only=true", "vi"))
    with pytest.raises(ValueError, match="nouns_only needs German clue words"):
        vietnamese.vocabulary
