"""Boards in German, Vietnamese and Persian (RULES.md §4, other languages): normalisation,
word forms, compounds and syllables, and the checker that reads them.

``LegalityOptions(lang=...)`` sends a check here; English stays with
:mod:`spymaster_ai.rules.legality`. Standard library, wordfreq and the language packages
(simplemma, german-nouns; underthesea's dictionary read as a file); no embeddings.
"""

from .words import LANGUAGES, check_language

__all__ = ["LANGUAGES", "check_language"]
