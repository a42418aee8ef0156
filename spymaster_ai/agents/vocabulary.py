"""The words a spymaster may say, and how common each one is.

Why a separate step: the clue vocabulary is fixed for an agent's lifetime, so filtering it
(one plain word that every model the agent consults can read) and looking up its
frequency prior happen once, not per game or per clue.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional, Protocol, Sequence

import numpy as np
from lemminflect import getAllLemmas
from wordfreq import zipf_frequency

# "Clues are real, common words": base forms of nouns, adjectives and verbs at least this
# frequent (Zipf 3.5 is about 3 per million words: "harbor", "pedal", "lettuce").
DEFAULT_MIN_ZIPF = 3.5
_CONTENT_POS = ("NOUN", "ADJ", "VERB")


class SimilarityModel(Protocol):
    """What the agents need from an embedding (``spymaster_ai.embeddings`` backends qualify)."""

    def similarity(self, rows: Sequence[str], cols: Sequence[str]) -> np.ndarray: ...

    def clue_vocabulary(self) -> tuple[str, ...]: ...

    def knows(self, word: str) -> bool: ...


def reads(model: SimilarityModel, word: str) -> bool:
    """``model.reads(word)`` where the model has it (see ``spymaster_ai.embeddings.Embedding``),
    else ``model.knows(word)``: a researcher's own model needs only the protocol above."""
    method = getattr(model, "reads", None)
    return bool(method(word)) if callable(method) else model.knows(word)


def cannot_read(model: SimilarityModel, word: str) -> bool:
    """Whether ``model`` knows no part of ``word`` (an invented card, for GloVe), so that its
    similarities there are noise; False for models that do not say (see ``Embedding.unreadable``)."""
    check = getattr(model, "unreadable", None)
    return bool(check(word)) if callable(check) else False


def is_clue_shaped(word: str, lang: str = "en") -> bool:
    """A plain lower-case ASCII word of two letters or more (other languages: letters of any
    script, with the spaces of a Vietnamese word and the ZWNJ of a Persian one).

    Single letters and digits are never clues (RULES.md §4.5). Stop words are the
    vocabulary's business (``spymaster_ai.embeddings`` filters its shared clue vocabulary).
    """
    if lang != "en":
        return len(word) >= 2 and word == word.lower() and all(c.isalpha() or c in " \u200c" for c in word)
    return len(word) >= 2 and word.isascii() and word.isalpha() and word.islower()


def model_language(model: SimilarityModel) -> str:
    """The language of a model's clue vocabulary ("en" for models that do not say)."""
    return str(getattr(model, "lang", "en"))


@lru_cache(maxsize=200_000)
def lemmas(word: str, lang: str = "en") -> frozenset[str]:
    """Every lemma lemminflect knows for ``word`` (any part of speech), the word itself included.

    Two words sharing one ("prototype", "prototypes"; "run", "running") are forms of one word.
    Other languages: the forms the legality rules give it (rules.lang: lemmas, suffixes, folds).
    """
    if lang != "en":
        from ..rules.lang.checks import analyse

        return analyse(lang, word).forms | {word}
    out = {word}
    for forms in getAllLemmas(word).values():
        out.update(forms)
    return frozenset(out)


@lru_cache(maxsize=200_000)
def is_base_form(word: str) -> bool:
    """True when lemminflect knows ``word`` as its own lemma as a noun, adjective or verb.

    Why: this keeps "highway", "captain", "fruit" and drops inflections ("highways",
    "captained") and most proper names ("nicholson", "paris"), which lemminflect does not list.
    """
    found = getAllLemmas(word)
    own = [pos for pos in _CONTENT_POS if word in found.get(pos, ())]
    if not own:
        return False
    # lemminflect also lists some inflections as lemmas of their own beside the base word
    # ("games": game, games; "qualifications"; "consisted"): those are forms, not bases.
    return not any(_inflects(word, other) for pos in own for other in found[pos] if other != word)


_SUFFIXES = ("s", "es", "ed", "d", "ing")


