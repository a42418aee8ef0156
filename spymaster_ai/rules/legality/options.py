"""The game options and house rules that change what is legal (RULES.md §2, §4.4).

Why a module of its own: options are saved in game records (``dataclasses.asdict``) and set by
engines, the CLI and the play screen; they are plain data, independent of the checks.
"""

from __future__ import annotations

from dataclasses import dataclass

@dataclass(frozen=True)
class LegalityOptions:
    """House rules and game variants that change what is legal (all off by default; the colour
    refusal follows the kind of card unless set)."""

    multi_word: bool = False  # allow any spaces/hyphens (x-ray, ice cream); place names need no option
    acronyms: bool = False  # allow acronyms (FBI, F.B.I., fbi), checked as the joined letters
    proper_names: bool = False  # allow proper names of several words written as names (James Bond)
    pictures: bool = False  # Pictures rules: one word, no colours; captions not forbidden
    forbid_shapes: bool = False  # Pictures option: forbid shape words (circle, rectangle...)
    strict_captions: bool = False  # Pictures house option: a visible card's caption words are forbidden
    # Refuse every colour word (COLOUR_WORDS). RULES.md §2/§4: a colour is illegal only when it
    # describes the pictures' appearance ("Dark: 2" for the darkest pictures; fine for night),
    # which a checker cannot see, so the blanket refusal is an option: None (the default)
    # follows the cards, on for picture cards as before, off for word cards; True or False
    # sets it for both.
    forbid_colours: bool | None = None
    # The board's language (rules/lang: en, de, vi, fa). English keeps this package's checker;
    # the others are read by spymaster_ai.rules.lang. Left out of saved records when "en".
    lang: str = "en"

    def __post_init__(self) -> None:
        from ..lang.words import check_language

        check_language(self.lang)

    @property
    def colours_forbidden(self) -> bool:
        """Whether colour words are refused under these options (see ``forbid_colours``)."""
        return self.pictures if self.forbid_colours is None else self.forbid_colours


_DEFAULT_OPTIONS = LegalityOptions()
