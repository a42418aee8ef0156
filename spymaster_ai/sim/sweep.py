"""Parameter sweeps: one benchmark per point of a grid of agent parameters.

``--grid risk=0.2,0.5,0.8 --grid stop_threshold=0.3,0.6`` gives the cartesian product of
the grids (6 points). Each point extends the agent specs with its values (``minilm`` ->
``minilm:risk=0.2`` for the spymaster, ``minilm:stop_threshold=0.3`` for the guesser): a
parameter goes to the role(s) whose agent class takes it, read from the class signature of
the agent the factory builds, so a spymaster-only knob never reaches the guesser (which
would refuse it). Every point is a run with the same master seed, so all points meet the
same boards (common random numbers: differences come from the parameters, not the deal).
In classic and pictures the swept pair plays red against the unswept base specs (blue).

Because the boards are shared, every point is compared game by game with the baseline, the
grid's first point (``sim.paired``: win rate and mean turns, point minus baseline, with paired
intervals): a point keeps only its games' seed, won and turns for that, never the games. The
plot shows both figures, win rate and mean turns, since a parameter such as ``risk`` trades one
for the other.
"""

from __future__ import annotations

import hashlib
import io
import inspect
import itertools
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

from ..agents.registry import parse_spec
from ..files import write_atomically
from ..provenance import code_line, code_version, environment
from .backends import Backend, make_backend
from .paired import BOOTSTRAP_SEED, CAVEAT, RESAMPLES, TURNS_MEANING, paired_difference
from .play import ROLES, PlayOptions, lineup
from .runner import AgentFactory, Progress, _agents_for, check_specs, is_registry_factory, progress_bar, registry_factory, run_games

__all__ = [
    "GridError", "Sweep", "SweepPoint", "extend_spec", "grid_points", "paired_section", "parse_grid", "plot_sweep",
    "route_parameters", "run_sweep", "sweep_figure",
]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SWEPT_ROLES = ("spymaster", "guesser")
# Summary figures that describe the run rather than the agents: left out of a point.
_RUN_FIELDS = ("game", "seconds", "games_per_second", "provenance")


class GridError(ValueError):
    """A grid the sweep cannot run: malformed, repeated, or a parameter no agent takes."""


