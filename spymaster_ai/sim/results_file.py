"""The results file of a run: one JSON line a game, checked, resumable, sorted at the end.

Why its own module: the runner plays games; this module is what a run's games become on
disk, and what a resume or ``bench replay`` may trust of them. The runner calls it to read
what a file already holds (:func:`_read_results`), to hold the file for the run
(:func:`results_lock`), to append a line (:func:`dump_result_line`) and to rewrite the file
sorted (:func:`_write_sorted`).

- Every line carries ``checksum``, the sha256 of the rest of the line (canonical JSON); resume
  and ``bench replay`` refuse a line whose checksum is missing or wrong, so a line damaged on
  disk or edited by hand never reaches the figures. It guards against accidents and hand
  edits only: the hash has no key, so whoever recomputes it can still forge a line.
- A resume skips the indices already there after checking they belong to the same run
  (game, agents, options, seed, the user's files, each role's resolved parameters), played
  under the same library versions: each line records them, and games of two environments may
  differ, so one figure never mixes them.
- The file is read line by line and sorted by seeking to each line (a few dozen bytes a game:
  index, offset, length), so a file of a million games is never held whole; a torn last line
  (an interrupted write) is dropped and played again.
- A run holds its results file for its whole length (:func:`results_lock`): a second run
  given the same file is refused at once, instead of both rewriting it and one run's games
  vanishing.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator, Mapping, Optional, Union

import numpy as np

from ..files import atomic_writer, check_readable, hold_file
from ..provenance import changed_sources, differences, environment
from .seeds import game_seed, match_game_seed
from .summaries import GameResult

__all__ = ["ResultsFileError", "check_result_line", "dump_result_line", "read_result_lines", "results_lock"]


class ResultsFileError(ValueError):
    """A results file that belongs to another run (other game, agents, options or seed)."""


_CHECKSUM = "checksum"


def _canonical(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _line_checksum(data: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a line without its checksum field."""
    body = {k: v for k, v in data.items() if k != _CHECKSUM}
    return hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()


def dump_result_line(result: Union[GameResult, Mapping[str, Any]]) -> str:
    """The canonical JSON line of a result (sorted keys, no spaces: byte-stable), with the
    checksum of its content (any checksum already in ``result`` is recomputed)."""
    data = result.to_json() if isinstance(result, GameResult) else result
    return _canonical({**data, _CHECKSUM: _line_checksum(data)})


def check_result_line(data: Mapping[str, Any], path: Path, number: int) -> None:
    """Refuse line ``number`` of ``path`` unless its checksum matches its content.

    Why: a flipped "won" would otherwise change the figures on resume and still replay. This
    catches damage on disk and hand edits, not a forgery: the checksum is an unkeyed sha256,
    which anyone editing the line can recompute.
    """
    if _CHECKSUM not in data:
        raise ResultsFileError(
            f"{path} line {number} has no checksum (a results file from before they were kept, or a line written "
            "by hand): rerun these games into a new results file"
        )
    if data[_CHECKSUM] != _line_checksum(data):
        raise ResultsFileError(
            f"{path} line {number} does not match its checksum: it was changed after it was written (edited or "
            "damaged); delete that line and rerun to play that game again"
        )


def _other_versions(result: GameResult, here: dict) -> list[str]:
    """How the environment that played ``result`` differs from ``here`` (empty: the same, or
    a result from before environments were recorded, which cannot be checked)."""
    return differences(result.environment, here) if result.environment is not None else []


