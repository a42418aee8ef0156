"""Human free association as a similarity model: the Edinburgh Associative Thesaurus (EAT).

Why: every other backend learns from running text, and text puts CAT beside CAR and CRAB, FLY
beside PLANET. People were asked for the first word each of 8,210 cue words brings to mind
(about 100 people per cue, Kiss et al. 1973): CAT brings DOG and MOUSE, HORSE brings STABLE,
WHITE brings SNOW. That is what a Codenames partner finds.

The vectors: the cue -> response counts as a graph (each cue's row normalised to association
strengths), words linked to fewer than ``MIN_DEGREE`` others dropped, made symmetric, spread
one step further by a random walk (S + S^2 / 2), weighted by positive pointwise mutual
information and reduced to ``DIMS`` dimensions by scikit-learn's randomized SVD (De Deyne,
Perfors and Navarro 2016, "Predicting human similarity judgments with distributional models:
the value of word associations"). The counts ship in ``data/eat_associations.tsv.gz`` (1.4 MB,
built by ``scripts/build_association_data.py`` from npm ``eat-wrapper`` 1.0.1; Open
Government Licence v3.0); their vectors ship too (``data/eat_vectors.npz``, built by
``scripts/build_eat_vectors.py``), since building them took 25-40 s of a first game's start.
Other counts or settings are built once (about 25 s on two cores) and cached.

A word the thesaurus lacks (and whose parts and lemma it lacks) gets a zero vector: its
similarities are 0, which the human reader reads as "no association known", not as noise.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Sequence
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

import numpy as np

from .base import EmbeddingError, clean_words, unit_rows
from .cache import load_or_build, load_or_build_json, read_shipped
from .keyed_vectors import KeyedVectorsEmbedding, StaticTable
from .vocabulary import Vocabulary

ASSOCIATION_ENV = "SPYMASTER_AI_EAT_COUNTS"
DATA_PATH = Path(__file__).resolve().parents[1] / "data" / "eat_associations.tsv.gz"
SHIPPED_PATH = Path(__file__).resolve().parents[1] / "data" / "eat_vectors.npz"
MIN_DEGREE = 3  # a word linked to fewer other words has too few associations to place
WALK = 0.5  # weight of two-step associations (CAT -> MOUSE -> CHEESE)
DIMS = 200
SVD_ITERATIONS = 2


def association_path() -> Path:
    override = os.environ.get(ASSOCIATION_ENV)
    return Path(override).expanduser() if override else DATA_PATH


def read_counts(path: Path) -> tuple[list[tuple[str, str, int]], str]:
    """(cue, response, count) rows and the file's sha256; a clear error for a bad file."""
    try:
        raw = path.read_bytes()
        text = gzip.decompress(raw).decode("utf-8") if path.suffix == ".gz" else raw.decode("utf-8")
    except FileNotFoundError:
        raise EmbeddingError(f"eat: no association counts at {path}: run scripts/build_association_data.py") from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise EmbeddingError(f"eat: cannot read {path} ({exc})") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 3 or not parts[2].isdigit():
            raise EmbeddingError(f"eat: {path} line {number} is not cue<TAB>response<TAB>count: {line[:60]!r}")
        rows.append((parts[0], parts[1], int(parts[2])))
    if not rows:
        raise EmbeddingError(f"eat: {path} holds no association")
    return rows, hashlib.sha256(raw).hexdigest()


def graph_words(rows: Sequence[tuple[str, str, int]], min_degree: int = MIN_DEGREE) -> tuple[list[str], "object"]:
    """The words kept (linked to at least ``min_degree`` others) and their cue -> response
    count matrix (scipy CSR), rows and columns in that word order."""
    import scipy.sparse as sp

    index: dict[str, int] = {}
    r_idx, c_idx, vals = [], [], []
    for cue, response, count in rows:
        r_idx.append(index.setdefault(cue, len(index)))
        c_idx.append(index.setdefault(response, len(index)))
        vals.append(float(count))
    n = len(index)
    counts = sp.csr_matrix((vals, (r_idx, c_idx)), shape=(n, n))
    linked = (counts > 0).astype(np.float32)
    degree = np.asarray(linked.sum(axis=0)).ravel() + np.asarray(linked.sum(axis=1)).ravel()
    keep = np.flatnonzero(degree >= min_degree)
    words = list(index)
    return [words[i] for i in keep], counts[keep][:, keep].tocsr()


def association_vectors(counts, dims: int = DIMS, walk: float = WALK, iterations: int = SVD_ITERATIONS) -> np.ndarray:
    """(words, dims) float32: random walk, PPMI and truncated SVD of the count graph."""
    import scipy.sparse as sp
    from sklearn.utils.extmath import randomized_svd

    totals = np.asarray(counts.sum(axis=1)).ravel()
    strengths = sp.diags(1.0 / np.where(totals > 0, totals, 1.0)) @ counts
    sym = (strengths + strengths.T).tocsr()
    walked = (sym + walk * (sym @ sym)).tocsr() if walk > 0 else sym.tocsr()
    # Sorted as the sums below would sort it (8 s of a 30 s build when COO sorts 33 million
    # entries itself); the same order, so the same numbers.
    walked.sort_indices()
    walked = walked.tocoo()
    total = walked.sum()
    row_sum = np.asarray(walked.sum(axis=1)).ravel()
    col_sum = np.asarray(walked.sum(axis=0)).ravel()
    pmi = np.log(walked.data * total / (row_sum[walked.row] * col_sum[walked.col]))
    keep = pmi > 0
    ppmi = sp.csr_matrix((pmi[keep], (walked.row[keep], walked.col[keep])), shape=walked.shape)
    k = min(dims, min(ppmi.shape) - 1)
    u, s, _ = randomized_svd(ppmi, k, n_iter=iterations, random_state=0)
    return np.asarray(u * np.sqrt(s), dtype=np.float32)