def parse_grid(items: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """``["risk=0.2,0.5", "stop_threshold=0.4"]`` -> ``{"risk": ("0.2", "0.5"), "stop_threshold": ("0.4",)}``.

    Values stay text (the agent registry parses them, as in any spec); order is kept.
    """
    if not items:
        raise GridError("give at least one --grid PARAM=v1,v2,...")
    grid: dict[str, tuple[str, ...]] = {}
    for item in items:
        name, eq, raw = str(item).partition("=")
        name = name.strip()
        if not eq:
            raise GridError(f"grid {item!r}: expected PARAM=v1,v2,... (no '=')")
        if not _NAME.match(name):
            raise GridError(f"grid {item!r}: {name!r} is not a parameter name")
        if name in grid:
            raise GridError(f"grid {item!r}: parameter {name!r} given twice (list all its values in one --grid)")
        values = [v.strip() for v in raw.split(",")]
        if not raw.strip() or any(not v for v in values):
            raise GridError(f"grid {item!r}: empty value (expected PARAM=v1,v2,...)")
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise GridError(f"grid {item!r}: value {repeated[0]!r} given twice")
        grid[name] = tuple(values)
    return grid


def grid_points(grid: Mapping[str, Sequence[str]]) -> list[dict[str, str]]:
    """The cartesian product of the grids, the first parameter varying slowest."""
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


def parsed_value(name: str, text: str) -> Any:
    """A grid value as the agent registry reads it in a spec (int, float, bool, none or text)."""
    return parse_spec(f"x:{name}={text}")[1][name]


def extend_spec(spec: str, values: Mapping[str, str]) -> str:
    """``spec`` with ``values`` appended as parameters: ``minilm`` -> ``minilm:risk=0.2``,
    ``minilm:max_count=3`` -> ``minilm:max_count=3,risk=0.2``."""
    if not values:
        return spec
    name, fixed = parse_spec(spec)
    clash = [k for k in values if k in fixed]
    if clash:
        raise GridError(f"parameter {clash[0]!r} is fixed in the agent spec {spec!r} and swept by --grid: give it once")
    body = spec.strip().rstrip(",:")
    out = body + ("," if fixed else ":") + ",".join(f"{k}={v}" for k, v in values.items())
    new_name, params = parse_spec(out)
    expected = {**fixed, **{k: parsed_value(k, v) for k, v in values.items()}}
    if new_name != name or params != expected:
        raise GridError(f"cannot add {dict(values)} to the agent spec {spec!r} (it reads back as {out!r})")
    return out


def _agent_class(role: str, spec: str, factory: AgentFactory) -> type:
    """The class of the agent ``spec`` gives ``role``: the registry names it without loading a
    model (and refuses a bad spec first); another factory has to build one."""
    if is_registry_factory(factory):
        from ..agents.registry import agent_class

        return agent_class(role, spec)
    return type(factory(role, spec))


def _accepted(cls: type) -> tuple[set[str], bool]:
    """Keyword parameters of an agent class, and whether it takes any (``**kwargs``)."""
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return set(), True
    names = {n for n, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    return names, any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())


def route_parameters(
    names: Sequence[str], specs: Mapping[str, str], factory: AgentFactory = registry_factory
) -> dict[str, tuple[str, ...]]:
    """Parameter -> the roles (``spymaster``/``guesser``) whose agent class takes it by name.

    The agents' classes' signatures are read (the registry's without loading a model; another
    factory's by building the base agents); a class that takes ``**kwargs`` gets only
    parameters no class names. A parameter no agent takes is a GridError naming what each accepts.
    """
    accepts = {role: _accepted(_agent_class(role, spec, factory)) for role, spec in specs.items()}
    routes: dict[str, tuple[str, ...]] = {}
    for name in names:
        named = tuple(role for role, (keys, _) in accepts.items() if name in keys)
        anything = tuple(role for role, (_, takes_any) in accepts.items() if takes_any)
        roles = named or anything
        if not roles:
            listing = "; ".join(
                f"{role} {specs[role]!r} takes {', '.join(sorted(keys)) or 'none'}" for role, (keys, _) in accepts.items()
            )
            raise GridError(f"no agent takes the parameter {name!r} ({listing})")
        routes[name] = roles
    return routes


@dataclass
class SweepPoint:
    values: dict[str, str]  # the grid values as given
    specs: dict[str, str]  # the swept pair: {"spymaster": ..., "guesser": ...}
    figures: dict = field(default_factory=dict)  # the run's summary
    # each game's index, seed, won and turns (``Tally.outcomes``): paired comparisons; not in the JSON
    outcomes: dict = field(default_factory=dict, repr=False)

    def to_json(self) -> dict:
        params = {k: parsed_value(k, v) for k, v in self.values.items()}
        return {"params": params, "values": self.values, "specs": self.specs, **self.figures}


@dataclass
class Sweep:
    game: str
    spymaster: str
    guesser: str
    grid: dict[str, tuple[str, ...]]
    routes: dict[str, tuple[str, ...]]
    games: int
    seed: int
    options: dict
    opponent: Optional[dict]
    points: list[SweepPoint] = field(default_factory=list)
    seconds: float = 0.0
    # code, user files' sha256, environment, played_by (each point has its own "parameters")
    provenance: dict = field(default_factory=dict)
    paired: dict = field(default_factory=dict)  # every point against the baseline (``paired_section``)

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "spymaster": self.spymaster,
            "guesser": self.guesser,
            "grid": {k: list(v) for k, v in self.grid.items()},
            "routes": {k: list(v) for k, v in self.routes.items()},
            "options": self.options,
            "opponent": self.opponent,
            "points": [p.to_json() for p in self.points],
            "paired": self.paired,
            "seconds": self.seconds,
            "provenance": self.provenance,
        }


def _point_file(folder: Path, values: Mapping[str, str]) -> Path:
    label = "__".join(f"{k}={v}" for k, v in values.items())
    digest = hashlib.sha256(label.encode()).hexdigest()[:8]
    return folder / f"{re.sub(r'[^A-Za-z0-9._=+-]+', '_', label)[:80]}__{digest}.jsonl"


