"""Foreign words (RULES.md §4: legal only if used in everyday English), and with them the only
check of translations (§4.6).

Why a module of its own: it is the only check that consults other languages' frequencies,
and its reach is limited to the languages listed here (CHECKED_LANGUAGES).

Limit, stated plainly: there is no translator here. A translation of a visible word into
another language (§4.6: APPLE visible -> no "Apfel", "pomme", "ringo") is refused only when
it is a foreign word of one of the six CHECKED_LANGUAGES (Spanish, French, German, Italian,
Portuguese, Dutch), and then whatever the board, as a foreign word, not as a translation of
a card. Translations into any other language pass: "ringo" (Japanese) with APPLE, "neko"
(Japanese) with CAT, "yabloko" (Russian, written in Latin letters) with APPLE. So do
translations that are also everyday English ("chat", French for CAT). A later issue widens
this.
"""

from __future__ import annotations

from functools import lru_cache

import wordfreq

from .lexicon import _FUNCTION_WORDS, _lexicon_lemmas, _zipf
from .verdicts import RULE_FOREIGN_WORD


# Foreign words (§4: legal only if used in everyday English). A word outside lemminflect's
# English lexicon, rare in English (wordfreq Zipf below _EVERYDAY_ZIPF), is foreign when
# another language uses it far more (Zipf at least _FOREIGN_MARGIN higher): gato, chien,
# merci, danke are refused; pizza, karma, schadenfreude, and names English uses (paris,
# hamburg, kant, vader) stay legal.
_FOREIGN_LANGUAGES: tuple[tuple[str, str], ...] = (
    ("es", "Spanish"),
    ("fr", "French"),
    ("de", "German"),
    ("it", "Italian"),
    ("pt", "Portuguese"),
    ("nl", "Dutch"),
)
# The languages whose words (and so whose translations of a card) the checker recognises.
CHECKED_LANGUAGES: tuple[str, ...] = tuple(name for _, name in _FOREIGN_LANGUAGES)
_FOREIGN_MARGIN = 2.0
_EVERYDAY_ZIPF = 3.0


@lru_cache(maxsize=1 << 16)
def _foreign(word: str) -> tuple[str, str] | None:
    """(rule, reason) when a one-word clue is a foreign word (§4), else None.

    A string no language here attests ("zqab") is not refused: the rules have no dictionary
    test, and a researcher's agent may speak a code.
    """
    if word in _FUNCTION_WORDS or _lexicon_lemmas(word) is not None:
        return None
    english = _zipf(word)
    if english >= _EVERYDAY_ZIPF:
        return None
    zipf, language = max((wordfreq.zipf_frequency(word, code), name) for code, name in _FOREIGN_LANGUAGES)
    if english < _EVERYDAY_ZIPF and zipf >= english + _FOREIGN_MARGIN:
        reason = f'"{word}" is a {language} word, not one in everyday English use (foreign words are legal only if they are)'
        return RULE_FOREIGN_WORD, reason
    return None
