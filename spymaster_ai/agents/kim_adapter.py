"""Agents written for Kim et al.'s Codenames AI framework, run unchanged in our simulator.

Why: the framework of Kim, Ruzmaykin, Truong and Summerville (2019, "Cooperation and
Codenames", github.com/CodenamesAICompetition/Game) is where most published Codenames bots
live. A user points an agent spec at one of their bot files (their own, or a checkout of
that repository) and the bot plays on our engine, against our agents or against itself:

    kim:PATH/players/codemaster_glove_07.py:AICodemaster
    kim:PATH/players/guesser_wn_path.py:AIGuesser:glove=glove50

What their interfaces ask, and what we hand them (read from their ``players/codemaster.py``,
``players/guesser.py`` and ``game.py``; none of their code is copied here):

* Codemaster: ``set_game_state(words_on_board, key_grid)`` then ``get_clue() -> (word, n)``.
  ``words_on_board`` is the 25 cards in grid order, upper case, a covered card replaced by
  ``*Red*``, ``*Blue*``, ``*Civilian*`` or ``*Assassin*``; ``key_grid`` is ``Red`` (the
  codemaster's team), ``Blue``, ``Civilian`` or ``Assassin`` per position.
* Guesser: ``set_clue(clue, n)`` once a turn, then ``set_board(words_on_board)`` and
  ``get_answer()`` before every guess, and ``keep_guessing()`` after every correct guess; at
  most n + 1 guesses (their ``guess_num <= clue_num``, so a 0 clue allows one guess).
* Constructors take keyword arguments (their ``cm_kwargs`` / ``g_kwargs``): ``glove_vecs`` is
  a word -> vector mapping (their ``Game.load_glove_vecs``); we pass our packaged GloVe 6B 50d
  (``glove=``, any static-vector embedding name or ``vectors:PATH``) through the same mapping
  shape. ``brown_ic`` (WordNet information content) and ``word_vectors`` (word2vec) are None:
  neither ships offline, so bots that need them fail at their first call, with their error.
* A fresh instance per game (their ``Game`` builds one per game); Python's ``random`` seeded
  from the game seed at each reset (their ``Game`` seeds the global generator per game).
* Their bots import ``players.codemaster`` and open ``players/cm_wordlist.txt`` relative to the
  working directory: the bot's folder's parent is put on ``sys.path`` and is the working
  directory during every call (under a lock), and what they print is discarded.
* Their bots use NLTK's WordNet (``nltk.corpus.wordnet``): pointed at Debian's WordNet the
  way our wordnet backend reads it (``embeddings.wordnet_backend``).
* NLTK's Lancaster stemmer now runs every rule through ReDoS-safe regexes: their GloVe
  codemaster, which stems each of its 7191 clue words once per target subset, spent 130 s of
  a 200 s first clue stemming. Stemming and lemmatising are pure functions of the word, so
  both are memoised per stemmer instance (:func:`_memoise_nltk`): the same answers, faster.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
import random
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Iterator, Optional

import numpy as np

from ..rules.moves import Clue
from ..views import GuesserView, SpymasterView

__all__ = ["KIM_PREFIX", "KimCodemaster", "KimGuesser", "StaticVectors", "kim_source", "load_kim_class"]

KIM_PREFIX = "kim:"
# Their tokens for a covered card and their key-grid names, by our public identity.
_COVERED = {"own": "*Red*", "opponent": "*Blue*", "bystander": "*Civilian*", "assassin": "*Assassin*"}
_KEY = {"own": "Red", "opponent": "Blue", "bystander": "Civilian", "assassin": "Assassin"}
# Their game ends the turn on these answers (game.py: "no comparisons were made/found").
_NO_ANSWER = (None, "no comparisons")
_CALL_LOCK = threading.RLock()


def kim_source(name: str) -> tuple[Path, str]:
    """``kim:PATH/file.py:Class`` -> (the file, the class name)."""
    body = name[len(KIM_PREFIX):] if name.startswith(KIM_PREFIX) else name
    path, _, cls = body.rpartition(":")
    if not path.endswith(".py") or not cls:
        raise ValueError(f"expected kim:PATH/file.py:ClassName, got {name!r}")
    return Path(path).expanduser(), cls


class StaticVectors(Mapping):
    """Their ``glove_vecs``: word -> float64 vector, a missing word a KeyError, over one of our
    static tables (a packaged ``StaticTable`` or gensim ``KeyedVectors``) without copying it."""

    def __init__(self, table: Any) -> None:
        self._index = table.key_to_index
        self._vectors = table.vectors

    def __getitem__(self, word: str) -> np.ndarray:
        return np.asarray(self._vectors[self._index[word]], dtype=np.float64)

    def __contains__(self, word: object) -> bool:
        return word in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def _point_nltk_at_wordnet() -> None:
    """Make ``nltk.corpus.wordnet`` read Debian's WordNet, as our wordnet backend does."""
    try:
        import nltk

        from ..embeddings.wordnet_backend import _corpus_folder, wordnet_installed, wordnet_source
    except ImportError:
        return
    if not wordnet_installed():
        return
    root = str(_corpus_folder(wordnet_source()).parent.parent)
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)


def _memoise(cls: type, method: str) -> None:
    original = getattr(cls, method)
    if getattr(original, "_kim_memo", False):
        return

    def memoised(self: Any, *args: Any, **kwargs: Any) -> Any:
        memo = self.__dict__.setdefault("_kim_memo", {})
        key = (method, args, tuple(sorted(kwargs.items())))
        if key not in memo:
            memo[key] = original(self, *args, **kwargs)
        return memo[key]

    memoised._kim_memo = True  # type: ignore[attr-defined]
    memoised.__doc__ = original.__doc__
    setattr(cls, method, memoised)