def run_sweep(
    game: str,
    agent: Optional[str] = None,
    *,
    grid: Union[Mapping[str, Sequence[str]], Sequence[str]],
    games: int,
    seed: int,
    spymaster: Optional[str] = None,
    guesser: Optional[str] = None,
    options: Optional[PlayOptions] = None,
    jobs: int = 1,
    backend: Union[str, Backend] = "local",
    address: Optional[str] = None,
    results_dir: Union[str, Path, None] = None,
    progress: Progress = False,
    factory: AgentFactory = registry_factory,
) -> Sweep:
    """Benchmark every grid point; ``agent`` is the base spec of both roles unless
    ``spymaster``/``guesser`` are given apart. ``grid``: ``{param: values}`` or ``PARAM=v1,...``
    strings. Every point's specs are checked before any model loads, and its agents built
    before the first game, so a bad value fails fast."""
    if game not in ROLES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(ROLES)})")
    if games <= 0:
        raise ValueError(f"games must be positive, got {games}")
    spy, gue = spymaster or agent, guesser or agent
    if not spy or not gue:
        raise ValueError("a sweep needs an agent spec (or a spymaster and a guesser spec)")
    if isinstance(grid, Mapping):
        grid = parse_grid([f"{k}={','.join(str(v) for v in vals)}" for k, vals in grid.items()])
    else:
        grid = parse_grid(list(grid))
    routes = route_parameters(list(grid), {"spymaster": spy, "guesser": gue}, factory)
    two_teams = game in ("classic", "pictures")
    opponent = {"spymaster": spy, "guesser": gue} if two_teams else None
    options = options or PlayOptions()

    points: list[tuple[SweepPoint, dict[str, str]]] = []
    for values in grid_points(grid):
        pair = {
            role: extend_spec(base, {k: v for k, v in values.items() if role in routes[k]})
            for role, base in (("spymaster", spy), ("guesser", gue))
        }
        specs = lineup(game, pair["spymaster"], pair["guesser"], spy, gue) if two_teams else lineup(
            game, pair["spymaster"], pair["guesser"]
        )
        points.append((SweepPoint(values, pair), specs))
    check_specs([(role, spec) for _, specs in points for role, spec in specs.items()], factory)
    for _, specs in points:
        _agents_for(specs, factory)  # every point's agents build here, before any game is played

    folder = Path(results_dir) if results_dir is not None else None
    result = Sweep(game, spy, gue, grid, routes, games, seed, options.to_json(), opponent)
    start = time.perf_counter()
    runner = make_backend(backend, jobs, address)
    sources: dict[str, str] = {}
    games_played: dict[str, dict] = {}
    try:
        with progress_bar(progress, len(points) * games, f"{game} sweep") as bar:
            for point, specs in points:
                run = run_games(
                    game, specs, games=games, seed=seed, options=options, jobs=jobs, progress=bar, factory=factory,
                    results_path=_point_file(folder, point.values) if folder else None, backend=runner,
                    keep_results=False,  # a point's figures only: memory flat
                )
                summary = run.summary()
                point.figures = {k: v for k, v in summary.items() if k not in _RUN_FIELDS}
                made = summary.get("provenance") or {}
                point.figures["parameters"] = made.get("parameters") or {}  # this point's resolved agents
                point.outcomes = run.tally.outcomes()
                sources.update(made.get("sources") or {})
                for entry in made.get("played_by") or []:
                    key = repr(sorted((entry["code"] or {}).items()))
                    games_played.setdefault(key, {"code": entry["code"], "games": 0})["games"] += entry["games"]
                result.points.append(point)
    finally:
        if runner is not backend:
            runner.close()
    result.paired = paired_section(result)
    result.seconds = time.perf_counter() - start
    result.provenance = {"code": code_version(), "sources": dict(sorted(sources.items())), "environment": environment(),
                         "played_by": list(games_played.values())}
    return result


def paired_section(sweep: Sweep) -> dict:
    """Every point after the first against the first (the baseline), game by game on the
    same boards: point minus baseline (see ``sim.paired``)."""
    if not sweep.points:
        return {}
    base = sweep.points[0]
    comparisons = [{"values": p.values, **paired_difference(p.outcomes, base.outcomes)} for p in sweep.points[1:]]
    return {
        "baseline": base.values, "difference": "each point minus the baseline (the grid's first point), game by game "
        "on the same boards", "win_rate": "paired bootstrap 95% interval (percentile); exact McNemar p on the "
        "discordant games (a_only: the point won, the baseline lost; b_only: the baseline won, the point lost)",
        "turns": TURNS_MEANING, "resamples": RESAMPLES, "bootstrap_seed": BOOTSTRAP_SEED, "caveat": CAVEAT,
        "comparisons": comparisons,
    }


# ----------------------------------------------------------------------------- plot


def _numeric(values: Sequence[str], name: str) -> Optional[list[float]]:
    out = []
    for v in values:
        x = parsed_value(name, v)
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return None
        out.append(float(x))
    return out


