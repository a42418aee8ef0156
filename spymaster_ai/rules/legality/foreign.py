"""Foreign words (RULES.md §4: legal only if used in everyday English).

Why a module of its own: it is the only check that consults other languages' frequencies,
and its reach is limited to the languages listed here.
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
