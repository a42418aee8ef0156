"""The phrase index: words that stand together in a set phrase, an idiom or a name's story
(issue 39), and the human guesser following a clue through one.

The idiom list ships with the package; WordNet's phrases are Debian's (``.ci/run`` installs
them), so the tests that need them skip without it."""

from __future__ import annotations

import numpy as np
import pytest

from spymaster_ai.embeddings.phrase_links import PhraseLinks, build_pairs, content_words, phrase_links
from spymaster_ai.embeddings.wordnet_backend import wordnet_installed

needs_wordnet = pytest.mark.skipif(not wordnet_installed(),
                                   reason="WordNet is not installed (apt-get install wordnet-base wordnet-sense-index)")


@pytest.fixture(scope="module")
def idioms_only():
    return PhraseLinks(*build_pairs(None))


def test_content_words_are_lemmas_without_function_words():
    assert content_words("batten down the hatches") == ["batten", "hatch"]
    assert content_words("the wolf in sheep's wool") == ["wolf", "sheep", "wool"]
    assert content_words("Gorillas in the Mist") == ["gorilla", "mist"]
    assert content_words("jack-o'-lantern") == ["jack", "lantern"]


def test_an_idiom_links_its_words_both_ways_and_in_any_inflection(idioms_only):
    assert idioms_only.link("batten", "hatch") == 1.0
    assert idioms_only.link("hatch", "batten") == 1.0
    assert idioms_only.link("batten", "hatches") == 1.0
    assert idioms_only.link("eye", "storm") == 1.0  # the eye of the storm


def test_unrelated_words_and_function_words_are_not_linked(idioms_only):
    for a, b in (("batten", "dart"), ("eye", "peacock"), ("storm", "banana"), ("the", "storm"), ("of", "eye")):
        assert idioms_only.link(a, b) == 0.0, (a, b)


def test_links_are_a_clue_by_card_matrix_with_zeros_for_unknown_words(idioms_only):
    m = idioms_only.links(["batten", "eye", "qwertyuiop"], ["hatch", "storm", "dart", "zzzz"])
    assert m.shape == (3, 4) and m.dtype == np.float32
    assert m[0, 0] == 1.0 and m[1, 1] == 1.0
    assert m[0, 1] == m[0, 2] == m[1, 0] == 0.0 and not m[2].any() and not m[:, 3].any()


@needs_wordnet
def test_wordnet_phrases_link_both_ways_and_only_within_the_phrase():
    index = phrase_links()
    assert "wordnet" in index.sources
    assert index.link("private", "eye") == index.link("eye", "private") == 1.0
    assert index.link("jack", "lantern") == 1.0  # jack-o'-lantern
    assert index.link("eye", "detective") > 0  # private eye: "... a detective"
    assert index.link("eye", "banana") == 0.0 and index.link("private", "lantern") == 0.0
    # a card of several words needs the whole card: CASH MACHINE does not link CASH to WASHING MACHINE
    assert index.link("cash", "machine") > 0 and index.link("cash", "washing machine") == 0.0
    # taxonomic glue links nothing
    assert index.link("genus", "canis") == 0.0


@needs_wordnet
def test_the_reader_sees_the_phrase_link_as_a_feature():
    from spymaster_ai.agents.human.features import CARD_FEATURES, features_from_sims

    cards = ["lantern", "dart", "moon"]
    sims = [np.zeros((1, 3), dtype=np.float32)]
    stats = [np.zeros(3, dtype=np.float32)]
    x = features_from_sims(sims, stats, [np.ones(3, dtype=np.float32)], np.ones(3, bool), ["jack"], cards)
    column = x[0, :, 3 + CARD_FEATURES.index("phrase_link")]
    assert column[0] > 0 and column[1] == column[2] == 0.0


def test_a_link_reads_plainer_when_it_is_the_clues_only_one_on_the_board():
    from spymaster_ai.agents.human.features import phrase_reading

    # clue 0 links card 0 alone; clue 1 links cards 0-3 as strongly; both in as many phrases
    phrase = np.array([[1, 0, 0, 0, 0], [1, 1, 1, 1, 0]], dtype=np.float32)
    read = phrase_reading(phrase, np.ones(5, bool), np.array([20, 20], dtype=np.float32))
    assert read[0, 0] > 3 * read[1, 0] and read[1, 0] == read[1, 3] > 0
    assert not read[:, 4].any() and not read[0, 1:].any()
    # a covered card's link no longer shares the clue's reading
    covered = phrase_reading(phrase, np.array([True, False, False, False, True]), np.array([20, 20], dtype=np.float32))
    assert covered[1, 0] == pytest.approx(read[0, 0])


def test_a_clue_in_many_phrases_links_less_plainly_than_a_clue_in_few():
    from spymaster_ai.agents.human.features import phrase_reading

    phrase = np.array([[1, 0, 0], [1, 0, 0]], dtype=np.float32)
    read = phrase_reading(phrase, np.ones(3, bool), np.array([0, 990], dtype=np.float32))
    assert read[0, 0] == pytest.approx(1.0) and read[1, 0] == pytest.approx(1 / 3)


@needs_wordnet
def test_phrase_degrees_count_a_clues_links_and_zero_for_unknown_words():
    index = phrase_links()
    batten, line, nothing = index.degrees(["batten", "line", "qwertyuiop"])
    assert nothing == 0 and 0 < batten < line
    assert batten == len(index.linked("batten"))


@needs_wordnet
@pytest.mark.models
def test_the_human_guesser_follows_a_clue_through_a_phrase():
    from spymaster_ai.agents.registry import make_guesser
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import GuesserView

    guesser = make_guesser("human")
    guesser.reset(0)
    # boards of experiments/data/phrase_links.tsv where the reader without phrases took the
    # first card named (SWAMP, SHELL, JUMPER)
    for clue, card, others in (
        ("piggy", "bank", "swamp eraser canvas portrait bread salt vampire"),
        ("bermuda", "triangle", "shell buckle puzzle theater fountain pocket curtain"),
        ("batten", "hatch", "jumper avalanche glove bishop lamb alley cabin monitor mirror violin bubble lobster pepper"),
    ):
        words = tuple(others.split()[:3] + [card] + others.split()[3:])
        view = GuesserView(game="classic", me="red", words=words, visible=words, revealed=(),
                           clue=Clue(clue, 1), guesses_made=0, max_guesses=2, can_stop=True, own_left=9)
        assert guesser.next_guess(view) == card, clue
