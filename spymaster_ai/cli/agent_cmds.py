"""``spymaster-ai clue`` and ``spymaster-ai guess``: ask one agent about one board.

Why: the quickest way to see what an agent thinks (which clue, aimed at which cards, how
close the nearest bad card is; which cards a clue points at and where the guesser stops).
Bad input prints one line on stderr and exits with status 2, never a traceback. A ranking
that may mislead (a card or clue the model knows nothing of, a clue the rules refuse on the
board) still comes out, with a warning on stderr (and in ``warnings`` with ``--json``).
"""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from ..rules.cards import normalise_word
from ..rules.legality import LegalityOptions, check_clue
from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView
from .app import app
from .errors import BadInput, fail, first_line, user_errors

DEFAULT_AGENT = "minilm"
# On a board in another language the default is the play partner there: the ``human`` agents
# reading through the language's glossary (a speaker's; see embeddings/glossed.py).
LANGUAGE_DEFAULT_AGENT = "human"


def _default_agent(agent: Optional[str], lang: str) -> str:
    return agent if agent is not None else (DEFAULT_AGENT if lang == "en" else LANGUAGE_DEFAULT_AGENT)
LangOpt = typer.Option("en", "--lang", metavar="en|de|vi|fa",
                       help="Board language (its legality rules and clue words; other languages need e5small).")


def _normalise(word: str, lang: str = "en") -> str:
    """A card or clue as the rules of ``lang`` write it (Persian yeh/kaf, diacritics, ZWNJ)."""
    if lang == "en":
        return normalise_word(word)
    from ..rules.lang.normalise import normalise

    return normalise(lang, word)


def _language(lang: str) -> str:
    from ..rules.lang import check_language

    try:
        return check_language(lang)
    except ValueError as exc:
        raise BadInput(f"--lang: {exc}") from exc


def _words(text: Optional[str], what: str, lang: str = "en") -> list[str]:
    if text is None:
        return []
    words = [_normalise(w, lang) for w in text.split(",")]
    if any(not w for w in words):
        raise BadInput(f"{what}: empty word in {text!r}")
    return words


def _board(text: str, lang: str = "en") -> tuple[str, ...]:
    words = _words(text, "--board", lang)
    if not words:
        raise BadInput("--board: no cards")
    seen: set[str] = set()
    for w in words:
        if w in seen:
            raise BadInput(f"--board: {w!r} appears twice")
        seen.add(w)
    return tuple(words)


def _on_board(words: list[str], board: tuple[str, ...], what: str) -> tuple[str, ...]:
    for w in words:
        if w not in board:
            raise BadInput(f"{what}: {w!r} is not on the board")
    return tuple(dict.fromkeys(words))


def _game(game: str) -> str:
    if game not in ("classic", "duet"):
        raise BadInput(f"--game: expected classic or duet, got {game!r}")
    return game


def _spymaster_view(board: tuple[str, ...], team: tuple[str, ...], opponent: tuple[str, ...],
                    assassins: tuple[str, ...], bystanders: Optional[tuple[str, ...]], game: str) -> SpymasterView:
    roles: dict[str, str] = {}
    for role, cards in (("team", team), ("opponent", opponent), ("assassin", assassins), ("bystander", bystanders or ())):
        for w in cards:
            if w in roles:
                raise BadInput(f"{w!r} is listed as both {roles[w]} and {role}")
            roles[w] = role
    if not team:
        raise BadInput("--team: no cards")
    if game == "duet" and opponent:
        raise BadInput("--opponent: Duet has no opponent cards")
    if bystanders is None:  # everything else is a bystander
        bystanders = tuple(w for w in board if w not in roles)
    visible = tuple(w for w in board if w in roles or w in bystanders)
    return SpymasterView(
        game=game, me="A" if game == "duet" else "red", words=board, visible=visible,
        own=team, opponent=opponent, bystanders=bystanders, assassins=assassins,
    )


def _models(agent: Any) -> list[Any]:
    """The models ``agent`` reads words with (its own and partner models) that can say
    whether they know a word."""
    models: list[Any] = []
    for model in (getattr(agent, "embedding", None), *getattr(agent, "partners", ())):
        if model is not None and hasattr(model, "unreadable") and all(model is not m for m in models):
            models.append(model)
    return models


def _unreadable_cards(agent: Any, words: tuple[str, ...], consequence: str, what: str = "card") -> list[str]:
    """One warning per model of ``agent`` (its own and partner models) and card that model
    knows no part of: it has only a stand-in vector for such a card, noise rather than
    meaning; ``consequence`` says what the agent does about it (our agents) or that its
    figures there are noise (any other). ``what`` names the words ("card", "clue")."""
    warnings: list[str] = []
    for model in _models(agent):
        lost = [w for w in words if model.unreadable(w)]
        if lost:
            names = ", ".join(repr(w) for w in lost)
            warnings.append(f"{getattr(model, 'name', 'the model')} knows no part of {names}: "
                            f"it has only a stand-in vector for such a {what}, so {consequence}")
    return warnings


