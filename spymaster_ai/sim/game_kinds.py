"""The game kinds before a game is played: their seats, the run's rule options, the deal.

Why a module of its own: the simulator, the tournaments and the command line all name game
kinds, roles and options, and a board can be dealt (and shown or studied) without playing it.
Game kinds (RULES.md): ``classic`` and ``pictures`` (two teams), ``solo`` and
``pictures_solo`` (two-player variant), ``duet`` and ``kim2019`` (Kim et al. 2019: one team
alone, scored in turns).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, Optional

from ..rules.cards import CLASSIC_LAYOUT, KIM2019_LAYOUT, PICTURES_LAYOUT, Team, deal_words, generate_classic_key

DEFAULT_AGENT = "minilm"
GAME_KINDS = ("classic", "pictures", "solo", "pictures_solo", "duet", "kim2019")
# Games on the Pictures grid (5x4, 8/7/4/1): real picture cards unless options say words.
PICTURE_GAMES = ("pictures", "pictures_solo")
# Kim et al. 2019 score a game lost on the assassin as 25 turns (the board size).
KIM2019_LOSS_TURNS = 25

ROLES: dict[str, tuple[str, ...]] = {
    "classic": ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser"),
    "pictures": ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser"),
    "solo": ("spymaster", "guesser"),
    "pictures_solo": ("spymaster", "guesser"),
    "kim2019": ("spymaster", "guesser"),
    "duet": ("a_spymaster", "a_guesser", "b_spymaster", "b_guesser"),
}


@dataclass(frozen=True)
class PlayOptions:
    """Rule options of a run (the same for every game of it)."""

    tokens: Optional[int] = None  # Duet timer tokens; None: 9, or the mission's
    mission: Optional[str] = None  # Duet mission name (MISSIONS), e.g. "moscow"
    legality: str = "strict"  # "strict" refuses illegal clues (an agent error), "penalty" applies the rule's penalty
    assassin_ending: bool = False  # classic / pictures variant (solo kinds too)
    wordlist: str = "classic"  # board word list (rules.wordlists.load_words)
    max_clues: int = 100  # per game; reaching it is reported as an error
    picture_cards: bool = True  # pictures games: real picture cards (False: word cards on the 5x4 grid)
    # The board's language (en, de, vi, fa): its card list (unless wordlist says another),
    # its legality rules and its agents' clue vocabulary. Left out of JSON when English.
    lang: str = "en"

    def __post_init__(self) -> None:
        from ..rules.lang import check_language

        check_language(self.lang)
        if self.legality not in ("strict", "penalty", "off"):
            raise ValueError(f"legality must be strict, penalty or off, got {self.legality!r}")
        if self.tokens is not None and self.tokens <= 0:
            raise ValueError(f"tokens must be positive, got {self.tokens}")
        if self.tokens is not None and self.mission is not None:
            raise ValueError("give either tokens or a mission (a mission fixes the tokens), not both")
        if self.mission is not None:
            from ..rules.duet import MISSIONS

            if self.mission.lower() not in MISSIONS:
                raise ValueError(f"unknown Duet mission {self.mission!r} (known: {', '.join(MISSIONS)})")
            object.__setattr__(self, "mission", self.mission.lower())
        if self.max_clues <= 0:
            raise ValueError(f"max_clues must be positive, got {self.max_clues}")

    def to_json(self) -> dict:
        data = asdict(self)
        if data["lang"] == "en":  # English runs read (and resume) as before languages came
            del data["lang"]
        return data

    @property
    def legality_options(self) -> Any:
        """The engines' LegalityOptions for the board's language (None: English defaults)."""
        from ..rules.legality import options_for_language

        return options_for_language(self.lang)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PlayOptions":
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})



def lineup(
    game: str,
    spymaster: str = DEFAULT_AGENT,
    guesser: str = DEFAULT_AGENT,
    opponent_spymaster: Optional[str] = None,
    opponent_guesser: Optional[str] = None,
) -> dict[str, str]:
    """Role -> agent spec for a game kind.

    Classic/Pictures: (spymaster, guesser) play red; the opponent pair (default: the same
    specs) plays blue. Duet: both players use the same specs, as separate instances.
    """
    if game not in ROLES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(GAME_KINDS)})")
    if game in ("classic", "pictures"):
        return {
            "red_spymaster": spymaster,
            "red_guesser": guesser,
            "blue_spymaster": opponent_spymaster or spymaster,
            "blue_guesser": opponent_guesser or guesser,
        }
    if opponent_spymaster or opponent_guesser:
        raise ValueError(f"{game} has no opponent team: give only a spymaster and a guesser")
    if game == "duet":
        return {"a_spymaster": spymaster, "a_guesser": guesser, "b_spymaster": spymaster, "b_guesser": guesser}
    return {"spymaster": spymaster, "guesser": guesser}


def _words(options: PlayOptions) -> tuple[str, ...]:
    from ..rules.wordlists import load_words

    if options.lang != "en" and options.wordlist == "classic":
        return load_words(options.lang)  # the language's own card list
    return load_words(options.wordlist)


def _uses_pictures(kind: str, options: PlayOptions) -> bool:
    return kind in PICTURE_GAMES and options.picture_cards


def _deal(kind: str, options: PlayOptions, size: int, rng: random.Random) -> tuple[tuple[str, ...], Optional[tuple[bool, ...]]]:
    """The board's cards and their per-position picture flags (None: the engine's default).

    Pictures games deal card ids from the shipped deck (combined cards included); with
    ``picture_cards=False`` they deal words, checked by the full word legality (a caption
    is only legal on a picture card).
    """
    if _uses_pictures(kind, options):
        from ..pictures import load_deck

        return load_deck().deal(size, rng), (True,) * size  # the same ids in every language
    words = deal_words(_words(options), size, rng)
    return words, ((False,) * size if kind in PICTURE_GAMES else None)


def deal_board(
    game: str, seed: int, index: int = 0, options: PlayOptions | None = None
) -> tuple[tuple[str, ...], Any, Optional[tuple[bool, ...]]]:
    """The cards, the key and the per-card picture flags of game ``index`` played from ``seed``.

    Exactly what :func:`play_game` deals for a classic-family game (classic, pictures, solo,
    pictures_solo, kim2019), so a board can be shown or studied outside a game. In two-team
    games the starting team alternates by index (first-move advantage cancels in cross-play);
    single-team games always start red.
    """
    if game not in ROLES or game == "duet":
        raise ValueError(f"deal_board deals classic-family boards, not {game!r}")
    options = options or PlayOptions()
    layout = {"classic": CLASSIC_LAYOUT, "solo": CLASSIC_LAYOUT, "kim2019": KIM2019_LAYOUT}.get(game, PICTURES_LAYOUT)
    rng = random.Random(int(seed))
    cards, pictures = _deal(game, options, layout[0], rng)
    starting = Team.RED if game not in ("classic", "pictures") or int(index) % 2 == 0 else Team.BLUE
    return cards, generate_classic_key(rng, layout, starting=starting), pictures
