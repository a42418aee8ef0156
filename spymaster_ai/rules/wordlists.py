"""Board word lists shipped as package data (``spymaster_ai/data/words_<name>.txt``).

Loaded through ``importlib.resources`` so they work from a source tree, an editable install
and a wheel alike; see ``data/README.md`` for where each list comes from.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from .cards import normalise_word

__all__ = ["load_words", "available_lists"]


def available_lists() -> tuple[str, ...]:
    """Names accepted by :func:`load_words` ("classic", ...)."""
    folder = resources.files("spymaster_ai") / "data"
    names = (p.name for p in folder.iterdir() if p.name.startswith("words_") and p.name.endswith(".txt"))
    return tuple(sorted(n[len("words_") : -len(".txt")] for n in names))


def load_words(name: str = "classic") -> tuple[str, ...]:
    """The distinct, normalised words of list ``name``, in file order (blank lines and # comments
    skipped). ``name`` ending in ``.txt`` is the user's own file (one card a line), e.g. another
    framework's pool (Kim et al.'s ``game_wordpool.txt``), read anew each call."""
    if name.endswith(".txt"):
        path = Path(name).expanduser()
        if not path.is_file():
            raise ValueError(f"no word list file {name}")
        return _words(path.read_text(encoding="utf-8"))
    return _packaged(name)


@lru_cache(maxsize=None)
def _packaged(name: str) -> tuple[str, ...]:
    resource = resources.files("spymaster_ai") / "data" / f"words_{name}.txt"
    if not resource.is_file():
        raise ValueError(f"no word list {name!r}; available: {', '.join(available_lists())}")
    return _words(resource.read_text(encoding="utf-8"))


def _words(text: str) -> tuple[str, ...]:
    words: dict[str, None] = {}
    for line in text.splitlines():
        word = normalise_word(line.split("#", 1)[0])
        if word:
            words.setdefault(word, None)
    return tuple(words)
