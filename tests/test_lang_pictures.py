"""Codenames Pictures on German, Vietnamese and Persian boards: the same picture cards with
captions in the board's language (``pictures/deck/captions_<lang>.tsv``, built by
``scripts/build_picture_captions.py``), the language's Pictures legality, and agents that read
the captions in that language.

e5small runs on a 120-word clue vocabulary here, so the games say the path works and stays
legal, not how well the agents play (experiments/results/lang_pictures.md).
"""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from conftest import small_vocabulary_models

from spymaster_ai.cli.app import app
from spymaster_ai.pictures.deck import DeckError, load_deck, localise_deck, read_deck
from spymaster_ai.rules.lang.checks import COLOUR_WORDS
from spymaster_ai.rules.lang.normalise import normalise
from spymaster_ai.rules.lang.words import clue_words
from spymaster_ai.rules.legality import RULE_PICTURE_APPEARANCE, RULE_VISIBLE_WORD, LegalityOptions, check_clue, legal_mask
from spymaster_ai.sim.play import PlayOptions, deal_board
from spymaster_ai.sim.runner import run_games

LANGS = ["de", "vi", "fa"]
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def small_models(tmp_path_factory):
    with small_vocabulary_models(tmp_path_factory.mktemp("cache"), 120):
        yield


# ----------------------------------------------------------------------------- the captions


@pytest.mark.parametrize("lang, dog, apple", [("de", "hund", "roter apfel"), ("vi", "chó", "táo đỏ"), ("fa", "سگ", "سیب سرخ")])
def test_every_card_has_a_caption_in_the_language(lang, dog, apple) -> None:
    english, local = load_deck(), load_deck(lang)
    assert [c.id for c in local] == [c.id for c in english]
    assert [c.image for c in local] == [c.image for c in english]
    assert local["pic:dog"].caption == dog and local["pic:apple"].caption == apple
    assert all(c.caption == normalise(lang, c.caption) for c in local)  # written as the checker writes
    assert sum(a.caption != b.caption for a, b in zip(local, english)) > 0.9 * len(english)
    # A combined card shows both halves, each with its own caption in the language.
    combined = next(c for c in local if c.combined)
    assert [p.caption for p in local.parts(combined.id)] == combined.caption.split(" + ")


def test_a_missing_or_short_caption_table_is_a_clear_error(tmp_path) -> None:
    deck = load_deck()
    card = deck["pic:dog"]
    (tmp_path / "img").mkdir()
    shutil.copy(card.image, tmp_path / "img" / card.image.name)
    (tmp_path / "cards.tsv").write_text(
        "id\timage\tcaption\ttags\tcategory\tsource\n"
        f"pic:dog\timg/{card.image.name}\tdog\tpet\tanimals\t{card.source[0]}\n", encoding="utf-8")
    small = read_deck(tmp_path)
    with pytest.raises(DeckError, match="no picture captions in language 'de'"):
        localise_deck(small, "de")
    (tmp_path / "captions_de.tsv").write_text("id\tcaption\ttags\npic:cat\tkatze\t\n", encoding="utf-8")
    with pytest.raises(DeckError, match=r"no caption for 1 card\(s\), e.g. \['pic:dog'\]"):
        localise_deck(small, "de")
    (tmp_path / "captions_de.tsv").write_text("id\tcaption\ttags\npic:dog\thund\thaustier,tier\n", encoding="utf-8")
    assert localise_deck(small, "de")["pic:dog"].tags == ("haustier", "tier")


# ----------------------------------------------------------------------------- legality


