"""RULES.md §4's last paragraph (updated for issue 40), Vietnamese and Persian: every example it
gives, and more cases written as a speaker would judge them (legal and illegal).

Vietnamese: a syllable-word of a visible multi-syllable card is a part; a word containing a
whole card is built on it; a multi-syllable word sharing only one syllable with a card is
another word. Persian: derivational suffixes (after vowel-final words too) and compounds built
on a card are forms, after normalising yeh, kaf, ZWNJ and diacritics.
"""

from __future__ import annotations

import pytest

from spymaster_ai.rules.lang.normalise import ZWNJ
from spymaster_ai.rules.lang.words import upper
from spymaster_ai.rules.legality import LegalityOptions, check_clue, legal_mask

V, F, P, N, L = "visible-word", "word-form", "compound-part", "foreign-word", None
FILLER = {"vi": ["đàn", "hổ", "chăn"], "fa": ["پیانو", "ببر", "پتو"]}


def row(lang, card, clue, rule, why):
    return pytest.param(lang, card, clue, rule, id=f"{lang} {card} -> {clue} ({why})")


# Every example RULES.md §4 gives for vi and fa.
RULE_BOOK = [
    row("vi", "động đất", "động", P, "s4: a syllable-word of a card"),
    row("vi", "động đất", "đất", P, "s4: a syllable-word of a card"),
    row("vi", "gà", "gà trống", P, "s4: built on a whole card"),
    row("vi", "cửa", "cửa sổ", P, "s4: built on a whole card"),
    row("vi", "xà phòng", "phòng ngủ", L, "s4: shares one syllable only"),
    row("vi", "giao thông", "thông minh", L, "s4: shares one syllable only"),
    row("vi", "giao thông", "giao hàng", L, "s4: shares one syllable only"),
    row("vi", "hà mã", "mã số", L, "s4: shares one syllable only"),
    row("vi", "hà mã", "bạc hà", L, "s4: shares one syllable only"),
    row("vi", "má", "ma", L, "s4: tone marks are spelling"),
    row("fa", "طلا", "طلایی", F, "s4: derivation after a vowel"),
    row("fa", "ابر", "ابری", F, "s4: derivation"),
    row("fa", "دعا", "دعایی", F, "s4: derivation after a vowel"),
    row("fa", "هشت", "هشتم", F, "s4: ordinal"),
    row("fa", "نان", "نانوا", F, "s4: derivation"),
    row("fa", "نان", "نانوایی", F, "s4: derivation of a derivation"),
    row("fa", "رد", "ردپا", P, "s4: compound built on a card"),
]

# More, as a speaker judges them.
MORE = [
    row("vi", "cá mập", "cá", P, "syllable-word"),
    row("vi", "cá mập", "mập", P, "syllable-word"),
    row("vi", "máy bay", "máy", P, "syllable-word"),
    row("vi", "xe", "xe đạp", P, "built on a card"),
    row("vi", "biển", "bãi biển", P, "built on a card"),
    row("vi", "máy bay", "máy bay", V, "the card"),
    row("vi", "hoà", "hòa", F, "tone-mark placement"),
    row("vi", "máy bay", "sân bay", L, "shares one syllable"),
    row("vi", "máy bay", "máy tính", L, "shares one syllable"),
    row("vi", "hoa hồng", "hoa quả", L, "shares one syllable"),
    row("vi", "cá mập", "cá heo", L, "shares one syllable"),
    row("vi", "động đất", "động vật", L, "shares one syllable"),
    row("vi", "động đất", "đất nước", L, "shares one syllable"),
    row("vi", "bãi biển", "biển cả", L, "shares one syllable"),
    row("vi", "cửa", "cửa hàng", P, "built on a card"),
    row("vi", "hoa hồng", "hông", L, "another tone"),
    row("fa", "طلا", "طلايي", F, "Arabic yeh"),
    row("fa", "طلا", "طلا" + ZWNJ + "یی", F, "written with ZWNJ"),
    row("fa", "نان", "نانوائی", F, "older spelling"),
    row("fa", "هشت", "هشتمین", F, "ordinal"),
    row("fa", "سه", "سوم", F, "ordinal"),
    row("fa", "خوب", "خوبی", F, "derivation"),
    row("fa", "ابر", "ابرها", F, "plural"),
    row("fa", "كتاب", "کتابها", F, "Arabic kaf on the card"),
    row("fa", "ماه", "ماهی", L, "fish is no derivation"),
    row("fa", "بار", "باران", L, "rain is no plural"),
    row("fa", "ابر", "ابرو", L, "eyebrow: letters only"),
    row("fa", "طلا", "طلاق", L, "divorce: letters only"),
    row("fa", "دعا", "دعوا", L, "quarrel: letters only"),
    row("fa", "هشت", "بهشت", L, "paradise: letters only"),
    row("fa", "رد", "درد", L, "pain: letters only"),
    row("fa", "شیر", "شیرینی", L, "sweets: another word"),
]


def _check(lang, card, clue):
    return check_clue(clue, [card, *FILLER[lang]], LegalityOptions(lang=lang))


@pytest.mark.parametrize(("lang", "card", "clue", "rule"), RULE_BOOK + MORE)
def test_s4_vi_fa(lang, card, clue, rule) -> None:
    v = _check(lang, card, clue)
    assert (v.legal, v.rule) == (rule is None, rule), v
    if rule is not None:  # the refusal names the rule and the board word
        assert v.collides_with == card and f"rule {'123'[[V, F, P].index(rule)]}" in v.reason, v
        assert upper(v.collides_with if lang == "vi" else card) in v.reason or lang == "fa", v
    mask = legal_mask([clue], [card, *FILLER[lang]], LegalityOptions(lang=lang))
    assert mask == [v.legal]


def test_a_refusal_names_the_board_word_as_written() -> None:
    v = _check("vi", "động đất", "đất")
    assert "ĐỘNG ĐẤT" in v.reason and "rule 3" in v.reason
    v = _check("fa", "رد", "ردپا")
    assert "رد" in v.reason and "rule 3" in v.reason and "\\u" not in v.reason


@pytest.mark.parametrize(("typed", "card", "legal"), [("tien", "tiền", False), ("tien", "đàn", True),
                                                      ("thong minh", "giao thông", True)])
def test_vi_clue_typed_without_tone_marks_is_read_as_vietnamese(typed, card, legal) -> None:
    v = check_clue(typed, [card, "hổ", "chăn"], LegalityOptions(lang="vi"))
    assert v.legal is legal and v.rule != N, v
    assert "read as" in v.reason and "English" not in v.reason, v


def test_vi_a_toneless_word_of_its_own_is_read_as_typed() -> None:
    v = check_clue("ma", ["má", "hổ", "chăn"], LegalityOptions(lang="vi"))
    assert v.legal and "read as" not in v.reason
