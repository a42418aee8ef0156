"""Table 11: Duet sudden death played again from recorded games, by any guesser.

Why: about a quarter of the robust spymaster's Duet games with G held out reach sudden death
(the timer tokens spent, greens left), and few of those are won. A new sudden-death rule can
be measured on exactly those positions in seconds instead of replaying a whole run (table 2
takes 25 minutes): every game of a leave-one-out run that reached sudden death is replayed
through the engine to its first sudden-death move, then played on to its end by guessers built
from ``--guesser`` (``{G}`` stands for the cell's guesser model), under the simulator's own
driver (:func:`spymaster_ai.sim.play.play_out_duet`). With the recorded guessers the replay
reproduces every recorded outcome; the table says so for each cell ("recorded" and "as
recorded" columns), which checks the replay itself.

    python experiments/studies/sudden_death_replay.py --results experiments/results/leave_one_out \\
        --guesser "{G}:sudden_death_slope=2" --out experiments/studies/results/sudden_death_replay.md

``--results`` is the output folder of ``leave_one_out.py`` (its per-game files). ``--kind``
picks the cells: ``robust`` (G held out, the default), ``robust, family`` or ``reference``.
``--file`` takes one ``spymaster-ai bench duet --results F.jsonl`` file instead, e.g. the
human pair's games, to compare the human guesser's sudden-death rules on the same positions:

    python experiments/studies/sudden_death_replay.py --file human_pair.jsonl \
        --guesser "human:leftovers_first=false"
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from duet_anatomy import LABELS, cell_kind  # noqa: E402  (a sibling script)

from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.rules.duet import DuetGame  # noqa: E402
from spymaster_ai.sim.play import ROLES, play_out_duet  # noqa: E402

GREENS_LEFT_BINS = ((1, 1), (2, 2), (3, 25))  # greens left at sudden death, inclusive
KINDS = ("robust", "robust, family", "reference")  # the cells with one file per guesser


@dataclass(frozen=True)
class Entry:
    """One recorded game at its first sudden-death move."""

    index: int
    seed: int
    won: bool  # the recorded outcome
    agents: dict[str, str]
    config: dict
    actions: list[dict]  # every move before sudden death

    def game(self) -> DuetGame:
        game = DuetGame.from_config(self.config)
        game.replay(self.actions)
        return game


def sudden_death_entries(path: Path) -> Iterator[Entry]:
    """The games of one results file that reached sudden death, cut at its first move."""
    with path.open(encoding="utf-8") as handle:
        for text in handle:
            if not text.strip():
                continue
            line = json.loads(text)
            if not line["extra"].get("sudden_death"):
                continue
            actions = line["record"]["actions"]
            cut = next((i for i, a in enumerate(actions) if a["type"].startswith("sd_")), len(actions))
            yield Entry(line["index"], line["seed"], bool(line["won"]), line["agents"], line["record"]["config"], actions[:cut])


class _NoClues:
    """Stands in for a spymaster in sudden death, where no clue is ever asked for."""

    def reset(self, seed: int) -> None:
        pass

    def give_clue(self, view: Any) -> Any:
        raise AssertionError("a clue was asked for in sudden death")


@dataclass
class Cell:
    """Sudden-death outcomes of one cell: recorded, and replayed by the recorded and the new guessers."""

    entries: int = 0
    recorded: int = 0
    as_recorded: int = 0
    replayed: int = 0
    faults: int = 0
    by_left: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # bin -> [entries, replayed wins]


def play_again(entry: Entry, guessers: tuple[Any, Any]) -> tuple[bool, Optional[str]]:
    """Play ``entry`` on from sudden death with ``guessers`` (player A's, player B's): (won, fault)."""
    game = entry.game()
    seats = {"a_guesser": guessers[0], "b_guesser": guessers[1]}
    agents = {role: seats[role] if role in seats else _NoClues() for role in ROLES["duet"]}
    fault = play_out_duet(game, agents, seed=entry.seed)
    return fault is None and game.winner is True, fault


def study_cell(path: Path, make: Callable[[str], Any], spec: str) -> Cell:
    """Replay every sudden-death entry of one cell with the recorded guesser and with ``spec``."""
    cell = Cell()
    built: dict[str, tuple[Any, Any]] = {}

    def agent(name: str) -> tuple[Any, Any]:
        """One instance per seat, as in the recorded games."""
        if name not in built:
            built[name] = (make(name), make(name))
        return built[name]

    for entry in sudden_death_entries(path):
        recorded_spec = entry.agents["a_guesser"]
        greens_left = entry.game().greens_left()
        cell.entries += 1
        cell.recorded += entry.won
        again, _ = play_again(entry, agent(recorded_spec))
        cell.as_recorded += again == entry.won
        won, fault = play_again(entry, agent(spec.replace("{G}", recorded_spec)))
        cell.replayed += won
        cell.faults += fault is not None
        for lo, hi in GREENS_LEFT_BINS:
            if lo <= greens_left <= hi:
                counts = cell.by_left.setdefault((lo, hi), [0, 0])
                counts[0] += 1
                counts[1] += won
    return cell


def study(results: Path, spec: str, kind: str, make: Callable[[str], Any]) -> dict[str, tuple[str, Cell]]:
    """G -> (the cell's file name, its Cell) for every Duet cell of ``kind`` in a leave-one-out folder."""
    duet = results / "duet"
    if not duet.is_dir():
        raise SystemExit(f"{results} holds no Duet cells (no duet/ folder): run leave_one_out.py first")
    out = {}
    for g_dir in sorted(p for p in duet.iterdir() if p.is_dir()):
        for path in sorted(g_dir.glob("*.jsonl")):
            if cell_kind(path, g_dir.name) == kind:
                out[g_dir.name] = (path.name, study_cell(path, make, spec))
                break
    return out


def _rate(wins: int, n: int) -> str:
    return f"{wins} / {n} ({wins / n:.0%})" if n else "–"


def _bins(cell: Cell) -> list[str]:
    return [_rate(cell.by_left.get(b, [0, 0])[1], cell.by_left.get(b, [0, 0])[0]) for b in GREENS_LEFT_BINS]


def report(cells: dict[str, tuple[str, Cell]], spec: str, kind: str, results: Path) -> str:
    what = "one results file" if kind == "file" else LABELS[kind]
    lines = [f"Sudden death played again from `{results}`: {what}, every game that reached sudden death, "
             f"replayed to its first sudden-death move and played on by `{spec}` (`{{G}}`: the cell's guesser).", "",
             "| guesser G | sudden-death games | recorded wins | replay with the recorded guesser matches | "
             f"wins with `{spec}` | " + " | ".join(f"{lo} green left" if lo == hi == 1 else f"{lo} greens left" if lo == hi
                                               else f"{lo}+ greens left" for lo, hi in GREENS_LEFT_BINS) + " |",
             "|---|---|---|---|---|" + "---|" * len(GREENS_LEFT_BINS)]
    total = Cell()
    for g, (_, cell) in cells.items():
        lines.append(f"| `{g}` | {cell.entries} | {_rate(cell.recorded, cell.entries)} | {cell.as_recorded} / {cell.entries} | "
                     f"{_rate(cell.replayed, cell.entries)} | " + " | ".join(_bins(cell)) + " |")
        for name in ("entries", "recorded", "as_recorded", "replayed", "faults"):
            setattr(total, name, getattr(total, name) + getattr(cell, name))
        for b, (n, w) in cell.by_left.items():
            counts = total.by_left.setdefault(b, [0, 0])
            counts[0] += n
            counts[1] += w
    lines.append(f"| all | {total.entries} | {_rate(total.recorded, total.entries)} | {total.as_recorded} / {total.entries} | "
                 f"{_rate(total.replayed, total.entries)} | " + " | ".join(_bins(total)) + " |")
    if total.faults:
        lines += ["", f"{total.faults} replays ended in an agent's fault (a forfeit)."]
    lines += ["", f"Library versions: {versions_line()}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--results", type=Path, help="a leave_one_out.py output folder")
    where.add_argument("--file", type=Path, help="one bench duet --results file (its guesser stands as G)")
    ap.add_argument("--guesser", default="{G}", help="guesser spec for sudden death; {G}: the cell's guesser model")
    ap.add_argument("--kind", default="robust", choices=KINDS, help="which cells (default: robust, G held out)")
    ap.add_argument("--out", type=Path, help="write the markdown table here (default: print it)")
    args = ap.parse_args()
    from spymaster_ai.agents.registry import check_spec, make_guesser

    check_spec("guesser", args.guesser.replace("{G}", "minilm"))  # a bad parameter fails before any replay
    if args.file is not None:
        if not args.file.is_file():
            raise SystemExit(f"{args.file}: no such results file")
        cells = {"(file)": (args.file.name, study_cell(args.file, make_guesser, args.guesser))}
        text = report(cells, args.guesser, "file", args.file)
    else:
        text = report(study(args.results, args.guesser, args.kind, make_guesser), args.guesser, args.kind, args.results)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
