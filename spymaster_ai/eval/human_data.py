"""Reader for the human Codenames Duet turns of the "Cultural Codes" dataset (Shaikh et al. 2023).

Why a reader of its own: the files are the only record of how people give, read and aim clues,
but they encode boards as Python-style list literals inside one text column, and the project
may never ship them. This module finds the *validation* files in a folder the user names,
parses every row into a small typed record, and reports each row it cannot read (file, row,
reason) instead of guessing. It never opens any other split.

Layouts accepted for ``--data DIR`` (``DIR`` or ``DIR/data``):

* flat: ``generate_guess_task_val.csv``, ``clue_generation_task_val.csv``,
  ``target_selection_task_val.csv`` (the copy under ``shared/data/human-duet``);
* nested, as in a clone of SALT-NLP/codenames: ``generate_guess_task/val.csv``, ...
"""

from __future__ import annotations

import ast
import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional, TypeVar, Union

from ..rules.cards import normalise_word

__all__ = [
    "TASK_FILES",
    "ClueTurn",
    "GuessTurn",
    "HumanDataError",
    "HumanDataset",
    "RowProblem",
    "TargetTurn",
    "load_human_data",
    "locate_human_data",
    "parse_clue_row",
    "parse_guess_row",
    "parse_target_row",
    "read_task_file",
]

# task -> (flat file name, dataset folder in the original repository). Only the validation split.
TASK_FILES: dict[str, tuple[str, str]] = {
    "guess": ("generate_guess_task_val.csv", "generate_guess_task"),
    "clue": ("clue_generation_task_val.csv", "clue_generation_task"),
    "targets": ("target_selection_task_val.csv", "target_selection_task"),
}
REQUIRED_COLUMNS = ("base_text", "output")
# A board list literal longer than this is not a Codenames board (and would be slow to parse).
_MAX_FIELD = 20_000


class HumanDataError(ValueError):
    """A data folder or file that cannot be read at all (the message names the path)."""


class RowError(ValueError):
    """One malformed row; the loader turns it into a :class:`RowProblem`."""


@dataclass(frozen=True)
class RowProblem:
    """A row that was not read: which file, which data row (1-based, header excluded), why."""

    file: str
    row: int
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}, row {self.row} (line {self.line}): {self.reason}"

    def to_json(self) -> dict:
        return {"file": self.file, "row": self.row, "line": self.line, "reason": self.reason}


@dataclass(frozen=True)
class GuessTurn:
    """A clue as the human guesser saw it: the visible cards and the guesses made, in order."""

    row: int
    remaining: tuple[str, ...]
    clue: str
    guesses: tuple[str, ...]  # empty when the file records no guess

    @property
    def first_guess(self) -> Optional[str]:
        return self.guesses[0] if self.guesses else None


@dataclass(frozen=True)
class ClueTurn:
    """A clue as the human giver gave it: its own side's black and tan cards, and its targets."""

    row: int
    black: tuple[str, ...]
    tan: tuple[str, ...]
    targets: tuple[str, ...]
    clue: str

    @property
    def words(self) -> frozenset[str]:
        return frozenset(self.black + self.tan + self.targets)


@dataclass(frozen=True)
class TargetTurn:
    """A giver's choice of which of its green cards to aim the next clue at."""

    row: int
    green: tuple[str, ...]
    black: tuple[str, ...]
    tan: tuple[str, ...]
    chosen: tuple[str, ...]


@dataclass(frozen=True)
class HumanDataset:
    """The three validation tasks, and every row that could not be read."""

    root: Path
    files: dict[str, Path]
    guesses: tuple[GuessTurn, ...]
    clues: tuple[ClueTurn, ...]
    targets: tuple[TargetTurn, ...]
    problems: tuple[RowProblem, ...]
    rows_read: dict[str, int]  # data rows looked at per task (after --limit)
    limit: Optional[int] = None


# -- locating the files ------------------------------------------------------------------------


def _layout(folder: Path) -> Optional[dict[str, Path]]:
    flat = {task: folder / name for task, (name, _) in TASK_FILES.items()}
    if all(p.is_file() for p in flat.values()):
        return flat
    nested = {task: folder / sub / "val.csv" for task, (_, sub) in TASK_FILES.items()}
    if all(p.is_file() for p in nested.values()):
        return nested
    return None


