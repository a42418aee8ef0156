"""What the checker answers: the rule identifiers and the :class:`Verdict` that carries them.

Why a module of its own: the rule names are the contract with everything that reports a
refusal (engines, the play screen, ``check-clue``, records), and they must not depend on how
the rules are decided.
"""

from __future__ import annotations

from dataclasses import dataclass

RULE_NOT_A_WORD = "not-a-word"  # empty, or characters other than letters
RULE_VISIBLE_WORD = "visible-word"  # §4.1
RULE_WORD_FORM = "word-form"  # §4.2: inflection, derivation, spelling variant
RULE_COMPOUND_PART = "compound-part"  # §4.3
RULE_NOT_ONE_WORD = "not-one-word"  # §4.4: spaces, hyphens, acronyms
RULE_LETTERS_OR_POSITION = "letters-or-position"  # §4.5: letters, digits, positions, the count
RULE_PICTURE_APPEARANCE = "picture-appearance"  # §2: colours (and shapes, as an option) in Pictures
# §4: foreign words only if used in everyday English. Also the only rule that catches §4.6,
# translations of a visible word, and only into the six languages of foreign.CHECKED_LANGUAGES.
RULE_FOREIGN_WORD = "foreign-word"
# §4.6 on German, Vietnamese and Persian boards: an English translation of a visible card
# (rules/lang: CLDR's names of the same emoji). The English checker never gives it.
RULE_TRANSLATION = "translation"


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: legal or not, which rule, which visible word, and why in words.

    A legal verdict is not a promise that the clue breaks no rule the checker cannot see:
    intent (rule 5, Pictures colours) and translations outside the six checked languages
    (rule 6: "ringo" with APPLE passes; see :mod:`spymaster_ai.rules.legality.foreign`).
    """

    legal: bool
    rule: str | None
    collides_with: str | None
    reason: str

    def to_json(self) -> dict:
        return {"legal": self.legal, "rule": self.rule, "collides_with": self.collides_with, "reason": self.reason}
