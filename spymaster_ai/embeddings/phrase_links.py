"""Words linked through a set phrase, an idiom, a title or a story.

Why: people read clues through phrases: EYE for STORM (eye of the storm), BATTEN for HATCH
(batten down the hatches), JACK for LANTERN (jack-o'-lantern). The reader's models place a
word near words of like meaning or use, and a phrase's other word is often not one (issue
39: a person's EYE was read as PEACOCK). This index says only whether two words stand in one
phrase:

* **Together in a phrase** (strength 1; 2 / n for a saying of n > 2 content words): two
  content words of one multiword lemma of WordNet (Debian's ``wordnet-base``:
  ``private_eye``, ``jack-o'-lantern``, ``robin_hood``; 69,000 in all) or of one idiom of
  the shipped list ``data/idioms_en.txt`` (npm ``idioms`` 0.0.2, MIT, 7,272 idioms:
  ``batten down the hatches``, ``the eye of the storm``);
* **In what the phrase means** (strength ``GLOSS_STRENGTH``): a content word of a multiword
  lemma and the first ``GLOSS_NOUNS`` nouns of its gloss's first clause (EYE and DETECTIVE:
  private eye, "someone who can be employed as a detective"), or a name (WordNet's
  capitalised lemmas, whose glosses tell a story) and the first ``NAME_NOUNS`` nouns of its
  gloss (ALADDIN: "a boy who acquires a magic lamp from which he can summon a genie").

Words are compared by their lemma (lemminflect: HATCHES is HATCH), and a link joins content
words only: no stopword, nothing under three letters, and no word that glues more than
``MAX_PHRASES`` phrases together (``genus``, ``family``: Latin names, not phrases people know).
A card of several words (ICE CREAM) is linked to a clue as strongly as its least linked word:
CASH MACHINE does not make CASH a clue for WASHING MACHINE.
Without WordNet (it is a Debian package) the index holds the idioms alone.

The index is built once per machine (4.4 s) and kept in the cache folder, keyed by the sources'
sizes and this module's settings; a later process reads it in 0.1 s, and its first lookup
loads lemminflect's tables (0.2 s). A board's 7,000 clue words are looked up in about 0.1 s.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = ["PhraseLinks", "phrase_links", "phrase_lemma", "content_words"]

IDIOMS_FILE = "idioms_en.txt"
GLOSS_STRENGTH = 0.5
GLOSS_NOUNS = 2  # a phrase's gloss names what it is first (private eye: detective)
NAME_NOUNS = 6  # a name's gloss tells its story (Aladdin: youth, lamp, ...)
MAX_PHRASES = 1000  # a word in more phrases than this is glue (genus, family: Latin names), not a link
MIN_LETTERS = 3
FORMAT = 1

_TOKEN = re.compile(r"[a-z]+")
_POS_FILES = ("noun", "verb", "adj", "adv")


@lru_cache(maxsize=200_000)
def phrase_lemma(word: str) -> str:
    """The key a word is filed under: its lemma as a noun, else as a verb (HATCHES -> hatch,
    SPILLED -> spill), else itself."""
    from lemminflect import getLemma

    w = word.lower()
    for upos in ("NOUN", "VERB"):
        lemmas = getLemma(w, upos=upos, lemmatize_oov=False)
        if lemmas and lemmas[0] and lemmas[0] != w:
            return lemmas[0].lower()
    return w


@lru_cache(maxsize=1)
def _stop() -> frozenset[str]:
    from .vocabulary import stopwords

    return stopwords()


def content_words(text: str) -> list[str]:
    """The lemmas of ``text``'s content words, in order, each once ("sheep's" -> sheep)."""
    stop = _stop()
    out: list[str] = []
    for token in _TOKEN.findall(text.lower().replace("’", "'").replace("n't", "").replace("'s ", " ").replace("_", " ")):
        if len(token) < MIN_LETTERS or token in stop:
            continue
        lemma = phrase_lemma(token)
        if lemma not in stop and lemma not in out:
            out.append(lemma)
    return out


def _wordnet_entries(source: Path) -> Iterable[tuple[str, str, bool]]:
    """(lemma with underscores, its gloss's first clause, whether a name) for every lemma of
    WordNet's data files that is a phrase (several words) or a name."""
    for pos in _POS_FILES:
        path = source / f"data.{pos}"
        if not path.is_file():
            continue
        with open(path, encoding="latin-1") as lines:
            for line in lines:
                if line.startswith("  "):  # the licence header
                    continue
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                n = int(parts[3], 16)
                clause = gloss.split(";")[0].strip()
                for i in range(n):
                    lemma = re.sub(r"\(.*\)$", "", parts[4 + 2 * i])
                    multi = "_" in lemma or "-" in lemma
                    name = lemma[:1].isupper()
                    if multi or name:
                        yield lemma, clause, name and not multi


