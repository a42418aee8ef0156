"""The CLIP backend, run for real on a tiny randomly initialised CLIP the test builds and saves.

The folder is laid out like sentence-transformers' clip-ViT-B-32 (modules.json + the
transformers model, tokenizer and image processor) and loaded through the same
``SentenceTransformer(path)`` call as real weights. With random weights the scores mean
nothing, so these tests check mechanics: shapes, unit norms, determinism, independence from
batch neighbours, and that rankings agree with the similarity matrix.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")
transformers = pytest.importorskip("transformers")
pytest.importorskip("sentence_transformers")

from PIL import Image  # noqa: E402

from spymaster_ai.embeddings.base import EmbeddingError  # noqa: E402
from spymaster_ai.embeddings.clip import (  # noqa: E402
    IMAGE_BATCH,
    TEXT_BATCH,
    ClipEmbedding,
    load_clip,
    rank_cards,
    square_rgb,
)
from spymaster_ai.embeddings.vocabulary import load_vocabulary  # noqa: E402
from spymaster_ai.pictures.deck import PictureCard, PictureDeck, load_deck  # noqa: E402

PROJECTION = 16


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2/CLIP byte-level alphabet: every byte as a printable character."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars = keep[:]
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return dict(zip(keep, map(chr, chars)))


def build_tiny_clip(folder: Path) -> Path:
    """A random 2-layer CLIP (16-d projection, 32 px images) saved as a sentence-transformers folder."""
    import torch
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor, CLIPTokenizer

    module = folder / "0_CLIPModel"
    module.mkdir(parents=True)
    letters = list(_bytes_to_unicode().values())
    tokens = letters + [c + "</w>" for c in letters] + ["<|startoftext|>", "<|endoftext|>"]
    vocab = {t: i for i, t in enumerate(tokens)}
    tokenizer = CLIPTokenizer(vocab=vocab, merges=[])
    torch.manual_seed(0)
    config = CLIPConfig(
        text_config=dict(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, max_position_embeddings=77,
                         bos_token_id=vocab["<|startoftext|>"], eos_token_id=vocab["<|endoftext|>"],
                         pad_token_id=vocab["<|endoftext|>"]),
        vision_config=dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                           image_size=32, patch_size=8),
        projection_dim=PROJECTION,
    )
    CLIPModel(config).eval().save_pretrained(module)
    processor = CLIPProcessor(
        image_processor=CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}),
        tokenizer=tokenizer,
    )
    processor.save_pretrained(module)
    # The module list of sentence-transformers' published clip-ViT-B-32.
    (folder / "modules.json").write_text(json.dumps(
        [{"idx": 0, "name": "0", "path": "0_CLIPModel", "type": "sentence_transformers.models.CLIPModel"}]))
    return folder


@pytest.fixture(scope="module")
def clip_folder(tmp_path_factory) -> Path:
    return build_tiny_clip(tmp_path_factory.mktemp("tiny-clip"))


@pytest.fixture(scope="module")
def vocabulary():
    return load_vocabulary(60)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Encoded vocabularies go to a temporary cache, never the user's."""
    monkeypatch.setenv("SPYMASTER_AI_CACHE", str(tmp_path / "cache"))


@pytest.fixture()
def clip(clip_folder, vocabulary) -> ClipEmbedding:
    return ClipEmbedding(clip_folder, vocabulary)


@pytest.fixture(scope="module")
def deck() -> PictureDeck:
    return load_deck()


def test_text_vectors_are_unit_and_shaped(clip):
    vecs = clip.vectors(["dog", "ocean", "ice cream"])
    assert vecs.shape == (3, PROJECTION) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    assert clip.dim == PROJECTION


def test_picture_vectors_are_unit_and_shaped(clip, deck):
    ids = list(deck.ids[:3]) + [next(c.id for c in deck if c.combined)]
    vecs = clip.vectors(ids)
    assert vecs.shape == (4, PROJECTION) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, rtol=1e-5)
    assert len({v.tobytes() for v in vecs}) == 4  # different pictures, different vectors


def test_image_vector_does_not_depend_on_batch_neighbours(clip_folder, vocabulary, deck):
    target = deck.ids[5]
    others = [c for c in deck.ids[:60] if c != target][: IMAGE_BATCH + 3]
    alone = ClipEmbedding(clip_folder, vocabulary).image_vectors([target])[0]
    crowded = ClipEmbedding(clip_folder, vocabulary).image_vectors([*others[:7], target, *others[7:]])[7]
    assert alone.tobytes() == crowded.tobytes()


def test_text_vector_does_not_depend_on_batch_neighbours(clip_folder, vocabulary):
    alone = ClipEmbedding(clip_folder, vocabulary).vectors(["zebra"])[0]
    words = ["cat", "zebra", "a much longer text than the others", "owl"] + [f"w{i}x" for i in range(TEXT_BATCH)]
    crowded = ClipEmbedding(clip_folder, vocabulary).vectors(words)[1]
    assert alone.tobytes() == crowded.tobytes()


