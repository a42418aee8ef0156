"""How each language's text is written down before it is compared (RULES.md §4, other languages).

Why a module of its own: the card lists, the clue vocabularies and the checker must agree on
one spelling of every word, and this is the only place that decides it. Standard library only.

* German: lower case (cards are printed in capitals), NFC; "ß" and umlauts stay as written
  (they are the word's spelling), and the *folded* key (ä -> ae, ß -> ss) is what makes
  "Strasse" a spelling variant of STRASSE/STRAßE.
* Vietnamese: lower case, NFC. Tone marks are spelling ("ma" is not "má"); only where the
  tone mark sits (old "hoà" vs new "hòa") is a spelling variant, so :func:`vi_tone_key`
  moves every tone mark to the end of its syllable.
* Persian: Arabic yeh/alef maksura -> Persian yeh, Arabic kaf -> Persian keheh, teh marbuta
  and hamza forms as written, diacritics (harakat, superscript alef) and tatweel removed,
  Arabic-Indic and Persian digits -> ASCII, every zero-width joiner or non-joiner -> ZWNJ.
  The *key* then drops the ZWNJ, so "کتاب‌ها" and "کتابها" are one word.
"""

from __future__ import annotations

import re
import unicodedata

ZWNJ = "\u200c"

_FA_CHARS = str.maketrans({
    "\u064a": "\u06cc",  # Arabic yeh -> Persian yeh
    "\u0649": "\u06cc",  # alef maksura -> Persian yeh
    "\u0643": "\u06a9",  # Arabic kaf -> keheh
    "\u0640": None,  # tatweel
    "\u200d": ZWNJ,  # zero-width joiner -> non-joiner
    "\u200b": ZWNJ,  # zero-width space
    "\u00ac": ZWNJ,  # the not-sign some keyboards type for ZWNJ
    "\u200e": None,
    "\u200f": None,
    **{chr(0x0660 + d): str(d) for d in range(10)},
    **{chr(0x06F0 + d): str(d) for d in range(10)},
})
_FA_DIACRITICS = re.compile("[\u064b-\u065f\u0670]")
_SPACES = re.compile(r"\s+")
# Vietnamese tone marks (combining): grave, acute, tilde, hook above, dot below.
_VI_TONES = {"\u0300": "2", "\u0301": "1", "\u0303": "4", "\u0309": "3", "\u0323": "5"}


def normalise(lang: str, text: str) -> str:
    """The text as the checker and the agents write it in ``lang`` (see the module docstring)."""
    text = unicodedata.normalize("NFC", str(text))
    if lang == "fa":
        text = _FA_DIACRITICS.sub("", text.translate(_FA_CHARS))
        text = re.sub(f" *{ZWNJ}+ *", ZWNJ, text).strip(ZWNJ + " ")
    return _SPACES.sub(" ", text.strip().lower())


def fa_key(text: str) -> str:
    """A Persian word's identity: normalised, without ZWNJ (written joined or apart, one word)."""
    return normalise("fa", text).replace(ZWNJ, "")


def de_fold(text: str) -> str:
    """German spelling fold: ä/ö/ü -> ae/oe/ue, ß -> ss (Strasse = Straße, Baer = Bär)."""
    return (text.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss"))


def de_umlaut_spellings(text: str) -> list[str]:
    """Every spelling of ``text`` with some of its "ae", "oe", "ue" written as ä, ö, ü (the
    text itself left out): a keyboard without umlauts types SUESSIGKEIT for SÜSSIGKEIT."""
    spellings = [""]
    i = 0
    while i < len(text):
        pair = text[i:i + 2]
        if pair in ("ae", "oe", "ue"):
            spellings = [s + alt for s in spellings for alt in (pair, {"ae": "ä", "oe": "ö", "ue": "ü"}[pair])]
            i += 2
        else:
            spellings = [s + text[i] for s in spellings]
            i += 1
        if len(spellings) > 64:  # a pathological word: keep the first readings
            spellings = spellings[:64]
    return [s for s in spellings if s != text]


def vi_tone_key(text: str) -> str:
    """A Vietnamese word with each syllable's tone mark moved to the syllable's end, so the
    old and new placements ("hoà", "hòa") read alike while "ma" and "má" stay apart."""
    out = []
    for syllable in normalise("vi", text).split(" "):
        decomposed = unicodedata.normalize("NFD", syllable)
        tone = "".join(_VI_TONES[c] for c in decomposed if c in _VI_TONES)
        base = unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in _VI_TONES))
        out.append(base + tone)
    return " ".join(out)
