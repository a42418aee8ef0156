"""Meaning in other languages through a speaker's glossary: a word is read as its English senses.

Why: the one multilingual model here (e5-small) reads single Vietnamese and Persian words by
their letters and subwords (PHÚC -> CÚP, شکست -> بشکه), and no tuning makes it read meaning.
The English models and the reader fitted to people's play do read meaning. A glossary written
by a speaker (``spymaster_ai/data/glossary_<lang>.tsv``: each card, common clue word and
further word a person may type or meet on another edition's board, with its English senses,
the commonest first) carries a word to those senses, and a
:class:`GlossedEmbedding` scores two words as their closest pair of senses under an English
model. Spelling then never links two words: CỌP and HỔ meet as "tiger", PHÚC and CÚP not at all.

A word outside the glossary has no vector: every similarity to it is 0, which the reader's
features treat as "this model says nothing" (see ``agents/human/features.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Sequence

import numpy as np

from .base import Embedding, EmbeddingError, VectorEmbedding

__all__ = ["GLOSSED_LANGUAGES", "GlossedEmbedding", "Glossary", "glossary", "glossary_key"]

GLOSSED_LANGUAGES = ("de", "vi", "fa")
# A word's later senses count a little less than its first: CHÈ is "sweet soup" before "tea".
SENSE_DISCOUNT = 0.05
# Each sense is read with this share of the mean of the word's other senses added (0: each
# sense alone). Why: an English sense word may be a pun that the word's other senses rule out:
# SENDER "channel|station|transmitter" met ZUG through "station", BỜ "bank|shore|edge" met
# NGÂN HÀNG through "bank" (playtests of 2026-12-06). At 0.5 a blind Vietnamese reader followed
# 19 of the AI's 40 first clues against 15 (4 boards better, none worse) and found 1.73 greens
# a clue against 1.60; the mirror won 124 of 500 against 130 (49/43 discordant); the meaning-link
# sets read as before (experiments/results/lang_clue_judge.md).
SENSE_BLEND = 0.5
# True: an English sense of several words ("shaved ice", "pipe organ") is read only by the
# models that read phrases (``Embedding.reads_phrases``), not as its words' average, where a
# word of the phrase links on its own (LUNGE met ORGEL "pipe organ" through "organ", ĐÁ BÀO
# "shaved ice" met RÂU through "shave", playtests of 2026-12-06). Off: the glossaries' modifiers
# are what tell "black pepper" from pepper and "railway train" from train in the word models;
# without them the Vietnamese mirror won 63 of 500 against 124, blind readers followed the
# first clues about as often (vi 23 against 18 of 40, de 19 against 19) and found fewer greens a
# clue, and the meaning-link sets read 107 against 111 of 120 (lang_clue_judge.md, round 4).
PHRASES_ONLY_IN_PHRASE_MODELS = False


def glossary_key(lang: str, word: str) -> str:
    """How a word is looked up: written as the rules write it (Persian: also without ZWNJ)."""
    from ..rules.lang.normalise import fa_key, normalise

    return fa_key(word) if lang == "fa" else normalise(lang, word)


@dataclass(frozen=True, eq=False)
class Glossary:
    """A language's cards and common clue words with their English senses (a speaker's list)."""

    lang: str
    words: tuple[str, ...]  # the clue vocabulary as written: cards, then clue words, in file order
    senses: dict[str, tuple[str, ...]]  # key -> English senses, commonest first
    cards: tuple[str, ...]

    def senses_of(self, word: str) -> tuple[str, ...]:
        """The word's English senses, or those of the glossary word it is a form of (German
        HUNDE -> HUND, STRASSE -> STRAßE; Persian کتابها -> کتاب; Vietnamese typed without its
        marks, when only one card or clue word spells so, else only one read word); () if none."""
        key = glossary_key(self.lang, word)
        found = self.senses.get(key)
        if found is None:
            base = self._base_form(key)
            found = self.senses.get(base, ()) if base else ()
        return found

    def _base_form(self, key: str) -> str | None:
        return _base_form(self, key)

    def __contains__(self, word: str) -> bool:
        return bool(self.senses_of(word))


@lru_cache(maxsize=1 << 15)
def _base_form(gloss: "Glossary", key: str) -> str | None:
    """The glossary key ``key`` is a form or a keyboard spelling of, if exactly one."""
    lang = gloss.lang
    if lang == "de":
        import simplemma

        from ..rules.lang.normalise import de_fold

        lemma = simplemma.lemmatize(key, lang="de").lower()
        if lemma in gloss.senses:
            return lemma
        # read as a noun too (capitalised): a German playtester's TRÄNEN was unknown, simplemma
        # reading "tränen" as a verb; BÄUME went to the verb "bäumen"
        from ..rules.lang.german import lemmas

        nouns = sorted(w for w in lemmas(key) if w != key and w in gloss.senses)
        if len(nouns) == 1:
            return nouns[0]
        folded = _folded(gloss).get(de_fold(key), ())
        return folded[0] if len(folded) == 1 else None
    if lang == "fa":
        from ..rules.lang.persian import _stems

        stems = [s for s in _stems(key) if s in gloss.senses]
        return stems[0] if len(stems) == 1 else None
    if lang == "vi":
        from ..rules.lang.vietnamese import strip_marks

        if strip_marks(key) != key:  # typed with marks: a word of its own, or the other tone placement
            from ..rules.lang.normalise import vi_tone_key

            found = _tone_placed(gloss).get(vi_tone_key(key), ())
            return found[0] if len(found) == 1 else None
        found = _stripped(gloss).get(key, ())
        return found[0] if len(found) == 1 else None
    return None


def _keys_by(gloss: "Glossary", spelling) -> dict[str, tuple[str, ...]]:
    """The glossary's keys grouped by another spelling of them (``spelling(key)``)."""
    out: dict[str, list[str]] = {}
    for key in gloss.senses:
        out.setdefault(spelling(key), []).append(key)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=8)