_PANELS = (  # (figure, its interval, y label): a row of panels each
    ("win_rate", "ci95", "win rate (95% Wilson interval)"),
    ("mean_turns", "turns_ci95", "mean turns, all games (95% t interval)"),
)


def sweep_figure(sweep: Sweep) -> Any:
    """Win rate (95% Wilson interval) and mean turns (95% t interval) against each parameter:
    a row of panels per figure, a column per parameter, a line per combination of the other
    parameters (a matplotlib Figure on the Agg canvas: no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(sweep.grid)
    fig = Figure(figsize=(5.2 * len(names), 7.4), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.subplots(len(_PANELS), len(names), squeeze=False, sharex="col")
    for column, name in enumerate(names):
        levels = list(sweep.grid[name])
        numeric = _numeric(levels, name)
        xs = numeric if numeric is not None else list(range(len(levels)))
        others = [n for n in names if n != name]
        groups: dict[tuple[str, ...], list[SweepPoint]] = {}
        for point in sweep.points:
            groups.setdefault(tuple(point.values[n] for n in others), []).append(point)
        span = (max(xs) - min(xs)) or 1.0
        for row, (figure, interval, ylabel) in enumerate(_PANELS):
            ax = grid[row][column]
            for g, (key, members) in enumerate(groups.items()):
                members.sort(key=lambda p: levels.index(p.values[name]))
                dodge = (g - (len(groups) - 1) / 2) * 0.012 * span  # side by side, not on top of each other
                x = [xs[levels.index(p.values[name])] + dodge for p in members]
                y = [p.figures[figure] for p in members]
                ci = [p.figures.get(interval) or [v, v] for v, p in zip(y, members)]  # one game: no interval
                err = [[v - c[0] for v, c in zip(y, ci)], [c[1] - v for v, c in zip(y, ci)]]
                label = ", ".join(f"{n}={v}" for n, v in zip(others, key)) or None
                ax.errorbar(x, y, yerr=err, marker="o", capsize=4, label=label)
            ax.set_ylabel(ylabel)
            if figure == "win_rate":
                lo, hi = ax.get_ylim()
                ax.set_ylim(max(-0.02, lo), min(1.02, hi))
            ax.grid(alpha=0.3)
            if len(groups) > 1 and row == 0:
                ax.legend(fontsize="small")
        bottom = grid[-1][column]
        bottom.set_xticks(xs, levels)  # ticks at the grid's own values, as given
        bottom.set_xlabel(name)
    fig.suptitle(
        f"{sweep.game}: {sweep.spymaster} / {sweep.guesser}, {sweep.games} games per point, seed {sweep.seed}",
        fontsize="medium",
    )
    made = code_line(sweep.provenance.get("code") if sweep.provenance else None)
    fig.supxlabel(made, x=0.99, ha="right", fontsize="x-small", color="0.4")  # the layout makes room for it
    return fig


def plot_sweep(sweep: Sweep, path: Union[str, Path]) -> Path:
    """:func:`sweep_figure` written as a PNG (or PDF, SVG: by the file name), its provenance in
    the file's metadata."""
    fig = sweep_figure(sweep)
    out = Path(path)
    kind = out.suffix[1:].lower() or "png"
    image = io.BytesIO()
    fig.savefig(image, dpi=120, format=kind, metadata=figure_metadata(sweep, kind))
    write_atomically(out, image.getvalue())  # through a link; never over a device or a pipe
    return out


def figure_metadata(sweep: Sweep, kind: str) -> dict:
    """The figure file's own metadata: its title, the code that made it, and the sweep's
    provenance with every point's resolved parameters as JSON, in the field each format has
    (PNG text chunks, PDF Subject, SVG Description), so the file alone says what made it."""
    import json

    data = {"game": sweep.game, "games": sweep.games, "seed": sweep.seed, "grid": {k: list(v) for k, v in sweep.grid.items()},
            "provenance": sweep.provenance, "parameters": [p.figures.get("parameters") for p in sweep.points]}
    text = json.dumps(data, sort_keys=True)
    title = f"{sweep.game} sweep: {sweep.spymaster} / {sweep.guesser}"
    creator = code_line(sweep.provenance.get("code") if sweep.provenance else None)
    if kind == "pdf":
        return {"Title": title, "Subject": text, "Creator": creator}
    if kind == "svg":
        return {"Title": title, "Description": text, "Creator": creator}
    return {"Title": title, "Description": text, "Software": creator}
