"""People's direct free associations between two words, as a link of its own.

Why apart from the ``eat`` vectors (:mod:`.association_backend`): the vectors smooth the
thesaurus into 200 dimensions, and a direct answer is lost in the smoothing. 15 of about 100
people answered ISLAND to TREASURE (Treasure Island), yet the human reader gave ISLAND no
share of TREASURE: 2 and a sudden death was lost on the card that clue left open. The link
here is the thesaurus's own number: the share of a cue's answers that named the other word,
either way round (the larger), over the words' lemmas (FROGS answers for FROG).

The counts are those the ``eat`` model reads (``data/eat_associations.tsv.gz``, Edinburgh
Associative Thesaurus, Kiss et al. 1973; see ``data/README.md``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

__all__ = ["AssociationLinks", "association_links"]


@lru_cache(maxsize=200_000)
def _forms(word: str) -> tuple[str, ...]:
    """The word in lower case and its lemmas (any part of speech)."""
    from lemminflect import getAllLemmas

    w = word.lower().strip()
    out = {w}
    if " " not in w:
        for forms in getAllLemmas(w).values():
            out.update(forms)
    return tuple(sorted(out))


class AssociationLinks:
    """Word -> {other word: the larger share of either's answers that named the other}."""

    def __init__(self, strengths: dict[str, dict[str, float]]) -> None:
        self._strengths = strengths
        self._lock = threading.Lock()
        self._clue_rows: dict[tuple[str, ...], dict[str, list[int]]] = {}

    def __len__(self) -> int:
        return len(self._strengths)

    def linked(self, word: str) -> dict[str, float]:
        """Every word linked to ``word`` (any of its forms), with the link's strength."""
        out: dict[str, float] = {}
        for form in _forms(word):
            for other, s in self._strengths.get(form, {}).items():
                if s > out.get(other, 0.0):
                    out[other] = s
        return out

    def link(self, a: str, b: str) -> float:
        return float(self.links([a], [b])[0, 0])

    def links(self, clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
        """(clues, cards) float32: the strongest link between each clue's forms and each
        card's (0: no one named either for the other). A long list of clues (a spymaster's
        vocabulary) is indexed once per process."""
        out = np.zeros((len(clues), len(cards)), dtype=np.float32)
        rows = self._rows(clues)
        for j, card in enumerate(cards):
            for other, s in self.linked(card).items():
                for i in rows.get(other, ()):
                    if s > out[i, j]:
                        out[i, j] = s
        return out

    def _rows(self, clues: Sequence[str]) -> dict[str, list[int]]:
        """Each form of the clues -> the rows that hold it; a long list's answer is kept."""

        def index(words: Sequence[str]) -> dict[str, list[int]]:
            by_form: dict[str, list[int]] = {}
            for i, c in enumerate(words):
                for f in _forms(c):
                    by_form.setdefault(f, []).append(i)
            return by_form

        if len(clues) < 100:
            return index(clues)
        key = tuple(clues)
        with self._lock:
            hit = self._clue_rows.get(key)
        if hit is None:
            hit = index(key)
            with self._lock:
                self._clue_rows[key] = hit
                while len(self._clue_rows) > 4:
                    self._clue_rows.pop(next(iter(self._clue_rows)))
        return hit


_LINKS: AssociationLinks | None = None
_LINKS_LOCK = threading.Lock()


def association_links() -> AssociationLinks:
    """The process's links, read once from the thesaurus counts the ``eat`` model reads."""
    global _LINKS
    with _LINKS_LOCK:
        if _LINKS is None:
            from .association_backend import association_path, read_counts

            rows, _ = read_counts(association_path())
            totals: dict[str, int] = {}
            for cue, _, count in rows:
                totals[cue] = totals.get(cue, 0) + count
            strengths: dict[str, dict[str, float]] = {}
            for cue, response, count in rows:
                share = count / totals[cue]
                for a in _forms(cue):
                    for b in _forms(response):
                        if a == b:
                            continue
                        for x, y in ((a, b), (b, a)):
                            row = strengths.setdefault(x, {})
                            if share > row.get(y, 0.0):
                                row[y] = share
            _LINKS = AssociationLinks(strengths)
        return _LINKS
