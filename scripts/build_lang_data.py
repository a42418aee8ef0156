#!/usr/bin/env python
"""Build the German, Vietnamese and Persian card lists, clue vocabularies and translation
tables from registry resources (pinned versions), never from a hand-typed list.

Sources (see ``data/README.md`` for licences):

* frequencies: ``wordfreq`` (PyPI) for every language;
* concreteness: a card must be a keyword or name of an emoji in the Unicode CLDR annotations
  of its language (npm ``cldr-annotations-full`` and ``cldr-annotations-derived-full``),
  that is, a thing people name when they see a picture of it;
* nouns: German ``german-nouns`` (PyPI, WiktionaryDE: a nominative-singular noun that is no
  name); Persian the lexicon of ``hazm`` (PyPI wheel, ``hazm/data/words.dat``: tagged ``N``
  and not plural; read from the wheel, since installing hazm would downgrade numpy);
  Vietnamese ``underthesea`` (PyPI: its ``Viet74K`` dictionary for what is one word, its
  POS tagger for nouns);
* stopwords: npm ``stopwords-iso``;
* translations to English: words that name the same emoji in CLDR's English and in the
  language (see :func:`translations`); CLDR's annotations are translated by people, per
  emoji, so two words that share most of their emoji are translations.

Rebuild (from the repository root; ``npm install`` fetches the pinned npm packages, ``pip
download`` the hazm wheel)::

    python scripts/build_lang_data.py

or with packages already fetched: ``--npm-dir DIR/node_modules --hazm-wheel FILE.whl
--names-wheel FILE.whl``.
The output is deterministic for the same package versions.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import defaultdict
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wordfreq import top_n_list, zipf_frequency  # noqa: E402

from spymaster_ai.rules.lang.normalise import ZWNJ, fa_key, normalise  # noqa: E402

NPM_PACKAGES = {"cldr-annotations-full": "48.2.0", "cldr-annotations-derived-full": "48.2.0",
                "emojibase-data": "17.0.0", "stopwords-iso": "1.1.0"}
# emojibase groups of concrete things: people, animals and nature, food, travel and places,
# activities, objects (not smileys, components, symbols or flags).
CONCRETE_GROUPS = {1, 3, 4, 5, 6, 7}
HAZM = "hazm==0.10.0"
# People's names (Facebook-derived first and last names with per-country ranks; Apache-2.0),
# read from the wheel's data like hazm's: a German clue may not be a surname (KERBER).
NAMES_DATASET = "names-dataset==3.3.1"
NAME_COUNTRIES = {"de": ("DE", "AT", "CH")}
MAX_NAME_RANK = 5000
OUT = Path(__file__).resolve().parent.parent / "spymaster_ai" / "data"
LANGS = ("de", "vi", "fa")
CARDS = 400
CLUES = 12_000
MIN_CARD_ZIPF = 2.5
# Translation pairs: the two words' emoji sets overlap at least this much (Jaccard).
MIN_JACCARD = 0.4
_DE_LETTERS = re.compile(r"[a-zäöüß]+")
_FA_LETTERS = re.compile(f"[\u0621-\u063a\u0641-\u064a\u067e\u0686\u0698\u06a9\u06af\u06cc\u0622{ZWNJ}]+")
_VI_SYLLABLE = re.compile(r"[a-zàáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ]+")
# CLDR groups of no concrete thing (flags, keycaps, letters).
_SKIP_EMOJI = re.compile(r"^[\U0001F1E6-\U0001F1FF]|\u20e3|^[\U0001F170-\U0001F251]")


def npm_install(prefix: Path) -> Path:
    specs = [f"{name}@{ver}" for name, ver in NPM_PACKAGES.items()]
    subprocess.run(["npm", "install", "--no-save", "--prefix", str(prefix), *specs], check=True)
    return prefix / "node_modules"


def hazm_wheel(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(folder), HAZM],
                   check=True)
    return next(folder.glob("hazm-*.whl"))


def names_wheel(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(folder), NAMES_DATASET],
                   check=True)
    return next(folder.glob("names_dataset-*.whl"))


def personal_names(wheel: Path, lang: str) -> set[str]:
    """First names and surnames among the MAX_NAME_RANK most common in the language's
    countries (names-dataset's own data files, read from its wheel; normalised)."""
    import gzip
    import pickle

    out: set[str] = set()
    with zipfile.ZipFile(wheel) as zf:
        for kind in ("first_names", "last_names"):
            table = pickle.loads(gzip.decompress(zf.read(f"names_dataset/v3/{kind}.pkl.gz")))
            for name, facts in table.items():
                ranks = [facts["rank"][c] for c in NAME_COUNTRIES[lang] if c in facts.get("rank", {})]
                if ranks and min(ranks) <= MAX_NAME_RANK:
                    out.add(normalise(lang, name))
    return out


def concrete_emoji(node_modules: Path) -> set[str]:
    """The emoji (without variation selectors) of emojibase's CONCRETE_GROUPS."""
    data = json.loads((node_modules / "emojibase-data" / "en" / "data.json").read_text(encoding="utf-8"))
    return {e["emoji"].replace("\ufe0f", "") for e in data if e.get("group") in CONCRETE_GROUPS}


def annotations(node_modules: Path, lang: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """emoji -> its CLDR keywords and name (tts) in ``lang``, normalised, flags and keycaps
    left out; and emoji -> its name alone."""
    out: dict[str, list[str]] = defaultdict(list)
    names: dict[str, str] = {}
    for package, kind in (("cldr-annotations-full", "annotations"), ("cldr-annotations-derived-full", "annotationsDerived")):
        path = node_modules / package / kind / lang / "annotations.json"
        data = json.loads(path.read_text(encoding="utf-8"))[kind]["annotations"]
        for emoji, entry in data.items():
            if _SKIP_EMOJI.search(emoji):
                continue
            for text in [*entry.get("default", []), *entry.get("tts", [])]:
                word = normalise(lang, text)
                if word and word not in out[emoji]:
                    out[emoji].append(word)
            if entry.get("tts"):
                names.setdefault(emoji, normalise(lang, entry["tts"][0]))
    return out, names


def _within(word: str, name: str) -> bool:
    return f" {word} " in f" {name} "


CONCRETE: set[str] = set()  # filled by main() from emojibase-data


def named_things(words: dict[str, list[str]], names: dict[str, str], *, names_only: bool = True) -> set[str]:
    """Keywords of concrete emoji (CONCRETE) that are (part of) the emoji's name: the things
    people name when they see it ("apfel" in "roter apfel"), not the moods or ideas it
    carries ("leben", "zweifel"); ``names_only=False`` keeps every keyword of those emoji."""
    return {w for emoji, ws in words.items() if emoji.replace("\ufe0f", "") in CONCRETE for w in ws
            if not names_only or (emoji in names and _within(w, names[emoji]))}

def translations(english: tuple[dict[str, list[str]], dict[str, str]],
                 other: tuple[dict[str, list[str]], dict[str, str]]) -> dict[str, list[str]]:
    """word -> English words naming mostly the same emoji (Jaccard >= MIN_JACCARD), sharing
    two emoji or standing both in the names of a shared one (one shared keyword alone, such
    as "abendessen" and "cutlery" on the plate, is no translation)."""
    english, en_names = english
    other, names = other
    en_sets: dict[str, set[str]] = defaultdict(set)
    for emoji, words in english.items():
        for w in words:
            if re.fullmatch(r"[a-z]+(?: [a-z]+)?", w):
                en_sets[w].add(emoji)
    sets: dict[str, set[str]] = defaultdict(set)
    for emoji, words in other.items():
        for w in words:
            sets[w].add(emoji)
    out = {}
    for word, emojis in sorted(sets.items()):
        near = {e for emoji in emojis for e in english.get(emoji, ()) if e in en_sets}
        pairs = sorted(
            e for e in near if zipf_frequency(e, "en") >= MIN_CARD_ZIPF
            if len(emojis & en_sets[e]) / len(emojis | en_sets[e]) >= MIN_JACCARD
            and (len(emojis & en_sets[e]) >= 2
                 or any(_within(word, names.get(x, "")) and _within(e, en_names.get(x, ""))
                        for x in emojis & en_sets[e])))
        if pairs:
            out[word] = pairs
    return out


def distinct(lang: str, ranked: list[str], n: int = CARDS) -> list[str]:
    """The first ``n`` of ``ranked`` that are no form of a card kept before them, nor a part of
    one, nor built on one (no XE beside XE MÁY, no SCHNEE beside SCHNEEMANN): such a pair
    would leave the spymaster no clue for either. Two compounds sharing a part (CÁ MẬP, CÁ
    HEO) may both be cards, as in English (HORSESHOE, SNOWSHOE)."""
    from spymaster_ai.rules.lang.checks import analyse

    kept: list[str] = []
    forms: set[str] = set()
    parts: set[str] = set()
    for word in ranked:
        w = analyse(lang, word)
        mine = w.forms | {w.key}
        if not mine.isdisjoint(forms | parts) or not w.parts.isdisjoint(forms):
            continue
        kept.append(word)
        forms |= mine
        parts |= w.parts
        if len(kept) == n:
            break
    return kept


def stopwords(node_modules: Path, lang: str) -> set[str]:
    data = json.loads((node_modules / "stopwords-iso" / "stopwords-iso.json").read_text(encoding="utf-8"))
    return {normalise(lang, w) for w in data[lang]}


# -- German -------------------------------------------------------------------------------------


# HanTa's STTS tags of content words a clue may be: nouns, nominalised infinitives, adjectives,
# adverbs, verbs (the infinitive, which HanTa often reads as a finite plural).
_DE_CONTENT_TAGS = {"NN", "NNI", "ADJ(D)", "ADJ(A)", "ADV", "VV(INF)", "VV(FIN)"}
_DE_NOUN_TAGS = {"NN", "NNI"}


def german_headword():
    """A test of whether a (normalised) word is a German headword a person would give as a
    clue: its own lemma for both ``simplemma`` and ``HanTa`` (no ZIELT, LANGEM, KINDER), and
    a known content word whose best reading is no proper name, interjection or foreign word
    (no GABRIEL, HAHA, BERLIN; ESSEN and HALLE stay, read about as often as nouns as places).
    wordfreq writes ß as ss, so such words are also looked up with ß."""
    import simplemma
    from HanTa import HanoverTagger

    tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")

    def is_headword(word: str) -> bool:
        spellings = {word} | ({word.replace("ss", "ß")} if "ss" in word else set())
        for spelling in sorted(spellings):
            for form in (spelling, spelling[:1].upper() + spelling[1:]):
                if normalise("de", simplemma.lemmatize(form, lang="de")) != spelling:
                    continue
                tags = tagger.tag_word(form)
                if not tags or tags[0][1] < -25:  # unknown to HanTa's lexicon (HAHA)
                    continue
                # capitalised, only a noun reading counts (not GEFÜLLTE, a nominalised adjective)
                wanted = _DE_CONTENT_TAGS if form == spelling else _DE_NOUN_TAGS
                content = [score for tag, score in tags if tag in wanted]
                if not content or content[0] < tags[0][1] - 1.5:
                    continue
                if normalise("de", tagger.analyze(form)[0]) == spelling:
                    return True
        return False

    return is_headword


def german_name_test(nouns, names: set[str]):
    """Whether a German word is only a person's name: a common first name or surname in
    Germany, Austria or Switzerland (names-dataset) that german-nouns lists as no common noun
    and HanTa reads as no other content word. FISCHER, KOCH and KLEIN are names and words and
    stay; KERBER, MAIER and WIELAND go."""
    from HanTa import HanoverTagger

    tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
    names_only = ("Vorname", "Nachname", "Familienname", "Eigenname", "Toponym")

    def common_noun(word: str) -> bool:
        for entry in nouns[word[:1].upper() + word[1:]] or ():
            pos = entry.get("pos") or []
            if "Substantiv" in pos and not any(n in p for p in pos for n in names_only):
                return True
        return False

    def other_word(word: str) -> bool:
        tags = tagger.tag_word(word)
        return bool(tags) and tags[0][0] not in ("NN", "NE", "XY", "FM") and tags[0][1] > -25

    def is_name(word: str) -> bool:
        if word not in names:
            return False
        spellings = {word} | ({word.replace("ss", "ß")} if "ss" in word else set())
        return not any(common_noun(s) or other_word(s) for s in spellings)

    return is_name


def german(node_modules: Path, words: tuple[dict[str, list[str]], dict[str, str]],
           person_names: set[str] = frozenset()) -> tuple[list[str], list[str]]:
    from german_nouns.lookup import Nouns

    nouns = Nouns()
    stop = stopwords(node_modules, "de")
    names = ("Vorname", "Nachname", "Familienname", "Eigenname", "Toponym", "Abkürzung")

    def is_noun(word: str) -> bool:
        for entry in nouns[word[:1].upper() + word[1:]] or ():
            pos = entry.get("pos") or []
            if "Substantiv" in pos and not any(n in p for p in pos for n in names):
                if (entry.get("lemma") or "").lower() == word:
                    return True
        return False

    keywords = sorted(w for w in named_things(*words) if _DE_LETTERS.fullmatch(w))
    scored = [(zipf_frequency(w, "de"), w) for w in keywords
              if len(w) >= 3 and w not in stop and is_noun(w) and zipf_frequency(w, "de") >= MIN_CARD_ZIPF]
    cards = distinct("de", [w for _, w in sorted(scored, key=lambda t: (-t[0], t[1]))])
    clues = []
    headword = german_headword()
    is_name = german_name_test(nouns, person_names)
    removed = []
    for w in top_n_list("de", 80_000):
        w = normalise("de", w)
        if (_DE_LETTERS.fullmatch(w) and len(w) >= 3 and w not in stop
                and zipf_frequency(w, "de") >= zipf_frequency(w, "en") - 0.5 and w not in clues
                and headword(w)):
            if is_name(w):
                removed.append(w)
                continue
            clues.append(w)
            if len(clues) == CLUES:
                break
    print(f"de: the names filter removed {len(removed)} clue words: {' '.join(removed)}")
    return cards, clues


# -- Vietnamese ---------------------------------------------------------------------------------


_VI_NOT_CLUE_TAGS = {"Np", "I"}  # underthesea: proper noun, interjection


def viet_dictionary(name: str = "Viet74K") -> set[str]:
    """underthesea's dictionaries: Viet74K, the words of the language, many of several
    syllables; Viet11K, its core (the clue vocabulary's source)."""
    import importlib.util

    folder = Path(importlib.util.find_spec("underthesea").submodule_search_locations[0])
    text = (folder / "corpus" / "data" / f"{name}.txt").read_text(encoding="utf-8")
    return {normalise("vi", line) for line in text.splitlines() if line.strip()}


def vietnamese(node_modules: Path, words: tuple[dict[str, list[str]], dict[str, str]]) -> tuple[list[str], list[str]]:
    from underthesea import pos_tag

    dictionary = viet_dictionary()
    stop = stopwords(node_modules, "vi")

    def is_word(w: str) -> bool:
        syllables = w.split(" ")
        return (w in dictionary and 1 <= len(syllables) <= 3 and all(_VI_SYLLABLE.fullmatch(s) for s in syllables)
                and w not in stop)

    def is_noun(w: str) -> bool:
        # In a carrier sentence ("This is X .") the tagger keeps a word of several syllables
        # whole; alone it often splits it or reads it as a numeral.
        tags = pos_tag(f"Đây là {w} .")[2:-1]
        return " ".join(t.lower() for t, _ in tags) == w and all(tag in ("N", "Nc") for _, tag in tags)

    def best(keywords: set[str]) -> list[str]:
        scored = [(zipf_frequency(w, "vi"), w) for w in sorted(keywords)
                  if is_word(w) and zipf_frequency(w, "vi") >= MIN_CARD_ZIPF - 0.5 and is_noun(w)]
        return [w for _, w in sorted(scored, key=lambda t: (-t[0], t[1]))]

    # Vietnamese names are short ("táo", "mặt cún"): too few named things, so the other
    # keywords of concrete emoji fill the list after them.
    named = best(named_things(*words))
    cards = distinct("vi", named + [w for w in best(named_things(*words, names_only=False)) if w not in named])
    ranked = sorted((w for w in viet_dictionary("Viet11K") if is_word(w)), key=lambda w: (-zipf_frequency(w, "vi"), w))
    # Vietnamese does not inflect, so every dictionary word is its own lemma; names and
    # interjections are left out by the tagger (Np, I) in the carrier sentence.
    clues = [w for w in ranked if len(w) > 1 and not _VI_NOT_CLUE_TAGS & {t for _, t in pos_tag(f"Đây là {w} .")[2:-1]}]
    return cards, clues[:CLUES]


# -- Persian ------------------------------------------------------------------------------------


def persian_lexicon(wheel: Path) -> dict[str, set[str]]:
    """hazm's lexicon: key (normalised, ZWNJ dropped) -> its tags (N, AJ, ADV, PL...; empty
    for the many words hazm lists untagged, such as "ماهی", fish)."""
    with zipfile.ZipFile(wheel) as zf:
        text = zf.read("hazm/data/words.dat").decode("utf-8")
    out: dict[str, set[str]] = defaultdict(set)
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            out[fa_key(parts[0])].update(t for t in parts[2].split(",") if t != "0")
    return out


def persian_headword(word: str, lexicon: dict[str, set[str]]) -> bool:
    """No plural hazm lists (افراد, اطلاعات) and no suffixed form of a word simplemma gives as
    its lemma (دوستان <- دوست, خوبی <- خوب); simplemma's other lemmas (باد -> بودن, wind read
    as a verb) are wrong often enough that a word it maps elsewhere stays."""
    import simplemma

    if "PL" in lexicon.get(fa_key(word), set()):
        return False
    lemma = normalise("fa", simplemma.lemmatize(word, lang="fa"))
    return lemma == word or not (word.startswith(lemma) and len(fa_key(lemma)) >= 2)


def persian(node_modules: Path, words: tuple[dict[str, list[str]], dict[str, str]], wheel: Path) -> tuple[list[str], list[str]]:
    lexicon = persian_lexicon(wheel)
    stop = stopwords(node_modules, "fa")
    content = {"N", "AJ", "ADV"}

    def is_noun(w: str) -> bool:
        tags = lexicon.get(fa_key(w), set())
        return "N" in tags and "PL" not in tags

    keywords = sorted(w for w in named_things(*words) if _FA_LETTERS.fullmatch(w))
    scored = [(zipf_frequency(w, "fa"), w) for w in keywords
              if len(fa_key(w)) >= 2 and w not in stop and is_noun(w) and zipf_frequency(w, "fa") >= MIN_CARD_ZIPF]
    cards = distinct("fa", [w for _, w in sorted(scored, key=lambda t: (-t[0], t[1]))])
    clues, seen = [], set()
    for w in top_n_list("fa", 120_000):
        w = normalise("fa", w)
        key = fa_key(w)
        if (_FA_LETTERS.fullmatch(w) and len(key) >= 2 and w not in stop and key not in seen
                and lexicon.get(key, set()) & content and persian_headword(w, lexicon)):
            seen.add(key)
            clues.append(w)
            if len(clues) == CLUES:
                break
    return cards, clues


def write_persian_lexicon(wheel: Path, out: Path) -> None:
    """The checker's Persian lexicon (hazm, MIT): the key of every word hazm tags as a content
    word or that wordfreq has seen, and whether hazm lists it as a plural, to tell a lemma
    ("باران", rain) from a suffixed form ("کتابها")."""
    lexicon = persian_lexicon(wheel)
    rows = [f"{key}\t{'PL' if 'PL' in tags else 'L' if tags else ''}" for key, tags in sorted(lexicon.items())
            if _FA_LETTERS.fullmatch(key)
            and (tags & {"N", "AJ", "ADV"} or (not tags and zipf_frequency(key, "fa") >= 1.0))]
    (out / "lexicon_fa.tsv").write_text(header("fa", "hazm's content words (key; PL plural, L tagged content word, empty untagged)")
                                        + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"fa: {len(rows)} lexicon words")


# -- output -------------------------------------------------------------------------------------


def header(lang: str, what: str) -> str:
    versions = {"wordfreq": version("wordfreq")}
    if lang == "de":
        versions["names-dataset (wheel data)"] = NAMES_DATASET.split("==")[1]
        versions["german-nouns"] = version("german-nouns")
        versions["simplemma"] = version("simplemma")
        versions["HanTa"] = version("HanTa")
    if lang == "vi":
        versions["underthesea"] = version("underthesea")
    if lang == "fa":
        versions["hazm (wheel data)"] = HAZM.split("==")[1]
        versions["simplemma"] = version("simplemma")
    npm = ", ".join(f"{k} {v}" for k, v in NPM_PACKAGES.items())
    pins = ", ".join(f"{k} {v}" for k, v in versions.items())
    return (f"# {what} ({lang}), built by scripts/build_lang_data.py; do not edit by hand.\n"
            f"# Sources: {pins}; npm {npm}. See data/README.md.\n")


def write(lang: str, cards: list[str], clues: list[str], table: dict[str, list[str]], out: Path) -> None:
    # The board words are a speaker's since 2026-12-04 (glossary_<lang>.tsv, issue 40: these
    # frequency-and-emoji lists held verbs, OK, EURO and two words for one thing); they are
    # written from the glossary and never rebuilt here.
    glossary = out / f"glossary_{lang}.tsv"
    if glossary.exists():
        cards = [line.split("\t")[0] for line in glossary.read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#") and line.split("\t")[1] == "card"]
    else:
        (out / f"words_{lang}.txt").write_text(header(lang, "board words") + "\n".join(cards) + "\n", encoding="utf-8")
    (out / f"clues_{lang}.txt").write_text(header(lang, "clue vocabulary, most frequent first")
                                           + "\n".join(clues) + "\n", encoding="utf-8")
    wanted = set(cards) | set(clues)
    rows = [f"{w}\t{'|'.join(en)}" for w, en in sorted(table.items()) if w in wanted]
    (out / f"translations_{lang}.tsv").write_text(
        header(lang, "word -> English words naming the same emoji (CLDR), tab-separated, | between")
        + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"{lang}: {len(cards)} cards, {len(clues)} clues, {len(rows)} translated words")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--npm-dir", type=Path, help="node_modules holding the pinned npm packages")
    parser.add_argument("--hazm-wheel", type=Path, help=f"a downloaded {HAZM} wheel")
    parser.add_argument("--names-wheel", type=Path, help=f"a downloaded {NAMES_DATASET} wheel")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--langs", default=",".join(LANGS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        node_modules = args.npm_dir or npm_install(Path(tmp) / "npm")
        CONCRETE.update(concrete_emoji(node_modules))
        english = annotations(node_modules, "en")
        for lang in args.langs.split(","):
            words = annotations(node_modules, lang)
            if lang == "de":
                names = personal_names(args.names_wheel or names_wheel(Path(tmp)), "de")
                cards, clues = german(node_modules, words, names)
            elif lang == "vi":
                cards, clues = vietnamese(node_modules, words)
            else:
                wheel = args.hazm_wheel or hazm_wheel(Path(tmp))
                cards, clues = persian(node_modules, words, wheel)
                write_persian_lexicon(wheel, args.out)
            write(lang, cards, clues, translations(english, words), args.out)


if __name__ == "__main__":
    main()
