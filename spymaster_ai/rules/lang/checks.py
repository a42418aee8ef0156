"""RULES.md §4 on German, Vietnamese and Persian boards: the rules in order, one verdict.

Why a module of its own: the English checker (:mod:`..legality`) is tuned to English
morphology and must keep every English verdict as it is; other languages come here, through
``LegalityOptions(lang=...)``, and are compared on what their readers (:mod:`.german`,
:mod:`.vietnamese`, :mod:`.persian`) found:

1. the clue is a visible card (same key: "کتاب‌ها" and "کتابها" are one word);
2. it shares a form with one (lemma, suffix, umlaut or ß/ss fold, tone-mark placement);
3. it is a part of a visible compound, is built on a visible word, or (German, Persian) shares
   a part with a visible compound ("Huf" with HUFEISEN, "Schneemann" with SCHNEE, "cá" with
   CÁ MẬP, "ردپا" with رد); Vietnamese words that only share a syllable are different words
   ("phòng ngủ" with XÀ PHÒNG: :data:`SHARED_PARTS_COLLIDE`);
6. it is an English translation of a visible card (CLDR emoji names: ``translations_<lang>``);
4. it is not one word (a Vietnamese word of several syllables is one word when
   underthesea's dictionary or the speaker's glossary lists it; place names and options as in English);
then foreign words (an English word the board's language does not use), and rule 5
(positions, the count) from the short tables below, which are engine decisions like the
English ones.

Messages are in English and name the rule and the board word as written.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from wordfreq import zipf_frequency

from ..cards import normalise_word
from ..legality.options import LegalityOptions
from ..legality.verdicts import (
    RULE_COMPOUND_PART,
    RULE_FOREIGN_WORD,
    RULE_LETTERS_OR_POSITION,
    RULE_NOT_A_WORD,
    RULE_NOT_ONE_WORD,
    RULE_PICTURE_APPEARANCE,
    RULE_TRANSLATION,
    RULE_VISIBLE_WORD,
    RULE_WORD_FORM,
    Verdict,
)
from .normalise import normalise
from .persian import built_on

PICTURE_PREFIX = "pic:"  # a picture card's id (pictures.deck.PICTURE_PREFIX; rules import no pictures code at load)
from .words import LANGUAGES, LangWord, translations, upper

# Rule 5, per language: positions at the table and number words (the count as the clue).
POSITION_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset("oben unten links rechts mitte mittlere ecke reihe zeile spalte diagonal erste zweite dritte letzte".split()),
    "vi": frozenset(["trên", "dưới", "trái", "phải", "giữa", "góc", "hàng", "cột", "đường chéo", "đầu tiên", "cuối cùng"]),
    "fa": frozenset("بالا پایین چپ راست وسط گوشه ردیف ستون قطر اول دوم سوم آخر".split()),
}
NUMBER_WORDS: dict[str, dict[str, int]] = {
    "de": {w: i for i, w in enumerate("null eins zwei drei vier fünf sechs sieben acht neun zehn".split())} | {"ein": 1},
    "vi": {w: i for i, w in enumerate("không một hai ba bốn năm sáu bảy tám chín mười".split())},
    "fa": {w: i for i, w in enumerate("صفر یک دو سه چهار پنج شش هفت هشت نه ده".split())},
}
# Pictures §2 (on by default for picture cards, like the English COLOUR_WORDS): colour words,
# refused with every form ("rote", "màu đỏ" is two words anyway, "قرمزها").
COLOUR_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset("schwarz weiß rot grün gelb blau braun lila violett rosa pink orange grau beige türkis "
                    "magenta farbe farbig bunt".split()),
    "vi": frozenset(["đen", "trắng", "đỏ", "xanh", "xanh lá", "xanh lục", "xanh dương", "xanh lam", "vàng", "nâu",
                     "tím", "hồng", "cam", "xám", "màu", "màu sắc"]),
    "fa": frozenset("سیاه مشکی سفید قرمز سرخ سبز زرد آبی قهوه‌ای بنفش صورتی نارنجی خاکستری طوسی رنگ رنگی".split()),
}
_LATIN = re.compile(r"[a-z]+(?: [a-z]+)?")
# Languages where two compounds sharing a part collide (footprint with FOOTBALL). Not
# Vietnamese: a word that shares one syllable with a card is another word (RULES.md §4).
SHARED_PARTS_COLLIDE = frozenset({"de", "fa"})


def analyse(lang: str, text: str) -> LangWord:
    """The reading of ``text`` in ``lang`` (cached per language module)."""
    if lang == "de":
        from .german import analyse as read
    elif lang == "vi":
        from .vietnamese import analyse as read
    elif lang == "fa":
        from .persian import analyse as read
    else:
        raise ValueError(f"no word reader for language {lang!r} (English uses spymaster_ai.rules.legality)")
    return read(text)


def _english_roots(word: LangWord) -> frozenset[str]:
    """What a Latin-letter clue means as English: its English roots ("apples" -> apple)."""
    return _english_roots_of(word.shown)


@lru_cache(maxsize=1 << 17)
def _english_roots_of(shown: str) -> frozenset[str]:
    if not _LATIN.fullmatch(shown):
        return frozenset()
    from ..legality.analysis import _analyse

    return _analyse(shown).roots | {shown}


def _board_violation(lang: str, clue: LangWord, cards: Sequence[tuple[str, LangWord]]) -> Verdict | None:
    name = LANGUAGES[lang]
    for word, card in cards:
        if clue.key == card.key:
            return Verdict(False, RULE_VISIBLE_WORD, word,
                           f'"{clue.shown}" is the visible board word {upper(card.shown)} (rule 1: a visible word is not a clue)')
    for word, card in cards:
        if clue.forms & card.forms:
            how = "a spelling variant" if clue.spelling == card.spelling else "a form (inflection, suffix or derivation)"
            return Verdict(False, RULE_WORD_FORM, word,
                           f'"{clue.shown}" is {how} of the visible board word {upper(card.shown)} '
                           f"(rule 2: no form of a visible word; {name})")
    for word, card in cards:
        if clue.forms & card.parts:
            what = f"is a part of the visible compound {upper(card.shown)}"
        elif clue.parts & card.forms:
            what = f"is built on the visible board word {upper(card.shown)}"
        elif lang == "fa" and built_on(clue.key, card.key):
            what = f"is a compound built on the visible board word {upper(card.shown)}"
        elif lang in SHARED_PARTS_COLLIDE and clue.parts & card.parts:
            shared = sorted(clue.parts & card.parts)[0]
            what = f'shares the part "{shared}" with the visible board word {upper(card.shown)}'
        else:
            continue
        return Verdict(False, RULE_COMPOUND_PART, word,
                       f'"{clue.shown}" {what} (rule 3: no part of a compound, nor a word built on one; {name})')
    english = _english_roots(clue)
    if english:
        table = translations(lang)
        for word, card in cards:
            if english & table.get(card.shown, frozenset()):
                return Verdict(False, RULE_TRANSLATION, word,
                               f'"{clue.shown}" is an English translation of the visible board word '
                               f"{upper(card.shown)} (rule 6: no translation of a visible word)")
    return None


@lru_cache(maxsize=None)
def _colour_keys(lang: str) -> frozenset[str]:
    """The keys and forms of the language's colour words (what a colour clue meets them by)."""
    return frozenset().union(*(analyse(lang, normalise(lang, w)).forms | {analyse(lang, normalise(lang, w)).key}
                               for w in COLOUR_WORDS[lang]))


