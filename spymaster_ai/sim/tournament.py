"""Cross-play tournaments: every spymaster spec with every guesser spec, on the same boards.

Each cell of the matrix is a run of ``games`` games with the same master seed, so every
pairing meets exactly the same boards and keys (common random numbers: differences between
cells come from the agents, not from the deal). Cooperative and single-team games (duet,
solo, kim2019) score the pair alone. In classic and pictures the pair plays red against a
fixed reference team (``opponent``, by default the first agent paired with itself), so the
cells are comparable; the starting team alternates by game index.

Because the boards are shared, pairs of cells are also compared game by game (``sim.paired``):
by default the pairs that share a spymaster or a guesser (one agent changes, so the
difference is that agent's; ``pairs="all"``: every pair). Each cell keeps only its games'
seed, won and turns for that (a few bytes a game), never the games.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

from .backends import Backend, make_backend
from .paired import BOOTSTRAP_SEED, CAVEAT, RESAMPLES, TURNS_MEANING, cell_pairs, paired_difference, paired_table_rows
from .play import ROLES, PlayOptions, lineup
from ..provenance import code_version, environment, markdown_provenance
from .runner import AgentFactory, Progress, check_specs, progress_bar, registry_factory, run_games

__all__ = [
    "CELL_TITLES", "Tournament", "cell_label", "format_cell", "markdown_table", "paired_markdown", "paired_section",
    "run_tournament",
]

# Figures kept per cell (the full summaries are large; these are what the matrix shows).
_CELL_FIELDS = (
    "games", "wins", "win_rate", "ci95", "loss_causes", "mean_turns", "turns_ci95", "turns_per_win",
    "turns_per_win_ci95", "stephenson_score", "stephenson_score_ci95", "mean_score",
    "mean_clue_count", "words_per_clue", "invalid_clues", "errors",
)
# ... and in a run of matches (``sim.metrics.match_summary``).
_MATCH_FIELDS = (
    "match", "matches", "curve", "last10_games", "last10_win_rate", "last10_ci95", "last10_turns_per_win",
    "last10_turns_per_win_ci95", "last10_score", "last10_score_ci95",
)
# What a cell can show: its title, and the field of its interval.
CELL_TITLES = {
    "win_rate": "win rate % [95% CI]",
    "mean_turns": "mean turns (a loss counts 25: in kim2019, Stephenson's score) [95% CI]",
    "turns_per_win": "turns per win [95% CI]",
    "stephenson_score": "score: turns if won, 25 if lost (Stephenson et al. 2024) [95% CI]",
    "last10_win_rate": "last 10 games of each match: win rate % [95% CI]",
    "last10_turns_per_win": "last 10 games of each match: turns per win [95% CI]",
    "last10_score": "last 10 games of each match: score (turns if won, 25 if lost) [95% CI]",
}
_INTERVALS = {"win_rate": "ci95", "mean_turns": "turns_ci95", "last10_win_rate": "last10_ci95"}


@dataclass
class Tournament:
    game: str
    spymasters: list[str]
    guessers: list[str]
    games: int
    seed: int
    options: dict
    opponent: Optional[dict]  # classic/pictures: the reference team's specs
    match: Optional[int] = None  # games per match, in a tournament of matches
    cells: dict[tuple[str, str], dict] = field(default_factory=dict)  # (spymaster, guesser) -> figures
    seconds: float = 0.0
    # code, resolved parameters by role and spec, user files' sha256, environment, played_by
    provenance: dict = field(default_factory=dict)
    # (spymaster, guesser) -> each game's index, seed, won and turns (``Tally.outcomes``); not in the JSON
    outcomes: dict[tuple[str, str], dict] = field(default_factory=dict, repr=False)
    paired: dict = field(default_factory=dict)  # the paired differences (``paired_section``)

    def cell(self, spymaster: str, guesser: str) -> dict:
        return self.cells[(spymaster, guesser)]

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "spymasters": self.spymasters,
            "guessers": self.guessers,
            "options": self.options,
            "opponent": self.opponent,
            "match": self.match,
            "matrix": {s: {g: self.cells[(s, g)] for g in self.guessers} for s in self.spymasters},
            "paired": self.paired,
            "seconds": self.seconds,
            "provenance": self.provenance,
        }


def _cell_file(results_dir: Path, spymaster: str, guesser: str) -> Path:
    def tag(spec: str) -> str:
        return re.sub(r"[^A-Za-z0-9._=+-]+", "_", spec)[:40]

    digest = hashlib.sha256(f"{spymaster}\n{guesser}".encode()).hexdigest()[:8]
    return results_dir / f"{tag(spymaster)}__{tag(guesser)}__{digest}.jsonl"


def run_tournament(
    game: str,
    agents: Sequence[str] = (),
    *,
    games: int,
    seed: int,
    spymasters: Optional[Sequence[str]] = None,
    guessers: Optional[Sequence[str]] = None,
    opponent: Optional[str] = None,
    opponent_guesser: Optional[str] = None,
    options: Optional[PlayOptions] = None,
    jobs: int = 1,
    results_dir: Union[str, Path, None] = None,
    progress: Progress = False,
    factory: AgentFactory = registry_factory,
    backend: Union[str, Backend] = "local",
    address: Optional[str] = None,
    match: Optional[int] = None,
    pairs: str = "shared",
) -> Tournament:
    """Play every (spymaster, guesser) pairing; ``agents`` fills both lists unless given apart.

    ``backend``/``address`` as in ``run_games``; one backend serves every cell (Ray workers
    and their loaded models stay up from cell to cell). ``pairs``: which pairs of cells get a
    paired difference, ``"shared"`` (a spymaster or a guesser in common) or ``"all"``."""
    if game not in ROLES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(ROLES)})")
    cell_pairs([], [], pairs)  # a bad choice is refused before any game
    spy = list(dict.fromkeys(spymasters if spymasters else agents))
    gue = list(dict.fromkeys(guessers if guessers else agents))
    if not spy or not gue:
        raise ValueError("a tournament needs at least one spymaster and one guesser spec")
    two_teams = game in ("classic", "pictures")
    if not two_teams and (opponent or opponent_guesser):
        raise ValueError(f"{game} has no opponent team")
    opp = None
    if two_teams:
        opp_spy = opponent or spy[0]
        opp = {"spymaster": opp_spy, "guesser": opponent_guesser or opponent or gue[0]}
    resolved = {
        "spymasters": {s: check_specs([("spymaster", s)], factory).get("spymaster") for s in spy},
        "guessers": {g: check_specs([("guesser", g)], factory).get("guesser") for g in gue},
    }
    if opp:
        resolved["opponent"] = {role: check_specs([(role, spec)], factory).get(role) for role, spec in opp.items()}
    options = options or PlayOptions()
    folder = Path(results_dir) if results_dir is not None else None
    result = Tournament(game, spy, gue, games, seed, options.to_json(), opp, match)
    start = time.perf_counter()
    runner = make_backend(backend, jobs, address)
    sources: dict[str, str] = {}
    games_played: dict[str, dict] = {}
    try:
        with progress_bar(progress, len(spy) * len(gue) * games, f"{game} tournament") as bar:
            for s in spy:
                for g in gue:
                    specs = lineup(game, s, g, opp["spymaster"], opp["guesser"]) if opp else lineup(game, s, g)
                    run = run_games(
                        game, specs, games=games, seed=seed, options=options, jobs=jobs,
                        results_path=_cell_file(folder, s, g) if folder else None, progress=bar, factory=factory,
                        backend=runner, match=match, keep_results=False,  # a cell's figures only: memory flat
                    )
                    summary = run.summary()
                    sources.update((run.provenance or {}).get("sources") or {})
                    for entry in summary.get("provenance", {}).get("played_by", []):  # counts only: no records kept
                        key = json.dumps(entry["code"], sort_keys=True)
                        games_played.setdefault(key, {"code": entry["code"], "games": 0})["games"] += entry["games"]
                    kept = _CELL_FIELDS + (_MATCH_FIELDS if match is not None else ())
                    result.cells[(s, g)] = {k: summary[k] for k in kept}
                    result.outcomes[(s, g)] = run.tally.outcomes()
    finally:
        if runner is not backend:
            runner.close()
    result.paired = paired_section(result, pairs)
    result.seconds = time.perf_counter() - start
    result.provenance = {"code": code_version(), "parameters": resolved, "sources": dict(sorted(sources.items())),
                         "environment": environment(), "played_by": list(games_played.values())}
    return result


def paired_section(t: Tournament, pairs: str = "shared") -> dict:
    """The paired differences of ``t``'s pairs of cells (first cell minus second), with what
    they mean; in a run of matches the bootstrap resamples whole matches."""
    comparisons = []
    for x, y in cell_pairs(t.spymasters, t.guessers, pairs):
        a, b = t.outcomes[x], t.outcomes[y]
        groups = None if t.match is None else a["index"] // t.match
        diff = paired_difference(a, b, groups=groups)
        comparisons.append({"a": {"spymaster": x[0], "guesser": x[1]}, "b": {"spymaster": y[0], "guesser": y[1]}, **diff})
    return {
        "pairs": pairs, "difference": "first cell (a) minus second (b), game by game on the same boards",
        "win_rate": "paired bootstrap 95% interval (percentile)" + (", whole matches resampled" if t.match else "")
        + "; exact McNemar p on the discordant games (a_only: a won, b lost; b_only: b won, a lost)",
        "turns": TURNS_MEANING, "resamples": RESAMPLES, "bootstrap_seed": BOOTSTRAP_SEED, "caveat": CAVEAT,
        "comparisons": comparisons,
    }


def cell_label(spymaster: str, guesser: str) -> str:
    """A cell as one name: ``spymaster/guesser``."""
    return f"{spymaster}/{guesser}"


def paired_markdown(t: Tournament) -> list[str]:
    """The paired differences as Markdown lines (none when the tournament has one cell)."""
    section = t.paired or {}
    rows = section.get("comparisons") or []
    if not rows:
        return []
    which = "every pair of cells" if section["pairs"] == "all" else "pairs of cells sharing a spymaster or a guesser"
    lines = [
        f"**Paired differences** ({which}; A − B on the same boards, game by game): win rate in points "
        "[95% paired bootstrap interval], discordant games (A won, B lost / B won, A lost) and the exact McNemar p; "
        "mean turns over all games [95% bootstrap], and over the games both won (n). "
        f"{section['caveat'][0].upper()}{section['caveat'][1:]}.",
        "",
        "| A | B | games | win rate A − B | A/B only | McNemar p | turns A − B | turns, both won |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in rows:
        a, b = c["a"], c["b"]
        lines.append(
            f"| `{cell_label(a['spymaster'], a['guesser'])}` | `{cell_label(b['spymaster'], b['guesser'])}` "
            f"| {c['games']} | " + " | ".join(paired_table_rows(c)) + " |"
        )
    return lines


def _pct(x: Optional[float]) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def format_cell(cell: dict, turns: Union[bool, str] = False) -> str:
    """'62.0 [52.2, 71.0]' (win rate %, 95% Wilson interval), or mean turns with its t interval.

    ``turns``: False (win rate), True (mean turns) or a figure of ``CELL_TITLES``."""
    figure = {False: "win_rate", True: "mean_turns"}.get(turns, turns) if isinstance(turns, bool) else turns
    value = cell.get(figure)
    ci = cell.get(_INTERVALS.get(figure, f"{figure}_ci95"))
    if value is None:
        return "–"
    if figure.endswith("win_rate"):
        return f"{_pct(value)} [{_pct(ci[0])}, {_pct(ci[1])}]"
    return f"{value:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def markdown_table(t: Tournament) -> str:
    """The matrix as Markdown: rows spymasters, columns guessers (kim2019 adds mean turns)."""

    def table(turns: Union[bool, str]) -> list[str]:
        head = "| spymaster \\ guesser | " + " | ".join(f"`{g}`" for g in t.guessers) + " |"
        rule = "|---|" + "---|" * len(t.guessers)
        rows = [
            f"| `{s}` | " + " | ".join(format_cell(t.cells[(s, g)], turns) for g in t.guessers) + " |"
            for s in t.spymasters
        ]
        return [head, rule, *rows]

    against = ""
    if t.opponent:
        against = f", against `{t.opponent['spymaster']}`/`{t.opponent['guesser']}` (blue)"
    lines = [
        f"**{t.game}**: win rate % [95% Wilson interval], {t.games} games per cell, seed {t.seed}{against}.",
        "",
        *table(False),
    ]
    if t.game == "kim2019":
        lines += ["", f"**{t.game}**: mean turns to cover the 8 cards, a loss counting 25: Stephenson et al.'s (2024) "
                  "score [95% t interval].", "", *table(True)]
        lines += ["", f"**{t.game}**: turns per win [95% t interval].", "", *table("turns_per_win")]
    if t.match is not None:
        last = ["last10_win_rate", "last10_turns_per_win"] + (["last10_score"] if t.game == "kim2019" else [])
        for figure in last:
            lines += ["", f"**{t.game}**, matches of {t.match} games: {CELL_TITLES[figure]}.", "", *table(figure)]
    paired = paired_markdown(t)
    if paired:
        lines += ["", *paired]
    if t.provenance:
        lines += ["", markdown_provenance(_flat(t.provenance)).rstrip("\n")]
    return "\n".join(lines) + "\n"


def _flat(provenance: dict) -> dict:
    """A tournament's provenance with one label per resolved agent, for the Markdown foot."""
    params = provenance.get("parameters") or {}
    labels = {}
    for group, role in (("spymasters", "spymaster"), ("guessers", "guesser")):
        for spec, resolution in (params.get(group) or {}).items():
            if resolution:
                labels[f"{role} `{spec}`"] = resolution
    for role, resolution in (params.get("opponent") or {}).items():
        if resolution:
            labels[f"blue {role} (reference team)"] = resolution
    return {**provenance, "parameters": labels}
