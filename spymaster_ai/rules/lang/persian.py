"""Persian words: normalised first (yeh, kaf, diacritics, ZWNJ: :mod:`.normalise`), then plural,
possessive and comparative suffixes, written joined or after a ZWNJ, are forms (RULES.md §4).

Derivational suffixes are forms too, after vowel-final words as well (§4: طلا -> طلایی,
ابر -> ابری, دعا -> دعایی, نان -> نانوا -> نانوایی): :data:`_DERIVATIONAL` comes off even a
lexicon lemma, when what is left is a content word of the lexicon, except for the few words
that only look derived (:data:`NOT_DERIVED`: ماهی is a fish, not "of the moon"). Ordinals are
forms of their numbers (هشت -> هشتم, هشتمین; سه -> سوم). A compound written joined and built on
a card (رد -> ردپا) is found against the card itself (:func:`built_on`), as English finds
"firetruck" with TRUCK: the card, then a common content word.

A suffix is taken off only when what is left is a word of hazm's lexicon (shipped as
``data/lexicon_fa.tsv``), and, when written joined, only when the whole is no lemma of that
lexicon: "باران" (rain) is a word of its own, not a plural of "بار" (load), while "کتابها" and
"کتاب‌هایم" are forms of "کتاب". A compound written with a ZWNJ ("کتاب‌خانه") has the words on
either side as parts; one written joined ("کتابخانه") is split only into two common words
(wordfreq Zipf >= JOINED_PART_ZIPF) of at least three letters, since short Persian words hide
inside many longer ones.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wordfreq import zipf_frequency

from .normalise import ZWNJ, fa_key, normalise
from .words import LangWord, _data_lines

JOINED_PART_ZIPF = 4.0
# A joined compound's first part may be a short common noun (گل in گلخانه) when this common.
SHORT_HEAD_ZIPF = 4.5
# Longest first: possessives on plurals, plurals, possessives and the indefinite, comparatives.
_SUFFIXES = (
    "هایمان", "هایتان", "هایشان", "هایم", "هایت", "هایش", "های", "ها",
    "یمان", "یتان", "یشان", "مان", "تان", "شان", "ترین", "تر",
    "گان", "یان", "ان", "ات", "ای", "ام", "ی", "م", "ت", "ش",
)

# Derivational suffixes (adjectives and nouns of quality, the agent noun -وا): "یی"/"ئی" after a
# vowel (طلایی, دعایی; نانوائی in the older spelling), "ی" after a consonant (ابری, خوبی).
_DERIVATIONAL = ("وایی", "وائی", "یی", "ئی", "وا", "ی")
# Words that end like a derivation of another word but are not one (checked on the shipped
# card list: each card + ی, یی, وا that the lexicon or the clue words hold).
NOT_DERIVED: dict[str, str] = {
    "ماهی": "ماه",  # fish, not "of the moon"
    "پری": "پر",  # fairy, not "feathery"
    "خالی": "خال",  # empty, not "of a mole"
    "سپری": "سپر",  # spent (سپری شدن), not "of a shield"
    "پروا": "پر",  # fear
    "شنوا": "شن",  # able to hear (شنو-), not sand
    "سهوا": "سه",  # by mistake
    "جنوا": "جن",  # Genoa
    "کشتی": "کشت",  # ship
    "سینی": "سین",  # tray
}
# Number words and their ordinals (-م, -مین; سه -> سوم): ordinals are forms of the number.
_NUMBERS = frozenset("یک دو سه چهار پنج شش هفت هشت نه ده یازده دوازده سیزده چهارده پانزده شانزده هفده هجده "
                     "نوزده بیست سی چهل پنجاه شصت هفتاد هشتاد نود صد هزار میلیون میلیارد".split())
_ORDINAL_STEMS = {"سو": "سه", "یکم": "یک"}
# The rest of a joined compound built on a card (رد + پا): a content word at least this common.
BUILT_ON_ZIPF = 4.0
# Words that start or end with a card and a common word but are no compound of them (the
# false hits among the shipped clue words against the shipped cards, reviewed by hand; they are
# split into no joined parts either: پرستار is no پرس + تار):
# loanwords and names (سناتور, میانمار) and words of other morphemes (فراموش, پرستار, بی‌شمار).
NOT_BUILT_ON = frozenset("فراموش پرستار سناتور متناسب مارشال میانمار بیشمار پروفیل میشیگان پاستور نامشخص "
                         "فردریش بوداپست کامران سیرجان همینگوی پرشکوه بادوام".split()
                         # cards no speaker reads as two words (شمشیر is no شم + شیر, سیاره no سی + اره):
                         # each card whose joined parts the splitter found, reviewed by hand on
                         # 2026-12-06 after a playtester's سیم was refused beside سیاره
                         + "انگور سوهان انگشت استخوان دیوار فنجان شمشیر ماشین موتور اتوبوس کامیون کالسکه "
                           "لاستیک زندان خورشید ستاره سیاره سینما فیروزه".split())
# A compound with a piece under three letters counts only when it is this rare (ردپا: 0).
SHORT_PIECE_CLUE_ZIPF = 3.0


@lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """hazm's words: key -> "L" (tagged as a content word), "PL" (a plural) or "" (untagged)."""
    out = {}
    for line in _data_lines("lexicon_fa.tsv"):
        key, _, tag = line.partition("\t")
        out[key] = tag
    return out


def _strippable(key: str, suffix: str) -> bool:
    """Whether ``suffix`` may come off ``key``: never from a tagged lemma ("باران", "تنها"),
    only the longer suffixes from an untagged word ("ماهی" is fish, not a moon's), any from
    a plural or a word hazm does not list."""
    tag = lexicon().get(key)
    if tag == "L":
        return False
    return tag != "" or len(suffix) >= 2