def _clue_warnings(agent: Any, clue: str, word: str, board: tuple[str, ...], count: int, lang: str = "en") -> list[str]:
    """Why a ranking for ``clue`` may mislead: the rules refuse it on this board (no spymaster
    could give it), or the guesser's models know nothing of it (the ranking is then noise).

    Models that read any text (sentence encoders) never call a word unreadable, so for them
    a clue no English word list knows (wordfreq frequency 0, e.g. "qzxwvq") is flagged: they
    read it from its spelling alone."""
    from ..embeddings.vocabulary import zipf_frequencies

    warnings: list[str] = []
    options = None if lang == "en" else LegalityOptions(lang=lang)
    verdict = check_clue(clue, board, options, count=count)
    if not verdict.legal:
        warnings.append(f"the clue is illegal on this board ({verdict.rule}): {verdict.reason}")
    unknown = _unreadable_cards(agent, (word,), "the ranking for it is noise", what="clue")
    models = _models(agent)
    if not unknown and models and zipf_frequencies([word], lang)[0] == 0:
        names = ", ".join(getattr(m, "name", "the model") for m in models)
        unknown.append(f"{word!r} is in no {'English' if lang == 'en' else lang} word list (wordfreq frequency 0): {names} can read it "
                       "only from its spelling, so the ranking for it may mean nothing")
    return warnings + unknown


def _num(x: Optional[float]) -> str:
    return "–" if x is None else f"{x:.3f}"


@app.command("clue")
def clue_cmd(
    board: str = typer.Option(..., "--board", metavar="CARDS", help="Every card, comma-separated."),
    team: str = typer.Option(..., "--team", metavar="CARDS", help="Your team's cards (Duet: your green cards)."),
    assassin: str = typer.Option(..., "--assassin", metavar="CARDS", help="The assassin(s) (Duet: your black cards)."),
    opponent: Optional[str] = typer.Option(None, "--opponent", metavar="CARDS", help="The other team's cards."),
    bystander: Optional[str] = typer.Option(
        None, "--bystander", metavar="CARDS",
        help="Bystanders. Default: every card not listed elsewhere. When given, cards listed nowhere count as covered.",
    ),
    agent: Optional[str] = typer.Option(None, "--agent", metavar="SPEC", show_default=False,
                                        help="Spymaster spec, e.g. minilm, robust:risk=0.6. Default: minilm; "
                                             "with --lang de|vi|fa the play partner, human."),
    top: int = typer.Option(5, "--top", min=1, metavar="N", help="How many clues to show."),
    game: str = typer.Option("classic", "--game", metavar="classic|duet", help="classic or duet (sets the cost of each mistake)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout."),
    lang: str = LangOpt,
) -> None:
    """The best clues for a board: count, targets, score, and the closest bad card."""
    from ..agents.vocabulary import NoClueWordsError

    try:
        from ..agents.registry import add_language, make_spymaster
        from ..agents.spymaster import EmbeddingSpymaster

        lang = _language(lang)
        words = _board(board, lang)
        view = _spymaster_view(
            words,
            _on_board(_words(team, "--team", lang), words, "--team"),
            _on_board(_words(opponent, "--opponent", lang), words, "--opponent"),
            _on_board(_words(assassin, "--assassin", lang), words, "--assassin"),
            _on_board(_words(bystander, "--bystander", lang), words, "--bystander") if bystander is not None else None,
            _game(game),
        )
        # In this process even for a class of yours: these commands read the agent's rankings and
        # models (beyond the protocol), and the board and key are the user's own (docs/isolation.md).
        agent = _default_agent(agent, lang)
        spy = make_spymaster(add_language(agent, lang), isolate=False)
        spy.reset(0)
        warnings = _unreadable_cards(spy, words, "the spymaster aims at it only when no other card is left to clue"
                                     if isinstance(spy, EmbeddingSpymaster) else "its figures there are noise")
        if hasattr(spy, "rank_clues"):
            options = [o.to_json() for o in spy.rank_clues(view, top=top)]
        else:  # a researcher's spymaster: just its clue
            c = spy.give_clue(view)
            options = [{"word": c.word, "count": c.count, "targets": [], "score": None, "expected_found": None,
                        "expected_cost": None, "closest_bad": None, "closest_bad_similarity": None}]
    except user_errors(NoClueWordsError) as exc:  # the spec's filters leave the spymaster no clue word
        fail(f"agent spec {agent!r}: {first_line(exc)}" if isinstance(exc, NoClueWordsError) else str(exc))
        fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps({"agent": agent, "game": view.game, "clues": options, "warnings": warnings}))
        return
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"clues by {agent}")
    # the spymaster's own units: how far the card stands out for the clue, in standard deviations
    # of that card's similarity over the clue vocabulary (hub-corrected), not a raw cosine
    for col in ("clue", "count", "targets", "score", "exp. found", "closest bad card", "its closeness (sd)"):
        table.add_column(col)
    for o in options:
        table.add_row(o["word"], str(o["count"]), ", ".join(o["targets"]), _num(o["score"]),
                      _num(o["expected_found"]), o["closest_bad"] or "–", _num(o["closest_bad_similarity"]))
    Console().print(table)


