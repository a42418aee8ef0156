"""``spymaster-ai bench duet|classic|solo|kim2019|pictures|replay`` and ``spymaster-ai tournament``.

Bad input (an unknown agent spec, a missing model package, games <= 0, an unknown mission,
a results file of another run) prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__
from ..provenance import environment
from ..sim.play import DEFAULT_AGENT, ROLES, PlayOptions, lineup
from .app import app
from .errors import (
    BadInput, check_distinct_files, check_output_file, check_output_folder, exit_if_agent_errors, exit_if_lost, fail,
    first_line, user_errors, write_output,
)
from .output import stdout_to_stderr

bench_app = typer.Typer(
    name="bench",
    help="Seeded self-play benchmarks: win rate with its 95% interval, loss causes, turns, scores.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(bench_app, name="bench")


def _bad_input_types() -> tuple[type[BaseException], ...]:
    from ..sim.backends import BackendError
    from ..sim.runner import ResultsFileError

    # OSError: a file the run reads or writes (a folder given for a file, a full disk): one line.
    return user_errors(ResultsFileError, BackendError, OSError)


def _check_agents(specs: list[tuple[str, str]], isolate: Optional[bool] = None, lang: str = "en") -> None:
    """Check every (role, spec) without loading a model, then build each agent once here, so a
    bad spec fails before any game is played (an agent's own constructor may still refuse).

    The agents land in the runner's per-process cache, so an in-process run (--jobs 1) reuses them.
    """
    from ..sim.runner import _agents_for, check_specs, factory_for, language_specs

    factory = factory_for(isolate)
    specs = [(role, language_specs({role: spec}, lang, factory)[role]) for role, spec in specs]
    check_specs(specs, factory)
    for role, spec in specs:
        _agents_for({role: spec}, factory)


def _show_progress(flag: Optional[bool]) -> bool:
    return sys.stderr.isatty() if flag is None else flag


def check_backend(backend: str, address: Optional[str]) -> None:
    """--backend is local or ray, --address goes with ray only, and Ray is installed for ray."""
    from ..sim.backends import BACKENDS, RAY_INSTALL_HINT

    if backend not in BACKENDS:
        raise BadInput(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address and backend != "ray":
        raise BadInput("--address applies to --backend ray only")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise BadInput(f"--backend ray needs Ray: {RAY_INSTALL_HINT}")


def _summary_table(title: str, summary: dict, agents: dict[str, str]) -> None:
    from rich.console import Console
    from rich.table import Table

    def num(x: Any, fmt: str = "{:.2f}") -> str:
        return "–" if x is None else fmt.format(x)

    table = Table(title=title, show_header=False)
    table.add_column("figure", style="bold")
    table.add_column("value")
    for role, spec in agents.items():
        table.add_row(role.replace("_", " "), spec)
    lo, hi = summary["ci95"]
    table.add_row("games", str(summary["games"]))
    table.add_row("wins", str(summary["wins"]))
    table.add_row("win rate [95% CI]", f"{num(summary['win_rate'], '{:.1%}')} [{lo:.1%}, {hi:.1%}]")
    causes = ", ".join(f"{c} {k}" for c, k in summary["loss_causes"].items() if k) or "–"
    table.add_row("loss causes", causes)
    table.add_row("mean turns", num(summary["mean_turns"]))
    if summary.get("stephenson_score") is not None:
        table.add_row("turns per win", num(summary["turns_per_win"]))
        table.add_row("score (turns if won, 25 if lost)", num(summary["stephenson_score"]))
    if "last10_win_rate" in summary:
        lo, hi = summary["last10_ci95"]
        table.add_row("matches", f"{summary['matches']} of {summary['match']} games")
        table.add_row("last 10 games: win rate", f"{num(summary['last10_win_rate'], '{:.1%}')} [{lo:.1%}, {hi:.1%}]")
        table.add_row("last 10 games: turns per win", num(summary["last10_turns_per_win"]))
        if summary["last10_score"] is not None:
            table.add_row("last 10 games: score", num(summary["last10_score"]))
    table.add_row("mean score (wins)", num(summary["mean_score"]))
    for key, label in (
        ("starting_team_win_rate", "starting team wins"),
        ("sudden_death_rate", "reached sudden death"),
        ("sudden_death_win_rate", "won in sudden death"),
    ):
        if key in summary:
            table.add_row(label, num(summary[key], "{:.1%}"))
    table.add_row("clues per game", num(summary["mean_clues"]))
    table.add_row("mean clue number", num(summary["mean_clue_count"]))
    table.add_row("words per clue (realised)", num(summary["words_per_clue"]))
    table.add_row("invalid clues", str(summary["invalid_clues"]))
    table.add_row("agent errors", str(summary["errors"]))
    table.add_row("seconds", num(summary["seconds"], "{:.1f}"))
    table.add_row("games per second", num(summary["games_per_second"]))
    Console().print(table)


def _warn_errors(summary: dict) -> None:
    if summary["errors"]:
        first = summary["error_examples"][0]
        typer.echo(
            f"warning: {summary['errors']} game(s) ended on an agent error, e.g. "
            f"{first['role']} ({first['agent']}): {first['message']}",
            err=True,
        )


def check_run_size(games: int, jobs: int) -> None:
    """--games and --jobs as every command that plays games needs them."""
    if games <= 0:
        raise BadInput(f"--games must be a positive number, got {games}")
    if jobs == 0 or jobs < -1:
        raise BadInput(f"--jobs must be a positive number of processes or -1 (all cores), got {jobs}")


def check_match(games: int, match: Optional[int]) -> None:
    """--match K: K >= 1 games per match, and --games a whole number of matches."""
    if match is None:
        return
    if match <= 0:
        raise BadInput(f"--match must be a positive number of games per match, got {match}")
    if games % match:
        raise BadInput(f"--games ({games}) must be a whole number of matches of --match {match} games")


def _bench(
    game: str,
    specs: dict[str, str],
    options: PlayOptions,
    *,
    games: int,
    seed: int,
    jobs: int,
    out: Optional[Path],
    results: Optional[Path],
    only_game: Optional[int],
    as_json: bool,
    progress: Optional[bool],
    backend: str = "local",
    address: Optional[str] = None,
    isolate: Optional[bool] = None,
    match: Optional[int] = None,
    only_match: Optional[int] = None,
    allow_errors: bool = False,
) -> None:
    from ..sim.runner import dump_result_line, factory_for, run_games

    check_run_size(games, jobs)
    check_match(games, match)
    indices = None
    if only_game is not None:
        if only_game < 0:
            raise BadInput(f"--only-game must be a game index >= 0, got {only_game}")
        if match is not None:
            raise BadInput(
                f"game {only_game} is game {only_game % match} of match {only_game // match}, and a game of a match "
                f"follows from the games before it: replay its match with --only-match {only_game // match}"
            )
        indices, games = [only_game], max(games, only_game + 1)
    if only_match is not None:
        if match is None:
            raise BadInput("--only-match needs --match K (the games per match)")
        if only_match < 0:
            raise BadInput(f"--only-match must be a match index >= 0, got {only_match}")
        indices = list(range(only_match * match, (only_match + 1) * match))
        games = max(games, (only_match + 1) * match)
    check_backend(backend, address)
    check_output_file(out, "--out")
    check_output_file(results, "--results")
    check_distinct_files(out, "--out", results, "--results")
    _check_agents(list(specs.items()), isolate, lang=options.lang)
    with stdout_to_stderr(as_json):
        run = run_games(
            game, specs, games=games, seed=seed, options=options, jobs=jobs, results_path=results,
            indices=indices, progress=_show_progress(progress), backend=backend, address=address, match=match,
            factory=factory_for(isolate), keep_results=only_game is not None,  # figures only: memory flat
        )
    summary = run.summary()
    report = {
        **summary,
        "seed": seed,
        "agents": specs,
        "options": options.to_json(),
        "jobs": jobs,
        "backend": backend,
        "address": address,
        "isolate": isolate,
        "played": run.played,
        "resumed": run.resumed,
        "results_file": str(results) if results else None,
        "version": __version__,
        "environment": environment(),
    }
    if only_game is not None:
        report["only_game"] = only_game
        report["result"] = json.loads(dump_result_line(run.results[0]))  # as its line in a results file
    if only_match is not None:
        report["only_match"] = only_match
    saved = write_output(out, json.dumps(report, indent=2) + "\n", "--out", _INSTEAD["json" if as_json else "summary"])
    if as_json:
        typer.echo(json.dumps(report))
    else:
        title = f"{game}: {summary['games']} games, seed {seed}" + (f" (game {only_game} only)" if only_game is not None else "")
        if match is not None:
            title += f", matches of {match} games" + (f" (match {only_match} only)" if only_match is not None else "")
        _summary_table(title, summary, specs)
        if not saved:
            typer.echo(json.dumps(report, indent=2))
    _warn_errors(summary)
    exit_if_lost(saved)
    exit_if_agent_errors(summary["errors"], allow_errors)


# Where an output that could not be written at the end went instead (write_output's ``shown``).
_INSTEAD = {
    "json": "its content is in the JSON object on stdout",
    "summary": "its content follows on stdout",
}


def _guarded(fn: Any, *args: Any, **kwargs: Any) -> None:
    try:
        fn(*args, **kwargs)
    except typer.Exit:
        raise
    except _bad_input_types() as exc:
        fail(first_line(exc))
    except _worker_lost() as exc:  # the run broke, not the input: exit 1, one line, no traceback
        typer.echo(f"error: {first_line(exc)}", err=True)
        raise typer.Exit(1) from None


def _worker_lost() -> type[BaseException]:
    from ..sim.backends import WorkerLostError

    return WorkerLostError


# Options shared by every bench command.
GamesOpt = typer.Option(100, "--games", "-n", help="Number of games.")
SeedOpt = typer.Option(0, "--seed", "-s", help="Master seed: game i uses a seed derived from (seed, i).")
JobsOpt = typer.Option(1, "--jobs", "-j", help="Worker processes (-1: all cores).")
OutOpt = typer.Option(None, "--out", help="Write the summary JSON to this file.")
BackendOpt = typer.Option("local", "--backend", help="local (this machine's processes) or ray (a Ray cluster).")
AddressOpt = typer.Option(
    None, "--address", help="Ray cluster to join: auto, or ray://HEAD:10001 (default: start a local Ray with --jobs CPUs)."
)
ResultsOpt = typer.Option(None, "--results", help="JSON-lines file of every game: saved as games finish, resumed on rerun.")
OnlyOpt = typer.Option(None, "--only-game", help="Play only game I of the run (to replay it alone).")
MatchOpt = typer.Option(
    None, "--match", help="Matches of K games with the same partners, who learn from game to game; --games counts all games."
)
OnlyMatchOpt = typer.Option(None, "--only-match", help="With --match: play only match M of the run (to replay it alone).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON object on stdout.")
AllowErrorsOpt = typer.Option(
    False, "--allow-errors",
    help="Exit 0 even if games ended on an agent error (they count as losses); without it such a run exits 3.",
)
LegalityOpt = typer.Option("strict", "--legality", help="strict (an illegal clue is an agent error), penalty, off.")
PresetOpt = typer.Option(None, "--preset", help="Another paper's rules (kim2019: Kim et al.'s framework: no clue check, "
                         "no zero-clue opener from our spymasters; sim/presets.py). Overrides --legality.")
BenchWordlistOpt = typer.Option("classic", "--wordlist", metavar="NAME|FILE.txt",
                                help="Board word list: a shipped list's name or a file, one card a line.")
ProgressOpt = typer.Option(None, "--progress/--no-progress", help="Progress bar on stderr (default: when a terminal).")
SpymasterOpt = typer.Option(DEFAULT_AGENT, "--spymaster", help="Spymaster agent spec.")
GuesserOpt = typer.Option(DEFAULT_AGENT, "--guesser", help="Guesser agent spec.")
TokensOpt = typer.Option(None, "--tokens", help="Duet timer tokens (default 9).")
MissionOpt = typer.Option(None, "--mission", help="Duet mission, e.g. moscow (fixes tokens and mistakes).")
RedOpt = typer.Option(DEFAULT_AGENT, "--red", help="Red team's agent spec (spymaster and guesser).")
BlueOpt = typer.Option(DEFAULT_AGENT, "--blue", help="Blue team's agent spec (spymaster and guesser).")
RedGuesserOpt = typer.Option(None, "--red-guesser", help="Red guesser spec, if not --red.")
BlueGuesserOpt = typer.Option(None, "--blue-guesser", help="Blue guesser spec, if not --blue.")
AssassinEndingOpt = typer.Option(False, "--assassin-ending", help="Assassin Ending variant.")
IsolateOpt = typer.Option(
    None, "--isolate/--no-isolate",
    help="Every agent in its own process, or none (default: package.module:Class and file.py:Class specs only). docs/isolation.md",
)
LangOpt = typer.Option("en", "--lang", help="Board language: en, de, vi or fa (its cards, legality rules and clue words; "
                       "other languages need a multilingual model, e.g. e5small).")


def _options(**kwargs: Any) -> PlayOptions:
    try:
        return PlayOptions(**kwargs)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc


@bench_app.command("duet")
def bench_duet(
    games: int = GamesOpt, seed: int = SeedOpt, spymaster: str = SpymasterOpt, guesser: str = GuesserOpt,
    tokens: Optional[int] = TokensOpt, mission: Optional[str] = MissionOpt,
    legality: str = LegalityOpt, jobs: int = JobsOpt, out: Optional[Path] = OutOpt, results: Optional[Path] = ResultsOpt,
    only_game: Optional[int] = OnlyOpt, as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt,
    backend: str = BackendOpt, address: Optional[str] = AddressOpt, isolate: Optional[bool] = IsolateOpt,
    lang: str = LangOpt,
    match: Optional[int] = MatchOpt, only_match: Optional[int] = OnlyMatchOpt, allow_errors: bool = AllowErrorsOpt,
) -> None:
    """Codenames Duet: both players use the same specs (separate instances); givers alternate from A."""
    _guarded(
        lambda: _bench(
            "duet", lineup("duet", spymaster, guesser),
            _options(tokens=tokens, mission=mission, legality=legality, lang=lang),
            games=games, seed=seed, jobs=jobs, out=out, results=results, only_game=only_game, as_json=as_json,
            progress=progress, backend=backend, address=address, isolate=isolate, match=match, only_match=only_match,
            allow_errors=allow_errors,
        )
    )


def _two_teams(
    game: str, red: str, blue: str, red_guesser: Optional[str], blue_guesser: Optional[str], assassin_ending: bool,
    legality: str, lang: str = "en", **kw: Any,
) -> None:
    specs = lineup(game, red, red_guesser or red, blue, blue_guesser or blue)
    _guarded(lambda: _bench(game, specs, _options(assassin_ending=assassin_ending, legality=legality, lang=lang), **kw))


@bench_app.command("classic")
def bench_classic(
    games: int = GamesOpt, seed: int = SeedOpt,
    red: str = RedOpt, blue: str = BlueOpt, red_guesser: Optional[str] = RedGuesserOpt,
    blue_guesser: Optional[str] = BlueGuesserOpt, assassin_ending: bool = AssassinEndingOpt,
    legality: str = LegalityOpt, jobs: int = JobsOpt, out: Optional[Path] = OutOpt, results: Optional[Path] = ResultsOpt,
    only_game: Optional[int] = OnlyOpt, as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt,
    backend: str = BackendOpt, address: Optional[str] = AddressOpt, isolate: Optional[bool] = IsolateOpt,
    lang: str = LangOpt,
    match: Optional[int] = MatchOpt, only_match: Optional[int] = OnlyMatchOpt, allow_errors: bool = AllowErrorsOpt,
) -> None:
    """Classic Codenames, red against blue; win rate is red's. The starting team alternates by game."""
    _two_teams(
        "classic", red, blue, red_guesser, blue_guesser, assassin_ending, legality, lang, games=games, seed=seed,
        jobs=jobs, out=out, results=results, only_game=only_game, as_json=as_json, progress=progress,
        backend=backend, address=address, isolate=isolate, match=match, only_match=only_match, allow_errors=allow_errors,
    )


@bench_app.command("pictures")
def bench_pictures(
    games: int = GamesOpt, seed: int = SeedOpt,
    red: str = RedOpt, blue: str = BlueOpt, red_guesser: Optional[str] = RedGuesserOpt,
    blue_guesser: Optional[str] = BlueGuesserOpt, assassin_ending: bool = AssassinEndingOpt,
    solo: bool = typer.Option(False, "--solo", help="Two-player variant: red (--red, --red-guesser) alone against the simulated opponent."),
    word_cards: bool = typer.Option(False, "--word-cards", help="Deal word cards on the 5x4 grid instead of picture cards."),
    legality: str = LegalityOpt, jobs: int = JobsOpt, out: Optional[Path] = OutOpt, results: Optional[Path] = ResultsOpt,
    only_game: Optional[int] = OnlyOpt, as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt,
    backend: str = BackendOpt, address: Optional[str] = AddressOpt, isolate: Optional[bool] = IsolateOpt,
    lang: str = LangOpt, match: Optional[int] = MatchOpt, only_match: Optional[int] = OnlyMatchOpt,
    allow_errors: bool = AllowErrorsOpt,
) -> None:
    """Codenames Pictures (5x4, 8/7/4/1) with the shipped picture cards; red against blue, or --solo."""
    kw = dict(games=games, seed=seed, jobs=jobs, out=out, results=results, only_game=only_game, as_json=as_json,
              progress=progress, backend=backend, address=address, isolate=isolate, match=match, only_match=only_match,
              allow_errors=allow_errors)

    def run() -> None:
        if solo and (blue != DEFAULT_AGENT or blue_guesser is not None):
            raise BadInput("--solo has no blue team: give the pair as --red and --red-guesser")
        game = "pictures_solo" if solo else "pictures"
        specs = lineup(game, red, red_guesser or red) if solo else lineup(game, red, red_guesser or red, blue, blue_guesser or blue)
        options = _options(assassin_ending=assassin_ending, legality=legality, picture_cards=not word_cards, lang=lang)
        _bench(game, specs, options, **kw)

    _guarded(run)


def _one_team(game: str, doc: str) -> None:
    """Register ``bench GAME`` for a single-team game (one spymaster, one guesser)."""

    def command(
        games: int = GamesOpt, seed: int = SeedOpt, spymaster: str = SpymasterOpt, guesser: str = GuesserOpt,
        legality: str = LegalityOpt, jobs: int = JobsOpt, out: Optional[Path] = OutOpt,
        results: Optional[Path] = ResultsOpt, only_game: Optional[int] = OnlyOpt, as_json: bool = JsonOpt,
        progress: Optional[bool] = ProgressOpt, backend: str = BackendOpt, address: Optional[str] = AddressOpt,
        isolate: Optional[bool] = IsolateOpt,
        lang: str = LangOpt,
        match: Optional[int] = MatchOpt, only_match: Optional[int] = OnlyMatchOpt, allow_errors: bool = AllowErrorsOpt,
        preset: Optional[str] = PresetOpt, wordlist: str = BenchWordlistOpt,
    ) -> None:
        def run() -> None:
            specs, options = lineup(game, spymaster, guesser), _options(legality=legality, lang=lang, wordlist=wordlist)
            from ..rules.wordlists import load_words

            try:
                load_words(wordlist)  # a missing file or list: one line now, not a traceback at the first deal
            except ValueError as exc:
                raise BadInput(f"--wordlist: {exc}") from exc
            if preset is not None:
                from ..agents.registry import AgentSpecError
                from ..sim.presets import apply_preset

                try:
                    specs, options = apply_preset(preset, game, specs, options)
                except AgentSpecError:
                    raise
                except ValueError as exc:
                    raise BadInput(str(exc)) from exc
            _bench(
                game, specs, options, games=games, seed=seed,
                jobs=jobs, out=out, results=results, only_game=only_game, as_json=as_json, progress=progress,
                backend=backend, address=address, isolate=isolate, match=match, only_match=only_match,
                allow_errors=allow_errors,
            )

        _guarded(run)

    command.__doc__ = doc
    command.__name__ = f"bench_{game}"
    bench_app.command(game)(command)


_one_team("solo", "Two-player (solo) variant against the simulated opponent, with its score.")
_one_team("kim2019", "Kim et al. 2019: one team alone on 8/7/9/1; mean turns to cover its 8 cards (a loss counts 25).")


def _outcome_contradiction(found: Any, game: Any) -> Optional[str]:
    """How a saved game's outcome contradicts the game its moves replay to (None: it does not).

    Why: the line's checksum shows only that the line is as written, and anyone can recompute
    it; this ties the figures (won, loss cause) to the replayed moves. A game ended by an agent
    error is decided by the error, not the board, so it is not judged here.
    """
    from ..rules.cards import Team
    from ..rules.duet import DuetGame
    from ..sim.summaries import game_turns

    if found.error is not None:
        return None
    won = game.winner is True if isinstance(game, DuetGame) else game.winner is Team.RED
    cause = None if won else (game.loss_cause.value if game.loss_cause is not None else None)
    turns = game_turns(found.game, game, won)
    if (found.won, found.loss_cause, found.turns) == (won, cause, turns):
        return None
    return (f"it says won={found.won}, loss_cause={found.loss_cause!r}, turns={found.turns}; "
            f"its moves give won={won}, loss_cause={cause!r}, turns={turns}")


@bench_app.command("replay")
def bench_replay(
    results: Path = typer.Argument(..., help="A --results JSON-lines file."),
    index: int = typer.Option(..., "--index", "-i", help="Game index to replay."),
    as_json: bool = JsonOpt,
) -> None:
    """Replay one saved game through the engine and check it reaches the recorded final state and outcome."""

    def replay() -> None:
        from ..rules.record import RecordError, from_record
        from ..sim.play import GameResult
        from ..sim.runner import check_result_line, read_result_lines

        if not results.exists():
            raise BadInput(f"no such results file: {results}")
        found = None
        for number, line in read_result_lines(results):
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise BadInput(f"{results} line {number} is not JSON: {exc}") from exc
            if isinstance(data, dict) and data.get("index") == index:
                if "checksum" in data:  # first: a hand edit is named as one, not as a bad value
                    check_result_line(data, results, number)
                try:
                    found = GameResult.from_json(data)
                except (ValueError, TypeError) as exc:
                    raise BadInput(f"{results} line {number} is not a game result: {exc}") from exc
                check_result_line(data, results, number)
                break
        if found is None:
            raise BadInput(f"{results} holds no game with index {index}")
        try:
            game = from_record(found.record)
        except RecordError as exc:
            raise BadInput(f"game {index} does not replay: {exc}") from exc
        contradiction = _outcome_contradiction(found, game)
        if contradiction:
            raise BadInput(f"{results}: game {index} does not match its replay: {contradiction}")
        report = {
            "game": found.game, "index": index, "seed": found.seed, "agents": found.agents, "won": found.won,
            "loss_cause": found.loss_cause, "turns": found.turns, "score": found.score, "verified": True,
            "moves": len(found.record.get("actions", [])), "state": game.state_json(), "version": __version__,
        }
        if as_json:
            typer.echo(json.dumps(report))
        else:
            outcome = "won" if found.won else f"lost ({found.loss_cause})"
            typer.echo(
                f"{found.game} game {index} (seed {found.seed}): {outcome} in {found.turns} turns; "
                f"{report['moves']} moves replayed through the engine, final state verified."
            )

    _guarded(replay)


@app.command("tournament")
def tournament(
    game: str = typer.Option("duet", "--game", help="duet, classic, solo, kim2019, pictures or pictures_solo."),
    agents: str = typer.Option(DEFAULT_AGENT, "--agents", help="Comma-separated specs: every one as spymaster with every one as guesser."),
    spymasters: Optional[str] = typer.Option(None, "--spymasters", help="Spymaster specs, if not --agents."),
    guessers: Optional[str] = typer.Option(None, "--guessers", help="Guesser specs, if not --agents."),
    opponent: Optional[str] = typer.Option(None, "--opponent", help="Classic/pictures: the blue reference team (default: the first agent)."),
    games: int = GamesOpt, seed: int = SeedOpt,
    tokens: Optional[int] = TokensOpt, mission: Optional[str] = MissionOpt,
    legality: str = LegalityOpt, jobs: int = JobsOpt, backend: str = BackendOpt, address: Optional[str] = AddressOpt,
    out: Optional[Path] = typer.Option(None, "--out", help="Write the matrix JSON to this file."),
    markdown: Optional[Path] = typer.Option(None, "--markdown", help="Write the matrix as a Markdown table."),
    results_dir: Optional[Path] = typer.Option(None, "--results-dir", help="One resumable JSON-lines file per cell."),
    as_json: bool = JsonOpt, progress: Optional[bool] = ProgressOpt, lang: str = LangOpt, match: Optional[int] = MatchOpt,
    allow_errors: bool = AllowErrorsOpt,
    pairs: str = typer.Option(
        "shared", "--pairs", help="Paired differences for: shared (cells with a spymaster or a guesser in common) or all pairs."
    ),
) -> None:
    """Cross-play: every spymaster spec with every guesser spec, same boards for every cell;
    pairs of cells compared game by game on those boards (paired differences)."""

    def run() -> None:
        from ..sim.tournament import CELL_TITLES, format_cell, markdown_table, run_tournament
        from .paired_tables import tournament_paired_table

        if game not in ROLES:
            raise BadInput(f"unknown game {game!r} (known: {', '.join(ROLES)})")
        if pairs not in ("shared", "all"):
            raise BadInput(f"--pairs must be shared or all, not {pairs!r}")
        check_run_size(games, jobs)
        check_match(games, match)
        split = lambda text: [s.strip() for s in text.split(",") if s.strip()] if text else []  # noqa: E731
        spy, gue = split(spymasters) or split(agents), split(guessers) or split(agents)
        if not spy or not gue:
            raise BadInput("--agents needs at least one agent spec")
        options = _options(tokens=tokens, mission=mission, legality=legality, lang=lang)
        check_backend(backend, address)
        check_output_file(out, "--out")
        check_output_file(markdown, "--markdown")
        check_output_folder(results_dir, "--results-dir")
        two_teams = game in ("classic", "pictures")
        if opponent and not two_teams:
            raise BadInput(f"--opponent applies to classic and pictures only, not {game}")
        _check_agents([*(("spymaster", s) for s in spy), *(("guesser", g) for g in gue),
                       *((("spymaster", opponent), ("guesser", opponent)) if two_teams and opponent else ())],
                      lang=options.lang)
        with stdout_to_stderr(as_json):
            t = run_tournament(
                game, games=games, seed=seed, spymasters=spy, guessers=gue, opponent=opponent, options=options,
                jobs=jobs, results_dir=results_dir, progress=_show_progress(progress), backend=backend,
                address=address, match=match, pairs=pairs,
            )
        report = {**t.to_json(), "jobs": jobs, "backend": backend, "address": address, "version": __version__,
                  "environment": environment()}
        saved = write_output(out, json.dumps(report, indent=2) + "\n", "--out", _INSTEAD["json" if as_json else "summary"])
        table_saved = write_output(markdown, markdown_table(t), "--markdown", _INSTEAD["json" if as_json else "summary"])
        errors = sum(c["errors"] for c in t.cells.values())
        if as_json:
            typer.echo(json.dumps(report))
            exit_if_lost(saved, table_saved)
            exit_if_agent_errors(errors, allow_errors)
            return
        if not saved:
            typer.echo(json.dumps(report, indent=2))
        if not table_saved:
            typer.echo(markdown_table(t))
        from rich.console import Console
        from rich.table import Table

        console = Console()
        views = ["win_rate", "mean_turns", "turns_per_win"] if game == "kim2019" else ["win_rate"]
        if match is not None:
            views += ["last10_win_rate", "last10_turns_per_win"] + (["last10_score"] if game == "kim2019" else [])
        for figure in views:
            table = Table(title=f"{game}: {CELL_TITLES[figure]}, {games} games per cell, seed {seed}"
                          + (f", matches of {match} games" if match else ""))
            table.add_column("spymaster \\ guesser", style="bold")
            for g in gue:
                table.add_column(g)
            for s in spy:
                table.add_row(s, *(format_cell(t.cell(s, g), figure) for g in gue))
            console.print(table)
        tournament_paired_table(console, t.paired)
        if errors:
            typer.echo(f"warning: {errors} game(s) ended on an agent error", err=True)
        exit_if_lost(saved, table_saved)
        exit_if_agent_errors(errors, allow_errors)

    _guarded(run)