def _derived_stems(key: str) -> set[str]:
    """Keys of the words ``key`` is derived from by one derivational suffix or as an ordinal."""
    out = set()
    for suffix in _DERIVATIONAL:
        stem = key[: -len(suffix)]
        if key.endswith(suffix) and len(stem) >= 2 and lexicon().get(stem) == "L" and NOT_DERIVED.get(key) != stem:
            out.add(stem)
    for suffix in ("مین", "م", "امین", "ام"):
        stem = key[: -len(suffix)]
        # after ی the ordinal is written -ام (سی‌ام): سیم is a wire, not the thirtieth
        if key.endswith(suffix) and stem and not (suffix in ("م", "مین") and stem.endswith("ی")):
            stem = _ORDINAL_STEMS.get(stem, stem)
            if stem in _NUMBERS:
                out.add(stem)
    return out


def built_on(clue_key: str, card_key: str) -> bool:
    """Whether a joined compound ``clue_key`` is the card and a common content word, in either
    order (ردپا with رد); "بهشت" with هشت is not (به is no content word), "ماهی" with ماه is
    not (ی is a suffix)."""
    if len(card_key) < 2 or len(clue_key) < len(card_key) + 2 or clue_key in NOT_BUILT_ON:
        return False
    rests = []
    if clue_key.startswith(card_key):
        rests.append(clue_key[len(card_key):])
    if clue_key.endswith(card_key):
        rests.append(clue_key[: -len(card_key)])
    if not any(rest not in _SUFFIXES and lexicon().get(rest) == "L" and zipf_frequency(rest, "fa") >= BUILT_ON_ZIPF
               for rest in rests):
        return False
    # Two- and three-letter words hide in many longer ones (تهران: ته + ران, زنده: زن + ده): with
    # a piece that short, only a clue that is no common word of its own is read as built on it.
    short = len(card_key) < 3 or any(len(rest) < 3 for rest in rests)
    return not short or zipf_frequency(clue_key, "fa") < SHORT_PIECE_CLUE_ZIPF


def _stems(shown: str, guard: bool = True) -> set[str]:
    """Keys of the words left after taking off suffixes, one or more (کتاب‌هایم -> کتاب);
    ``guard=False`` strips a lexicon lemma too (a compound's piece: "زمینی" in "سیب‌زمینی")."""
    out: set[str] = set()
    frontier = [shown]
    while frontier:
        word = frontier.pop()
        head, zwnj, tail = word.rpartition(ZWNJ)
        pieces = [(head, tail)] if zwnj and fa_key(tail) in _SUFFIXES else []
        key = fa_key(word)
        pieces += [(word[: -len(s)], s) for s in _SUFFIXES
                   if key.endswith(s) and word.endswith(s) and (not guard or _strippable(key, s))]
        if key.endswith("گان") and not any(s == "گان" for _, s in pieces):  # ستارگان -> ستاره: the گ/ه plural is never a word's own ending
            pieces.append((word[:-3], "گان"))
        if zwnj and fa_key(tail) in _DERIVATIONAL and lexicon().get(fa_key(head)) == "L":  # طلا‌یی
            if fa_key(head) not in out:
                out.add(fa_key(head))
                frontier.append(head)
        for stem_key in _derived_stems(key) - out:
            out.add(stem_key)
            frontier.append(stem_key)
        for stem, suffix in pieces:
            stem = stem.rstrip(ZWNJ)
            candidates = [stem] + ([stem + "ه"] if suffix == "گان" else [])
            for candidate in candidates:
                ckey = fa_key(candidate)
                if len(ckey) >= 2 and ckey in lexicon() and ckey not in out:
                    out.add(ckey)
                    frontier.append(candidate)
    return out


def _joined_parts(key: str) -> set[str]:
    out = set()
    for cut in range(2, len(key) - 2):
        head, tail = key[:cut], key[cut:]
        head_zipf = SHORT_HEAD_ZIPF if cut == 2 else JOINED_PART_ZIPF
        if zipf_frequency(head, "fa") >= head_zipf and zipf_frequency(tail, "fa") >= JOINED_PART_ZIPF:
            if head in lexicon() and tail in lexicon():
                out |= {head, tail}
    return out


@lru_cache(maxsize=1 << 17)
def analyse(text: str) -> LangWord:
    shown = normalise("fa", text)
    tokens = tuple(t for t in re.split(r"[ \-]+", shown) if t)
    key = fa_key(shown).replace(" ", "")
    forms = frozenset({key} | _stems(shown))
    parts: set[str] = set()
    pieces = [p for t in tokens for p in t.split(ZWNJ) if p]
    if len(pieces) > 1:
        for piece in pieces:
            pkey = fa_key(piece)
            if pkey not in _SUFFIXES and pkey in lexicon():
                parts |= {pkey} | _stems(piece, guard=False)
    if len(pieces) == 1 and key not in NOT_BUILT_ON:
        # a derived or inflected word is split as its stem: تاریکی is تاریک + ی, not تار + یکی
        # (a playtester's تاریکی was refused for "sharing" تار with پرستار), and مرغداری is
        # مرغدار + ی, so مرغ + دار (the AI gave it beside تخم‌مرغ)
        stems = forms - {key}
        for whole in stems or {key}:
            if whole not in NOT_BUILT_ON:
                parts |= _joined_parts(whole)
    persian_script = not re.search("[a-z]", key)
    known = persian_script and (key in lexicon() or zipf_frequency(key, "fa") > 0 or bool(_stems(shown)))
    return LangWord(shown, key, tokens, forms, frozenset(parts - forms), len(tokens) == 1, known, spelling=key)
