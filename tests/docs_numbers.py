"""Documented figures tied to their results files (issue 42 item 2).

Why: a figure copied into the README or a doc by hand drifts when the experiment is rerun.
Every figure there carries a marker, an HTML comment inside its paragraph, list item or
table (or on the line right after it), saying where it comes from:

- ``<!-- from: experiments/results/X.md[, other files] -->``: every figure of the block
  appears in one of those files: ``92.0%`` as ``92.0``, ``1,000`` as ``1000``; a figure
  given with fewer decimals than the file (``46%`` for ``46.3``) matches the rounded value,
  percentage points match a fraction (``+11.7 points`` for ``+0.117``), and ``139 of 300``
  matches a line holding both numbers. ``X.md@COMMIT`` reads the file as committed at
  COMMIT, for a figure that compares an earlier table with today's (skipped in a clone that
  lacks the commit).
- ``<!-- not a result: REASON -->``: the block's figures are no measurement (a rule, a
  parameter, a setting). Numbers written in REASON exempt only those numbers; a REASON with
  no number exempts the whole block.
- ``<!-- unsourced: REASON -->``: a measurement no committed results file holds (screens of
  a design choice recorded only in the commit log, timings taken by hand). Allowed, but
  counted: the test pins their number, so a new one is a deliberate change, never a slip.

A figure is a percentage, a decimal number, a fraction (``16/20``, ``2 of 20``) or a number
with a unit of time, turns or wins (``55 s``), in the text outside inline code, links and
comments (in fenced code, only a shell comment's text). A block needs a marker when it holds
such a figure, or when it is a table with a numeric cell. A bare integer (games played, a
seed, a year, an issue number) is no figure. Pure text: no models, no runs.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The documents whose figures are held to their sources. docs/playtests/ and
# docs/transcripts/ are records themselves (what people did, what a run printed).
DOCUMENTS = ("README.md", "docs/*.md", "experiments/README.md", "experiments/studies/README.md", "notebooks/README.md")

MARKER = re.compile(r"<!--\s*(from|not a result|unsourced)\s*:\s*(.*?)\s*-->", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
# A figure: a fraction ("16/20", "2 of 20"), a decimal (1,234.5 too), a number followed by %,
# or a number with a unit of time, turns or wins ("55 s", "24 turns").
FIGURE = re.compile(
    r"(?<![\w.,/])(?:(?P<fraction>\d+/\d+|\d+ (?:wins )?of \d+)(?![\w/]|\.\d)"
    r"|(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)(?![\w]|\.\d)"
    r"(?:(?P<percent>\s?%)|(?P<unit>\s(?:s|ms|seconds|turns|wins)\b))?)"
)
# No figures: versions, dates, commit hashes, section signs, arXiv ids, version bounds, and a
# 95% interval's level.
NOT_A_FIGURE = re.compile(
    r"\b\d+\.\d+\.\d+[\w.+-]*|\b\d{4}-\d{2}-\d{2}\b|§\s*\d+(?:\.\d+)?|\b[0-9a-f]{7,40}\b"
    r"|arXiv:\d+\.\d+|[≥≤]\s*\d+(?:\.\d+)?|\b95\s?%(?=\s*(?:Wilson|t\b|confidence|interval|CI|bootstrap))|(?<=Wilson )95\s?%"
)
# A table cell that is a figure: "13/20", "65.0% [43.3, 81.9]", "**0.606** [0.565, 0.645] n=444", "2.83".
NUMERIC_CELL = re.compile(r"\**[\d,.]+(?:\s?%|/\d+)?\**(?:\s*\[[^\]]*\])?(?:\s*n=\d+)?(?:\s*/\s*.*)?")
SOURCE_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


@dataclass
class Block:
    """A paragraph, list item, table or fenced block of one document, with its markers."""

    path: str
    line: int
    kind: str  # "text", "table" or "code"
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def markers(self) -> list[tuple[str, str]]:
        """The block's markers; one written in inline code (`<!-- from: F -->`) is an example."""
        return [(m.group(1), m.group(2)) for m in MARKER.finditer(INLINE_CODE.sub(" ", self.text))]


def _is_item(line: str) -> bool:
    return bool(re.match(r"\s*(?:[-*+]|\d+\.)\s+\S", line))


