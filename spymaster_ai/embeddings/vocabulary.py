"""The shared candidate clue vocabulary: frequent, real, inoffensive English content words.

Every backend intersects this list with what it embeds natively, so two models disagree
only about meaning, never about which words exist. Built from wordfreq, deterministic for
a given wordfreq version (its cache key is a hash of the word list itself).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

DEFAULT_VOCAB_SIZE = 30_000
VOCAB_SIZE_ENV = "SPYMASTER_AI_VOCAB_SIZE"

# Content words in scikit-learn's (Glasgow) stopword list that make good clues ("fire",
# "system", "mill"); the rest of that list stays excluded.
_RESCUED_FROM_SKLEARN = frozenset("""
    back bill bottom call cry describe detail empty fill find fire found front full give
    interest keep mill move name part put serious show side sincere system take thick thin
    top well whole
""".split())

# Pronouns, determiners, auxiliaries, interjections and apostrophe-less contractions that
# scikit-learn's list lacks. None of them can carry a Codenames clue.
_EXTRA_STOPWORDS = frozenset("""
    i me my mine myself you your yours yourself yourselves he him his himself she her hers
    herself it its itself we us our ours ourselves they them their theirs themselves thee
    thou thy thine ye oneself someone anyone everyone somebody anybody everybody nobody
    a an the this that these those whose which what whatever whichever whoever whomever
    some any each every either neither no both few many much several such another other
    am is are was were be been being do does did doing done have has had having
    can could may might must shall should will would ought
    ain aint dont doesnt didnt isnt wasnt arent werent hasnt havent hadnt wont wouldnt
    cant couldnt shouldnt mustnt im ive youre youve youll youd hes shes theyre theyve
    theyll theyd weve thats theres whats heres lets gonna wanna gotta dunno
    oh ok okay yeah yes yep nope hey hi hello uh um umm hmm ah ha haha lol omg wow
    just also really very quite too so then than
    mr mrs ms dr st jr sr etc vs eg ie inc ltd co
    ii iii iv vi vii viii ix xi xii
""".split())

# Two-letter tokens in wordfreq are mostly abbreviations and fragments ("uk", "ll", "pm");
# only these real words are kept.
_TWO_LETTER_WORDS = frozenset("ax ox go up pi tv ex".split())

_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """scikit-learn's English stopwords (less the rescued content words) plus our extras.

    Loaded on first use: importing scikit-learn takes seconds, which ``embeddings list``
    and plain imports of this package should not pay.
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return (frozenset(ENGLISH_STOP_WORDS) - _RESCUED_FROM_SKLEARN) | _EXTRA_STOPWORDS