def _wordnet_nouns(source: Path) -> frozenset[str]:
    """WordNet's one-word nouns: a gloss's nouns say what a phrase is (its verbs and
    adjectives say how)."""
    with open(source / "index.noun", encoding="latin-1") as lines:
        heads = (line.split(" ", 1)[0] for line in lines if not line.startswith(" "))
        return frozenset(h for h in heads if "_" not in h)


def _idioms() -> list[str]:
    text = resources.files("spymaster_ai").joinpath("data", IDIOMS_FILE).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def build_pairs(wordnet: Path | None) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(words, rows, cols, strengths): every link once per direction, the strongest kept."""
    phrases: list[list[str]] = []  # content words standing together
    glosses: list[tuple[list[str], list[str]]] = []  # (the phrase's or name's words, its gloss's nouns)
    nouns = _wordnet_nouns(wordnet) if wordnet is not None else frozenset()
    if wordnet is not None:
        for lemma, clause, is_name in _wordnet_entries(wordnet):
            words = content_words(lemma)
            if not words:
                continue
            if len(words) >= 2:
                phrases.append(words)
            head = [w for w in content_words(clause) if w in nouns and w not in words][:NAME_NOUNS if is_name else GLOSS_NOUNS]
            if head:
                glosses.append((words, head))
    for idiom in _idioms():
        words = content_words(idiom)
        if len(words) >= 2:
            phrases.append(words)
    # glue: a word in very many phrases links nothing in particular
    uses = Counter(w for p in {tuple(p) for p in phrases} for w in p)
    glue = {w for w, n in uses.items() if n > MAX_PHRASES}
    links: dict[tuple[str, str], float] = {}

    def add(a: str, b: str, strength: float) -> None:
        if a == b or a in glue or b in glue:
            return
        for key in ((a, b), (b, a)):
            if links.get(key, 0.0) < strength:
                links[key] = strength

    for words in phrases:
        strength = min(1.0, 2.0 / len(words))  # a long saying links each pair of its words less
        for i, a in enumerate(words):
            for b in words[i + 1:]:
                add(a, b, strength)
    for words, head in glosses:
        for a in words:
            for b in head:
                add(a, b, GLOSS_STRENGTH)
    vocab = sorted({w for pair in links for w in pair})
    index = {w: i for i, w in enumerate(vocab)}
    keys = sorted(links)
    rows = np.array([index[a] for a, _ in keys], dtype=np.int32)
    cols = np.array([index[b] for _, b in keys], dtype=np.int32)
    vals = np.array([links[k] for k in keys], dtype=np.float32)
    return vocab, rows, cols, vals


class PhraseLinks:
    """The phrase index: ``links(clues, cards)`` gives each pair's strength (0 when none)."""

    def __init__(self, words: Sequence[str], rows: np.ndarray, cols: np.ndarray, vals: np.ndarray,
                 sources: Sequence[str] = ()) -> None:
        from scipy.sparse import csr_matrix

        self.words = list(words)
        self.sources = tuple(sources)
        self._index = {w: i for i, w in enumerate(self.words)}
        n = len(self.words)
        self._matrix = csr_matrix((vals, (rows, cols)), shape=(n, n), dtype=np.float32)
        self._matrix.sum_duplicates()  # canonical rows: each pair once (``links`` reads them raw)
        self._row = np.zeros(n, dtype=np.float32)  # scratch: one card's row, spread out
        self._clue_cache: dict[tuple[str, ...], np.ndarray] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many (ordered) word pairs are linked."""
        return int(self._matrix.nnz)

    def _ids(self, word: str) -> list[int]:
        """Index rows for a word (its lemma); -1 for a word the index does not hold."""
        keys = [phrase_lemma(word.lower())] if " " not in word.strip() else content_words(word)
        return [self._index.get(k, -1) for k in keys] or [-1]

    def linked(self, word: str) -> dict[str, float]:
        """Every word linked to ``word``, with its strength (for reading, not for play)."""
        out: dict[str, float] = {}
        for i in self._ids(word):
            if i < 0:
                continue
            row = self._matrix.getrow(i)
            for j, v in zip(row.indices, row.data):
                out[self.words[j]] = max(out.get(self.words[j], 0.0), float(v))
        return out

    def degrees(self, clues: Sequence[str]) -> np.ndarray:
        """(clues,) float32: how many words each clue is linked to (0: a word the index lacks).

        Why: a clue in hundreds of phrases (LINE, BALL) names no card through one; a clue in a
        few (BATTEN) does (``experiments/phrase_specificity.py``)."""
        ids = self._clue_ids(clues)
        per_row = np.diff(self._matrix.indptr).astype(np.float32)
        return np.where(ids >= 0, per_row[np.maximum(ids, 0)], 0.0).astype(np.float32)

    def link(self, a: str, b: str) -> float:
        return float(self.links([a], [b])[0, 0])

    def links(self, clues: Sequence[str], cards: Sequence[str]) -> np.ndarray:
        """(clues, cards) float32: the strongest phrase link of each clue to each card.

        Each card's row of the index is spread into a dense row once and read at every clue
        (a sparse column selection per card took 20 ms a board), and a long list of clues (a
        spymaster's vocabulary) is looked up once per process."""
        out = np.zeros((len(clues), len(cards)), dtype=np.float32)
        clue_ids = self._clue_ids(clues)
        known = np.flatnonzero(clue_ids >= 0)
        if not known.size:
            return out
        at = clue_ids[known]
        m = self._matrix
        with self._lock:
            for j, card in enumerate(cards):
                ids = self._ids(card)
                if min(ids) < 0:
                    continue
                col = None
                for i in ids:
                    lo, hi = m.indptr[i], m.indptr[i + 1]
                    self._row[m.indices[lo:hi]] = m.data[lo:hi]
                    row = self._row[at]
                    self._row[m.indices[lo:hi]] = 0.0
                    col = row if col is None else np.minimum(col, row)
                out[known, j] = col
        return out

    def _clue_ids(self, clues: Sequence[str]) -> np.ndarray:
        """Each clue's row of the index (-1: none); a long list's answer is kept."""
        if len(clues) < 100:
            return np.array([self._ids(c)[0] for c in clues], dtype=np.int64)  # a clue is one word
        key = tuple(clues)
        with self._lock:
            hit = self._clue_cache.get(key)
        if hit is None:
            hit = np.array([self._ids(c)[0] for c in key], dtype=np.int64)
            hit.setflags(write=False)
            with self._lock:
                self._clue_cache[key] = hit
                while len(self._clue_cache) > 4:
                    self._clue_cache.pop(next(iter(self._clue_cache)))
        return hit


def _source_key(wordnet: Path | None) -> dict:
    key: dict = {"format": FORMAT, "gloss": GLOSS_STRENGTH, "gloss_nouns": GLOSS_NOUNS, "name_nouns": NAME_NOUNS,
                 "max_phrases": MAX_PHRASES, "min_letters": MIN_LETTERS}
    idioms = resources.files("spymaster_ai").joinpath("data", IDIOMS_FILE).read_bytes()
    key["idioms_sha256"] = hashlib.sha256(idioms).hexdigest()
    if wordnet is not None:
        key["wordnet"] = {p: (wordnet / f"data.{p}").stat().st_size for p in _POS_FILES if (wordnet / f"data.{p}").is_file()}
    from importlib.metadata import version

    key["lemminflect"] = version("lemminflect")
    return key


def _wordnet_folder() -> Path | None:
    from .wordnet_backend import wordnet_source

    source = wordnet_source()
    return source if (source / "data.noun").is_file() and (source / "index.noun").is_file() else None


_LOCK = threading.Lock()
_SHARED: PhraseLinks | None = None


def phrase_links() -> PhraseLinks:
    """The process's phrase index, read from the cache folder or built there once."""
    global _SHARED
    with _LOCK:
        if _SHARED is None:
            from .cache import load_or_build_arrays

            wordnet = _wordnet_folder()
            key = _source_key(wordnet)

            def build() -> dict[str, np.ndarray]:
                words, rows, cols, vals = build_pairs(wordnet)
                return {"words": np.array(words), "rows": rows, "cols": cols, "vals": vals}

            arrays = load_or_build_arrays("phrase_links", key, build)
            sources = ("wordnet", "idioms") if wordnet is not None else ("idioms",)
            _SHARED = PhraseLinks([str(w) for w in arrays["words"]], arrays["rows"], arrays["cols"], arrays["vals"], sources)
        return _SHARED
