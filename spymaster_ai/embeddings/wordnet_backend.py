"""WordNet as a similarity model: a knowledge graph, not a corpus model.

Every other backend learns from running text, so they share blind spots and quirks. WordNet
(Princeton 3.0, Debian's ``wordnet-base``, read with NLTK) links words through meaning:
synonyms, kinds (hypernyms, hyponyms), parts and wholes, derived forms and the words of each
sense's gloss. A word becomes a sparse bag of those concepts, each sense weighted by how often
people use it (WordNet's SemCor counts), weighted by TF-IDF over the clue vocabulary; the
similarity of two words is the square root of the cosine of their bags. "piano" lands next to
keyboard, pianist, guitar and accordion; "berlin" next to germany and bonn.

Why have it: it is a partner whose way of reading no corpus model shares, so cross-play
with it measures how far a spymaster's clues carry beyond one family (experiments table 2b).
As a sixth partner model of the robust spymaster it lowered the Duet figure for the corpus
guessers (``experiments/results/leave_one_out_wordnet.md``), so it is not in the default pool.

Each word's bag depends on the word alone (every list of linked senses sorted, since NLTK
keeps them in hash-ordered sets); the IDF weights are fixed by the clue vocabulary, so a
word's similarities are the same in every process and whatever else is asked with it.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.feature_extraction.text import TfidfTransformer

from .base import Embedding, EmbeddingError, TupleRowCache, clean_words
from .cache import cache_root
from .encoded import progress_bar
from .vocabulary import Vocabulary, stopwords

WORDNET_ENV = "SPYMASTER_AI_WORDNET"
DEBIAN_WORDNET = Path("/usr/share/wordnet")
WORDNET_INSTALL = "apt-get install wordnet-base wordnet-sense-index (Debian's WordNet 3.0) and pip install nltk"

# Senses of a word read (WordNet lists the commonest first); a rare sense adds little.
MAX_SENSES = 12
# How much each relation of a sense adds to the word's bag, relative to the sense itself.
LEMMA_WEIGHT = 0.6        # the sense's other words (synonyms)
GLOSS_WEIGHT = 0.4        # the content words of its definition and examples
HYPERNYM_WEIGHT = 0.7     # its kind (and 0.35 for the kind's kind)
HYPONYM_WEIGHT = 0.5      # its kinds, shared out when there are many
LINK_WEIGHT = 0.6         # parts, wholes, members, similar, attributes, domains, entailments
DERIVED_WEIGHT = 0.5      # derivationally related forms and pertainyms
NEIGHBOUR_WORD_WEIGHT = 0.3  # the first words of each related sense

# WordNet's 45 lexicographer files; NLTK needs this index, which Debian does not ship.
_LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)
_DATABASE_FILES = ("data.noun", "data.verb", "data.adj", "data.adv", "index.noun", "index.verb",
                   "index.adj", "index.adv", "noun.exc", "verb.exc", "adj.exc", "adv.exc",
                   "index.sense", "cntlist.rev")
_TOKEN = re.compile(r"[a-z]+")
_PARTS = re.compile(r"[\s\-]+")


def wordnet_source() -> Path:
    """The WordNet database folder: ``$SPYMASTER_AI_WORDNET`` or Debian's."""
    override = os.environ.get(WORDNET_ENV)
    return Path(override).expanduser() if override else DEBIAN_WORDNET


def wordnet_installed() -> bool:
    import importlib.util

    source = wordnet_source()
    return importlib.util.find_spec("nltk") is not None and all(
        (source / name).is_file() for name in _DATABASE_FILES)