@pytest.mark.parametrize("lang, colour, form, caption, other", [
    ("de", "rot", "rote", "hund", "katze"),
    ("vi", "đỏ", "màu", "chó", "mèo"),
    ("fa", "قرمز", "قرمزها", "سگ", "گربه"),
])
def test_pictures_legality_in_the_language(lang, colour, form, caption, other) -> None:
    board = ["pic:dog", "pic:rocket+moose"]
    pictures = LegalityOptions(pictures=True, lang=lang)
    for word in (colour, form):  # Pictures §2: colour words are refused, with their forms
        verdict = check_clue(word, board, pictures)
        assert not verdict.legal and verdict.rule == RULE_PICTURE_APPEARANCE and "colour word" in verdict.reason
    assert check_clue(colour, ["hund"] if lang == "de" else [], LegalityOptions(lang=lang)).legal  # word cards: legal
    # A caption is an annotation, not a word on the table (RULES.md §2) ...
    assert check_clue(caption, board, pictures).legal
    # ... unless the house option forbids captions: then the caption in the board's language.
    strict = LegalityOptions(pictures=True, strict_captions=True, lang=lang)
    verdict = check_clue(caption, board, strict)
    assert not verdict.legal and verdict.rule == RULE_VISIBLE_WORD and verdict.collides_with == "pic:dog"
    assert check_clue(other, board, strict).legal
    assert legal_mask([caption, other, colour], board, strict) == [False, True, False]
    assert legal_mask([caption, other, colour], board, pictures) == [True, True, False]


def test_every_colour_word_is_refused_on_picture_cards() -> None:
    for lang, words in COLOUR_WORDS.items():
        options = LegalityOptions(pictures=True, lang=lang)
        assert not any(legal_mask(sorted(words), ["pic:dog"], options)), lang


# ----------------------------------------------------------------------------- games and agents


@pytest.mark.parametrize("lang", LANGS)
def test_e5small_plays_pictures_with_captions_in_the_language(lang) -> None:
    options = PlayOptions(lang=lang)
    assert deal_board("pictures_solo", 3, 0, options)[0] == deal_board("pictures_solo", 3, 0)[0]  # same pictures
    run = run_games("pictures_solo", {"spymaster": "e5small", "guesser": "e5small"}, games=1, seed=1, options=options)
    vocab = set(clue_words(lang))
    for game in run.results:
        assert game.error is None and game.invalid_clues == 0
        assert game.record["config"]["legality_options"]["lang"] == lang
        clues = [a["word"] for a in game.record["actions"] if a.get("type") == "clue"]
        assert clues and all(c in vocab for c in clues)
        assert not any(c in COLOUR_WORDS[lang] for c in clues)


def test_the_agents_read_the_boards_captions() -> None:
    from spymaster_ai.agents.registry import make_spymaster
    from spymaster_ai.sim.play import for_picture_cards

    spymaster = make_spymaster("e5small:lang=de")
    german, english = for_picture_cards(spymaster, "de"), for_picture_cards(spymaster)
    assert german is not english and for_picture_cards(spymaster, "de") is german  # one twin per language
    assert german.embedding.model.deck["pic:dog"].caption == "hund"
    assert english.embedding.model.deck["pic:dog"].caption == "dog"
    assert "rot" not in german.embedding.clue_vocabulary()
    sims = german.embedding.similarity(["haustier"], ["pic:dog", "pic:rocket"])
    assert sims[0, 0] > sims[0, 1]


def test_board_clue_and_play_show_captions_in_the_language() -> None:
    result = runner.invoke(app, ["pictures", "board", "--seed", "2", "--lang", "vi", "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)
    english = json.loads(runner.invoke(app, ["pictures", "board", "--seed", "2", "--json"]).output)
    assert "lang" not in english and facts["lang"] == "vi"
    assert [c["id"] for c in facts["cards"]] == [c["id"] for c in english["cards"]]
    deck = load_deck("vi")
    assert [c["caption"] for c in facts["cards"]] == [deck[c["id"]].caption for c in facts["cards"]]
    refused = runner.invoke(app, ["pictures", "clue", "--seed", "2", "--lang", "de", "--spymaster", "minilm"])
    assert refused.exit_code == 2 and "reads English only" in refused.output

    from spymaster_ai.play import PlaySettings, new_game

    game, labels = new_game(PlaySettings(mode="pictures", seed=2, lang="fa"))
    fa = load_deck("fa")
    assert labels == {c: fa[c].caption for c in game.words}
