"""Draw a Codenames Pictures board as a PNG: a 5-column grid of pictures with captions.

A spymaster's image shows the key as coloured borders; covered cards are greyed out (with
the identity they were revealed as, when known). Cards that are not pictures (a mixed
board, RULES.md section 2) are drawn as their word.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, ImageOps

from spymaster_ai.pictures.deck import PictureDeck, is_picture_id, load_deck
from spymaster_ai.rules.cards import ClassicKey, Identity

COLUMNS = 5
BOARD_SIZES = (20, 25)  # Pictures 5x4; pictures may also fill a 5x5 word grid
PICTURE = 128  # side of a picture's square, pixels
BORDER = 6
CAPTION = 26
GAP = 8
BACKGROUND = (255, 255, 255)
NO_KEY = (205, 205, 205)
KEY_COLOURS: dict[Identity, tuple[int, int, int]] = {
    Identity.RED: (205, 40, 40),
    Identity.BLUE: (35, 90, 205),
    Identity.BYSTANDER: (222, 196, 140),
    Identity.ASSASSIN: (20, 20, 20),
}
COVERED_TINT = (235, 235, 235)

Covered = Iterable["str | int"] | Mapping["str | int", "Identity | str | None"]


def board_image_size(n_cards: int, picture: int = PICTURE) -> tuple[int, int]:
    """Width and height in pixels of the image of an ``n_cards`` board."""
    rows = -(-n_cards // COLUMNS)
    cell_w, cell_h = picture + 2 * BORDER, picture + CAPTION + 2 * BORDER
    return COLUMNS * cell_w + (COLUMNS + 1) * GAP, rows * cell_h + (rows + 1) * GAP


def _identities(key: ClassicKey | Sequence[Identity | str] | None, n: int) -> list[Identity | None]:
    if key is None:
        return [None] * n
    identities = key.identities if isinstance(key, ClassicKey) else tuple(key)
    if len(identities) != n:
        raise ValueError(f"the key has {len(identities)} positions, the board {n} cards")
    return [Identity(i) for i in identities]


def _covered(covered: Covered, cards: Sequence[str]) -> dict[int, Identity | None]:
    """Covered positions, with the identity each was revealed as when it is given."""
    items = covered.items() if isinstance(covered, Mapping) else ((c, None) for c in covered)
    out: dict[int, Identity | None] = {}
    for card, identity in items:
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < len(cards):
                raise ValueError(f"covered position {card} is off a {len(cards)}-card board")
            position = card
        elif card in cards:
            position = cards.index(card)
        else:
            raise ValueError(f"covered card {card!r} is not on the board")
        out[position] = Identity(identity) if identity is not None else None
    return out


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _fit_text(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """``text``, cut with an ellipsis if it is wider than ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _caption_font(draw: ImageDraw.ImageDraw, text: str, width: int):
    """The largest caption size (14 down to 10 px) at which ``text`` fits ``width``."""
    for size in (14, 13, 12, 11, 10):
        font = _font(size)
        if draw.textlength(text, font=font) <= width:
            return font
    return font


def _picture(card: str, deck: PictureDeck, size: int) -> Image.Image:
    """The card's picture scaled to fit a ``size`` square (combined cards are wider)."""
    im = deck[card].open_image()
    scale = size / max(im.size)
    return im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)


def _word_tile(word: str, size: int) -> Image.Image:
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    font = _font(max(12, size // 6))
    text = _fit_text(draw, word.upper(), font, size - 8)
    draw.text((size / 2, size / 2), text, fill=(30, 30, 30), font=font, anchor="mm")
    return tile


def _grey(im: Image.Image) -> Image.Image:
    """A covered card's picture: grey and faded."""
    alpha = im.getchannel("A")
    grey = ImageOps.grayscale(im.convert("RGB"))
    faded = Image.blend(grey.convert("RGB"), Image.new("RGB", im.size, COVERED_TINT), 0.55)
    faded.putalpha(alpha)
    return faded


def board_image(
    cards: Sequence[str],
    covered: Covered = (),
    key: ClassicKey | Sequence[Identity | str] | None = None,
    deck: PictureDeck | None = None,
    picture: int = PICTURE,
) -> Image.Image:
    """The board as an RGB image, row by row, five cards a row (position i at row i // 5)."""
    cards = list(cards)
    if len(cards) not in BOARD_SIZES:
        raise ValueError(f"a pictures board has {' or '.join(map(str, BOARD_SIZES))} cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("the board holds the same card twice")
    deck = deck if deck is not None else load_deck()
    missing = [c for c in cards if is_picture_id(c) and c not in deck]
    if missing:
        raise ValueError(f"picture cards not in the deck: {missing}")
    identities = _identities(key, len(cards))
    hidden = _covered(covered, cards)

    image = Image.new("RGB", board_image_size(len(cards), picture), BACKGROUND)
    draw = ImageDraw.Draw(image)
    cell_w, cell_h = picture + 2 * BORDER, picture + CAPTION + 2 * BORDER
    for position, card in enumerate(cards):
        row, col = divmod(position, COLUMNS)
        x0, y0 = GAP + col * (cell_w + GAP), GAP + row * (cell_h + GAP)
        identity = identities[position]
        if position in hidden and hidden[position] is not None:
            identity = hidden[position]
        border = KEY_COLOURS[identity] if identity is not None else NO_KEY
        draw.rectangle((x0, y0, x0 + cell_w - 1, y0 + cell_h - 1), fill=border)
        inner = (x0 + BORDER, y0 + BORDER, x0 + cell_w - BORDER - 1, y0 + cell_h - BORDER - 1)
        draw.rectangle(inner, fill=COVERED_TINT if position in hidden else BACKGROUND)

        tile = _picture(card, deck, picture) if is_picture_id(card) else _word_tile(card, picture)
        if position in hidden:
            tile = _grey(tile)
        px = x0 + BORDER + (picture - tile.width) // 2
        py = y0 + BORDER + (picture - tile.height) // 2
        image.paste(tile, (px, py), tile)

        if is_picture_id(card):  # a word card shows its word already
            caption = deck[card].caption
            font = _caption_font(draw, caption, picture - 4)
            text = _fit_text(draw, caption, font, picture - 4)
            colour = (150, 150, 150) if position in hidden else (20, 20, 20)
            draw.text((x0 + cell_w / 2, y0 + BORDER + picture + CAPTION / 2), text, fill=colour, font=font, anchor="mm")
    return image


def render_board(
    cards: Sequence[str],
    path: str | Path,
    covered: Covered = (),
    key: ClassicKey | Sequence[Identity | str] | None = None,
    deck: PictureDeck | None = None,
    picture: int = PICTURE,
) -> Path:
    """Write the board's PNG to ``path`` (see ``board_image``); returns the path."""
    path = Path(path)
    board_image(cards, covered=covered, key=key, deck=deck, picture=picture).save(path, format="PNG")
    return path
