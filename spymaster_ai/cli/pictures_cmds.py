"""``spymaster-ai pictures board|clue``: a Codenames Pictures board of the shipped picture
cards, and the clues the AI spymaster gives on it.

Why: picture games are played on card ids (``pic:dog``); these commands show what the
simulator deals for a seed (the same board as game ``--index`` of a ``bench pictures`` run
with ``--seed``), with captions, the key and a PNG, and what the AI would say on it. Game 0
(the default) is also the board ``spymaster-ai play pictures --seed`` deals.
Bad input prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .app import app
from .errors import BadInput, check_output_file, fail, first_line, user_errors

pictures_app = typer.Typer(
    name="pictures",
    help="Codenames Pictures with the shipped picture cards: show a board, ask the AI for clues.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(pictures_app, name="pictures")


def _guarded(fn: Any) -> None:
    try:
        fn()
    except user_errors() as exc:
        fail(first_line(exc))


def board_facts(seed: int, index: int = 0, solo: bool = False, lang: str = "en") -> dict:
    """The board of game ``index`` of a bench run with master ``seed``: cards in grid order,
    with captions (in ``lang``) and identities."""
    from ..pictures import load_deck
    from ..sim.play import deal_board
    from ..sim.seeds import game_seed

    if seed < 0 or index < 0:
        raise BadInput(f"--seed and --index must be >= 0, got {seed} and {index}")
    game = "pictures_solo" if solo else "pictures"
    cards, key, _ = deal_board(game, game_seed(seed, index), index)
    from ..rules.lang import check_language

    try:
        check_language(lang)
    except ValueError as exc:
        raise BadInput(f"--lang: {exc}") from None
    deck = load_deck(lang)
    out = {
        "game": game,
        "seed": seed,
        "index": index,
        "starting": key.starting.value,
        "cards": [
            {"id": c, "caption": deck[c].caption, "identity": key.identities[i].value} for i, c in enumerate(cards)
        ],
    }
    if lang != "en":  # English JSON as before languages came
        out["lang"] = lang
    return out


def ai_clues(facts: dict, spymaster: str = "minilm", team: Optional[str] = None, top: int = 3) -> dict:
    """The spymaster's best ``top`` clues for ``team`` (default: the starting team) on a fresh board."""
    from ..rules.cards import ClassicKey, Identity, Team
    from ..rules.classic import ClassicGame
    from ..sim.play import for_picture_cards
    from ..sim.runner import registry_factory

    if top < 1:
        raise BadInput(f"--top must be at least 1, got {top}")
    starting = Team(facts["starting"])
    if team is None:
        side = starting
    else:
        try:
            side = Team(team.lower())
        except ValueError:
            raise BadInput(f"--team must be red or blue, got {team!r}") from None
    cards = tuple(c["id"] for c in facts["cards"])
    key = ClassicKey(tuple(Identity(c["identity"]) for c in facts["cards"]), starting)
    lang = facts.get("lang", "en")
    from ..rules.legality import options_for_language
    from ..sim.runner import language_specs

    game = ClassicGame(cards, key, pictures=(True,) * len(cards), kind="pictures", solo=facts["game"] == "pictures_solo",
                       legality_options=options_for_language(lang))
    view = game.spymaster_view(side)
    factory = registry_factory
    spec = language_specs({"spymaster": spymaster}, lang, factory)["spymaster"]
    agent = for_picture_cards(factory("spymaster", spec), lang)
    agent.reset(0)
    captions = {c["id"]: c["caption"] for c in facts["cards"]}
    if callable(getattr(agent, "rank_clues", None)):
        options = [o.to_json() for o in agent.rank_clues(view, top=top)]
    else:  # a spymaster that only gives its clue
        clue = agent.give_clue(view)
        options = [{"word": clue.word, "count": clue.count, "targets": []}]
    for o in options:
        o["target_captions"] = [captions.get(t, t) for t in o.get("targets", [])]
    return {"team": side.value, "spymaster": spymaster, "clues": options}