def _folded(gloss: "Glossary") -> dict[str, tuple[str, ...]]:
    """Keys by their German ae/oe/ue/ss folding."""
    from ..rules.lang.normalise import de_fold

    return _keys_by(gloss, de_fold)


@lru_cache(maxsize=8)
def _tone_placed(gloss: "Glossary") -> dict[str, tuple[str, ...]]:
    """Keys by their tone-placement-free form: "hoà bình" finds "hòa bình" (RULES.md §4)."""
    from ..rules.lang.normalise import vi_tone_key

    return _keys_by(gloss, vi_tone_key)


@lru_cache(maxsize=8)
def _stripped(gloss: "Glossary") -> dict[str, tuple[str, ...]]:
    """Keys by their spelling without Vietnamese marks; cards and clue words first, so a
    rarer read word (BỤT) never hides BÚT."""
    from ..rules.lang.vietnamese import strip_marks

    given = set(gloss.words)
    return {k: tuple(w for w in v if w in given) or v for k, v in _keys_by(gloss, strip_marks).items()}


def parse_glossary(lang: str, text: str, source: str = "glossary") -> Glossary:
    """A glossary from its TSV text: ``word<TAB>kind<TAB>sense|sense...``; ``#`` lines are
    comments. Kinds: ``card`` (a card of this language's list), ``clue`` (a word the AI may
    give as a clue) and ``read`` (a word it understands when a person types it or a board
    holds it, but never gives: rarer, regional or culture-bound words). A malformed line is
    an error naming it."""
    from ..rules.lang.normalise import normalise

    words: list[str] = []
    cards: list[str] = []
    senses: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in ("card", "clue", "read"):
            raise EmbeddingError(f"{source} line {number}: expected word<TAB>card|clue|read<TAB>senses, got {line[:60]!r}")
        word = normalise(lang, parts[0])
        found = tuple(dict.fromkeys(s.strip().lower() for s in parts[2].split("|") if s.strip()))
        if not word or not found:
            raise EmbeddingError(f"{source} line {number}: a word and at least one English sense are needed")
        key = glossary_key(lang, word)
        if key in senses:
            raise EmbeddingError(f"{source} line {number}: {word!r} is listed twice")
        senses[key] = found
        if parts[1] != "read":
            words.append(word)
        if parts[1] == "card":
            cards.append(word)
    return Glossary(lang, tuple(words), senses, tuple(cards))


@lru_cache(maxsize=None)
def glossary(lang: str) -> Glossary:
    """The shipped glossary of ``lang`` (see ``data/README.md`` for who wrote it)."""
    if lang not in GLOSSED_LANGUAGES:
        raise EmbeddingError(f"no glossary for {lang!r}; there are: {', '.join(GLOSSED_LANGUAGES)}")
    name = f"glossary_{lang}.tsv"
    text = (resources.files("spymaster_ai") / "data" / name).read_text(encoding="utf-8")
    return parse_glossary(lang, text, name)


