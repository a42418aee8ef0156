"""Seating agents at a board of picture cards: their text models read each card's captions.

Why a module of its own: agents are named by the same specs on every game, and only the
game knows its cards are pictures, so the simulator (not the registry) seats each built-in
embedding agent through a twin whose models are wrapped in the caption backend (``minilm``
plays as ``captions:minilm``, see :func:`for_picture_cards`); specs, results files and
tournament tables keep the plain names.
"""

from __future__ import annotations

import copy
import sys
import threading
import weakref
from typing import Any, Optional

_PICTURE_TWINS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_CAPTIONED: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_TWIN_LOCK = threading.Lock()


def _scores_pictures(model: Any) -> bool:
    """Whether a model already scores picture card ids itself (caption or CLIP backend)."""
    from ..embeddings.captions import CaptionEmbedding

    if isinstance(model, CaptionEmbedding):
        return True
    clip = sys.modules.get("spymaster_ai.embeddings.clip")  # only a loaded module can have made one
    return clip is not None and isinstance(model, clip.ClipEmbedding)


class PictureBoardModel:
    """A model that scores picture cards, as a picture board's agents use it: the clue
    vocabulary leaves out the words the Pictures rules refuse on every board.

    Why: the agents check clues with the word rules, which allow colour words; on picture
    cards (RULES.md §2) "red" or "orange" is refused whatever the board, so a spymaster that
    picked one would forfeit. Board-dependent rules stay with the agents' own checker.
    Everything else (similarities, scale, ``knows``) is the wrapped model's own.
    """

    def __init__(self, model: Any, lang: str = "en") -> None:
        self.model = model
        self.name = model.name
        self.board_lang = lang
        self._keep: Any = None
        self._vocab: Optional[tuple[str, ...]] = None

    def clue_vocabulary(self) -> tuple[str, ...]:
        if self._vocab is None:
            import numpy as np

            from ..rules.legality import LegalityOptions, legal_mask

            words = tuple(self.model.clue_vocabulary())
            options = LegalityOptions(pictures=True, lang=self.board_lang)
            self._keep = np.asarray(legal_mask(list(words), [], options), dtype=bool)
            self._vocab = tuple(w for w, k in zip(words, self._keep) if k)
        return self._vocab

    def clue_zipf(self) -> Any:
        import numpy as np

        self.clue_vocabulary()
        return np.asarray(self.model.clue_zipf())[self._keep]

    def __getattr__(self, name: str) -> Any:
        if name == "model":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.model, name)


def _captioned(model: Any, lang: str = "en") -> Any:
    """``model`` as a picture board's agents use it, one wrapper per model and board language
    (shared by agents).

    A text model is wrapped in the caption backend first, reading the captions in ``lang``
    (``pictures.load_deck(lang)``); a caption or CLIP backend already scores card ids. Either
    way the clue vocabulary drops the words Pictures always refuses in that language.
    """
    if isinstance(model, PictureBoardModel):
        return model
    wrapped = _CAPTIONED.setdefault(model, {}).get(lang) if _weakable(model) else None
    if wrapped is None:
        if _scores_pictures(model):
            wrapped = PictureBoardModel(model, lang)
        else:
            from ..embeddings.captions import CaptionEmbedding
            from ..pictures import load_deck

            wrapped = PictureBoardModel(CaptionEmbedding(model, deck=load_deck(lang)), lang)
        if _weakable(model):
            _CAPTIONED[model][lang] = wrapped
    return wrapped


def _weakable(model: Any) -> bool:
    try:
        weakref.ref(model)
    except TypeError:
        return False
    return True


def for_picture_cards(agent: Any, lang: str = "en") -> Any:
    """The agent as it plays a board of picture cards whose captions are read in ``lang``.

    A built-in embedding agent (it holds its model as ``embedding``, a spymaster also its
    ``partners``) plays through a twin whose text models are wrapped in the caption backend:
    clues stay words, and each card id is scored through its captions and tags (word-to-word
    scores are the text model's own). A ``captions:...`` or ``clip:...`` model scores card
    ids itself and is kept. Every model's clue vocabulary leaves out the words Pictures
    refuses on any board (colour words; :class:`PictureBoardModel`). An agent with no
    ``embedding`` (a custom class) gets the card ids as they are; one with a
    ``for_picture_cards(wrap)`` method builds its own twin, ``wrap`` turning each of its
    models into the picture board's. The twin is built once per agent and kept, so its clue vocabulary
    is computed once; the caller's agent is never changed.
    """
    def wrap(model: Any) -> Any:
        return _captioned(model, lang)

    hook = getattr(agent, "for_picture_cards", None)
    if callable(hook):  # an agent that reads through models of its own (the human guesser's reader)
        with _TWIN_LOCK:
            twins = _PICTURE_TWINS.setdefault(agent, {})
            if lang not in twins:
                twins[lang] = hook(wrap)
            return twins[lang]
    model = getattr(agent, "embedding", None)
    if model is None or not callable(getattr(model, "similarity", None)):
        return agent
    partners = getattr(agent, "partners", None)
    if all(wrap(m) is m for m in [model, *(partners or ())]):
        return agent
    with _TWIN_LOCK:
        try:
            twin = _PICTURE_TWINS.get(agent, {}).get(lang)
        except TypeError:  # not weak-referenceable: a fresh twin each game
            twin = None
        if twin is None:
            twin = copy.copy(agent)
            twin.embedding = wrap(model)
            if partners is not None:
                twin.partners = [wrap(m) for m in partners]
            # Per-model caches the copy shares with the agent are recomputed from the new
            # models (ClueVocabularyAgent's lazy vocabulary; the per-board matrices).
            for cache in ("_vocab", "_board", "_short"):
                if hasattr(twin, cache):
                    setattr(twin, cache, None)
            try:
                _PICTURE_TWINS.setdefault(agent, {})[lang] = twin
            except TypeError:
                pass
    return twin
