"""What every language's analysis gives the checker, and the shipped data it reads.

Why a module of its own: the German, Vietnamese and Persian readers differ in how they find a
word's forms and parts, but the checker compares them all the same way (:mod:`.checks`), on a
:class:`LangWord`. The data files (``spymaster_ai/data/*_<lang>.*``) are built by
``scripts/build_lang_data.py``; their provenance is in ``data/README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

LANGUAGES: dict[str, str] = {"en": "English", "de": "German", "vi": "Vietnamese", "fa": "Persian"}


def check_language(lang: str) -> str:
    """``lang`` if it is one of LANGUAGES, else a ValueError naming them."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return lang


@dataclass(frozen=True)
class LangWord:
    """A clue or card read in its language.

    ``key`` is its identity (rule 1); ``forms`` the keys of its inflections, lemmas and
    spelling variants (rule 2, the key included); ``parts`` the forms of its meaningful
    compound parts (rule 3, the word itself excluded); ``english`` what it means as an English
    word when it is written in Latin letters (its English roots, for the translation rule).
    """

    shown: str
    key: str
    tokens: tuple[str, ...]
    forms: frozenset[str]
    parts: frozenset[str]
    one_word: bool  # a dictionary word (Vietnamese words may hold spaces), or a single token
    known: bool  # a word of the language (wordfreq or its lexicon)
    english: frozenset[str] = frozenset()
    spelling: str = ""  # the key with spelling folded (ß/ss, umlauts, tone-mark placement)
    number: int | None = None

    @cached_property
    def keys(self) -> frozenset[str]:
        """Everything a board word could meet this word by: its key, forms and parts."""
        return frozenset({self.key}) | self.forms | self.parts


def _data_lines(name: str) -> list[str]:
    text = (resources.files("spymaster_ai") / "data" / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@lru_cache(maxsize=None)
def glossary_words(lang: str) -> frozenset[str]:
    """Every word of the language's glossary (``glossary_<lang>.tsv``, written by a speaker:
    the cards, the common clue words and the words a person may type), normalised. Why here:
    a speaker's list says what is one word in Vietnamese, where syllables are written apart
    and underthesea's dictionary lacks everyday compounds and places (ĐÀ LẠT, THÚ CƯNG)."""
    from .normalise import normalise

    return frozenset(normalise(lang, line.partition("\t")[0]) for line in _data_lines(f"glossary_{lang}.tsv"))


@lru_cache(maxsize=None)
def translations(lang: str) -> dict[str, frozenset[str]]:
    """word (normalised) -> English words naming the same things (CLDR emoji annotations)."""
    out = {}
    for line in _data_lines(f"translations_{lang}.tsv"):
        word, _, english = line.partition("\t")
        out[word] = frozenset(english.split("|"))
    return out


@lru_cache(maxsize=None)
def clue_words(lang: str) -> tuple[str, ...]:
    """The shipped clue vocabulary of ``lang`` (``clues_<lang>.txt``), most frequent first."""
    return tuple(dict.fromkeys(_data_lines(f"clues_{lang}.txt")))


def upper(word: str) -> str:
    """A board word in capitals as printed, keeping ß (``"straße".upper()`` would spell STRASSE)."""
    return "".join(c if c == "ß" else c.upper() for c in word)