def _guesses(guesser: Any, view: GuesserView) -> list[str]:
    """What the guesser would guess in turn if every guess were right, until it stops."""
    out: list[str] = []
    while view.visible and (view.max_guesses is None or view.guesses_made < view.max_guesses):
        word = guesser.next_guess(view)
        if word is None:
            if not view.can_stop:
                raise BadInput("the guesser stopped before its mandatory first guess")
            break
        if word not in view.visible:
            raise BadInput(f"the guesser chose {word!r}, which is not a visible card")
        out.append(word)
        view = GuesserView(
            game=view.game, me=view.me, words=view.words,
            visible=tuple(w for w in view.visible if w != word), revealed=view.revealed + ((word, "own"),),
            clue=view.clue, guesses_made=view.guesses_made + 1, max_guesses=view.max_guesses, can_stop=True,
        )
    return out


@app.command("guess")
def guess_cmd(
    board: str = typer.Option(..., "--board", metavar="CARDS", help="Every card, comma-separated."),
    clue: str = typer.Option(..., "--clue", metavar="WORD", help="The clue word."),
    count: int = typer.Option(..., "--count", min=0, metavar="N", help="The clue's number."),
    agent: Optional[str] = typer.Option(None, "--agent", metavar="SPEC", show_default=False,
                                        help="Guesser spec, e.g. minilm, glove50:stop_threshold=1. Default: minilm; "
                                             "with --lang de|vi|fa the play partner's guesser, human."),
    game: str = typer.Option("classic", "--game", metavar="classic|duet", help="classic (at most count+1 guesses) or duet (no cap)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout."),
    lang: str = LangOpt,
) -> None:
    """The cards ranked for a clue, with similarities, and where the guesser would stop."""
    try:
        from ..agents.guesser import EmbeddingGuesser
        from ..agents.registry import add_language, make_guesser

        lang = _language(lang)
        words = _board(board, lang)
        word = _normalise(clue, lang)
        if not word:
            raise BadInput("--clue: empty")
        the_clue = Clue(word, count)
        game = _game(game)
        view = GuesserView(
            game=game, me="A" if game == "duet" else "red", words=words, visible=words, revealed=(),
            clue=the_clue, guesses_made=0, max_guesses=None if game == "duet" else count + 1, can_stop=False,
        )
        agent = _default_agent(agent, lang)
        g = make_guesser(add_language(agent, lang), isolate=False)  # in this process, as `clue` builds its spymaster
        g.reset(0)
        warnings = _unreadable_cards(g, words, "the guesser scores it as the board's average for every clue"
                                     if isinstance(g, EmbeddingGuesser) else "its figures there are noise")
        warnings += _clue_warnings(g, clue, word, words, count, lang)
        ranked = [
            {"card": c.word, "similarity": c.similarity, "z": c.z, "score": c.score} for c in g.rank_cards(view)
        ] if hasattr(g, "rank_cards") else []
        guesses = _guesses(g, view)
    except user_errors() as exc:
        fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps({"agent": agent, "clue": the_clue.to_json(), "ranked": ranked,
                               "guesses": guesses, "stops_after": len(guesses), "warnings": warnings}))
        return
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{the_clue} — guesser {agent}")
    for col in ("rank", "card", "similarity", "z", "guessed"):
        table.add_column(col)
    for i, r in enumerate(ranked, 1):
        table.add_row(str(i), r["card"], f"{r['similarity']:.3f}", f"{r['z']:.2f}", "yes" if r["card"] in guesses else "")
    console = Console()
    if ranked:
        console.print(table)
    console.print(f"guesses {', '.join(guesses) or '(none)'}; stops after {len(guesses)}"
                  + ("" if len(guesses) < len(words) else " (board exhausted)"))