def _lexname_file() -> str:
    pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
    return "".join(f"{i:02d}\t{name}\t{pos[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES))


def _corpus_folder(source: Path) -> Path:
    """A copy of the database NLTK can read: ``<cache>/nltk_data/corpora/wordnet`` with the
    lexicographer index added (copied once; refreshed when a source file changed size)."""
    root = cache_root() / "nltk_data"
    folder = root / "corpora" / "wordnet"
    folder.mkdir(parents=True, exist_ok=True)
    for name in _DATABASE_FILES:
        src, dst = source / name, folder / name
        if not src.is_file():
            raise EmbeddingError(f"wordnet: {src} is missing; install it with: {WORDNET_INSTALL}")
        if not dst.is_file() or dst.stat().st_size != src.stat().st_size:
            tmp = dst.with_suffix(dst.suffix + f".{os.getpid()}.tmp")
            shutil.copyfile(src, tmp)
            os.replace(tmp, dst)
    lexnames = folder / "lexnames"
    if not lexnames.is_file():
        tmp = folder / f"lexnames.{os.getpid()}.tmp"
        tmp.write_text(_lexname_file(), encoding="utf-8")
        os.replace(tmp, lexnames)
    return folder


def _open_reader(source: Path) -> Any:
    import warnings

    try:
        import nltk
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError as exc:
        raise EmbeddingError(f"wordnet: cannot import nltk: {WORDNET_INSTALL}") from exc
    folder = _corpus_folder(source)
    data_root = str(folder.parent.parent)
    if data_root not in nltk.data.path:  # NLTK reads corpora only under its data path
        nltk.data.path.insert(0, data_root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        return WordNetCorpusReader(str(folder), None)


def _sense_counts(path: Path) -> dict[str, int]:
    """Sense key -> how often the sense was tagged in SemCor (``cntlist.rev``), read once:
    NLTK's ``Lemma.count`` searches the file anew for every lemma."""
    counts: dict[str, int] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            parts = line.split()
            if len(parts) == 3:
                counts[parts[0]] = int(parts[2])
    return counts


class WordNetEmbedding(Embedding):
    """Cosine of TF-IDF weighted bags of WordNet concepts (see the module docstring)."""

    def __init__(self, vocabulary: Vocabulary, source: Path | None = None) -> None:
        from importlib.metadata import version

        self.name = "wordnet"
        self.source = source or wordnet_source()
        self.wn = _open_reader(self.source)
        self._sense_counts = _sense_counts(self.source / "cntlist.rev")
        self._stop = stopwords()
        self._lock = threading.RLock()
        self._bags: dict[str, dict[str, float] | None] = {}
        self._gloss: dict[Any, list[str]] = {}
        self._row_cache = TupleRowCache()
        self.identity = {"package": "nltk", "version": version("nltk"), "source": str(self.source)}
        self.description = "WordNet 3.0 concepts (synonyms, kinds, parts, glosses), TF-IDF cosine"
        words = list(vocabulary.words)
        known = []
        with progress_bar(f"reading {len(words)} words from WordNet", len(words)) as advance:
            for start in range(0, len(words), 500):
                known += [w for w in words[start:start + 500] if self._bag(w) is not None]
                advance(len(words[start:start + 500]))
        self._vocab = tuple(known)
        if not self._vocab:
            raise EmbeddingError("wordnet: no vocabulary word is in WordNet")
        # Concepts and their IDF weights are fixed by the clue vocabulary: a concept no clue
        # has is dropped from every other word's bag too (no clue could share it).
        documents = [self._bag(w) for w in self._vocab]
        self._concepts = DictVectorizer(dtype=np.float64).fit(documents)
        self._tfidf = TfidfTransformer().fit(self._concepts.transform(documents))
        self._vocab_matrix = self._sparse(list(self._vocab))

    # -- the bag of concepts of one word -------------------------------------------------------

    def _gloss_words(self, synset: Any) -> list[str]:
        words = self._gloss.get(synset)
        if words is None:
            text = " ".join([synset.definition(), *synset.examples()]).lower()
            words = [self.wn.morphy(t) or t for t in _TOKEN.findall(text) if len(t) > 2 and t not in self._stop]
            self._gloss[synset] = words
        return words

    @staticmethod
    def _related(synset: Any) -> list[tuple[Any, float]]:
        """The senses linked to ``synset``, each with its strength. NLTK keeps a synset's
        links in sets, whose order changes with Python's string hashing from one process to
        the next; every list is sorted by name here, so a word's bag (and the order its
        weights are summed in) is the same in every process."""
        def by_name(synsets: list[Any]) -> list[Any]:
            return sorted(synsets, key=lambda s: s.name())

        out: list[tuple[Any, float]] = []
        for kind in by_name(synset.hypernyms() + synset.instance_hypernyms()):
            out.append((kind, HYPERNYM_WEIGHT))
            out.extend((k, HYPERNYM_WEIGHT / 2) for k in by_name(kind.hypernyms() + kind.instance_hypernyms()))
        kinds = by_name(synset.hyponyms() + synset.instance_hyponyms())
        share = HYPONYM_WEIGHT / np.sqrt(max(1.0, len(kinds) / 4))
        out.extend((k, share) for k in kinds)
        links = by_name(synset.part_meronyms() + synset.member_meronyms() + synset.substance_meronyms()
                        + synset.part_holonyms() + synset.member_holonyms() + synset.substance_holonyms()
                        + synset.similar_tos() + synset.also_sees() + synset.attributes()
                        + synset.entailments() + synset.causes() + synset.verb_groups()
                        + synset.topic_domains() + synset.region_domains())
        links += by_name(synset.in_topic_domains())[:30]
        out.extend((s, LINK_WEIGHT) for s in links)
        for lemma in synset.lemmas():
            derived = by_name([d.synset() for d in lemma.derivationally_related_forms() + lemma.pertainyms()])
            out.extend((d, DERIVED_WEIGHT) for d in derived)
        return out

    def _senses(self, word: str) -> list[tuple[Any, float]]:
        """The word's senses with weights summing to one: SemCor counts (smoothed), or the
        order WordNet lists them in when no sense was counted."""
        key = word.replace(" ", "_")
        synsets = self.wn.synsets(key)[:MAX_SENSES]
        if not synsets:
            return []
        counts = [sum(self._sense_counts.get(lemma.key(), 0) for lemma in s.lemmas() if lemma.name().lower() == key)
                  for s in synsets]
        if sum(counts):
            raw = [c + 0.3 for c in counts]
        else:
            raw = [1.0 / (1 + rank) for rank in range(len(synsets))]
        total = sum(raw)
        return [(s, r / total) for s, r in zip(synsets, raw)]

    def _bag(self, word: str) -> dict[str, float] | None:
        """Concept -> raw weight for ``word``; a phrase WordNet lacks ("loch ness") is the sum
        of its parts' bags; None when WordNet knows no part of it."""
        with self._lock:
            if word in self._bags:
                return self._bags[word]
            bag: dict[str, float] = {}

            def add(feature: str, weight: float) -> None:
                bag[feature] = bag.get(feature, 0.0) + weight

            senses = self._senses(word)
            if senses:
                add("w:" + word, 1.0)
                for synset, weight in senses:
                    add("s:" + synset.name(), weight)
                    for lemma in synset.lemma_names():
                        add("w:" + lemma.lower().replace("_", " "), LEMMA_WEIGHT * weight)
                    for gloss_word in self._gloss_words(synset):
                        add("w:" + gloss_word, GLOSS_WEIGHT * weight)
                    for other, strength in self._related(synset):
                        add("s:" + other.name(), strength * weight)
                        for lemma in other.lemma_names()[:3]:
                            add("w:" + lemma.lower().replace("_", " "), NEIGHBOUR_WORD_WEIGHT * strength * weight)
            else:
                parts = [p for p in _PARTS.split(word) if p]
                if len(parts) > 1:
                    for part in parts:
                        for feature, weight in (self._bag(part) or {}).items():
                            add(feature, weight)
            result = bag or None
            self._bags[word] = result
            return result

    # -- similarities ---------------------------------------------------------------------------

    def _sparse(self, words: list[str]) -> Any:
        """Unit-length TF-IDF rows (scipy CSR) over the vocabulary's concepts; a word
        WordNet cannot read is an all-zero row."""
        return self._tfidf.transform(self._concepts.transform([self._bag(w) or {} for w in words]))

    def _rows(self, words: Sequence[str]) -> Any:
        """Sparse rows of ``words``; a long tuple asked again (an agent's candidate clues)
        is built once."""
        cacheable = self._row_cache.applies(words)
        if cacheable:
            with self._lock:
                hit = self._row_cache.get(words)  # type: ignore[arg-type]
            if hit is not None:
                return hit
        cleaned = clean_words(words)
        if len(cleaned) == len(self._vocab) and tuple(cleaned) == self._vocab:
            matrix = self._vocab_matrix
        else:
            matrix = self._sparse(cleaned)
        if cacheable:
            with self._lock:
                self._row_cache.put(words, matrix)  # type: ignore[arg-type]
        return matrix

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        """The square root of the bags' cosine: most pairs share no concept (0) and a few
        share many, so the root keeps the scale of a related pair within the range the
        agents' softmax expects."""
        cosine = (self._rows(rows) @ self._rows(cols).T).toarray()
        return np.sqrt(np.clip(cosine, 0.0, None)).astype(np.float32)

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocab

    def knows(self, word: str) -> bool:
        (word,) = clean_words([word])
        return bool(self._senses(word))

    def reads(self, word: str) -> bool:
        (word,) = clean_words([word])
        return self._bag(word) is not None

    def unreadable(self, word: str) -> bool:
        return not self.reads(word)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "source": str(self.source), "concepts": len(self._concepts.vocabulary_)}