def locate_human_data(path: Union[str, Path]) -> dict[str, Path]:
    """The validation CSV of each task under ``path`` (the files' folder or a repository root)."""
    root = Path(path).expanduser()
    if not root.exists():
        raise HumanDataError(f"--data {root}: no such folder")
    if root.is_file():
        raise HumanDataError(f"--data {root}: give the folder that holds the CSV files, not a file")
    for folder in (root, root / "data"):
        found = _layout(folder)
        if found is not None:
            return found
    for folder in (root, root / "data"):
        present = [name for name, _ in TASK_FILES.values() if (folder / name).is_file()]
        if present:  # part of the set: say which files are missing, not that none is there
            missing = [name for name, _ in TASK_FILES.values() if name not in present]
            raise HumanDataError(
                f"--data {root}: {folder} has {', '.join(present)} but not {', '.join(missing)}; "
                "every task's validation file is needed"
            )
    names = ", ".join(name for name, _ in TASK_FILES.values())
    raise HumanDataError(
        f"--data {root}: no Cultural Codes validation files found; expected {names} "
        f"in that folder or in its data/ folder (or data/<task>/val.csv as in the original repository)"
    )


# -- parsing one field -------------------------------------------------------------------------


def parse_word_list(text: str, what: str) -> tuple[str, ...]:
    """A Python-style list of words (``['a', 'b']``), normalised; RowError when it is not one."""
    text = text.strip()
    if len(text) > _MAX_FIELD:
        raise RowError(f"{what}: list too long ({len(text)} characters)")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise RowError(f"{what}: not a Python list of words: {_clip(text)}") from None
    if not isinstance(value, (list, tuple)):
        raise RowError(f"{what}: expected a list of words, got {type(value).__name__}: {_clip(text)}")
    words = []
    for item in value:
        if not isinstance(item, str):
            raise RowError(f"{what}: {item!r} is not a word")
        word = normalise_word(item)
        if not word:
            raise RowError(f"{what}: empty word in the list")
        words.append(word)
    dupes = sorted({w for w in words if words.count(w) > 1})
    if dupes:
        raise RowError(f"{what}: repeated words {', '.join(dupes)}")
    return tuple(words)


def parse_output_words(text: str, what: str) -> tuple[str, ...]:
    """The ``output`` column's words: ``a, b`` (or a list literal); empty text means none."""
    text = text.strip()
    if not text:
        return ()
    if text.startswith("["):
        return parse_word_list(text, what)
    words = [normalise_word(part) for part in text.split(",")]
    if not all(words):
        raise RowError(f"{what}: empty item in {_clip(text)}")
    dupes = sorted({w for w in words if words.count(w) > 1})
    if dupes:
        raise RowError(f"{what}: repeated words {', '.join(dupes)}")
    return tuple(words)


def _clip(text: str, n: int = 60) -> str:
    return repr(text if len(text) <= n else text[:n] + "...")


def _disjoint(named: dict[str, tuple[str, ...]]) -> None:
    items = list(named.items())
    for i, (a, wa) in enumerate(items):
        for b, wb in items[i + 1:]:
            both = sorted(set(wa) & set(wb))
            if both:
                raise RowError(f"{', '.join(both)} listed both as {a} and as {b}")


# -- parsing one row ---------------------------------------------------------------------------

_GUESS = re.compile(r"^\s*remaining:\s*(\[.*\])\s*,\s*hint:\s*(.*?)\s*$", re.S)
_CLUE = re.compile(r"^\s*black:\s*(\[.*?\])\s*,\s*tan:\s*(\[.*?\])\s*,\s*targets:\s*(\[.*\])\s*$", re.S)
_TARGETS = re.compile(r"^\s*green:\s*(\[.*?\])\s*,\s*black:\s*(\[.*?\])\s*,\s*tan:\s*(\[.*\])\s*$", re.S)


def _match(pattern: re.Pattern[str], text: str, shape: str) -> re.Match[str]:
    m = pattern.match(text)
    if m is None:
        raise RowError(f"base_text is not of the form {shape!r}: {_clip(text)}")
    return m


def parse_guess_row(row: int, base_text: str, output: str) -> GuessTurn:
    """``remaining: [...], hint: CLUE`` and the guesses ``a, b``; every guess must be visible."""
    m = _match(_GUESS, base_text, "remaining: [...], hint: CLUE")
    remaining = parse_word_list(m.group(1), "remaining")
    if not remaining:
        raise RowError("remaining: no visible word")
    clue = normalise_word(m.group(2))
    if not clue:
        raise RowError("hint: empty clue")
    guesses = parse_output_words(output, "output (guesses)")
    off = [g for g in guesses if g not in set(remaining)]
    if off:
        raise RowError(f"guess {off[0]!r} is not among the remaining words")
    return GuessTurn(row, remaining, clue, guesses)


def parse_clue_row(row: int, base_text: str, output: str) -> ClueTurn:
    """``black: [...], tan: [...], targets: [...]`` and the clue the human gave."""
    m = _match(_CLUE, base_text, "black: [...], tan: [...], targets: [...]")
    black = parse_word_list(m.group(1), "black")
    tan = parse_word_list(m.group(2), "tan")
    targets = parse_word_list(m.group(3), "targets")
    if not targets:
        raise RowError("targets: no target")
    _disjoint({"black": black, "tan": tan, "targets": targets})
    clue = normalise_word(_clue_text(output))
    if not clue:
        raise RowError("output: empty clue")
    return ClueTurn(row, black, tan, targets, clue)


