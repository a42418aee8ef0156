#!/usr/bin/env python
"""Build the Codenames Pictures deck from npm emoji packages (pinned versions).

Pictures: Google Noto emoji, 64 px PNGs from ``emoji-datasource-google`` (Apache-2.0).
Captions and tags: CLDR labels/keywords from ``emojibase-data`` and keywords from
``emojilib`` (both MIT). Categories: ``emoji-datasource-google``'s ``emoji.json`` (MIT).

Only concrete, picturable things are kept (animals, food, objects, places, vehicles,
weather, people in roles...); flags, letters, keycaps, smileys, hand signs, skin-tone and
gender variants and abstract symbols are left out. Like real Codenames Pictures cards, some
cards combine two pictures side by side ("dog + rocket").

Rebuild (from the repository root; fetches the pinned packages with ``npm install``)::

    python scripts/build_picture_deck.py

or from packages already installed with npm::

    python scripts/build_picture_deck.py --npm-dir /tmp/x/node_modules

The output is deterministic: the same package versions and ``--seed`` give the same files.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lemminflect import getLemma
from PIL import Image
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
from wordfreq import zipf_frequency

PACKAGES = {
    "emoji-datasource-google": "16.0.0",
    "emojibase-data": "17.0.0",
    "emojilib": "4.0.3",
}
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "spymaster_ai" / "pictures" / "deck"
IMAGE_DIR = "img"
COMBINED_CARDS = 120
SEED = 20240601
MAX_TAGS = 8
# A tag on more cards than this says little about any one card ("nature", "object").
MAX_TAG_CARDS = 40
MIN_TAG_ZIPF = 2.5

# Sub-categories (emoji.json) whose pictures are concrete things, kept whole unless excluded.
SUBCATEGORIES = {
    "face-costume", "body-parts", "person", "person-role", "person-fantasy", "person-activity",
    "person-sport", "person-resting", "animal-mammal", "animal-bird", "animal-amphibian",
    "animal-reptile", "animal-marine", "animal-bug", "plant-flower", "plant-other",
    "food-fruit", "food-vegetable", "food-prepared", "food-asian", "food-sweet", "drink",
    "dishware", "place-map", "place-geographic", "place-building", "place-religious",
    "place-other", "transport-ground", "transport-water", "transport-air", "hotel", "time",
    "sky & weather", "event", "award-medal", "sport", "game", "arts & crafts", "clothing",
    "music", "musical-instrument", "phone", "computer", "light & video", "book-paper",
    "money", "mail", "writing", "office", "lock", "tool", "science", "medical", "household",
    "other-object",
}
# Single pictures kept from otherwise excluded sub-categories.
EXTRA_LABELS = {
    "skull", "handshake", "thumbs up", "raised fist", "waving hand", "megaphone", "bell",
    "loudspeaker", "postal horn", "footprints", "fingerprint", "people hugging", "kiss",
    "couple with heart", "people holding hands", "person bowing", "person shrugging",
    "person facepalming", "broken heart", "hole", "collision", "speech balloon",
    "thought balloon", "see-no-evil monkey",
}
# Near-duplicates, variants, hard-to-caption or very culture-specific pictures.
EXCLUDED_LABELS = {
    # near-duplicate variants of a kept picture
    "guide dog", "service dog", "two-hump camel", "ewe", "front-facing baby chick", "black bird",
    "spouting whale", "tropical fish", "lady beetle", "white flower", "rosette", "blossom",
    "wilted flower", "green apple", "brown mushroom", "baguette bread", "stuffed flatbread",
    "shallow pan of food", "pot of food", "clinking beer mugs", "clinking glasses",
    "fork and knife with plate", "globe showing Americas", "globe showing Asia-Australia",
    "globe with meridians", "snow-capped mountain", "house with garden", "derelict house",
    "houses", "Japanese post office", "love hotel", "Japanese castle", "cityscape at dusk",
    "sunrise over mountains", "railway car", "high-speed train", "light rail", "mountain railway",
    "tram car", "trolleybus", "minibus", "sport utility vehicle", "articulated lorry",
    "motorized wheelchair", "vertical traffic light", "airplane departure", "airplane arrival",
    "small airplane", "suspension railway", "aerial tramway", "motor boat", "passenger ship",
    "hourglass not done", "mantelpiece clock", "timer clock", "new moon", "waxing crescent moon",
    "first quarter moon", "waxing gibbous moon", "waning gibbous moon", "last quarter moon",
    "waning crescent moon", "new moon face", "first quarter moon face", "last quarter moon face",
    "full moon face", "sun with face", "glowing star", "sun behind small cloud",
    "sun behind large cloud", "sun behind rain cloud", "cloud with lightning and rain",
    "wind face", "closed umbrella", "umbrella with rain drops", "umbrella on ground",
    "snowman without snow", "sparkler", "confetti ball", "reminder ribbon", "admission tickets",
    "1st place medal", "2nd place medal", "3rd place medal", "softball", "rugby football",
    "video game", "spade suit", "heart suit", "diamond suit", "club suit", "mahjong red dragon",
    "flower playing cards", "man’s shoe", "flat shoe", "woman’s sandal", "woman’s boot",
    "woman’s clothes", "woman’s hat", "clutch bag", "billed cap", "hair pick",
    "musical notes", "level slider", "control knobs", "mobile phone with arrow",
    "telephone receiver", "low battery", "computer disk", "dvd", "trackball",
    "magnifying glass tilted right", "film frames", "camera with flash", "notebook with decorative cover",
    "green book", "blue book", "orange book", "ledger", "page with curl", "page facing up",
    "rolled-up newspaper", "bookmark tabs", "yen banknote", "pound banknote", "money with wings",
    "chart increasing with yen", "e-mail", "incoming envelope", "envelope with arrow",
    "outbox tray", "inbox tray", "closed mailbox with lowered flag", "open mailbox with raised flag",
    "open mailbox with lowered flag", "black nib", "open file folder", "card index dividers",
    "tear-off calendar", "spiral notepad", "spiral calendar", "card index", "chart increasing",
    "chart decreasing", "round pushpin", "linked paperclips", "triangular ruler", "card file box",
    "unlocked", "locked with pen", "locked with key", "hammer and pick", "hammer and wrench",
    "mechanical leg", "ear with hearing aid", "eye", "biting lip", "person", "older person",
    "person: blond hair", "person in suit levitating", "pregnant man", "pregnant person",
    "man feeding baby", "person feeding baby", "breast-feeding", "Mrs. Claus", "Mx Claus",
    "merman", "person with skullcap", "person kneeling", "person standing",
    "person with white cane", "person in manual wheelchair", "person in motorized wheelchair",
    "people with bunny ears", "men with bunny ears", "women with bunny ears", "man", "woman",
    "child", "person walking", "pig nose", "paw prints", "oil drum",
    "teacup without handle", "beverage box", "pouring liquid", "sheaf of rice",
    "leaf fluttering in wind", "mending heart", "heart on fire", "empty nest",
    # culture-specific or hard to name from the picture alone
    "oden", "dango", "tanabata tree", "pine decoration", "moon viewing ceremony", "carp streamer",
    "Japanese dolls", "red envelope", "diya lamp", "mate", "nazar amulet", "hamsa", "kaaba",
    "shinto shrine", "fish cake with swirl", "roasted sweet potato", "rice cracker", "curry rice",
    "tamale", "bento box", "moon cake", "sake", "map of Japan", "person wearing turban",
    "woman with headscarf", "person with veil", "identification card", "placard", "cooking",
    "tumbler glass", "white cane", "card index", "moai", "knot", "thread", "x-ray",
    "satellite antenna", "station", "construction", "bellhop bell", "performing arts",
    "goal net", "flag in hole", "field hockey", "lacrosse", "cricket game", "people wrestling",
    "person bouncing ball", "person cartwheeling", "person playing handball", "person in steamy room",
    "men wrestling", "women wrestling",
    "person getting massage", "person tipping hand", "dotted line face",
}
# Captions that say what the picture shows better than its Unicode name.
CAPTIONS = {
    "monkey face": "monkey", "hatching chick": "chick", "baby chick": "chick",
    "globe showing Europe-Africa": "globe", "world map": "map", "beach with umbrella": "beach",
    "desert island": "island", "classical building": "museum", "building construction": "crane",
    "office building": "office", "night with stars": "night", "bridge at night": "bridge",
    "carousel horse": "carousel", "playground slide": "slide", "circus tent": "circus",
    "hot springs": "hot spring", "automobile": "car", "fire engine": "fire engine",
    "horizontal traffic light": "traffic light", "police car light": "siren",
    "motor scooter": "scooter", "manual wheelchair": "wheelchair", "fuel pump": "petrol pump",
    "railway track": "railway", "ring buoy": "lifebuoy", "flying saucer": "ufo",
    "hourglass done": "hourglass", "ringed planet": "planet", "sun behind cloud": "cloud and sun",
    "cloud with rain": "rain", "cloud with snow": "snow", "cloud with lightning": "lightning",
    "high voltage": "electricity", "water wave": "wave", "jack-o-lantern": "pumpkin",
    "party popper": "party", "wrapped gift": "gift", "military medal": "medal",
    "sports medal": "medal", "soccer ball": "football", "american football": "rugby ball",
    "tennis": "tennis ball", "ping pong": "table tennis", "flying disc": "frisbee",
    "bowling": "bowling", "martial arts uniform": "karate", "fishing pole": "fishing rod",
    "running shirt": "vest", "pool 8 ball": "billiards", "game die": "dice",
    "mirror ball": "disco ball", "nesting dolls": "matryoshka", "framed picture": "painting",
    "artist palette": "palette", "sewing needle": "needle", "one-piece swimsuit": "swimsuit",
    "folding hand fan": "fan", "shopping bags": "shopping bags", "thong sandal": "flip-flop",
    "running shoe": "running shoe", "hiking boot": "boot", "high-heeled shoe": "high heel",
    "ballet shoes": "ballet", "top hat": "top hat", "graduation cap": "graduation",
    "military helmet": "helmet", "rescue worker’s helmet": "hard hat", "gem stone": "diamond",
    "musical score": "sheet music", "musical note": "music", "studio microphone": "microphone",
    "headphone": "headphones", "musical keyboard": "piano", "long drum": "drum",
    "mobile phone": "mobile phone", "electric plug": "plug", "desktop computer": "computer",
    "computer mouse": "computer mouse", "optical disk": "cd", "floppy disk": "floppy disk",
    "movie camera": "film camera", "clapper board": "clapperboard", "video camera": "camcorder",
    "videocassette": "video tape", "magnifying glass tilted left": "magnifying glass",
    "red paper lantern": "lantern", "closed book": "book", "open book": "open book",
    "page facing up": "page", "money bag": "money bag", "dollar banknote": "dollar",
    "euro banknote": "euro", "closed mailbox with raised flag": "mailbox",
    "ballot box with ballot": "ballot box", "fountain pen": "fountain pen", "memo": "note",
    "file folder": "folder", "bar chart": "chart", "pushpin": "drawing pin",
    "straight ruler": "ruler", "file cabinet": "filing cabinet", "locked": "padlock",
    "old key": "old key", "pick": "pickaxe", "crossed swords": "swords",
    "carpentry saw": "saw", "nut and bolt": "bolt", "balance scale": "scales",
    "link": "chain link", "broken chain": "broken chain", "alembic": "distillation",
    "dna": "dna", "drop of blood": "blood", "adhesive bandage": "plaster",
    "couch and lamp": "sofa", "roll of paper": "toilet paper", "lotion bottle": "lotion",
    "funeral urn": "urn", "headstone": "gravestone", "spiral shell": "shell",
    "honeybee": "bee", "bug": "caterpillar", "microbe": "germ", "cherry blossom": "blossom",
    "hot pepper": "chilli", "ear of corn": "corn", "leafy green": "lettuce", "kiwi fruit": "kiwi",
    "red apple": "apple", "meat on bone": "meat", "poultry leg": "drumstick", "cut of meat": "steak",
    "cheese wedge": "cheese", "bowl with spoon": "bowl", "green salad": "salad",
    "canned food": "tin can", "rice ball": "rice ball", "cooked rice": "rice",
    "steaming bowl": "noodles", "fried shrimp": "tempura", "takeout box": "takeaway",
    "soft ice cream": "ice cream cone", "shaved ice": "shaved ice", "birthday cake": "cake",
    "shortcake": "cake slice", "custard": "pudding", "honey pot": "honey",
    "baby bottle": "baby bottle", "glass of milk": "milk", "hot beverage": "coffee",
    "bottle with popping cork": "champagne", "wine glass": "wine", "cocktail glass": "cocktail",
    "tropical drink": "tropical cocktail", "beer mug": "beer", "cup with straw": "soft drink",
    "kitchen knife": "knife", "fork and knife": "cutlery", "snow-capped mountain": "mountain",
    "mount fuji": "mount fuji", "national park": "park", "evergreen tree": "fir tree",
    "deciduous tree": "tree", "potted plant": "house plant", "four leaf clover": "clover",
    "fallen leaf": "autumn leaf", "nest with eggs": "nest", "leafless tree": "bare tree",
    "health worker": "doctor", "office worker": "office worker", "technologist": "programmer",
    "police officer": "police officer", "construction worker": "builder",
    "person with crown": "monarch", "person in tuxedo": "groom", "baby angel": "cherub",
    "Santa Claus": "santa", "mage": "wizard", "merperson": "mermaid", "zombie": "zombie",
    "man dancing": "dancer", "woman dancing": "dancer", "person getting haircut": "haircut",
    "person running": "runner", "person climbing": "climber", "person fencing": "fencing",
    "person golfing": "golfer", "person surfing": "surfer", "person rowing boat": "rowing",
    "person swimming": "swimmer", "person lifting weights": "weightlifter",
    "person biking": "cyclist", "person mountain biking": "mountain biker",
    "person playing water polo": "water polo", "person juggling": "juggler",
    "person in lotus position": "yoga", "people wrestling": "wrestling", "person taking bath": "bath", "person in bed": "sleeping",
    "person bowing": "bow", "person shrugging": "shrug", "person facepalming": "facepalm",
    "people holding hands": "holding hands", "couple with heart": "couple", "kiss": "kiss",
    "people hugging": "hug", "pile of poo": "poo", "clown face": "clown", "alien monster": "space invader",
    "flexed biceps": "biceps", "mechanical arm": "robot arm", "anatomical heart": "heart",
    "eyes": "eyes", "raised fist": "fist", "waving hand": "wave hello", "thumbs up": "thumbs up",
    "collision": "explosion", "speech balloon": "speech bubble", "thought balloon": "thought bubble",
    "see-no-evil monkey": "see no evil", "broken heart": "broken heart", "tornado": "tornado",
    "cyclone": "hurricane", "droplet": "drop", "shooting star": "shooting star",
    "milky way": "galaxy", "comet": "comet", "sparkles": "sparkles", "bullseye": "target",
    "water pistol": "water pistol", "slot machine": "slot machine", "puzzle piece": "jigsaw",
    "chess pawn": "chess", "joker": "joker", "piñata": "pinata", "tent": "tent", "camping": "camping",
    "wedding": "wedding", "hut": "hut", "satellite": "satellite", "seat": "seat",
    "sailboat": "sailing boat", "speedboat": "speedboat", "pickup truck": "pickup truck",
    "delivery truck": "lorry", "racing car": "racing car", "kick scooter": "kick scooter",
    "roller skate": "roller skate", "bus stop": "bus stop", "motorway": "motorway",
    "police car": "police car", "taxi": "taxi", "bullet train": "bullet train", "metro": "underground",
    "ice": "ice cube", "rock": "rock", "wood": "log", "brick": "brick", "hole": "hole",
    "safety pin": "safety pin", "mouse trap": "mouse trap", "fire extinguisher": "fire extinguisher",
    "shopping cart": "shopping trolley", "label": "label", "scroll": "scroll", "pen": "pen",
    "crayon": "crayon", "paintbrush": "paintbrush", "coin": "coin", "credit card": "credit card",
    "receipt": "receipt", "envelope": "envelope", "package": "parcel", "postbox": "postbox",
    "ticket": "ticket", "selfie": "selfie", "writing hand": "writing", "nail polish": "nail polish",
    "safety vest": "safety vest", "lab coat": "lab coat", "t-shirt": "t-shirt",
    "goggles": "goggles", "diving mask": "snorkel", "skis": "skis", "sled": "sledge",
    "curling stone": "curling", "boxing glove": "boxing", "ice skate": "ice skate",
    "sake": "sake", "bubble tea": "bubble tea", "hot dog": "hot dog", "french fries": "fries",
    "cookie": "biscuit", "chocolate bar": "chocolate", "candy": "candy", "pie": "pie",
    "egg": "egg", "test tube": "test tube", "petri dish": "petri dish",
    "syringe": "syringe", "pill": "pill", "crutch": "crutch", "stethoscope": "stethoscope",
    "mirror": "mirror", "window": "window", "toilet": "toilet", "plunger": "plunger",
    "razor": "razor", "broom": "broom", "basket": "basket", "bucket": "bucket", "soap": "soap",
    "bubbles": "bubbles", "toothbrush": "toothbrush", "sponge": "sponge", "cigarette": "cigarette",
    "coffin": "coffin", "fireworks": "fireworks", "firecracker": "firecracker",
    "balloon": "balloon", "wind chime": "wind chime", "ribbon": "ribbon",
    "Christmas tree": "christmas tree", "trophy": "trophy", "luggage": "suitcase",
    "watch": "watch", "alarm clock": "alarm clock", "stopwatch": "stopwatch",
    "thermometer": "thermometer", "full moon": "full moon", "crescent moon": "crescent moon",
    "star": "star", "cloud": "cloud", "fog": "fog", "foggy": "foggy city", "rainbow": "rainbow",
    "umbrella": "umbrella", "snowflake": "snowflake", "snowman": "snowman", "fire": "fire",
    "T-Rex": "t-rex", "sauropod": "dinosaur", "lotus": "lotus", "herb": "herb",
    "Statue of Liberty": "statue of liberty", "Tokyo tower": "tokyo tower",
    "ear": "ear", "nose": "nose", "mouth": "lips", "tongue": "tongue", "tooth": "tooth",
    "foot": "foot", "leg": "leg", "bone": "bone", "brain": "brain", "lungs": "lungs",
}
# Tag words that say nothing about what a picture shows: gender, emoji-keyboard categories,
# chat slang, words from the Unicode name's layout ("left", "showing").
GENERIC_TAGS = {
    "man", "men", "woman", "women", "male", "female", "person", "people", "human", "face",
    "boy", "girl", "guy", "gal", "lady", "ladies", "gentleman", "adult", "gender", "neutral",
    "inclusive", "nature", "object", "emoji", "symbol", "thing", "photo", "activity",
    "entertainment", "communication", "transportation", "transport", "vehicle", "travel",
    "lmao", "fml", "omg", "smh", "idk", "bff", "bestie", "bro", "doge", "doggo", "bae", "lol",
    "yolo", "slay", "tada", "xoxo", "wtf", "sasha", "sven", "cupertino", "apple", "mac",
    "left", "right", "lower", "upper", "side", "showing", "medium", "small", "large", "big",
    "done", "arrived", "standard", "unspecified", "useless", "boring", "typo",
}
# RULES.md section 2: clues may not be about the colours of a picture, and shape words are
# forbidden by an option, so tags never name either.
COLOUR_AND_SHAPE_TAGS = {
    "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black", "white",
    "grey", "gray", "indigo", "violet", "colour", "color",
    "circle", "circular", "round", "rounded", "square", "rectangle", "rectangular", "triangle",
    "triangular", "octagon", "octagonal", "shape", "oval", "curve",
}


@dataclass(frozen=True)
class Single:
    """One emoji picture selected for the deck."""

    hexcode: str  # emoji-datasource "unified" in lower case, e.g. "1f415"
    image: Path
    label: str
    caption: str
    tags: tuple[str, ...]
    category: str


def fetch_packages(prefix: Path) -> Path:
    """Install the pinned npm packages under ``prefix``; returns its node_modules."""
    specs = [f"{name}@{version}" for name, version in PACKAGES.items()]
    subprocess.run(["npm", "install", "--no-save", "--prefix", str(prefix), *specs], check=True)
    return prefix / "node_modules"


def check_versions(node_modules: Path) -> None:
    for name, version in PACKAGES.items():
        meta = json.loads((node_modules / name / "package.json").read_text(encoding="utf-8"))
        if meta["version"] != version:
            raise SystemExit(f"{name} is {meta['version']}, the deck is pinned to {version}")


def _emoji_char(unified: str) -> str:
    return "".join(chr(int(part, 16)) for part in unified.split("-"))


def _lemma(word: str) -> str:
    """The singular of a plural noun, when it is itself a common word ("puppies" -> "puppy")."""
    lemma = getLemma(word, upos="NOUN")[0]
    return lemma if zipf_frequency(lemma, "en") >= MIN_TAG_ZIPF else word


def clean_tags(raw: list[str], caption: str) -> list[str]:
    """Single common English words, one per lemma, not repeating the caption."""
    seen = {_lemma(w) for w in re.findall(r"[a-z]+", caption)} | set(caption.split())
    out: list[str] = []
    for tag in raw:
        for word in tag.lower().replace("_", " ").split():
            if not re.fullmatch(r"[a-z]{3,}", word):
                continue
            if word in GENERIC_TAGS or word in COLOUR_AND_SHAPE_TAGS or word in ENGLISH_STOP_WORDS:
                continue
            if zipf_frequency(word, "en") < MIN_TAG_ZIPF:
                continue
            lemma = _lemma(word)
            if lemma in seen or lemma in GENERIC_TAGS or lemma in COLOUR_AND_SHAPE_TAGS:
                continue  # "blues" (music) would become the colour "blue"
            seen.add(lemma)
            out.append(lemma)
    return out


def select_singles(node_modules: Path) -> list[Single]:
    """The concrete pictures, one per caption, in Unicode CLDR order."""
    datasource = node_modules / "emoji-datasource-google"
    emojis = json.loads((datasource / "emoji.json").read_text(encoding="utf-8"))
    emojibase = {
        e["hexcode"]: e
        for e in json.loads((node_modules / "emojibase-data" / "en" / "data.json").read_text(encoding="utf-8"))
    }
    emojilib = json.loads((node_modules / "emojilib" / "dist" / "emoji-en-US.json").read_text(encoding="utf-8"))
    labels = set()
    rows = []
    for e in sorted(emojis, key=lambda e: e["sort_order"]):
        if not e.get("has_img_google"):
            continue
        base = emojibase.get(e["unified"].replace("-FE0F", "")) or emojibase.get(e["unified"])
        if base is None:
            continue
        label = base["label"]
        labels.add(label)
        rows.append((e, base, label))

    def raw_tags(e: dict, base: dict, label: str) -> list[str]:
        return list(base.get("tags", [])) + list(emojilib.get(_emoji_char(e["unified"]), [])) + [label]

    def variant_of(label: str) -> str | None:
        """The kept picture a variant stands for: "woman firefighter", "dog face" -> "dog"."""
        gendered = re.match(r"^(man|woman|men|women) (.+)$", label)
        if gendered:
            for neutral in (gendered.group(2), f"person {gendered.group(2)}"):
                if neutral in labels:
                    return neutral
        if label.endswith(" face") and label[: -len(" face")] in labels:
            return label[: -len(" face")]
        return None

    # A variant is dropped, but its keywords ("puppy" on "dog face") go to the kept picture.
    variant_tags: dict[str, list[str]] = {}
    for e, base, label in rows:
        target = variant_of(label)
        if target is not None:
            variant_tags.setdefault(target, []).extend(raw_tags(e, base, label))

    singles: list[Single] = []
    captions: set[str] = set()
    for e, base, label in rows:
        wanted = e["subcategory"] in SUBCATEGORIES or label in EXTRA_LABELS
        if not wanted or label in EXCLUDED_LABELS or ":" in label or variant_of(label) is not None:
            continue
        if re.search(r"o’clock|-thirty|^oncoming ", label):
            continue
        caption = CAPTIONS.get(label, label).lower()
        if caption in captions:
            continue
        image = datasource / "img" / "google" / "64" / e["image"]
        if not image.is_file():
            continue
        captions.add(caption)
        tags = clean_tags(raw_tags(e, base, label) + variant_tags.get(label, []), caption)
        singles.append(
            Single(
                hexcode=e["unified"].lower(),
                image=image,
                label=label,
                caption=caption,
                tags=tuple(tags),
                category=e["category"].split(" & ")[0].lower(),
            )
        )
    # Drop tags on too many cards, then keep the first few (CLDR keywords come first).
    counts: dict[str, int] = {}
    for s in singles:
        for t in s.tags:
            counts[t] = counts.get(t, 0) + 1
    return [
        Single(s.hexcode, s.image, s.label, s.caption,
               tuple([t for t in s.tags if counts[t] <= MAX_TAG_CARDS][:MAX_TAGS]), s.category)
        for s in singles
    ]


def choose_pairs(singles: list[Single], n: int, seed: int) -> list[tuple[Single, Single]]:
    """``n`` pairs of pictures from different categories, each picture in at most one pair."""
    rng = random.Random(seed)
    pool = list(singles)
    rng.shuffle(pool)
    pairs: list[tuple[Single, Single]] = []
    while len(pairs) < n and len(pool) >= 2:
        first = pool.pop()
        partner = next((i for i, s in enumerate(pool) if s.category != first.category), None)
        if partner is None:
            break
        pairs.append((first, pool.pop(partner)))
    if len(pairs) < n:
        raise SystemExit(f"only {len(pairs)} combined cards could be made, {n} asked")
    return pairs


def slug(caption: str) -> str:
    return re.sub(r"[^a-z0-9+]+", "_", caption.lower()).strip("_")


def compose(left: Path, right: Path) -> Image.Image:
    """Two 64 px pictures side by side on a transparent 128x64 canvas."""
    canvas = Image.new("RGBA", (128, 64), (0, 0, 0, 0))
    for x, path in ((0, left), (64, right)):
        with Image.open(path) as im:
            canvas.paste(im.convert("RGBA").resize((64, 64)), (x, 0))
    return canvas


def write_deck(singles: list[Single], pairs: list[tuple[Single, Single]], out: Path, node_modules: Path) -> int:
    img_dir = out / IMAGE_DIR
    if img_dir.exists():
        shutil.rmtree(img_dir)
    img_dir.mkdir(parents=True)
    rows = []
    for s in singles:
        name = f"{s.hexcode}.png"
        shutil.copyfile(s.image, img_dir / name)
        rows.append((f"pic:{slug(s.caption)}", f"{IMAGE_DIR}/{name}", s.caption, s.tags, s.category, s.hexcode))
    for a, b in pairs:
        name = f"{a.hexcode}_{b.hexcode}.png"
        compose(a.image, b.image).save(img_dir / name, optimize=True)
        caption = f"{a.caption} + {b.caption}"
        tags = tuple(dict.fromkeys(a.tags + b.tags))
        rows.append((f"pic:{slug(a.caption)}+{slug(b.caption)}", f"{IMAGE_DIR}/{name}", caption, tags,
                     "combined", f"{a.hexcode} {b.hexcode}"))
    ids = [r[0] for r in rows]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate card ids")
    with open(out / "cards.tsv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["id", "image", "caption", "tags", "category", "source"])
        for card_id, image, caption, tags, category, source in rows:
            w.writerow([card_id, image, caption, ",".join(tags), category, source])
    # Licences the pictures and the texts come with (Apache-2.0 asks for its text).
    licences = out / "licenses"
    licences.mkdir(exist_ok=True)
    apache = Path("/usr/share/common-licenses/Apache-2.0")
    if apache.is_file():
        shutil.copyfile(apache, licences / "Apache-2.0-noto-emoji.txt")
    for name in PACKAGES:
        shutil.copyfile(node_modules / name / "LICENSE", licences / f"{name}-LICENSE.txt")
    return len(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--npm-dir", type=Path, help="an existing node_modules holding the pinned packages")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--combined", type=int, default=COMBINED_CARDS, help="number of two-picture cards")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        node_modules = args.npm_dir or fetch_packages(Path(tmp))
        check_versions(node_modules)
        singles = select_singles(node_modules)
        pairs = choose_pairs(singles, args.combined, args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        n = write_deck(singles, pairs, args.out, node_modules)
    print(f"wrote {n} cards ({len(singles)} single, {len(pairs)} combined) to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
