"""Clue legality on German, Vietnamese and Persian boards (RULES.md §4, other languages).

EXAMPLES are the rule books' own examples (RULES.md quotes them), put in the language of the
board; CASES are written from the rules, per language: forms, compounds, syllables,
normalisation, translations, positions and the count. Each row says what a speaker expects,
whatever the checker does today.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spymaster_ai.rules.lang.normalise import ZWNJ, fa_key, normalise, vi_tone_key
from spymaster_ai.rules.lang.words import clue_words, upper
from spymaster_ai.rules.legality import LegalityOptions, check_clue, legal_mask
from spymaster_ai.rules.wordlists import load_words

V, F, P, C, T, N, O, L = ("visible-word", "word-form", "compound-part", "not-one-word", "translation",
                          "foreign-word", "letters-or-position", None)
FILLER = {"de": ["klavier", "tiger", "geige"], "vi": ["đàn", "hổ", "chăn"], "fa": ["پیانو", "ببر", "پتو"]}


KNOWN_LIMIT = pytest.mark.xfail(strict=True, reason="known limit, see the row's id")


def row(lang, example, clue, cards, rule, count=None, marks=()):
    return pytest.param(lang, clue, cards, rule, count, id=f"{lang} {example}", marks=marks)


EXAMPLES = [
    # fa (classic): §4.3 "you may never invent compounds"; §4.4 place names; §4.5 "X: 1" for
    # RAY; §4.6 "translation into other languages is not allowed" (APPLE).
    row("fa", "s4.3: MOON -> no invented compound 'moon-fish'", "ماه‌ماهی", ["ماه"], P),
    row("fa", "s4.4: place names are one word: 'New York'", "نیویورک", [], L),
    row("fa", "s4.5: 'X: 1' for RAY", "X", ["اشعه"], L, 1),
    row("fa", "s4.6: APPLE -> no 'apple'", "apple", ["سیب"], T),
    row("fa", "s4.1: a visible word is no clue", "سیب", ["سیب"], V),
    row("fa", "s4.5: the count as the clue: 'three: 3'", "سه", [], O, 3),
    # A Persian playtest (2026-12-06): تاریکی (darkness, تاریک + ی) was refused for "sharing" تار with
    # پرستار (nurse, no compound of تار), while the AI gave مرغداری (poultry farm, مرغدار + ی) with
    # تخم‌مرغ visible: a derived word is split as its stem.
    row("fa", "s4.3: تاریکی is no compound of تار, nor is پرستار", "تاریکی", ["پرستار"], L),
    row("fa", "s4.3: EGG (تخم‌مرغ) -> no 'poultry farm' (مرغداری, built on مرغ)", "مرغداری", ["تخم‌مرغ"], P),
    # A Persian playtest (round 8): سیم (wire, string) was refused as "a part of the visible compound
    # سیاره" (planet): read as the ordinal of سی (thirty, whose ordinal is سی‌ام), and سیاره split
    # as سی + اره. Cards no speaker reads as two words have no parts; real compounds keep theirs.
    row("fa", "s4.3: سیم (wire) is no form of سی, and سیاره no compound", "سیم", ["سیاره"], L),
    row("fa", "s4.3: شیر (lion) beside شمشیر (sword): no compound", "شیر", ["شمشیر"], L),
    row("fa", "s4.3: سکه (coin) beside کالسکه (carriage): no compound", "سکه", ["کالسکه"], L),
    row("fa", "s4.3: چرخه is a part of دوچرخه (bicycle)", "چرخه", ["دوچرخه"], P),
    row("fa", "s4.3: سی‌ام is the ordinal of سی", "سی‌ام", ["سی"], F),
    # vi (Duet, Pictures): §4.5 "B: 2" for FLAT and LETTER; "Dark: 2" is fine for night.
    row("vi", "Duet s4.5: 'B: 2' for FLAT and LETTER", "B", ["căn hộ", "lá thư"], L, 2),
    row("vi", "s4: 'Dark: 2' is a clue about meaning", "tối", ["ban đêm"], L, 2),
    row("vi", "s4 other languages: tone marks are spelling, 'ma' is not 'má'", "ma", ["má"], L),
    row("vi", "s4 other languages: a syllable-word of a visible card is a part", "cá", ["cá mập"], P),
    row("vi", "s4.6: APPLE -> no 'apple'", "apple", ["táo"], T),
    # §4.4 in Vietnamese: a place name and an everyday compound that the speaker's glossary lists
    # are one word though underthesea's dictionary lacks them (a playtester's ĐÀ LẠT was refused);
    # a run of words no list holds is still refused.
    row("vi", "s4.4: a place name is one word: 'Đà Lạt'", "đà lạt", [], L),
    row("vi", "s4.4: an everyday compound is one word: 'thú cưng' (pet)", "thú cưng", [], L),
    row("vi", "s4.4: 'hành lý' (luggage) is one word", "hành lý", [], L),
    row("vi", "s4.4: three colour words are not one word", "xanh lam đỏ", [], C),
    # de (Duet): RULES.md's §4 examples in German: HUFEISEN, ERDBEBEN, BRECHEN, ENGLAND, MOND.
    row("de", "s4.3: HORSESHOE -> no 'Huf'", "Huf", ["hufeisen"], P),
    row("de", "s4.3: HORSESHOE -> no 'Eisen'", "Eisen", ["hufeisen"], P),
    row("de", "s4.3: EARTHQUAKE -> no 'Erde'", "Erde", ["erdbeben"], P),
    row("de", "s4.3: EARTHQUAKE -> no 'Beben'", "Beben", ["erdbeben"], P),
    row("de", "s4.3: EARTHQUAKE -> 'Ohr' legal (ear)", "Ohr", ["erdbeben"], L),
    row("de", "s4.3: EARTHQUAKE -> 'Herd' legal (hearth)", "Herd", ["erdbeben"], L),
    row("de", "s4.3: ENGLAND -> 'Land' legal", "Land", ["england"], L),
    row("de", "s4.3: ENGLAND -> 'Insel' legal", "Insel", ["england"], L),
    row("de", "s4.3: MOON -> no 'Mondkrake' (invented compound)", "Mondkrake", ["mond"], P),
    row("de", "s4.2: BREAK -> no 'gebrochen'", "gebrochen", ["brechen"], F),
    row("de", "s4.2: BREAK -> no 'brechend'", "brechend", ["brechen"], F),
    row("de", "s4.2: BREAK -> no 'Bruch' (ablaut derivation: simplemma lemmatises inflections only)", "Bruch",
        ["brechen"], F, marks=KNOWN_LIMIT),
    row("de", "s4 other languages: umlaut forms 'Häuser' of HAUS", "Häuser", ["haus"], F),
    row("de", "s4 other languages: ß/ss 'Strasse' of STRASSE", "Strasse", ["straße"], F),
    row("de", "s4.6: APPLE -> no 'apple'", "apple", ["apfel"], T),
    row("de", "s4.5: 'oben' is about positions", "oben", [], O),
]

CASES = {
    "de": [
        ("huf", ["hufeisen"], P), ("hufschmied", ["hufeisen"], P), ("schneeschuh", ["hufeisen"], L),
        ("apfel", ["apfel"], V), ("Apfel", ["apfel"], V), ("äpfel", ["apfel"], F), ("häusern", ["haus"], F),
        ("hauses", ["haus"], F), ("straße", ["strasse"], F), ("baer", ["bär"], F), ("lief", ["laufen"], F),
        ("freundschaft", ["freund"], F), ("kätzchen", ["katze"], F), ("schneemann", ["schnee"], P),
        ("schnee", ["schneemann"], P), ("mann", ["schneemann"], P), ("handschuh", ["schuh"], P),
        ("schuhe", ["handschuh"], P), ("krankenhaus", ["haus"], P), ("bahnhof", ["bahn"], P),
        ("sonnenblume", ["blume"], P), ("sonne", ["sonnenblume"], P), ("stadt", ["hauptstadt"], P),
        ("teppich", ["pich"], L), ("spatz", ["reihe"], L), ("dog", ["hund"], T), ("hound", ["katze"], N),
        ("computer", ["katze"], L), ("strawberry", ["katze"], N), ("mitte", [], O), ("drei", [], O, 3),
        ("3", [], O, 3), ("X", ["strahl"], L, 1), ("new york", [], C), ("hund katze", [], C), ("hund", [], L),
    ],
    "vi": [
        ("mập", ["cá mập"], P), ("cá heo", ["cá"], P), ("cá heo", ["cá mập"], L), ("cá mập", ["cá mập"], V),
        ("Cá Mập", ["cá mập"], V), ("má", ["ma"], L), ("mà", ["má"], L), ("hòa", ["hoà"], F), ("thủy", ["thuỷ"], F),
        ("máy", ["máy bay"], P), ("bay", ["máy bay"], P), ("máy tính", ["máy bay"], L), ("máy bay", ["bay"], P),
        ("sân bay", ["máy bay"], L), ("xe đạp", ["xe"], P), ("xe", ["xe đạp"], P), ("đạp", ["xe đạp"], P),
        ("biển", ["bãi biển"], P), ("bãi biển", ["biển"], P), ("chó", ["chó sói"], P), ("sói", ["chó sói"], P),
        ("hoa", ["hoa hồng"], P), ("hồng", ["hoa hồng"], P), ("hông", ["hoa hồng"], L), ("hoa quả", ["hoa hồng"], L),
        ("trăng", ["mặt trăng"], P), ("cá", ["cái"], L), ("shark", ["cá mập"], T), ("dog", ["chó"], T),
        ("strawberry", ["táo"], N), ("con chó chạy", [], C), ("máy bay", [], L), ("trên", [], O), ("giữa", [], O),
        ("ba", [], O, 3), ("3", [], O, 3),
    ],
    "fa": [
        ("كتاب", ["کتاب"], V), ("کِتاب", ["کتاب"], V), ("کتاب‌ها", ["کتاب"], F), ("کتابها", ["کتاب"], F),
        ("کتاب‌هایم", ["کتاب"], F), ("کتابهایم", ["کتاب"], F), ("کتابم", ["کتاب"], F), ("کتاب", ["کتاب‌ها"], F),
        ("ستارگان", ["ستاره"], F), ("بزرگ‌تر", ["بزرگ"], F), ("بزرگترین", ["بزرگ"], F), ("درختان", ["درخت"], F),
        ("دست‌ها", ["دست"], F), ("باران", ["بار"], L), ("ماهی", ["ماه"], L), ("دستکش", ["دست"], L),
        ("کتاب", ["کتاب‌خانه"], P), ("خانه", ["کتاب‌خانه"], P), ("کتاب", ["کتابخانه"], P),
        ("کتابخانه", ["خانه"], P), ("گلخانه", ["گل"], P), ("سیب‌زمینی", ["سیب"], P), ("زمین", ["سیب‌زمینی"], P),
        ("مار", ["مارمولک"], L), ("شیر", ["شیرینی"], L), ("dog", ["سگ"], T), ("sky", ["سگ"], N),
        ("بالا", [], O), ("وسط", [], O), ("۳", [], O, 3), ("3", [], O, 3), ("سگ گربه", [], C), ("گربه", ["سگ"], L),
    ],
}
CASE_ROWS = [pytest.param(lang, *case[:3], case[3] if len(case) > 3 else None, id=f"{lang} {case[0]} {case[1]}")
             for lang, cases in CASES.items() for case in cases]


def _check(lang, clue, cards, count):
    return check_clue(clue, [*cards, *FILLER[lang]], LegalityOptions(lang=lang), count=count)


@pytest.mark.parametrize(("lang", "clue", "cards", "rule", "count"), EXAMPLES)
def test_rule_book_example_in_its_language(lang, clue, cards, rule, count) -> None:
    v = _check(lang, clue, cards, count)
    assert (v.legal, v.rule) == (rule is None, rule), v
    if rule in (V, F, P, T):
        assert v.collides_with == cards[0] and upper(normalise(lang, cards[0])) in v.reason


@pytest.mark.parametrize(("lang", "clue", "cards", "rule", "count"), CASE_ROWS)
def test_case_from_the_rules(lang, clue, cards, rule, count) -> None:
    v = _check(lang, clue, cards, count)
    assert (v.legal, v.rule) == (rule is None, rule), v
    if rule in (V, F, P, T):
        assert v.collides_with == cards[0], v


def test_at_least_thirty_cases_per_language() -> None:
    assert all(len(cases) >= 30 for cases in CASES.values())


def test_refusals_are_in_english_and_name_the_board_word_as_written() -> None:
    v = check_clue("strasse", ["straße", "hund"], LegalityOptions(lang="de"))
    assert v.collides_with == "straße" and "STRAßE" in v.reason and "rule 2" in v.reason
    v = check_clue("کتاب‌ها", ["کتاب"], LegalityOptions(lang="fa"))
    assert v.collides_with == "کتاب" and "rule 2" in v.reason


def test_normalisation() -> None:
    assert fa_key("كتاب") == fa_key("کتاب") and fa_key("کِتاب") == "کتاب"
    assert fa_key("کتاب" + ZWNJ + "ها") == fa_key("کتابها") == fa_key("کتاب\u200dها")
    assert normalise("fa", "۱۲") == "12"
    assert vi_tone_key("hoà") == vi_tone_key("hòa") and vi_tone_key("ma") != vi_tone_key("má")


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        LegalityOptions(lang="xx")


def test_english_options_keep_the_english_checker() -> None:
    assert check_clue("snowshoe", ["horseshoe"], LegalityOptions(lang="en")) == check_clue("snowshoe", ["horseshoe"])


@pytest.mark.parametrize("lang", ["de", "vi", "fa"])
def test_card_lists_and_vocabularies_are_shipped_normalised(lang) -> None:
    cards = load_words(lang)
    assert 300 <= len(cards) <= 400 and len(set(cards)) == len(cards)
    assert all(normalise(lang, w) == w for w in cards)
    vocab = clue_words(lang)
    assert len(vocab) >= 10_000 and all(normalise(lang, w) == w for w in vocab[:2000])
    if lang == "vi":
        assert any(" " in w for w in cards) and sum(" " in w for w in vocab) > len(vocab) // 2


@pytest.mark.parametrize("lang", ["de", "vi", "fa"])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_fast_mask_agrees_with_the_checker(lang, seed) -> None:
    """legal_mask's shortcut never disagrees with check_clue (a sample of clues on a random board,
    half of them chosen near the board: its cards' syllables, parts and forms)."""
    rng = random.Random(seed)
    board = rng.sample(load_words(lang), 25)
    near = [t for card in board for t in card.split(" ")] + [c + s for c in board[:5] for s in ("e", "en", "ها", "s")]
    clues = rng.sample(clue_words(lang)[:3000], 40) + near
    options = LegalityOptions(lang=lang)
    assert legal_mask(clues, board, options) == [check_clue(c, board, options).legal for c in clues]


def test_the_language_rules_import_only_the_rules_layer_and_language_packages() -> None:
    import ast
    import sys
    from pathlib import Path

    import spymaster_ai.rules.lang as lang

    allowed = {"wordfreq", "simplemma", "german_nouns", "__future__"}
    for path in Path(lang.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{path.name} needs a docstring that says why it exists"
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            assert all(t in sys.stdlib_module_names or t in allowed for t in tops), (path.name, tops)