def _clue_text(output: str) -> str:
    """The clue of an ``output`` cell: plain text, or a one-word list literal (``['fruit']``);
    any other literal (``[['x']]``, ``[1]``, ``{}``) is a malformed row, not a clue word."""
    text = output.strip()
    if text[:1] not in ("[", "(", "{"):
        return text
    try:
        value = ast.literal_eval(text) if len(text) <= _MAX_FIELD else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = None
    if isinstance(value, (list, tuple)) and len(value) == 1 and isinstance(value[0], str):
        return value[0]
    raise RowError(f"output: expected one clue word, got {_clip(text)}")


def parse_target_row(row: int, base_text: str, output: str) -> TargetTurn:
    """``green: [...], black: [...], tan: [...]`` and the green cards the human chose."""
    m = _match(_TARGETS, base_text, "green: [...], black: [...], tan: [...]")
    green = parse_word_list(m.group(1), "green")
    black = parse_word_list(m.group(2), "black")
    tan = parse_word_list(m.group(3), "tan")
    if not green:
        raise RowError("green: no green card")
    _disjoint({"green": green, "black": black, "tan": tan})
    chosen = parse_output_words(output, "output (chosen targets)")
    if not chosen:
        raise RowError("output: no chosen target")
    off = [w for w in chosen if w not in set(green)]
    if off:
        raise RowError(f"chosen target {off[0]!r} is not one of the green cards")
    return TargetTurn(row, green, black, tan, chosen)


# -- reading a file ----------------------------------------------------------------------------

T = TypeVar("T")
RowParser = Callable[[int, str, str], T]


def _rows(path: Path) -> Iterator[tuple[int, int, dict[str, str]]]:
    try:
        handle = path.open(newline="", encoding="utf-8")
    except OSError as exc:
        raise HumanDataError(f"{path}: cannot open ({exc.strerror or exc})") from None
    with handle:
        reader = csv.DictReader(handle)
        try:
            header = reader.fieldnames
            if not header:
                raise HumanDataError(f"{path}: empty file (no header row)")
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise HumanDataError(
                    f"{path}: missing column(s) {', '.join(missing)}; header is {', '.join(map(repr, header))}"
                )
            for number, record in enumerate(reader, start=1):
                yield number, reader.line_num, record
        except csv.Error as exc:
            raise HumanDataError(f"{path}, line {reader.line_num}: not a readable CSV file ({exc})") from None
        except UnicodeDecodeError as exc:
            raise HumanDataError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_task_file(
    path: Path, parse: RowParser[T], limit: Optional[int] = None, strict: bool = False
) -> tuple[list[T], list[RowProblem], int]:
    """Parsed rows, problem rows and the number of data rows looked at (at most ``limit``).

    ``strict``: the first malformed row raises HumanDataError (naming file and row) instead
    of being reported.
    """
    parsed: list[T] = []
    problems: list[RowProblem] = []
    seen = 0
    for number, line, record in _rows(path):
        if limit is not None and seen >= limit:
            break
        seen += 1
        try:
            base, output = record.get("base_text"), record.get("output")
            if base is None or output is None:
                raise RowError("too few fields in this row")
            if None in record:  # DictReader files surplus fields under the key None
                raise RowError("more fields than the header has columns")
            parsed.append(parse(number, base, output))
        except RowError as exc:
            problem = RowProblem(path.name if path.name != "val.csv" else f"{path.parent.name}/val.csv",
                                 number, line, str(exc))
            if strict:
                raise HumanDataError(f"{path}, row {number} (line {line}): {exc}") from None
            problems.append(problem)
    return parsed, problems, seen


def load_human_data(path: Union[str, Path], limit: Optional[int] = None, strict: bool = False) -> HumanDataset:
    """Read the three validation tasks under ``path`` (see the module docstring for layouts).

    ``limit``: read at most that many data rows of each file. ``strict``: a malformed row is
    an error rather than a reported, skipped row.
    """
    if limit is not None and limit < 1:
        raise HumanDataError(f"--limit must be at least 1, got {limit}")
    files = locate_human_data(path)
    guesses, p1, n1 = read_task_file(files["guess"], parse_guess_row, limit, strict)
    clues, p2, n2 = read_task_file(files["clue"], parse_clue_row, limit, strict)
    targets, p3, n3 = read_task_file(files["targets"], parse_target_row, limit, strict)
    return HumanDataset(
        root=Path(path),
        files=files,
        guesses=tuple(guesses),
        clues=tuple(clues),
        targets=tuple(targets),
        problems=tuple(p1 + p2 + p3),
        rows_read={"guess": n1, "clue": n2, "targets": n3},
        limit=limit,
    )