def test_vocabulary_words_match_words_encoded_alone(clip_folder, vocabulary):
    model = ClipEmbedding(clip_folder, vocabulary)
    vocab = model.clue_vocabulary()
    assert vocab == vocabulary.words
    matrix = model.vocabulary_vectors()
    assert matrix.shape == (len(vocab), PROJECTION)
    fresh = ClipEmbedding(clip_folder, vocabulary)
    assert fresh.vectors([vocab[7]])[0].tobytes() == matrix[7].tobytes()


def test_similarity_is_the_cosine_of_the_vectors(clip, deck):
    clues = ["fire", "water", "king"]
    cards = list(deck.ids[10:15]) + ["river"]
    sims = clip.similarity(clues, cards)
    assert sims.shape == (3, 6) and sims.dtype == np.float32
    expected = clip.vectors(clues) @ clip.vectors(cards).T
    np.testing.assert_allclose(sims, expected, rtol=1e-5, atol=1e-6)


def test_identical_images_get_identical_scores(clip_folder, vocabulary, tmp_path, deck):
    # A deck where two cards share one image file: CLIP sees the same picture twice.
    image = deck.cards[0].image
    cards = [PictureCard("pic:a", image, "a", (), "test", ("1",)),
             PictureCard("pic:b", deck.cards[1].image, "b", (), "test", ("2",)),
             PictureCard("pic:c", image, "c", (), "test", ("3",))]
    model = ClipEmbedding(clip_folder, vocabulary, deck=PictureDeck(cards, tmp_path))
    sims = model.similarity(["dog", "castle"], ["pic:a", "pic:b", "pic:c"])
    assert sims[:, 0].tobytes() == sims[:, 2].tobytes()
    assert not np.array_equal(sims[:, 0], sims[:, 1])


def test_rank_returns_every_card_in_similarity_order(clip, deck):
    board = list(deck.deal(20, seed=4))
    ranking = clip.rank("ocean", board)
    assert sorted(c for c, _ in ranking) == sorted(board)
    scores = [s for _, s in ranking]
    assert scores == sorted(scores, reverse=True)
    sims = clip.similarity(["ocean"], board)[0]
    for card, score in ranking:
        assert score == pytest.approx(float(sims[board.index(card)]), abs=1e-6)


def test_rank_ties_keep_board_order():
    class Flat:
        def similarity(self, rows, cols):
            return np.zeros((len(rows), len(cols)), dtype=np.float32)

    assert [c for c, _ in rank_cards(Flat(), "x", ["c", "a", "b"])] == ["c", "a", "b"]


def test_same_vectors_in_a_fresh_process(clip_folder, vocabulary, deck, tmp_path):
    model = ClipEmbedding(clip_folder, vocabulary)
    here = model.similarity(["dog", "moon"], list(deck.ids[:4])).tobytes().hex()
    script = textwrap.dedent(f"""
        from spymaster_ai.embeddings.clip import ClipEmbedding
        from spymaster_ai.embeddings.vocabulary import load_vocabulary
        from spymaster_ai.pictures.deck import load_deck
        m = ClipEmbedding({str(clip_folder)!r}, load_vocabulary(60))
        print(m.similarity(["dog", "moon"], list(load_deck().ids[:4])).tobytes().hex())
    """)
    env = {**__import__("os").environ, "SPYMASTER_AI_CACHE": str(tmp_path / "c2")}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == here


def test_knows_pictures_of_the_deck_only(clip):
    assert clip.knows("pic:dog")
    assert clip.knows("PIC:Dog")
    assert not clip.knows("pic:no_such_card")
    assert clip.knows("anything")


def test_unknown_picture_is_a_clear_error(clip):
    with pytest.raises(EmbeddingError, match="no picture card 'pic:no_such_card'"):
        clip.similarity(["dog"], ["pic:no_such_card"])


def test_bare_string_is_refused(clip):
    with pytest.raises(EmbeddingError, match="sequence of words"):
        clip.similarity("dog", ["pic:dog"])
    with pytest.raises(EmbeddingError, match="sequence of words"):
        clip.rank("dog", "pic:dog")


def test_missing_folder_says_where_to_put_weights(tmp_path):
    with pytest.raises(EmbeddingError, match="no CLIP model folder"):
        load_clip(tmp_path / "nowhere", vocab_size=10)


def test_a_folder_that_is_not_a_model_is_a_clear_error(tmp_path, vocabulary):
    (tmp_path / "junk.txt").write_text("not a model")
    with pytest.raises(EmbeddingError, match="cannot load a CLIP model"):
        ClipEmbedding(tmp_path, vocabulary)


def test_template_must_hold_the_word(clip_folder, vocabulary):
    with pytest.raises(EmbeddingError, match="text_template"):
        ClipEmbedding(clip_folder, vocabulary, text_template="a photo")


def test_square_rgb_pads_wide_cards_on_white():
    wide = Image.new("RGBA", (128, 64), (0, 0, 0, 0))
    wide.paste(Image.new("RGBA", (64, 64), (255, 0, 0, 255)), (0, 0))
    square = square_rgb(wide)
    assert square.mode == "RGB" and square.size == (128, 128)
    assert square.getpixel((10, 5)) == (255, 255, 255)  # padding above the picture
    assert square.getpixel((10, 64)) == (255, 0, 0)  # left half kept whole
    assert square.getpixel((100, 64)) == (255, 255, 255)  # transparency became white
