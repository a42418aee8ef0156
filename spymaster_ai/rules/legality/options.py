"""The game options and house rules that change what is legal (RULES.md §2, §4.4).

Why a module of its own: options are saved in game records (``dataclasses.asdict``) and set by
engines, the CLI and the play screen; they are plain data, independent of the checks.
"""

from __future__ import annotations

from dataclasses import dataclass

@dataclass(frozen=True)
class LegalityOptions:
    """House rules and game variants that change what is legal (all off by default)."""

    multi_word: bool = False  # allow any spaces/hyphens (x-ray, ice cream); place names need no option
    acronyms: bool = False  # allow acronyms (FBI, F.B.I., fbi), checked as the joined letters
    proper_names: bool = False  # allow proper names of several words written as names (James Bond)
    pictures: bool = False  # Pictures rules: one word, no colours; captions not forbidden
    forbid_shapes: bool = False  # Pictures option: forbid shape words (circle, rectangle...)
    strict_captions: bool = False  # Pictures house option: a visible card's caption words are forbidden


_DEFAULT_OPTIONS = LegalityOptions()