def _blend(vectors: np.ndarray, owner: np.ndarray, weight: float) -> np.ndarray:
    """Each sense's unit vector plus ``weight`` times the mean of its word's other senses,
    renormalised (a word of one sense keeps its vector)."""
    if weight <= 0 or not len(owner):
        return vectors
    sums = np.zeros((int(owner.max()) + 1, vectors.shape[1]), dtype=np.float64)
    np.add.at(sums, owner, vectors)
    counts = np.bincount(owner)[owner]
    others = (sums[owner] - vectors) / np.maximum(counts - 1, 1)[:, None]
    out = vectors + weight * others * (counts > 1)[:, None]
    return (out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)).astype(np.float32)


class GlossedEmbedding(Embedding):
    """An English model reading another language through its glossary (see the module docstring).

    ``similarity(a, b)`` is, for each pair, the best English similarity between a sense of
    ``a`` and a sense of ``b``, each sense leaning ``SENSE_BLEND`` towards its word's other
    senses (later senses less ``SENSE_DISCOUNT`` each); a word with no
    senses scores 0 against everything. The clue vocabulary is the glossary's words.
    """

    def __init__(self, english: Embedding, gloss: Glossary) -> None:
        self.english = english
        self.gloss = gloss
        self.lang = gloss.lang
        self.name = f"{english.name}"
        self._vocabulary = gloss.words
        self._sense_rows: dict[str, np.ndarray] = {}  # English sense -> unit vector

    def clue_vocabulary(self) -> tuple[str, ...]:
        return self._vocabulary

    def knows(self, word: str) -> bool:
        return word in self.gloss

    def reads(self, word: str) -> bool:
        return word in self.gloss

    def _vectors(self, senses: Sequence[str]) -> np.ndarray:
        """Unit vectors of English senses, computed once each (the English model's own)."""
        missing = [s for s in dict.fromkeys(senses) if s not in self._sense_rows]
        if missing:
            if isinstance(self.english, VectorEmbedding):
                rows = self.english.vectors(missing)
            else:  # a model without vectors: its similarities to every sense seen so far
                raise EmbeddingError(f"{self.english.name}: a glossed model needs an English model with vectors")
            for s, row in zip(missing, np.asarray(rows, dtype=np.float32)):
                self._sense_rows[s] = row
        if not senses:
            return np.zeros((0, getattr(self.english, "dim", 1)), dtype=np.float32)
        return np.stack([self._sense_rows[s] for s in senses])

    def _expand(self, words: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """Every word's senses laid end to end: (senses, owner row, discount, words with senses)."""
        flat: list[str] = []
        owner: list[int] = []
        discount: list[float] = []
        has = np.zeros(len(words), dtype=bool)
        whole = not PHRASES_ONLY_IN_PHRASE_MODELS or getattr(self.english, "reads_phrases", False)
        for i, word in enumerate(words):
            for rank, sense in enumerate(self.gloss.senses_of(word)):
                if not whole and " " in sense:
                    continue
                flat.append(sense)
                owner.append(i)
                discount.append(SENSE_DISCOUNT * rank)
                has[i] = True
        return flat, np.array(owner, dtype=np.intp), np.array(discount, dtype=np.float32), has

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
        rows, cols = list(rows), list(cols)
        out = np.zeros((len(rows), len(cols)), dtype=np.float32)
        r_senses, r_owner, r_disc, r_has = self._expand(rows)
        c_senses, c_owner, c_disc, c_has = self._expand(cols)
        if not r_senses or not c_senses:
            return out
        sims = _blend(self._vectors(r_senses), r_owner, SENSE_BLEND) @ _blend(self._vectors(c_senses), c_owner, SENSE_BLEND).T
        sims = sims - r_disc[:, None] - c_disc[None, :]
        # the best sense pair of every word pair: max over each word's run of senses
        r_start = np.flatnonzero(np.r_[True, r_owner[1:] != r_owner[:-1]])
        c_start = np.flatnonzero(np.r_[True, c_owner[1:] != c_owner[:-1]])
        best = np.maximum.reduceat(np.maximum.reduceat(sims, r_start, axis=0), c_start, axis=1)
        out[np.ix_(r_owner[r_start], c_owner[c_start])] = best
        return out

    def describe(self) -> dict:
        return {**super().describe(), "english": self.english.name, "glossary": f"glossary_{self.lang}.tsv"}
