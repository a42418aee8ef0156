"""Build (or check) the shipped vectors of the ``eat`` model: ``spymaster_ai/data/eat_vectors.npz``.

Why: the random walk, PPMI and randomized SVD over the shipped association counts took 25-40
CPU seconds of every first game (issue 40: a first game should reach its prompt within a
minute). The result depends only on the counts file and the settings, so it is computed here
once and shipped, keyed by the counts' sha256 and the settings (``shipped_key``); the library
versions it was built with are recorded beside it. ``--check`` rebuilds and compares bit for bit.

    python scripts/build_eat_vectors.py [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from importlib.metadata import version

import numpy as np

from spymaster_ai.embeddings.association_backend import (
    DATA_PATH,
    DIMS,
    MIN_DEGREE,
    SHIPPED_PATH,
    WALK,
    association_vectors,
    graph_words,
    read_counts,
    shipped_key,
)
from spymaster_ai.embeddings.cache import read_shipped, write_shipped


def build() -> tuple[dict, dict[str, np.ndarray]]:
    rows, digest = read_counts(DATA_PATH)
    words, counts = graph_words(rows, MIN_DEGREE)
    vectors = association_vectors(counts, min(DIMS, len(words) - 1), WALK)
    return shipped_key(digest), {"words": np.array(words, dtype=str), "vectors": vectors}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="rebuild and compare with the shipped file")
    args = ap.parse_args(argv)
    key, arrays = build()
    if args.check:
        shipped = read_shipped(SHIPPED_PATH, key)
        same = shipped is not None and all(np.array_equal(shipped[k], arrays[k]) for k in arrays)
        print(f"{SHIPPED_PATH}: {'identical to a fresh build' if same else 'STALE or different'}")
        return 0 if same else 1
    provenance = {"source": DATA_PATH.name, "built_with": {p: version(p) for p in ("numpy", "scipy", "scikit-learn")}}
    meta = write_shipped(SHIPPED_PATH, key, arrays, provenance)
    size = SHIPPED_PATH.stat().st_size
    print(f"wrote {SHIPPED_PATH} ({size / 1e6:.1f} MB, {arrays['vectors'].shape}, sha256 of the file "
          f"{hashlib.sha256(SHIPPED_PATH.read_bytes()).hexdigest()[:16]}); checksum {meta['sha256'][:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