def __getattr__(name: str) -> frozenset[str]:
    if name == "STOPWORDS":  # the set, computed lazily
        return stopwords()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def blocklist() -> frozenset[str]:
    """Offensive words never offered as clues (``blocklist.txt`` beside this module)."""
    text = resources.files(__package__).joinpath("blocklist.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().lower() for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )


def is_candidate_clue(word: str) -> bool:
    """A lower-case ASCII word of 2+ letters that is neither a stopword nor offensive."""
    if not _WORD.fullmatch(word) or word in stopwords() or word in blocklist():
        return False
    return len(word) > 2 or word in _TWO_LETTER_WORDS


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """The candidate clue words, most frequent first, with their Zipf frequencies."""

    words: tuple[str, ...]
    zipf: np.ndarray  # float32, aligned with words
    key: str  # sha256 of the word list: part of every vocabulary-cache key
    lang: str = "en"  # the language of the words (rules.lang.LANGUAGES)

    def __len__(self) -> int:
        return len(self.words)


def default_vocab_size() -> int:
    """DEFAULT_VOCAB_SIZE, or the ``SPYMASTER_AI_VOCAB_SIZE`` environment variable (CI, tests)."""
    raw = os.environ.get(VOCAB_SIZE_ENV)
    if not raw:
        return DEFAULT_VOCAB_SIZE
    try:
        size = int(raw)
    except ValueError:
        raise ValueError(f"{VOCAB_SIZE_ENV} must be a positive integer, got {raw!r}") from None
    if size < 1:
        raise ValueError(f"{VOCAB_SIZE_ENV} must be a positive integer, got {raw!r}")
    return size


def words_key(words: tuple[str, ...]) -> str:
    """Stable hash of a word list (order matters)."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()


def load_vocabulary(size: int | None = None, lang: str = "en") -> Vocabulary:
    """The ``size`` most frequent candidate clue words (after filtering), memoised.

    ``size`` counts the words kept, so a vocabulary of 30,000 has 30,000 clues whatever the
    filters remove; None means ``default_vocab_size()``. Raises ValueError when wordfreq
    cannot supply that many. Other languages (``lang`` de, vi, fa) read the shipped list
    ``data/clues_<lang>.txt`` (built by scripts/build_lang_data.py: Vietnamese words of several
    syllables, Persian normalised) and keep its first ``size`` words, or all of them when it
    holds fewer.
    """
    size = default_vocab_size() if size is None else int(size)
    if lang != "en":
        return _load_lang_vocabulary(lang, size)
    return _load_vocabulary(size)


@lru_cache(maxsize=8)
def _load_lang_vocabulary(lang: str, size: int) -> Vocabulary:
    from ..rules.lang.words import check_language, clue_words

    check_language(lang)
    if size < 1:
        raise ValueError(f"vocabulary size must be positive, got {size}")
    words = tuple(w for w in clue_words(lang) if w not in blocklist())[:size]
    zipf = zipf_frequencies(words, lang)
    zipf.setflags(write=False)
    return Vocabulary(words=words, zipf=zipf, key=words_key(words), lang=lang)


@lru_cache(maxsize=8)
def _load_vocabulary(size: int) -> Vocabulary:
    from .cache import load_or_build_json

    if size < 1:
        raise ValueError(f"vocabulary size must be positive, got {size}")
    stored = load_or_build_json(f"vocabulary-{size}", _filter_key(size), lambda: _build_vocabulary(size))
    words = tuple(stored["words"])
    zipf = np.asarray(stored["zipf"], dtype=np.float32)
    zipf.setflags(write=False)
    return Vocabulary(words=words, zipf=zipf, key=words_key(words))


def _filter_key(size: int) -> dict[str, object]:
    """Everything the filtered list depends on: the libraries' versions and our own rules."""
    from importlib.metadata import version

    rules = "\n".join([_WORD.pattern, *sorted(_TWO_LETTER_WORDS), "|", *sorted(_RESCUED_FROM_SKLEARN),
                        "|", *sorted(_EXTRA_STOPWORDS), "|", *sorted(blocklist())])
    return {"size": size, "wordfreq": version("wordfreq"), "scikit-learn": version("scikit-learn"),
            "rules": hashlib.sha256(rules.encode("utf-8")).hexdigest()}


def _build_vocabulary(size: int) -> dict[str, list]:
    from wordfreq import top_n_list

    fetch = max(2 * size, 1000)
    while True:
        ranked = top_n_list("en", fetch)
        words = tuple(dict.fromkeys(w for w in ranked if is_candidate_clue(w)))[:size]
        if len(words) == size:
            break
        if len(ranked) < fetch:
            raise ValueError(f"wordfreq has only {len(words)} candidate clue words, asked for {size}")
        fetch *= 2
    return {"words": list(words), "zipf": [float(z) for z in zipf_frequencies(words)]}


def zipf_frequencies(words: tuple[str, ...] | list[str], lang: str = "en") -> np.ndarray:
    """wordfreq Zipf frequency (log10 per billion words; 0 for unknown) of each word, float32."""
    return np.fromiter((_zipf(w, lang) for w in words), dtype=np.float32, count=len(words))


@lru_cache(maxsize=200_000)
def _zipf(word: str, lang: str = "en") -> float:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, lang)
