"""``spymaster-ai check-clue``: is a clue legal on this board? (exit 0 legal, 1 illegal, 2 bad usage)."""

from __future__ import annotations

import json
from typing import Optional

import typer

from ..rules.cards import normalise_word
from ..rules.lang.words import LANGUAGES, upper
from ..rules.legality import LegalityOptions, Verdict, check_clue
from .app import app
from .errors import fail as _fail

BOARD_SIZES = (25, 20)  # classic/Duet words, Pictures


class UsageProblem(ValueError):
    """Bad command-line input: reported in one line, exit status 2."""


def _split(text: str) -> list[str]:
    """The comma-separated cards; an empty field (``a,,b``) is refused, never dropped."""
    words = [normalise_word(w) for w in text.split(",")]
    if text.strip() and not all(words):
        raise UsageProblem(f"empty card in {text!r} (two commas in a row, or a comma at an end?)")
    return [w for w in words if w]


def visible_words(board: str, covered: str | None) -> list[str]:
    """The board minus the covered cards, in board order; raises UsageProblem on bad input."""
    words = _split(board)
    if len(set(words)) != len(words):
        dupes = sorted({w for w in words if words.count(w) > 1})
        raise UsageProblem(f"--board has repeated words: {', '.join(dupes)}")
    if len(words) not in BOARD_SIZES:
        raise UsageProblem(f"--board needs 25 (or 20 for Pictures) comma-separated words, got {len(words)}")
    hidden = _split(covered or "")
    missing = [w for w in hidden if w not in words]
    if missing:
        raise UsageProblem(f"--covered words not on the board: {', '.join(missing)}")
    return [w for w in words if w not in set(hidden)]


@app.command("check-clue")
def check_clue_command(
    clue: str = typer.Argument(..., help="The clue word (quote multi-word clues)."),
    board: str = typer.Option(..., "--board", help="The 25 (or 20) board words, comma-separated."),
    covered: Optional[str] = typer.Option(None, "--covered", help="Covered board words, comma-separated."),
    count: Optional[int] = typer.Option(None, "--count", help="The clue's number (refuses 'three: 3')."),
    multi_word: bool = typer.Option(False, "--multi-word", help="Allow spaces and hyphens (ice cream, x-ray)."),
    acronyms: bool = typer.Option(False, "--acronyms", help="Allow acronyms (FBI, F.B.I.)."),
    proper_names: bool = typer.Option(
        False, "--proper-names", help="Allow proper names of several words written as names (James Bond)."
    ),
    pictures: bool = typer.Option(False, "--pictures", help="Codenames Pictures rules (board words are captions)."),
    forbid_shapes: bool = typer.Option(False, "--forbid-shapes", help="Pictures option: refuse shape words."),
    forbid_colours: Optional[bool] = typer.Option(
        None,
        "--forbid-colours/--allow-colours",
        help="Refuse every colour word (default: with --pictures only; the checker cannot see intent).",
    ),
    strict_captions: bool = typer.Option(
        False, "--strict-captions", help="Pictures house rule: visible captions are forbidden like words."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    lang: str = typer.Option("en", "--lang", metavar="en|de|vi|fa", help="The board's language (its rules: forms, compounds, syllables)."),
) -> None:
    """Check a clue against the visible words (RULES.md §4): exit 0 legal, 1 illegal, 2 bad usage."""
    try:
        visible = visible_words(board, covered)
    except UsageProblem as problem:
        _fail(str(problem), as_json)
    if count is not None and count < 0:
        _fail(f"--count must be 0 or more, got {count}", as_json)
    if lang not in LANGUAGES:
        _fail(f"--lang: unknown language {lang!r}; known: {', '.join(LANGUAGES)}", as_json)
    options = LegalityOptions(
        lang=lang,
        multi_word=multi_word,
        acronyms=acronyms,
        proper_names=proper_names,
        pictures=pictures,
        forbid_shapes=forbid_shapes,
        forbid_colours=forbid_colours,
        strict_captions=strict_captions,
    )
    verdict = check_clue(clue, visible, options, count=count)
    _report(clue, count, verdict, as_json)
    raise typer.Exit(0 if verdict.legal else 1)


def _report(clue: str, count: int | None, verdict: Verdict, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps({"clue": normalise_word(clue), "count": count, **verdict.to_json()}))
        return
    if verdict.legal:
        typer.echo(f"legal: {verdict.reason}")
        return
    typer.echo(f"illegal [{verdict.rule}]: {verdict.reason}")
    if verdict.collides_with:
        typer.echo(f"collides with: {upper(normalise_word(verdict.collides_with))}")