def blocks(path: Path, text: str | None = None) -> list[Block]:
    """Split a Markdown file into blocks: blank lines, list items, tables and fences end one.

    A line holding only a marker comment right after a table or paragraph belongs to it.
    """
    rel = str(path.relative_to(ROOT)) if path.is_absolute() else str(path)
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    out: list[Block] = []
    current: Block | None = None
    fence: str | None = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if fence is not None:
            current.lines.append(line)
            if stripped.startswith(fence):
                fence, current = None, None
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            current = Block(rel, number, "code", [line])
            out.append(current)
            continue
        if not stripped:
            current = None
            continue
        if MARKER.fullmatch(stripped) and out and (current is not None or out[-1].line + len(out[-1].lines) == number):
            out[-1].lines.append(line)  # a marker line right after its block
            current = out[-1] if current is not None else None
            continue
        kind = "table" if stripped.startswith("|") else "text"
        starts = current is None or current.kind != kind or current.kind == "code" or (kind == "text" and _is_item(line))
        if starts:
            current = Block(rel, number, kind, [])
            out.append(current)
        current.lines.append(line)
    return out


def _visible_text(block: Block) -> str:
    """What a reader sees as prose: no comments, inline code or link targets; in fenced code
    only the text of shell comments (`# 20 wins of 20, 4.0 turns`)."""
    if block.kind == "code":
        text = "\n".join(m.group(1) for m in re.finditer(r"(?:^|\s)#\s(.*)$", block.text, re.M))
    else:
        text = block.text
    text = COMMENT.sub(" ", text)
    text = INLINE_CODE.sub(" ", text)
    text = LINK_TARGET.sub(" ", text)
    return NOT_A_FIGURE.sub(" ", text)


@dataclass(frozen=True)
class Figure:
    text: str  # as written: "92.0%", "1,000", "16/20"
    value: str  # normalised: "92.0", "1000", "16/20"
    percent: bool
    fraction: bool
    decimal: bool
    unit: bool = False


def figures(block: Block) -> list[Figure]:
    """Every number of a block's visible text, normalised (integers included: see `needs_source`)."""
    out = []
    for m in FIGURE.finditer(_visible_text(block)):
        if m.group("fraction"):
            a, b = re.findall(r"\d+", m.group("fraction"))
            out.append(Figure(m.group(0), f"{a}/{b}", False, True, False))
        else:
            value = m.group("number").replace(",", "")
            out.append(Figure(m.group(0), value, bool(m.group("percent")), False, "." in value, bool(m.group("unit"))))
    return out


def needs_source(figure: Figure) -> bool:
    """Percentages, decimals, fractions and timed or counted outcomes are results; a bare
    integer (a count of games, a seed, a year, an issue number) is not checked."""
    return figure.percent or figure.decimal or figure.fraction or figure.unit


def needs_marker(block: Block) -> bool:
    """A block with a figure, or a table with a numeric cell, must say where it comes from."""
    if any(needs_source(f) for f in figures(block)):
        return True
    if block.kind == "table":
        rows = [r for r in block.lines if r.strip().startswith("|") and not re.fullmatch(r"[|\s:-]+", r.strip())]
        for row in rows[1:]:  # the header row names columns
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if any(NUMERIC_CELL.fullmatch(COMMENT.sub("", c).strip()) for c in cells):
                return True
    return False


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in SOURCE_NUMBER.findall(text)}


def _decimals(value: str) -> int:
    return len(value.split(".")[1]) if "." in value else 0


def found_in(figure: Figure, numbers: set[str], source_text: str, headline: set[str] | None = None) -> bool:
    """Whether the source holds the figure: exactly (as percentage points of a fraction too),
    or rounded from one of ``headline``, the source's numbers outside brackets: an interval's
    bound is quoted as written, so 14.9 does not pass on a turns interval's 14.91."""
    if figure.fraction:
        a, b = figure.value.split("/")
        if re.search(rf"(?<![\d.]){a}\s*/\s*{b}(?![\d.])|(?<![\d.]){a} (?:wins )?of {b}(?![\d.])", source_text):
            return True
        # or both numbers on one line (a table row: games 300, wins 139)
        return any({a, b} <= _numbers(line) for line in source_text.splitlines())
    if figure.value in numbers:
        return True
    headline = numbers if headline is None else headline
    places = _decimals(figure.value)
    wanted = Decimal(figure.value)
    quantum = Decimal(1).scaleb(-places)
    for n in numbers:
        for candidate, more in ((Decimal(n), _decimals(n) > places), (Decimal(n) * 100, _decimals(n) - 2 > places)):
            if candidate == wanted:
                return True
            if more and n in headline and candidate.quantize(quantum, rounding=ROUND_HALF_UP) == wanted:
                return True
    return False


