"""``spymaster-ai bench duet|classic|solo|kim2019|pictures``: seeded benchmarks of one lineup.

Bad input (an unknown agent spec, a missing model package, games <= 0, an unknown mission,
a results file of another run) prints one line on stderr and exits with status 2.

Where to look: this module runs a bench and shows its summary; :mod:`.bench_common` holds the
``bench`` group and the options and checks every game-playing command shares,
:mod:`.replay_cmds` ``bench replay`` and :mod:`.tournament_cmds` ``tournament``. Importing this
module registers all of them, in the order they always had; every public name it held before
the split (the options, the checks ``sweep`` shares, the commands) is imported from here still.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__
from ..provenance import environment
from ..sim.play import DEFAULT_AGENT, PlayOptions, lineup
from .bench_common import (  # noqa: F401  (names of this module before the split)
    _INSTEAD, AddressOpt, AllowErrorsOpt, AssassinEndingOpt, BackendOpt, BenchWordlistOpt, BlueGuesserOpt, BlueOpt,
    GamesOpt, GuesserOpt, IsolateOpt, JobsOpt, JsonOpt, LangOpt, LegalityOpt, MatchOpt, MissionOpt, OnlyMatchOpt,
    OnlyOpt, OutOpt, PresetOpt, ProgressOpt, RedGuesserOpt, RedOpt, ResultsOpt, SeedOpt, SpymasterOpt, TokensOpt,
    _check_agents, _guarded, _options, _show_progress, bench_app, check_backend, check_match, check_run_size,
)
from .errors import BadInput, check_distinct_files, check_output_file, exit_if_agent_errors, exit_if_lost, write_output
from .output import stdout_to_stderr


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

# Registered after the bench commands above, as before the split: ``bench replay`` last in
# ``bench --help``, ``tournament`` where it always was in ``spymaster-ai --help``.
from .replay_cmds import bench_replay  # noqa: E402, F401
from .tournament_cmds import tournament  # noqa: E402, F401
