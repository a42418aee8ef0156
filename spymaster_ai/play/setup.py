"""Deal a new game for a session: the board, the key and the card labels, all from the seed.

Boards are dealt exactly as the simulator deals them (``random.Random(seed)``, words then
key), so a seed names the same Duet or solo board in ``play`` and in ``bench``. A Pictures
board is game 0 of a ``bench pictures`` run with the seed as its master seed, so that
``spymaster-ai pictures board --seed N`` (and ``pictures clue``) shows the board that
``play pictures --seed N`` deals; as game 0 of a run, red starts it. Picture cards are
shown, typed and given to the AI by their captions (the deck's text annotation).
"""

from __future__ import annotations

import random
from typing import Union

from ..rules.cards import (
    CLASSIC_LAYOUT,
    ClassicKey,
    Team,
    deal_words,
    generate_classic_key,
    generate_duet_key,
    normalise_word,
)
from ..rules.classic import ClassicGame
from ..rules.duet import DuetGame
from ..rules.wordlists import load_words
from .settings import PlaySettings, SettingsError

__all__ = ["Game", "new_game", "ai_names"]

Game = Union[ClassicGame, DuetGame]


def _pictures_board(settings: PlaySettings) -> tuple[tuple[str, ...], ClassicKey, tuple[bool, ...], dict[str, str]]:
    """Cards, key, picture flags and captions of game 0 of a bench run with master seed
    ``settings.seed``: the board ``spymaster-ai pictures board --seed`` shows."""
    from ..pictures import DeckError, load_deck
    from ..sim.play import PlayOptions, deal_board
    from ..sim.seeds import game_seed

    kind = "pictures_solo" if settings.solo else "pictures"
    options = PlayOptions(wordlist=settings.wordlist, picture_cards=settings.cards == "pictures", lang=settings.lang)
    try:
        cards, key, flags = deal_board(kind, game_seed(settings.seed, 0), 0, options)
        labels = {c: load_deck(settings.lang)[c].caption for c in cards} if settings.cards == "pictures" else {}
    except DeckError as exc:
        raise SettingsError(f"the picture deck cannot be read ({exc}); play with --cards words") from exc
    return cards, key, flags, labels


def new_game(settings: PlaySettings) -> tuple[Game, dict[str, str]]:
    """A fresh game for ``settings`` and the label of every card (empty: cards show as themselves)."""
    rng = random.Random(settings.seed)
    legality = settings.legality
    try:
        use_lang = settings.lang != "en" and settings.wordlist == "classic"
        words_list = load_words(settings.lang if use_lang else settings.wordlist)
    except ValueError as exc:
        raise SettingsError(f"--wordlist: {exc}") from exc
    if settings.mode == "duet":
        words = deal_words(words_list, 25, rng)
        key = generate_duet_key(rng)
        if settings.mission:
            return DuetGame.mission(words, key, settings.mission, legality=legality,
                                    legality_options=settings.legality_options), {}
        game = DuetGame(words, key, tokens=settings.tokens or 9, mistakes=settings.mistakes, legality=legality,
                        legality_options=settings.legality_options)
        return game, {}
    if settings.mode == "pictures":
        # --cards words: the hook for boards without pictures, 20 word cards on the 5x4 grid (RULES.md §2)
        cards, key, flags, labels = _pictures_board(settings)
    else:
        flags, labels = None, {}
        cards = deal_words(words_list, CLASSIC_LAYOUT[0], rng)
        starting = Team.RED if settings.solo else None  # solo: "your team starts"; else the key decides
        key = generate_classic_key(rng, CLASSIC_LAYOUT, starting=starting)
    game = ClassicGame(
        cards,
        key,
        solo=settings.solo,
        assassin_ending=settings.assassin_ending,
        legality=legality,
        pictures=flags,
        kind="pictures" if settings.mode == "pictures" else "classic",
        legality_options=settings.legality_options,
    )
    return game, labels


def ai_names(cards: tuple[str, ...], labels: dict[str, str]) -> dict[str, str]:
    """Card -> the word the AI sees for it: the card itself, or its caption as plain words.

    A combined picture ("rocket + cat") becomes "rocket cat" so that embeddings and the
    legality checker read two words; a clash (never in the shipped deck) falls back to the id.
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    for card in cards:
        label = labels.get(card)
        name = normalise_word(label.replace("+", " ")) if label else card
        if not name or name in taken:
            name = normalise_word(card.split(":", 1)[-1].replace("_", " "))
        if name in taken:
            name = card
        out[card] = name
        taken.add(name)
    return out