def _is_colour(lang: str, clue: LangWord) -> bool:
    return not _colour_keys(lang).isdisjoint(clue.forms | {clue.key})


def _colour_violation(lang: str, clue: LangWord) -> Verdict:
    return Verdict(False, RULE_PICTURE_APPEARANCE, None,
                   f'"{clue.shown}" is a colour word (Pictures §2: clues about the colours of the pictures are invalid; '
                   "the checker cannot see intent)")


def _letters_violation(lang: str, clue: LangWord, count: int | None) -> Verdict | None:
    if clue.shown in POSITION_WORDS[lang]:
        return Verdict(False, RULE_LETTERS_OR_POSITION, None,
                       f'"{clue.shown}" is a position word (rule 5: clues about positions on the table are not allowed)')
    value = clue.number if clue.number is not None else NUMBER_WORDS[lang].get(clue.shown)
    if count is not None and value == count:
        return Verdict(False, RULE_LETTERS_OR_POSITION, None,
                       f'"{clue.shown}" is the clue\'s own number {count} (rule 5: the count cannot be the clue)')
    return None


def _foreign(lang: str, clue: LangWord) -> Verdict | None:
    """An English word the board's language does not use (§4: foreign words only if used in
    everyday speech of the game's language); ``known`` is the language reader's judgement."""
    if len(clue.shown) < 2 or not _LATIN.fullmatch(clue.shown) or clue.known:
        return None
    if zipf_frequency(clue.shown, "en") < 2.0:
        return None
    return Verdict(False, RULE_FOREIGN_WORD, None,
                   f'"{clue.shown}" is an English word, not one in everyday {LANGUAGES[lang]} use '
                   f"(rule 4, foreign words: legal only if used in everyday {LANGUAGES[lang]})")


