"""Board word lists shipped as package data (``spymaster_ai/data/words_<name>.txt``).

Loaded through ``importlib.resources`` so they work from a source tree, an editable install
and a wheel alike; see ``data/README.md`` for where each list comes from.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from .cards import normalise_word

__all__ = ["load_words", "available_lists"]


def available_lists() -> tuple[str, ...]:
    """Names accepted by :func:`load_words` ("classic", ...)."""
    folder = resources.files("spymaster_ai") / "data"
    names = (p.name for p in folder.iterdir() if p.name.startswith("words_") and p.name.endswith(".txt"))
    return tuple(sorted(n[len("words_") : -len(".txt")] for n in names))


@lru_cache(maxsize=None)
def load_words(name: str = "classic") -> tuple[str, ...]:
    """The distinct, normalised words of list ``name``, in file order (blank lines and # comments skipped)."""
    resource = resources.files("spymaster_ai") / "data" / f"words_{name}.txt"
    if not resource.is_file():
        raise ValueError(f"no word list {name!r}; available: {', '.join(available_lists())}")
    words: dict[str, None] = {}
    for line in resource.read_text(encoding="utf-8").splitlines():
        word = normalise_word(line.split("#", 1)[0])
        if word:
            words.setdefault(word, None)
    return tuple(words)
