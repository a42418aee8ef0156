#!/usr/bin/env python
"""Build the Pictures deck's captions in German, Vietnamese and Persian (pinned npm packages).

Why: on a board in another language the caption text model must read each picture in that
language. The deck (``spymaster_ai/pictures/deck/cards.tsv``) names each card's emoji by code
point; this script looks up the same emoji's localised name and keywords and writes one small
table per language, ``captions_<lang>.tsv`` (id, caption, tags), beside the deck.

Sources (licences in ``data/README.md`` and the deck's README):

* German and Vietnamese: ``emojibase-data`` (MIT), ``<lang>/data.json``: the CLDR label as
  caption, its tags (less the label) as tags;
* Persian: emojibase ships no Persian, so Unicode CLDR ``cldr-annotations-full`` and
  ``cldr-annotations-derived-full`` (Unicode licence): the ``tts`` name as caption, the
  ``default`` keywords (less the name) as tags.

A combined card's caption is its halves' captions joined by `` + ``, its tags both halves'
tags. Text is written as the language's checker writes it (``rules.lang.normalise``); a tag
that is a colour word is left out, as in the English deck (RULES.md §2: no clue about colours).

Rebuild (from the repository root)::

    python scripts/build_picture_captions.py            # npm install of the pinned packages
    python scripts/build_picture_captions.py --npm-dir /tmp/x/node_modules

Deterministic for the same package versions.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.rules.lang.checks import COLOUR_WORDS  # noqa: E402
from spymaster_ai.rules.lang.normalise import normalise  # noqa: E402

NPM_PACKAGES = {"emojibase-data": "17.0.0", "cldr-annotations-full": "48.2.0",
                "cldr-annotations-derived-full": "48.2.0"}
DECK = Path(__file__).resolve().parent.parent / "spymaster_ai" / "pictures" / "deck"
LANGS = ("de", "vi", "fa")
EMOJIBASE_LANGS = ("de", "vi")
MAX_TAGS = 8
COMBINED = " + "


def npm_install(prefix: Path) -> Path:
    specs = [f"{name}@{ver}" for name, ver in NPM_PACKAGES.items()]
    subprocess.run(["npm", "install", "--no-save", "--prefix", str(prefix), *specs], check=True)
    return prefix / "node_modules"


def _emoji(code_points: str) -> str:
    """The emoji of a deck source ("1f9d1-200d-2695-fe0f"), without variation selectors."""
    return "".join(chr(int(c, 16)) for c in code_points.split("-")).replace("\ufe0f", "")


def emojibase_names(node_modules: Path, lang: str) -> dict[str, tuple[str, list[str]]]:
    """emoji -> (label, tags) from emojibase-data in ``lang``."""
    data = json.loads((node_modules / "emojibase-data" / lang / "data.json").read_text(encoding="utf-8"))
    out = {}
    for entry in data:
        if entry.get("label"):
            out[entry["emoji"].replace("\ufe0f", "")] = (entry["label"], list(entry.get("tags") or ()))
    return out


def cldr_names(node_modules: Path, lang: str) -> dict[str, tuple[str, list[str]]]:
    """emoji -> (tts name, default keywords) from CLDR's annotations and derived annotations."""
    out = {}
    for package, kind in (("cldr-annotations-full", "annotations"), ("cldr-annotations-derived-full", "annotationsDerived")):
        path = node_modules / package / kind / lang / "annotations.json"
        for emoji, entry in json.loads(path.read_text(encoding="utf-8"))[kind]["annotations"].items():
            if entry.get("tts"):
                out.setdefault(emoji.replace("\ufe0f", ""), (entry["tts"][0], list(entry.get("default") or ())))
    return out


def localise(lang: str, names: dict[str, tuple[str, list[str]]], source: str) -> tuple[str, list[str]] | None:
    """One picture's caption and tags in ``lang``, normalised; None when the package lacks it."""
    found = names.get(_emoji(source))
    if found is None:
        return None
    caption = normalise(lang, found[0])
    tags: list[str] = []
    for tag in found[1]:
        tag = normalise(lang, tag).replace(",", " ")
        if tag and tag != caption and tag not in tags and tag not in COLOUR_WORDS[lang]:
            tags.append(tag)
    return caption, tags[:MAX_TAGS]


def build(node_modules: Path, lang: str, deck: Path = DECK) -> tuple[list[tuple[str, str, str]], list[str]]:
    """The rows (id, caption, tags) of every deck card, and the ids left out for lack of a name."""
    names = emojibase_names(node_modules, lang) if lang in EMOJIBASE_LANGS else cldr_names(node_modules, lang)
    rows, missing = [], []
    with open(deck / "cards.tsv", encoding="utf-8", newline="") as fh:
        for card in csv.DictReader(fh, delimiter="\t"):
            parts = [localise(lang, names, s) for s in card["source"].split()]
            if any(p is None for p in parts):
                missing.append(card["id"])
                continue
            tags = list(dict.fromkeys(t for p in parts for t in p[1]))
            rows.append((card["id"], COMBINED.join(p[0] for p in parts), ",".join(tags)))
    return rows, missing


def write(lang: str, rows: list[tuple[str, str, str]], deck: Path = DECK) -> Path:
    path = deck / f"captions_{lang}.tsv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(("id", "caption", "tags"))
        writer.writerows(rows)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npm-dir", type=Path, help="node_modules holding the pinned npm packages")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        node_modules = args.npm_dir or npm_install(Path(tmp) / "npm")
        for lang in LANGS:
            rows, missing = build(node_modules, lang)
            path = write(lang, rows)
            print(f"{lang}: {len(rows)} cards captioned -> {path.name}; no name for {len(missing)}: {missing[:10]}")


if __name__ == "__main__":
    main()