@lru_cache(maxsize=1 << 17)
def _read_clue(lang: str, clue: str) -> LangWord | Verdict:
    text = normalise(lang, clue)
    if re.fullmatch(r"\d+", text):
        return LangWord(text, text, (text,), frozenset({text}), frozenset(), True, True, spelling=text, number=int(text))
    if not text or not all(c.isalpha() or c in " -\u200c" for c in text):
        return Verdict(False, RULE_NOT_A_WORD, None,
                       f'"{normalise_word(text)}" is not a word (letters only, in one word)')
    return analyse(lang, text)


def _violation(lang: str, clue: LangWord, cards, options: LegalityOptions, count: int | None) -> Verdict | None:
    if clue.number is None:
        found = _board_violation(lang, clue, cards)
        if found:
            return found
        if not clue.one_word and not options.multi_word:
            return Verdict(False, RULE_NOT_ONE_WORD, None,
                           f'"{clue.shown}" is not one word (rule 4: no spaces or hyphens; a {LANGUAGES[lang]} '
                           "word of several syllables is one word when a dictionary or the game's glossary lists it)")
        found = _foreign(lang, clue)
        if found:
            return found
        if options.colours_forbidden and _is_colour(lang, clue):
            return _colour_violation(lang, clue)
    return _letters_violation(lang, clue, count)


def _cards(lang: str, visible: Sequence[str], options: LegalityOptions) -> list[tuple[str, LangWord]]:
    """The visible cards as read in ``lang``. Under the Pictures rules a picture card is no
    word on the table: its captions (in the board's language) count only under the house
    option ``strict_captions``, as in English."""
    if isinstance(visible, str):
        raise TypeError("visible_words must be a sequence of words, not one string")
    out = []
    for word in map(str, visible):
        if options.pictures and word.startswith(PICTURE_PREFIX):
            if options.strict_captions:
                out += [(word, analyse(lang, caption)) for caption in _captions(lang, word)]
            continue
        out.append((word, analyse(lang, word)))
    return out


def _captions(lang: str, card: str) -> tuple[str, ...]:
    """A picture card's captions in ``lang`` (a card not in the deck stands for nothing)."""
    from ...pictures.deck import load_deck

    found = load_deck(lang).get(card)
    return () if found is None else tuple(p.caption for p in load_deck(lang).parts(card))


def _reading(lang: str, clue: str) -> str | None:
    """What a clue typed without its marks is read as (Vietnamese "tien" -> "tiền"), or None."""
    if lang != "vi":
        return None
    from .vietnamese import toneless_reading

    return toneless_reading(str(clue))


def check_clue_in(lang: str, clue: str, visible: Sequence[str], options: LegalityOptions, count: int | None) -> Verdict:
    """``check_clue`` for a German, Vietnamese or Persian board. A Vietnamese clue typed
    without its marks is checked as the word it most likely is, and the reason says so."""
    reading = _reading(lang, clue)
    read = _read_clue(lang, reading or clue)
    if isinstance(read, Verdict):
        return read
    found = _violation(lang, read, _cards(lang, visible, options), options, count)
    verdict = found or Verdict(True, None, None, f'"{read.shown}" is a legal clue')
    if reading is None:
        return verdict
    note = f'"{normalise(lang, clue)}" is read as "{reading}" (typed without its tone marks): '
    return Verdict(verdict.legal, verdict.rule, verdict.collides_with, note + verdict.reason)


def legal_mask_in(lang: str, candidates: Sequence[str], visible: Sequence[str], options: LegalityOptions) -> list[bool]:
    """``legal_mask`` for a German, Vietnamese or Persian board: the board is read once, and a
    candidate that touches no card's key, form or part is checked by set lookups only."""
    cards = _cards(lang, visible, options)
    colours = options.colours_forbidden
    touch = frozenset().union(*(c.keys for _, c in cards)) if cards else frozenset()
    table = translations(lang)
    english = frozenset().union(*(table.get(c.shown, frozenset()) for _, c in cards)) if cards else frozenset()
    positions = POSITION_WORDS[lang]
    out = []
    fa_cards = [c.key for _, c in cards] if lang == "fa" else []
    for raw in candidates:
        read = _read_clue(lang, _reading(lang, raw) or str(raw))
        if isinstance(read, Verdict):
            out.append(False)
        elif (read.keys.isdisjoint(touch) and read.one_word and read.shown not in positions
              and _english_roots(read).isdisjoint(english) and (read.known or not _LATIN.fullmatch(read.shown))
              and not (colours and _is_colour(lang, read))
              and not any(built_on(read.key, key) for key in fa_cards)):
            out.append(True)
        else:
            out.append(_violation(lang, read, cards, options, None) is None)
    return out