UNREADABLE = object()  # a source at a commit this checkout does not hold


def read_source(source: str, root: Path = ROOT) -> object:
    """A results file's text: ``path`` as it is now, or ``path@COMMIT`` as committed then
    (for a figure that compares an earlier table with today's). None: no such file."""
    path, _, commit = source.partition("@")
    if not commit:
        file = root / path
        return file.read_text(encoding="utf-8", errors="replace") if file.is_file() else None
    try:
        done = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{path}"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return UNREADABLE
    if done.returncode == 0:
        return done.stdout.decode("utf-8", errors="replace")
    known = subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True)
    return None if known.returncode == 0 else UNREADABLE


@dataclass
class Problem:
    block: Block
    message: str

    def __str__(self) -> str:
        return f"{self.block.path}:{self.block.line}: {self.message}"


def _exempt_numbers(reason: str) -> set[str] | None:
    """The numbers a `not a result` marker names, or None for the whole block."""
    named = {f.value for f in figures(Block("", 0, "text", [reason]))}
    return named or None


def check_block(block: Block, root: Path = ROOT, cache: dict | None = None) -> list[Problem]:
    """What is wrong with one block: a figure missing from its sources, a missing marker, a
    source that does not exist."""
    cache = {} if cache is None else cache
    marks = block.markers()
    problems: list[Problem] = []
    if not marks:
        if needs_marker(block):
            shown = ", ".join(f.text for f in figures(block) if needs_source(f) or block.kind == "table")[:120]
            problems.append(Problem(block, f"figures with no source marker ({shown}): add <!-- from: FILE -->, "
                                           "or <!-- not a result: why -->"))
        return problems
    exempt: set[str] = set()
    sources: list[str] = []
    for kind, body in marks:
        if kind == "unsourced":
            if not body.strip():
                problems.append(Problem(block, "an unsourced marker must say why"))
            return problems
        if kind == "not a result":
            named = _exempt_numbers(body)
            if not body.strip():
                problems.append(Problem(block, "a 'not a result' marker must say why"))
            if named is None:
                return problems
            exempt |= named
        if kind == "from":
            sources += [s.strip() for s in body.split(",") if s.strip()]
    texts: list[str] = []
    read: list[str] = []
    for source in sources:
        if source not in cache:
            cache[source] = read_source(source, root)
        if cache[source] is None:
            problems.append(Problem(block, f"source {source} does not exist"))
        elif cache[source] is UNREADABLE:
            return problems  # a file as committed at a commit this checkout lacks (a shallow clone)
        else:
            read.append(source.partition("@")[0])
            texts.append(cache[source])
    joined = "\n".join(texts)
    numbers = _numbers(joined)
    # In Markdown a bracket holds an interval; in JSON every list is one.
    headline = _numbers("\n".join(t if s.endswith(".json") else re.sub(r"\[[^\]\n]*\]", " ", t)
                                  for s, t in zip(read, texts)))
    for figure in figures(block):
        if not needs_source(figure) or figure.value in exempt:
            continue
        if not sources:
            problems.append(Problem(block, f"{figure.text} is not exempted by its 'not a result' marker and has no source"))
        elif texts and not found_in(figure, numbers, joined, headline):
            problems.append(Problem(block, f"{figure.text} is not in {', '.join(sources)}"))
    return problems


def documents(root: Path = ROOT) -> list[Path]:
    out: list[Path] = []
    for pattern in DOCUMENTS:
        out += sorted(root.glob(pattern))
    return out


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [b for path in documents(root) for b in blocks(path)]


def unsourced(root: Path = ROOT) -> list[Block]:
    return [b for b in all_blocks(root) if any(kind == "unsourced" for kind, _ in b.markers())]