def shipped_key(counts_sha256: str, min_degree: int = MIN_DEGREE, dims: int = DIMS, walk: float = WALK) -> dict:
    """What the shipped vectors (``SHIPPED_PATH``) were built from: used only for these counts
    and settings; the library versions they were built with are provenance, not key."""
    return {"model": "eat", "counts_sha256": counts_sha256, "min_degree": int(min_degree), "walk": float(walk),
            "dims": int(dims), "svd_iterations": SVD_ITERATIONS}


@lru_cache(maxsize=8)
def _table(path: str, min_degree: int = MIN_DEGREE, dims: int = DIMS, walk: float = WALK) -> tuple[StaticTable, dict]:
    """The vectors and their words, built once and cached under the counts file's hash: a
    later start reads two cache files instead of parsing 310,000 pairs (about a second)."""
    try:
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        raise EmbeddingError(f"eat: no association counts at {path}: run scripts/build_association_data.py") from None
    except OSError as exc:
        raise EmbeddingError(f"eat: cannot read {path} ({exc})") from None
    graph: dict = {}

    def build_graph() -> list[str]:
        rows, _ = read_counts(Path(path))
        words, graph["counts"] = graph_words(rows, min_degree)
        return words

    shipped = read_shipped(SHIPPED_PATH, shipped_key(digest, min_degree, dims, walk))
    if shipped is not None:
        words = [str(w) for w in shipped["words"]]
        return StaticTable({w: i for i, w in enumerate(words)}, unit_rows(shipped["vectors"])), {"counts_sha256": digest}
    key = {"model": "eat", "counts_sha256": digest, "min_degree": min_degree, "walk": walk, "dims": dims,
           "svd_iterations": SVD_ITERATIONS, "scikit-learn": version("scikit-learn"), "scipy": version("scipy")}
    words = load_or_build_json("eat-words", {"counts_sha256": digest, "min_degree": min_degree}, build_graph)
    dims = min(dims, len(words) - 1)

    def build_vectors() -> np.ndarray:
        if "counts" not in graph:
            build_graph()
        return association_vectors(graph["counts"], dims, walk)

    matrix, _ = load_or_build("eat-associations", key, (len(words), dims), build_vectors)
    return StaticTable({w: i for i, w in enumerate(words)}, unit_rows(matrix)), {"counts_sha256": digest}


@lru_cache(maxsize=200_000)
def _lemmas(word: str) -> tuple[str, ...]:
    from lemminflect import getLemma

    out: list[str] = []
    for pos in ("NOUN", "VERB", "ADJ"):
        for lemma in getLemma(word, upos=pos) or ():
            if lemma != word and lemma not in out:
                out.append(lemma)
    return tuple(out)


class AssociationEmbedding(KeyedVectorsEmbedding):
    """Cosine similarity of association-graph vectors; unknown words read as no association."""

    def __init__(self, vocabulary: Vocabulary, path: Path | None = None, *, min_degree: int = MIN_DEGREE,
                 dims: int = DIMS, walk: float = WALK) -> None:
        """``min_degree``, ``dims``, ``walk``: the graph's settings (the defaults are what the
        reader was fitted with; ``experiments/eat_variants.py`` compares others)."""
        path = Path(path) if path is not None else association_path()
        table, meta = _table(str(path), int(min_degree), int(dims), float(walk))
        super().__init__("eat", table, vocabulary, {"path": str(path), **meta},
                         "Edinburgh Associative Thesaurus: people's free associations, graph vectors")

    def _row(self, word: str) -> int | None:
        row = self.kv.key_to_index.get(word)
        if row is None:
            for lemma in _lemmas(word):
                row = self.kv.key_to_index.get(lemma)
                if row is not None:
                    break
        return row

    def knows(self, word: str) -> bool:
        (word,) = clean_words([word])
        return self._row(word) is not None or bool(self._part_rows(word))

    def reads(self, word: str) -> bool:
        return True  # an unknown word is read as "no association known" (a zero vector)

    def unreadable(self, word: str) -> bool:
        return False

    def _fallback(self, word: str) -> np.ndarray:
        parts = self._part_rows(word)
        if parts:
            return unit_rows(self.kv.vectors[parts]).mean(axis=0)
        return np.zeros(self.dim, dtype=np.float32)

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        words = clean_words(words)
        out = np.empty((len(words), self.dim), dtype=np.float32)
        for i, w in enumerate(words):
            row = self._row(w)
            out[i] = self.kv.vectors[row] if row is not None else self._fallback(w)
        return unit_rows(out)
