"""The board image: a valid PNG of the right size, key colours as borders, covered cards grey."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from spymaster_ai.pictures.board_image import (  # noqa: E402
    BORDER,
    CAPTION,
    COLUMNS,
    GAP,
    KEY_COLOURS,
    NO_KEY,
    PICTURE,
    board_image,
    board_image_size,
    render_board,
)
from spymaster_ai.pictures.deck import load_deck  # noqa: E402
from spymaster_ai.rules.cards import PICTURES_LAYOUT, Identity, generate_classic_key  # noqa: E402


@pytest.fixture(scope="module")
def cards() -> list[str]:
    return list(load_deck().deal(20, seed=11))


def cell_origin(position: int) -> tuple[int, int]:
    row, col = divmod(position, COLUMNS)
    return GAP + col * (PICTURE + 2 * BORDER + GAP), GAP + row * (PICTURE + CAPTION + 2 * BORDER + GAP)


def picture_box(position: int) -> tuple[int, int, int, int]:
    x, y = cell_origin(position)
    return x + BORDER, y + BORDER, x + BORDER + PICTURE, y + BORDER + PICTURE


def saturation(image: Image.Image, box) -> int:
    """Largest channel spread (max - min over R, G, B) of any pixel in the box."""
    px = np.asarray(image.crop(box).convert("RGB"), dtype=np.int16)
    return int((px.max(axis=2) - px.min(axis=2)).max())


def test_render_writes_a_png_of_the_board_size(cards, tmp_path):
    path = render_board(cards, tmp_path / "board.png")
    assert path == tmp_path / "board.png"
    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        assert im.format == "PNG" and im.mode == "RGB"
        assert im.size == board_image_size(20)
    width, height = board_image_size(20)
    assert width == 5 * (PICTURE + 2 * BORDER) + 6 * GAP
    assert height == 4 * (PICTURE + CAPTION + 2 * BORDER) + 5 * GAP


def test_key_colours_are_the_borders(cards):
    key = generate_classic_key(5, PICTURES_LAYOUT)
    image = board_image(cards, key=key)
    for position, identity in enumerate(key.identities):
        x, y = cell_origin(position)
        assert image.getpixel((x + 1, y + 1)) == KEY_COLOURS[identity]
        assert image.getpixel((x + BORDER // 2, y + 60)) == KEY_COLOURS[identity]


def test_without_a_key_borders_are_neutral(cards):
    image = board_image(cards)
    for position in range(20):
        x, y = cell_origin(position)
        assert image.getpixel((x + 1, y + 1)) == NO_KEY


def test_covered_cards_are_grey_and_others_keep_their_colours(cards):
    deck = load_deck()
    # Pick colourful pictures, so that "grey" is a real change.
    plain = board_image(cards)
    colourful = [i for i in range(20) if saturation(plain, picture_box(i)) > 80]
    assert len(colourful) >= 4
    covered = colourful[:2]
    image = board_image(cards, covered=[cards[covered[0]], covered[1]])
    for position in covered:
        assert saturation(image, picture_box(position)) <= 3, deck[cards[position]].caption
    for position in colourful[2:]:
        assert saturation(image, picture_box(position)) > 80


def test_revealed_identity_colours_a_covered_card_on_a_guessers_image(cards):
    image = board_image(cards, covered={cards[3]: Identity.ASSASSIN, 4: "blue"})
    x, y = cell_origin(3)
    assert image.getpixel((x + 1, y + 1)) == KEY_COLOURS[Identity.ASSASSIN]
    x, y = cell_origin(4)
    assert image.getpixel((x + 1, y + 1)) == KEY_COLOURS[Identity.BLUE]
    x, y = cell_origin(5)
    assert image.getpixel((x + 1, y + 1)) == NO_KEY


def test_key_as_a_list_of_identities(cards):
    identities = ["red"] * 8 + ["blue"] * 7 + ["bystander"] * 4 + ["assassin"]
    image = board_image(cards, key=identities)
    x, y = cell_origin(19)
    assert image.getpixel((x + 1, y + 1)) == KEY_COLOURS[Identity.ASSASSIN]


def test_captions_are_drawn_under_the_pictures(cards):
    image = board_image(cards)
    x, y = cell_origin(0)
    band = (x + BORDER, y + BORDER + PICTURE, x + BORDER + PICTURE, y + BORDER + PICTURE + CAPTION)
    px = np.asarray(image.crop(band).convert("L"))
    assert px.min() < 100  # dark text on the white band


def test_mixed_board_of_words_and_pictures_on_a_5x5_grid(tmp_path):
    deck = load_deck()
    cards = list(deck.deal(12, seed=2)) + ["apple", "castle", "moon", "knight", "river", "ghost", "wind",
                                           "forest", "bank", "crown", "bridge", "lemon", "paper"]
    path = render_board(cards, tmp_path / "mixed.png")
    with Image.open(path) as im:
        assert im.size == board_image_size(25)
    # A word card shows its word: dark pixels in the middle of its picture square.
    image = board_image(cards)
    x0, y0, x1, y1 = picture_box(12)
    middle = np.asarray(image.crop((x0, y0 + 50, x1, y1 - 50)).convert("L"))
    assert middle.min() < 100


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda c: c[:19], "20 or 25 cards"),
        (lambda c: c[:19] + [c[0]], "same card twice"),
        (lambda c: c[:19] + ["pic:no_such_picture"], "not in the deck"),
    ],
)
def test_bad_boards_are_refused(cards, change, message):
    with pytest.raises(ValueError, match=message):
        board_image(change(list(cards)))


def test_bad_key_and_covered_are_refused(cards):
    with pytest.raises(ValueError, match="the key has 25 positions"):
        board_image(cards, key=generate_classic_key(1))
    with pytest.raises(ValueError, match="not on the board"):
        board_image(cards, covered=["pic:not_here"])
    with pytest.raises(ValueError, match="off a 20-card board"):
        board_image(cards, covered=[20])
    with pytest.raises(ValueError):
        board_image(cards, key=["red"] * 19 + ["green"])
