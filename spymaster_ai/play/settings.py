"""The settings of one play session: what game, which seat the human takes, which AI, which seed.

Why a separate, validated record: the same settings start a game, travel in the save file and
rebuild the AI players on resume, so a bad value must fail before any model is loaded, and a
saved session must mean exactly the same thing when it is read back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping, Optional

__all__ = [
    "DEFAULT_AGENT",
    "MODES",
    "ROLES",
    "SettingsError",
    "PlaySettings",
    "guesser_threshold",
]

MODES = ("classic", "solo", "duet", "pictures")
ROLES = ("spymaster", "guesser")
TEAMS = ("red", "blue")
DEFAULT_AGENT = "human"
# The opposing AI team of two-team play, by difficulty: (spymaster spec, guesser spec).
# Calibrated in simulation against a human-reader team standing in for the person
# (experiments/human_partner.py, table 3; 60 classic games, seed 0): that team won 66.7%
# against easy (the MiniLM pair, two cards a clue at most), 51.7% against normal and 21.7%
# against hard (the MiniLM pair, three cards a clue at most), for targets of about
# 70% / 50% / 30%. Easy was MiniLM's bold clues for the human guesser until the human reader
# read with people's associations: that guesser then misread them so often that the person's
# team won 98.3%.
LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("minilm:max_count=2", "minilm"),
    "normal": ("human", "human"),
    "hard": ("minilm:max_count=3", "minilm"),
}
DEFAULT_LEVEL = "normal"
# The opposing team on boards in other languages: the one multilingual model, bolder as the
# level rises (the English levels' models read English only).
LANGUAGE_LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("e5small:risk=0.2", "e5small"),
    "normal": ("e5small", "e5small"),
    "hard": ("e5small:max_count=3", "e5small"),
}
# The AI partner on boards in other languages (the default agent there, e5small): clues a
# person finds, since a German playtest lost three Duet games on "word: 4" clues linked by
# spelling (LAGERN: 4, ZIELT: 4 beside ZIEGE). Two cards a clue at most, each standing out
# from every card not ours under every model, no clue spelled like a visible card, frequent
# words first; in German it predicts its partner from both models that read German (Duet,
# 100 games: 1 -> 68% won with a use3 guesser, 100 -> 63% with e5small, the mirror)
# (experiments/lang_play_partner.py; experiments/results/lang_play_partner.md). No zero-clue
# warning turn: a German Pictures playtest opened with BUNDESREPUBLIK: 0, which told the
# person nothing and steered them off one of their own cards (the rule of the `human` partner).
LANGUAGE_PARTNER_OPTIONS = "max_count=2,margin=0.5,avoid_lookalikes=true,shared_letters=4,prefer_common=1.0,warn_cards=0"
# In German, nouns only: a German playtest found half the clues unusable as adverbs and
# adjectives (UMSO, GEHÖRIG, TYPISCH); the cost in Duet with a use3 guesser, the better stand-in
# for a person, is 66 -> 64% (e5small guesser 61 -> 50%; results/lang_play_partner_games.md).
LANGUAGE_PARTNER: dict[str, str] = {
    "de": f"robust:embedding=e5small,partner=e5small+use3,{LANGUAGE_PARTNER_OPTIONS},nouns_only=true",
    "vi": f"e5small:{LANGUAGE_PARTNER_OPTIONS}",
    "fa": f"e5small:{LANGUAGE_PARTNER_OPTIONS}",
}
# ...and its guesser stops at the count unless a further card is clearly ours: the playtest's
# guesser took one more card after every correct 1-clue, costing a token each time.
LANGUAGE_GUESSER_OPTIONS = "duet_extra_ratio=3.0,bonus_threshold=3.0"
# ...and its model: in German use3, whose first pick is the card a person means for 29 of 60
# clues written from common associations, against 15 for e5small (17 cases won, 3 lost,
# exact McNemar p = 0.003; the playtest lost games on e5small reading by spelling, KANADA -> DNA)
# (experiments/lang_de_guesser.py; experiments/results/lang_de_guesser.md). Vietnamese and
# Persian have no second model.
LANGUAGE_GUESSER: dict[str, str] = {"de": "use3", "vi": "e5small", "fa": "e5small"}
CARD_KINDS = ("pictures", "words")
FIRST = ("human", "ai")


class SettingsError(ValueError):
    """A session setting the user must fix (reported as one line, exit status 2)."""


def guesser_threshold(risk: float) -> float:
    """The AI guesser's stop threshold (z units) for a risk appetite in [0, 1].

    Risk 0.5 gives the guesser's default threshold 0.5; a bolder partner (risk 1) keeps
    guessing while its best card is half a standard deviation *below* the board mean, a
    cautious one (risk 0) stops unless a card stands out by 1.5.
    """
    return round(1.5 - 2.0 * float(risk), 6)


def _fmt(x: float) -> str:
    return repr(float(x))


def agent_for_language(agent: str, lang: str) -> str:
    """The AI agent to play a board in ``lang`` with. Since the glossaries (2026-12-04) the
    ``human`` agents read German, Vietnamese and Persian boards too, through a speaker's
    English senses of each word (issue 40: e5small read those words by their letters), so the
    default stays ``human`` everywhere; ``--agent e5small`` gives the earlier partner."""
    return agent


# The most timer tokens a Duet game may be given: the rules use 9 and the missions go to 11
# (RULES.md §3); a billion tokens is a typing slip or a probe, not a game.
MAX_TOKENS = 15


@dataclass(frozen=True)
class PlaySettings:
    """Everything that defines a session besides the moves (saved with them).

    ``role``/``team``: the human's seat (classic, solo, pictures). In Duet the human is player
    A (sees side A of the key, gives and guesses) and the AI partner is player B.
    ``agent``/``risk`` build the AI specs unless ``spymaster_spec``/``guesser_spec`` are given.
    """

    mode: str
    seed: int
    role: str = "guesser"
    team: str = "red"
    agent: str = DEFAULT_AGENT
    risk: float = 0.5
    spymaster_spec: Optional[str] = None
    guesser_spec: Optional[str] = None
    penalty: bool = False  # illegal clues: False = refused and replayed (strict), True = the rule's penalty
    assassin_ending: bool = False  # classic / pictures variant
    solo: bool = False  # pictures: the two-player variant (always on for mode "solo")
    wordlist: str = "classic"
    cards: str = "pictures"  # pictures mode: picture cards or 20 word cards
    mission: Optional[str] = None  # Duet
    tokens: Optional[int] = None  # Duet
    mistakes: Optional[int] = None  # Duet
    first: str = "ai"  # Duet: who gives the first clue
    level: str = DEFAULT_LEVEL  # two-team play: the opposing AI team's strength
    lang: str = "en"  # the board's language (rules.lang.LANGUAGES); prompts stay English

    def __post_init__(self) -> None:
        from ..rules.lang import LANGUAGES

        if self.lang not in LANGUAGES:
            raise SettingsError(f"--lang must be one of {', '.join(LANGUAGES)}, got {self.lang!r}")
        if self.mode not in MODES:
            raise SettingsError(f"unknown mode {self.mode!r}; expected one of {', '.join(MODES)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise SettingsError(f"--seed must be a whole number >= 0, got {self.seed!r}")
        if self.role not in ROLES:
            raise SettingsError(f"--role must be spymaster or guesser, got {self.role!r}")
        if self.team not in TEAMS:
            raise SettingsError(f"--team must be red or blue, got {self.team!r}")
        if isinstance(self.risk, bool) or not isinstance(self.risk, (int, float)) or not 0.0 <= self.risk <= 1.0:
            raise SettingsError(f"--risk must be a number from 0 to 1, got {self.risk!r}")
        object.__setattr__(self, "risk", float(self.risk))
        if not isinstance(self.agent, str) or not self.agent.strip():
            raise SettingsError("--agent needs an embedding name, e.g. minilm or glove50")
        if ":" in self.agent or "=" in self.agent:
            raise SettingsError(
                f"--agent takes an embedding name (minilm, glove50...), got {self.agent!r}; "
                "give full agent specs with --spymaster-spec / --guesser-spec"
            )
        if self.cards not in CARD_KINDS:
            raise SettingsError(f"--cards must be pictures or words, got {self.cards!r}")
        if self.level not in LEVELS:
            raise SettingsError(f"--level must be one of {', '.join(LEVELS)}, got {self.level!r}")
        if self.first not in FIRST:
            raise SettingsError(f"--first must be human or ai, got {self.first!r}")
        if self.mode == "solo":
            object.__setattr__(self, "solo", True)
        if self.solo and self.team != "red":
            raise SettingsError("in the two-player variant your team is red (it starts); --team does not apply")
        if self.mode in ("solo", "duet") and self.assassin_ending:
            raise SettingsError(f"--assassin-ending applies to classic and pictures, not {self.mode}")
        if self.mode == "classic" and self.solo:
            raise SettingsError("for the two-player variant use: spymaster-ai play solo")
        if self.mode != "duet":
            if self.mission is not None or self.tokens is not None or self.mistakes is not None:
                raise SettingsError("--mission, --tokens and --mistakes apply to duet only")
        else:
            self._check_duet()

    def _check_duet(self) -> None:
        from ..rules.duet import MISSIONS

        if self.mission is not None:
            name = str(self.mission).strip().lower()
            if name not in MISSIONS:
                raise SettingsError(f"unknown mission {self.mission!r}; known: {', '.join(MISSIONS)}")
            if self.tokens is not None or self.mistakes is not None:
                raise SettingsError("a mission fixes tokens and mistakes: give --mission or --tokens/--mistakes")
            object.__setattr__(self, "mission", name)
            return
        tokens = 9 if self.tokens is None else self.tokens
        if isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= MAX_TOKENS:
            raise SettingsError(f"--tokens must be a whole number from 1 to {MAX_TOKENS} (Duet's rules use 9; "
                                f"the missions up to 11), got {str(self.tokens)[:20]}")
        if self.mistakes is not None and (
            isinstance(self.mistakes, bool) or not isinstance(self.mistakes, int) or not 0 <= self.mistakes <= tokens
        ):
            raise SettingsError(f"--mistakes must be a whole number from 0 to the tokens ({tokens}), got {self.mistakes!r}")

    # ------------------------------------------------------------------ derived
    @property
    def two_teams(self) -> bool:
        return self.mode in ("classic", "pictures") and not self.solo

    @property
    def legality(self) -> str:
        return "penalty" if self.penalty else "strict"

    @property
    def human_holds_key(self) -> bool:
        """Whether the human's own screen shows the whole key (a classic spymaster)."""
        return self.mode != "duet" and self.role == "spymaster"

    def ai_spymaster_spec(self) -> str:
        if self.spymaster_spec:
            return self.spymaster_spec
        if self._language_partner:
            return f"{LANGUAGE_PARTNER[self.lang]},risk={_fmt(self.risk)}"
        return f"{self.agent}:risk={_fmt(self.risk)}"

    @property
    def _language_partner(self) -> bool:
        """The default AI on a board in another language: the partner tuned for a person."""
        return self.lang != "en" and self.agent == "e5small"

    def ai_guesser_spec(self) -> str:
        if self.guesser_spec:
            return self.guesser_spec
        if self._language_partner:
            return (f"{LANGUAGE_GUESSER[self.lang]}:stop_threshold={_fmt(guesser_threshold(self.risk))},"
                    f"{LANGUAGE_GUESSER_OPTIONS}")
        if self.agent == "human":  # risk 0.5: a black card weighs 6 cards found (the guesser's default)
            return f"human:assassin_cost={_fmt(12.0 * (1.0 - self.risk))}"
        return f"{self.agent}:stop_threshold={_fmt(guesser_threshold(self.risk))}"

    def spec_for(self, role: str) -> str:
        """The agent spec of an AI role: the opposing team of two-team play plays at ``level``;
        every other AI role is the person's partner (``ai_spymaster_spec``/``ai_guesser_spec``)."""
        if self.two_teams and not role.startswith(self.team):
            spymaster, guesser = (LEVELS if self.lang == "en" else LANGUAGE_LEVELS)[self.level]
            return spymaster if role.endswith("spymaster") else guesser
        return self.ai_spymaster_spec() if role.endswith("spymaster") else self.ai_guesser_spec()

    def describe(self) -> str:
        """One line for the screen header."""
        if self.mode == "duet":
            if self.mission:
                rules = f"mission {self.mission}"
            else:
                rules = f"{self.tokens or 9} tokens" + (f", {self.mistakes} mistakes" if self.mistakes is not None else "")
            return f"Codenames Duet ({rules}) - you are player A, the AI is player B{self._language_note()}"
        name = {"classic": "Codenames", "solo": "Codenames, two-player variant", "pictures": "Codenames Pictures"}[self.mode]
        if self.mode == "pictures" and self.solo:
            name += ", two-player variant"
        seat = f"{self.team} {self.role}" if self.two_teams else self.role
        return f"{name} - you are the {seat}{self._language_note()}"

    def _language_note(self) -> str:
        from ..rules.lang import LANGUAGES

        return "" if self.lang == "en" else f" ({LANGUAGES[self.lang]} board)"

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        data = asdict(self)
        if data["lang"] == "en":  # English saves read as before languages came
            del data["lang"]
        return data

    @property
    def legality_options(self) -> Any:
        """The engines' LegalityOptions for the board's language (None: English defaults)."""
        from ..rules.legality import options_for_language

        return options_for_language(self.lang)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PlaySettings":
        if not isinstance(data, Mapping):
            raise SettingsError(f"session settings must be a JSON object, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise SettingsError(f"unknown session settings: {', '.join(unknown)}")
        missing = sorted(n for n in ("mode", "seed") if n not in data)
        if missing:
            raise SettingsError(f"session settings lack {', '.join(missing)}")
        return cls(**dict(data))

    def with_(self, **changes: Any) -> "PlaySettings":
        return replace(self, **changes)