def _inflects(word: str, base: str) -> bool:
    """``word`` is ``base`` with a regular inflection ("games"/"game", "movies"/"movie",
    "studies"/"study", "consisted"/"consist")."""
    if word.startswith(base) and word[len(base):] in _SUFFIXES:
        return True
    return base.endswith("y") and word in (base[:-1] + "ies", base[:-1] + "ied")


def is_common_word(word: str, min_zipf: float = DEFAULT_MIN_ZIPF) -> bool:
    """A base form of a content word that is at least ``min_zipf`` frequent (see :func:`is_base_form`)."""
    return is_base_form(word) and zipf_frequency(word, "en") >= min_zipf


def common_words(words: tuple[str, ...], min_zipf: float) -> frozenset[str]:
    """The words of ``words`` that pass :func:`is_common_word`, kept on disk.

    Why: 30,000 lemma and frequency look-ups cost seconds at every start of play, for the
    same answer each time; the key names the list and every library version it depends on.
    """
    from importlib.metadata import version

    from ..embeddings.cache import load_or_build_json
    from ..embeddings.vocabulary import words_key

    key = {"words": words_key(words), "min_zipf": float(min_zipf),
           "lemminflect": version("lemminflect"), "wordfreq": version("wordfreq"),
           "rules": [list(_CONTENT_POS), list(_SUFFIXES)]}
    kept = load_or_build_json("common-words", key,
                              lambda: [w for w in words if is_common_word(w, min_zipf)])
    return frozenset(kept)


class NoClueWordsError(ValueError):
    """A clue vocabulary left empty by its filters (``min_zipf`` too high, models that share no
    word): a spymaster built so has no clue to give; the CLI reports it as bad input."""


def clue_candidates(
    models: Sequence[SimilarityModel], size: Optional[int] = None, min_zipf: Optional[float] = DEFAULT_MIN_ZIPF
) -> tuple[str, ...]:
    """The first ``size`` clue-shaped words of ``models[0]``'s vocabulary that every other model
    reads (:func:`reads`).

    Why "reads" and not "knows": a partner model only scores a candidate. WordLlama knows
    single-token words only (requiring that would leave a robust spymaster with it in its pool
    3,171 clue words instead of 7,337), but reads any word as the mean of its tokens.

    With ``min_zipf`` set, only common base forms (:func:`is_common_word`) qualify; ``None``
    keeps every clue-shaped word (the unfiltered vocabulary, for comparisons).
    """
    if not models:
        raise ValueError("need at least one embedding")
    lang = model_language(models[0])
    out: list[str] = []
    seen: set[str] = set()
    vocabulary = tuple(models[0].clue_vocabulary())
    common = common_words(vocabulary, min_zipf) if min_zipf is not None and lang == "en" else frozenset()
    for word in vocabulary:
        word = word.strip()
        if word in seen or not is_clue_shaped(word, lang):
            continue
        # Other languages' vocabularies are already common words (scripts/build_lang_data.py).
        if min_zipf is not None and lang == "en" and word not in common:
            continue
        if all(reads(m, word) for m in models[1:]):
            out.append(word)
            seen.add(word)
            if size is not None and len(out) >= size:
                break
    if not out:
        at = f" at min_zipf={min_zipf:g} (wordfreq's Zipf scale: THE is 7.7, common words 4 to 6)" if min_zipf is not None else ""
        raise NoClueWordsError(f"no clue-shaped word is read by every model{at}")
    return tuple(out)


def zipf_prior(words: Iterable[str], low: float = 2.5, high: float = 5.5, lang: str = "en") -> np.ndarray:
    """How common each word is, from 0 (Zipf <= ``low``, rare) to 1 (Zipf >= ``high``).

    Common words are the ones a human partner knows and reads the same way; rare words
    that an embedding happens to place well are often misread.
    """
    z = np.fromiter((zipf_frequency(w, lang) for w in words), dtype=np.float64)
    return np.clip((z - low) / (high - low), 0.0, 1.0).astype(np.float32)