def _grid(facts: dict, show_key: bool) -> str:
    """The board as five columns of captions (with the key's identity when shown)."""
    mark = {"red": "R", "blue": "B", "bystander": "-", "assassin": "X"}
    cells = [c["caption"] + (f" [{mark[c['identity']]}]" if show_key else "") for c in facts["cards"]]
    width = max(len(c) for c in cells) + 2
    rows = [cells[i:i + 5] for i in range(0, len(cells), 5)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)


def _write_png(facts: dict, png: Path, show_key: bool) -> None:
    from ..pictures.board_image import render_board

    check_output_file(png, "--png")
    png.parent.mkdir(parents=True, exist_ok=True)
    key = [c["identity"] for c in facts["cards"]] if show_key else None
    render_board([c["id"] for c in facts["cards"]], png, key=key)


SeedOpt = typer.Option(
    0, "--seed", "-s", metavar="N",
    help="Master seed of a bench run (the board of game --index; game 0 is the board of play pictures --seed).",
)
IndexOpt = typer.Option(0, "--index", "-i", metavar="N", help="Game index in that run (two-team games alternate the starting team).")
SoloOpt = typer.Option(False, "--solo", help="The two-player variant's board (red always starts).")
PngOpt = typer.Option(None, "--png", metavar="FILE", help="Write the board as a PNG (with the key as coloured borders unless --no-key).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON object on stdout.")
LangOpt = typer.Option("en", "--lang", metavar="en|de|vi|fa",
                       help="Captions in this language (the same pictures; other languages need a multilingual model, e.g. e5small).")


@pictures_app.command("board")
def board(
    seed: int = SeedOpt, index: int = IndexOpt, solo: bool = SoloOpt, png: Optional[Path] = PngOpt,
    key: bool = typer.Option(True, "--key/--no-key", help="Show the key (the spymaster's view)."),
    as_json: bool = JsonOpt, lang: str = LangOpt,
) -> None:
    """The board a seed deals: captions in grid order, the key, optionally a PNG."""

    def run() -> None:
        facts = board_facts(seed, index, solo, lang)
        if png is not None:
            _write_png(facts, png, key)
        if as_json:
            shown = facts if key else {**facts, "cards": [{**c, "identity": None} for c in facts["cards"]]}
            typer.echo(json.dumps({**shown, "png": str(png) if png else None}))
            return
        typer.echo(f"{facts['game']} board, seed {seed}, game {index}" + (f"; {facts['starting']} starts" if key else ""))
        typer.echo(_grid(facts, key))
        if png is not None:
            typer.echo(f"wrote {png}")

    _guarded(run)


@pictures_app.command("clue")
def clue(
    seed: int = SeedOpt, index: int = IndexOpt, solo: bool = SoloOpt,
    spymaster: str = typer.Option("minilm", "--spymaster", metavar="SPEC", help="Spymaster agent spec (played through the caption backend)."),
    team: Optional[str] = typer.Option(None, "--team", metavar="red|blue", help="red or blue (default: the starting team)."),
    top: int = typer.Option(3, "--top", metavar="N", help="How many of the best clues to show."),
    png: Optional[Path] = PngOpt, as_json: bool = JsonOpt, lang: str = LangOpt,
) -> None:
    """The AI spymaster's best clues on the board a seed deals, with the cards each one aims at."""

    def run() -> None:
        facts = board_facts(seed, index, solo, lang)
        found = ai_clues(facts, spymaster, team, top)
        if png is not None:
            _write_png(facts, png, True)
        if as_json:
            typer.echo(json.dumps({**facts, **found, "png": str(png) if png else None}))
            return
        typer.echo(f"{facts['game']} board, seed {seed}, game {index}; {facts['starting']} starts")
        typer.echo(_grid(facts, True))
        typer.echo(f"\n{found['team']} spymaster ({spymaster}):")
        for o in found["clues"]:
            typer.echo(f"  {o['word']}: {o['count']}  -> {', '.join(o['target_captions']) or '?'}")

    _guarded(run)