def _memoise_nltk() -> None:
    """Memoise NLTK's Lancaster stemmer and WordNet lemmatiser (pure: same output)."""
    try:
        from nltk.stem import WordNetLemmatizer
        from nltk.stem.lancaster import LancasterStemmer
    except ImportError:
        return
    _memoise(LancasterStemmer, "stem")
    _memoise(WordNetLemmatizer, "lemmatize")


@contextlib.contextmanager
def _in_folder(folder: Path, quiet: bool) -> Iterator[None]:
    """Their working directory, their prints discarded (process-wide, hence the lock)."""
    with _CALL_LOCK:
        before = os.getcwd()
        os.chdir(folder)
        try:
            if quiet:
                with contextlib.redirect_stdout(io.StringIO()):
                    yield
            else:
                yield
        finally:
            os.chdir(before)


def load_kim_class(path: Path, class_name: str) -> tuple[type, Path]:
    """Import their bot as ``<folder>.<module>`` with the folder's parent on ``sys.path`` (so
    ``from players.codemaster import Codemaster`` resolves to the same checkout); returns the
    class and the parent folder (their working directory)."""
    path = Path(path).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no file {path}")
    root, package = path.parent.parent, path.parent.name
    loaded = sys.modules.get(package)
    origin = getattr(loaded, "__path__", None)
    if loaded is not None and (origin is None or str(path.parent) not in [str(Path(p).resolve()) for p in origin]):
        raise ImportError(f"a different {package!r} package is already imported ({origin}); "
                          "run bots of one checkout per process (the default: each kim: agent has its own)")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    _point_nltk_at_wordnet()
    _memoise_nltk()
    with _in_folder(root, quiet=True):
        module = importlib.import_module(f"{package}.{path.stem}")
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise ImportError(f"{path} has no class {class_name!r}")
    return cls, root


def _glove_table(name: str) -> Any:
    from .registry import _embedding

    model = _embedding(name)
    table = getattr(model, "kv", None)
    if table is None or not hasattr(table, "key_to_index"):
        raise ValueError(f"glove={name!r}: not a static word-vector table (glove50 or vectors:PATH)")
    return table


class _KimAgent:
    """What both roles share: their class, their keyword arguments, a fresh bot per game."""

    def __init__(self, path: str, class_name: str, glove: Optional[str] = "glove50", quiet: bool = True,
                 **kwargs: Any) -> None:
        self.path = str(path)
        self.class_name = class_name
        self.glove = glove
        self.quiet = bool(quiet)
        self.cls, self.root = load_kim_class(Path(path), class_name)
        accepts = inspect.signature(self.cls.__init__).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in accepts.values())
        self.kwargs = dict(kwargs)
        if glove and ("glove_vecs" in accepts or takes_any):
            self.kwargs.setdefault("glove_vecs", StaticVectors(_glove_table(str(glove))))
        self.bot: Any = None

    def _call(self, method: str, *args: Any) -> Any:
        with _in_folder(self.root, self.quiet):
            return getattr(self.bot, method)(*args)

    def reset(self, seed: int) -> None:
        random.seed(int(seed))
        with _in_folder(self.root, self.quiet):
            self.bot = self.cls(**self.kwargs)

    @staticmethod
    def board(view: Any) -> list[str]:
        """Their ``words_on_board``: upper-case cards, covered ones as ``*Red*``... tokens."""
        covered = {w: _COVERED[_relative(i, view.me)] for w, i in view.revealed}
        return [covered.get(w, w.upper()) for w in view.words]


def _relative(identity: str, me: str) -> str:
    """Our public identity (``red``, ``blue``, ``bystander``, ``assassin``) from ``me``'s side."""
    if identity in ("bystander", "assassin"):
        return identity
    return "own" if identity == me else "opponent"


class KimCodemaster(_KimAgent):
    """Their codemaster as our spymaster (their clue and number, unchanged)."""

    def give_clue(self, view: SpymasterView) -> Clue:
        kinds = {**{w: "own" for w in view.own}, **{w: "opponent" for w in view.opponent},
                 **{w: "bystander" for w in view.bystanders}, **{w: "assassin" for w in view.assassins},
                 **{w: _relative(i, view.me) for w, i in view.revealed}}
        key_grid = [_KEY[kinds[w]] for w in view.words]
        self._call("set_game_state", self.board(view), key_grid)
        answer = self._call("get_clue")
        word, count = answer[0], int(answer[1])
        if not isinstance(word, str) or not word.strip():
            raise ValueError(f"{self.class_name}.get_clue gave no clue word: {answer!r}")
        return Clue(word.strip(), count)


class KimGuesser(_KimAgent):
    """Their guesser as ours: ``set_clue`` at a turn's first guess, ``keep_guessing`` after each
    correct one, their n + 1 cap (one guess for a 0 clue), an empty answer ends the turn."""

    def next_guess(self, view: GuesserView) -> Optional[str]:
        clue = view.clue
        if clue is None:
            raise ValueError("no clue to guess")
        if view.guesses_made == 0:
            self._call("set_clue", clue.word, int(clue.count))
        else:
            if not clue.unlimited and view.guesses_made > clue.count:
                return None  # their cap: guess_num <= clue_num
            if not self._call("keep_guessing"):
                return None
        board = self.board(view)
        self._call("set_board", board)
        answer = self._call("get_answer")
        if answer in _NO_ANSWER:
            if view.can_stop:
                return None
            raise ValueError(f"{self.class_name}.get_answer gave no card on a turn's first guess "
                             "(their game then ends the turn; ours needs one guess)")
        wanted = str(answer).upper().strip()
        for word, shown in zip(view.words, board):
            if shown == wanted and word in view.visible:
                return word
        raise ValueError(f"{self.class_name}.get_answer gave {answer!r}, not a card still on the board")
