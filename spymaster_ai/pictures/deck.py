"""The Codenames Pictures deck shipped with the package: picture cards with captions and tags.

A picture card is named on a board by its id (``"pic:dog"``); the deck maps ids to the
image file, the caption and the tags, which is what the picture backends embed. The
deck's rows are checked on load, so a damaged ``cards.tsv`` fails with the line at fault.
"""

from __future__ import annotations

import csv
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from spymaster_ai.rules.cards import deal_words

if TYPE_CHECKING:  # Pillow is imported only by the code that opens images.
    from PIL import Image

PICTURE_PREFIX = "pic:"
CARDS_FILE = "cards.tsv"
COLUMNS = ("id", "image", "caption", "tags", "category", "source")
COMBINED_SEPARATOR = " + "


class DeckError(ValueError):
    """The deck's files are missing or malformed."""


class UnknownCardError(KeyError):
    """A card id that is not in the deck."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown card"


def is_picture_id(card: str) -> bool:
    """Whether a board card names a picture ("pic:...") rather than a word."""
    return isinstance(card, str) and card.startswith(PICTURE_PREFIX)


@dataclass(frozen=True)
class PictureCard:
    """One picture card: what it shows (caption, one per picture) and what it evokes (tags)."""

    id: str
    image: Path
    caption: str
    tags: tuple[str, ...]
    category: str
    source: tuple[str, ...]

    @property
    def parts(self) -> tuple[str, ...]:
        """The captions of the pictures on the card: one, or two for a combined card."""
        return tuple(self.caption.split(COMBINED_SEPARATOR))

    @property
    def combined(self) -> bool:
        return len(self.parts) > 1

    def open_image(self) -> "Image.Image":
        """The picture as an RGBA Pillow image (loaded, the file closed)."""
        from PIL import Image

        with Image.open(self.image) as im:
            return im.convert("RGBA")


class PictureDeck:
    """All picture cards, in file order, looked up by id."""

    def __init__(self, cards: Sequence[PictureCard], root: Path) -> None:
        self.root = Path(root)
        self.cards: tuple[PictureCard, ...] = tuple(cards)
        self._by_id = {c.id: c for c in self.cards}
        if len(self._by_id) != len(self.cards):
            raise DeckError("the deck has duplicate card ids")
        self._single_by_source = {c.source[0]: c for c in self.cards if len(c.source) == 1}

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[PictureCard]:
        return iter(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __getitem__(self, card_id: str) -> PictureCard:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise UnknownCardError(f"no picture card {card_id!r} in the deck at {self.root}") from None

    def get(self, card_id: str) -> PictureCard | None:
        return self._by_id.get(card_id)

    def parts(self, card_id: str) -> tuple[PictureCard, ...]:
        """The single pictures a card shows: itself, or both halves of a combined card.

        A half that is not in the deck as a card of its own is returned as a card with that
        half's caption and the combined card's tags.
        """
        card = self[card_id]
        if not card.combined:
            return (card,)
        out = []
        for i, caption in enumerate(card.parts):
            source = card.source[i] if i < len(card.source) else ""
            single = self._single_by_source.get(source)
            out.append(single if single is not None else PictureCard(
                id=f"{card.id}#{i}", image=card.image, caption=caption, tags=card.tags,
                category=card.category, source=(source,) if source else ()))
        return tuple(out)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def deal(
        self, n: int = 20, seed: int | str | random.Random | None = None, combined: bool = True
    ) -> tuple[str, ...]:
        """``n`` distinct card ids for a board, drawn like word cards (same seed, same board)."""
        pool = [c.id for c in self.cards if combined or not c.combined]
        return deal_words(pool, n, seed)


def deck_root() -> Path:
    """The folder of the shipped deck (inside the installed package)."""
    return Path(str(resources.files("spymaster_ai.pictures") / "deck"))


def _parse_row(row: dict[str, str], root: Path, line: int) -> PictureCard:
    missing = [c for c in COLUMNS if not (row.get(c) or "").strip() and c != "tags"]
    if missing:
        raise DeckError(f"{root / CARDS_FILE} line {line}: empty {', '.join(missing)}")
    card_id = row["id"].strip()
    if not is_picture_id(card_id) or card_id != card_id.lower() or any(ch in card_id for ch in " ,\t"):
        raise DeckError(
            f"{root / CARDS_FILE} line {line}: card id {card_id!r} must be lower case, "
            f"start with {PICTURE_PREFIX!r} and hold no space or comma"
        )
    image = root / row["image"].strip()
    if not image.is_file():
        raise DeckError(f"{root / CARDS_FILE} line {line}: image {image} of {card_id} is missing")
    tags = tuple(t.strip() for t in (row.get("tags") or "").split(",") if t.strip())
    return PictureCard(
        id=card_id,
        image=image,
        caption=row["caption"].strip(),
        tags=tags,
        category=row["category"].strip(),
        source=tuple(row["source"].split()),
    )


def _read_tsv(path: Path, columns: tuple[str, ...]) -> list[dict]:
    """The rows of a tab-separated file whose header must be exactly ``columns``."""
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        if tuple(reader.fieldnames or ()) != columns:
            raise DeckError(f"{path}: header must be {'/'.join(columns)}, got {reader.fieldnames}")
        return list(reader)


def read_deck(root: str | Path) -> PictureDeck:
    """Read and check a deck folder holding ``cards.tsv`` and the images it names."""
    root = Path(root)
    path = root / CARDS_FILE
    if not path.is_file():
        raise DeckError(f"no {CARDS_FILE} in {root}")
    cards = [_parse_row(row, root, line) for line, row in enumerate(_read_tsv(path, COLUMNS), start=2)]
    if not cards:
        raise DeckError(f"{path} holds no cards")
    duplicates = sorted(i for i, n in Counter(c.id for c in cards).items() if n > 1)
    if duplicates:
        raise DeckError(f"{path}: duplicate card ids {duplicates}")
    return PictureDeck(cards, root)


CAPTIONS_FILE = "captions_{lang}.tsv"
CAPTION_COLUMNS = ("id", "caption", "tags")


def localise_deck(deck: PictureDeck, lang: str) -> PictureDeck:
    """The deck with each card's caption and tags in ``lang``, from ``captions_<lang>.tsv``
    beside it (built by ``scripts/build_picture_captions.py`` from the emoji annotation
    packages). Images, ids, categories and sources stay; every card must have a row."""
    path = deck.root / CAPTIONS_FILE.format(lang=lang)
    if not path.is_file():
        raise DeckError(f"no picture captions in language {lang!r}: {path} is missing")
    rows = {row["id"]: row for row in _read_tsv(path, CAPTION_COLUMNS)}
    missing = [c.id for c in deck if c.id not in rows or not (rows[c.id]["caption"] or "").strip()]
    if missing:
        raise DeckError(f"{path}: no caption for {len(missing)} card(s), e.g. {missing[:3]}")
    cards = [PictureCard(c.id, c.image, rows[c.id]["caption"].strip(),
                         tuple(t.strip() for t in (rows[c.id]["tags"] or "").split(",") if t.strip()),
                         c.category, c.source) for c in deck]
    return PictureDeck(cards, deck.root)


@lru_cache(maxsize=4)
def load_deck(lang: str = "en") -> PictureDeck:
    """The deck shipped with the package, its captions in ``lang`` (read once per process)."""
    deck = read_deck(deck_root())
    return deck if lang == "en" else localise_deck(deck, lang)