def _expected_seed(seed: int, index: int, match: Optional[int]) -> int:
    return game_seed(seed, index) if match is None else match_game_seed(seed, index // match, index % match)


def _check_belongs(
    result: GameResult, game: str, specs: Mapping[str, str], options: dict, seed: int, path: Path, here: dict,
    match: Optional[int] = None, sources: Optional[Mapping[str, str]] = None,
    parameters: Optional[Mapping[str, dict]] = None,
) -> None:
    changed = changed_sources(result.sources or {}, sources or {})
    if changed:
        raise ResultsFileError(
            f"{path}: the file of agent spec {changed[0]} changed since its games were played (its sha256 differs "
            f"from game {result.index}'s): resuming would join two different models' games in one table. "
            "Restore that file, or give this run another results file."
        )
    moved = _changed_parameters((result.provenance or {}).get("parameters") or {}, parameters or {})
    if moved:
        raise ResultsFileError(
            f"{path}: {moved} since its game {result.index} was played (another version changed a default): "
            "resuming would join two different agents' games in one table. Give this run another results file, "
            "or pin the parameter in the spec."
        )
    other = _other_versions(result, here)
    if other:
        raise ResultsFileError(
            f"{path} was played under other library versions: its game {result.index} has {', '.join(other)}. "
            "A seeded game can differ between versions, so resuming here would mix two environments in one figure. "
            "Use another results file, or finish this one in the environment that started it."
        )
    problems = []
    if result.game != game:
        problems.append(f"game {result.game!r} (this run: {game!r})")
    if result.agents != dict(specs):
        problems.append(f"agents {result.agents} (this run: {dict(specs)})")
    if result.options != options:
        problems.append(f"options {result.options} (this run: {options})")
    length = result.extra.get("match_length")
    if length != match:
        what = lambda k: f"matches of {k} games" if k else "single games"  # noqa: E731
        problems.append(f"{what(length)} (this run: {what(match)})")
    elif result.seed != _expected_seed(seed, result.index, match):
        problems.append(f"a seed that is not game {result.index} of master seed {seed}")
    if problems:
        raise ResultsFileError(
            f"{path} holds games of another run: its game {result.index} has {'; '.join(problems)}. "
            "Use another results file for this run."
        )


def _changed_parameters(theirs: Mapping[str, dict], ours: Mapping[str, dict]) -> Optional[str]:
    """The first difference between two runs' resolved parameters, as "the guesser's
    stop_threshold is 0.4 (was 0.5)", for roles and parameters both record; None if none."""
    for role in theirs:
        if role not in ours or not isinstance(theirs[role], dict):
            continue
        a, b = theirs[role], ours[role]
        if a.get("class") != b.get("class"):
            return f"the {role.replace('_', ' ')}'s class is {b.get('class')} (was {a.get('class')})"
        old, new = a.get("parameters") or {}, b.get("parameters") or {}
        for key in old:
            if key in new and old[key] != new[key]:
                return f"the {role.replace('_', ' ')}'s {key} is {new[key]!r} (was {old[key]!r})"
    return None


# Every line of a results file starts so (sorted keys: "agents" comes first); a line cut short
# by an interruption is a prefix of such a line.
_LINE_START = '{"agents":'


def read_result_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line of a results file, read one line at a time
    (a file of a million games is never held whole), or a clear :class:`ResultsFileError` for a
    folder or a file that is not text."""
    return ((number, line) for number, _, line in _numbered_lines(path))


def _numbered_lines(path: Path) -> Iterator[tuple[int, int, str]]:
    """(line number, byte offset, text) of each non-blank line, streamed; a folder, a device
    or a pipe is refused at once, before any line is asked for."""
    if path.is_dir():
        raise ResultsFileError(f"{path} is a folder, not a results file")
    check_readable(path, ResultsFileError)  # a device or a pipe: never read (endless, or blocking)

    def lines() -> Iterator[tuple[int, int, str]]:
        offset = 0
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
                except UnicodeDecodeError as exc:
                    raise ResultsFileError(f"{path} is not UTF-8 text; not a results file?") from exc
                if line.strip():
                    yield number, offset, line
                offset += len(raw)

    return lines()


def _torn(line: str) -> bool:
    """Whether ``line``, which is not JSON, can be the start of a result line whose write was
    interrupted (a prefix of the canonical form). Anything else in the last line is another
    kind of file, which is refused rather than overwritten."""
    return line.startswith(_LINE_START) or _LINE_START.startswith(line)


class _IndexSet:
    """Game indices as a bitmap, one bit per index up to the largest met (a million games:
    125 KB), where a set of ints costs about 60 bytes each."""

    def __init__(self) -> None:
        self._bits = bytearray()

    def add(self, i: int) -> None:
        byte = i >> 3
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits))))
        self._bits[byte] |= 1 << (i & 7)

    def __contains__(self, i: int) -> bool:
        byte = i >> 3
        return byte < len(self._bits) and bool(self._bits[byte] >> (i & 7) & 1)


class _Lines:
    """Where each game's line lies in a results file: index, byte offset and length, in the
    order met (16 bytes a game), so the file can be rewritten sorted without holding it."""

    def __init__(self) -> None:
        self.index, self.offset, self.length = array("q"), array("q"), array("q")
        self.saved = _IndexSet()

    def add(self, index: int, offset: int, length: int) -> None:
        self.index.append(index)
        self.offset.append(offset)
        self.length.append(length)
        self.saved.add(index)

    def __len__(self) -> int:
        return len(self.index)


def _read_results(
    path: Path, game: str, specs: Mapping[str, str], options: dict, seed: int, match: Optional[int] = None,
    sources: Optional[Mapping[str, str]] = None, parameters: Optional[Mapping[str, dict]] = None,
) -> _Lines:
    """Where the valid results already in ``path`` lie (the first line of each index), read
    line by line; a torn last line (interrupted write) is dropped, and so is every game of a
    match not saved whole (it is played again from its start)."""
    found = _Lines()
    if not path.exists():
        return found
    here = environment()
    pending: Optional[tuple[int, str, Exception]] = None  # a line that is not JSON: torn if it is the last
    for number, offset, line in _numbered_lines(path):
        if pending is not None:
            raise ResultsFileError(
                f"{path} line {pending[0]} is not a game result ({pending[2]}); not a results file?") from pending[2]
        try:
            data = json.loads(line)
            if isinstance(data, dict) and _CHECKSUM in data:  # a hand edit is named as one, not as a bad value
                check_result_line(data, path, number)
            result = GameResult.from_json(data)
        except ResultsFileError:
            raise
        except (ValueError, TypeError, AttributeError) as exc:  # JSONDecodeError is a ValueError
            if isinstance(exc, json.JSONDecodeError) and _torn(line):
                pending = (number, line, exc)  # the last line cut short by an interruption: played again
                continue
            raise ResultsFileError(f"{path} line {number} is not a game result ({exc}); not a results file?") from exc
        check_result_line(data, path, number)  # a line with no checksum at all
        _check_belongs(result, game, specs, options, seed, path, here, match, sources, parameters)
        if result.index not in found.saved:
            found.add(result.index, offset, len(line.encode("utf-8")))
    if match is not None and len(found):
        index = np.frombuffer(found.index, dtype=np.int64)
        matches, counts = np.unique(index // match, return_counts=True)
        incomplete = matches[counts != match]
        if incomplete.size:
            keep = ~np.isin(index // match, incomplete)
            whole = _Lines()
            for k in np.flatnonzero(keep):
                whole.add(int(found.index[k]), int(found.offset[k]), int(found.length[k]))
            found = whole
    return found


def results_lock(path: Path) -> ContextManager[None]:
    """Hold ``path`` for one run (:func:`spymaster_ai.files.hold_file`, an exclusive ``flock``
    on ``<path>.lock``, dropped with its process): a second run given the same file is refused
    at once (:class:`ResultsFileError`), instead of both rewriting it and one run's games vanishing."""
    return hold_file(path, lambda who: ResultsFileError(
        f"{path} is in use by another run{who}: wait for it to end, or give this run another results file"))


def _write_sorted(path: Path, lines: _Lines, on_result: Optional[Callable[[GameResult], None]] = None) -> _Lines:
    """Rewrite the file sorted by index, atomically (a crash leaves the old or the new file),
    reading each line where ``lines`` says it lies; returns where they lie in the new file.

    ``on_result``: each line is parsed and written anew in canonical form (``dump_result_line``,
    as a resume always did), and handed over (to the tally); without it, the lines (all
    canonical: written by this run) are copied as they are.
    """
    index = np.frombuffer(lines.index, dtype=np.int64) if len(lines) else np.zeros(0, np.int64)
    out = _Lines()
    position = 0
    with ExitStack() as stack:
        source = stack.enter_context(path.open("rb")) if len(lines) else None
        handle = stack.enter_context(atomic_writer(path, "wb"))
        for k in np.argsort(index, kind="stable"):
            source.seek(lines.offset[k])
            raw = source.read(lines.length[k])
            if on_result is not None:
                result = GameResult.from_json(json.loads(raw))
                on_result(result)
                raw = dump_result_line(result).encode("utf-8")
            handle.write(raw + b"\n")
            out.add(int(index[k]), position, len(raw))
            position += len(raw) + 1
    return out
