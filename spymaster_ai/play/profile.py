"""The person's profile: how they read clues, kept between games of ``play``.

Why a file: the AI partner learns the person from every guess and every clue of theirs
(:mod:`..agents.human.adapt`), and a person who comes back should not start as a stranger. It
is small, human-readable JSON, local only: the offsets to the shipped reader's weights by
feature name, their precision, how many guesses and clues they come from, and when.
``spymaster-ai play profile`` says in words what it learned (:func:`describe_profile`);
deleting the file (``spymaster-ai play forget``) forgets the person; ``--fresh`` plays one
game without reading or writing it.

* where: ``SPYMASTER_AI_PROFILE`` if set, else ``profile.json`` in the user's data folder
  (platformdirs, e.g. ~/.local/share/spymaster_ai);
* written atomically (a temporary file renamed over it) after the game, finished or quit;
* a profile that cannot be read (not JSON, wrong shapes, another reader's features) is never
  used and never lost: it is renamed aside (``profile.json.unreadable-<time>``) with a warning.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from ..agents.human.adapt import ReaderAdaptation
from ..agents.human.reader import ReaderParams

__all__ = ["PROFILE_ENV", "Profile", "default_profile_path", "describe_lines", "describe_profile", "forget_profile", "keep_profile",
           "learned_line", "load_profile", "parse_profile", "profile_text", "read_profile",
           "session_learner", "save_profile", "start_learning"]

PROFILE_ENV = "SPYMASTER_AI_PROFILE"
FORMAT = 1
ABOUT = ("How you read clues, learned by spymaster-ai play from your guesses and from the AI's picks on "
         "your clues: offsets to the AI reader's weights. 'spymaster-ai play profile' says what they mean. "
         "Delete this file to forget it; play --fresh ignores it for one game.")


def default_profile_path() -> Path:
    env = os.environ.get(PROFILE_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("spymaster_ai")) / "profile.json"


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


@dataclass
class Profile:
    """A loaded profile: the adaptation it holds, where it lives and when it began."""

    path: Path
    adaptation: ReaderAdaptation
    created: str
    writable: bool = True  # False when an unreadable file could not be moved aside: never overwrite it

    @property
    def guesses(self) -> int:
        return self.adaptation.choices


def _parse(data: object, base: ReaderParams) -> tuple[ReaderAdaptation, str]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a profile of format {FORMAT}")
    offsets = data.get("offsets")
    if not isinstance(offsets, dict) or sorted(offsets) != sorted(base.features):
        raise ValueError("its offsets name other features than this version's reader reads")
    offset = np.array([float(offsets[f]) for f in base.features])
    precision = np.asarray(data.get("precision"), dtype=np.float64)
    counts = {k: data.get(k, 0) for k in ("clues", "clue_picks")}  # absent in profiles of guesses only
    counts["guesses"] = data.get("guesses")
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"'{name}' must be a count")
    adaptation = ReaderAdaptation(base, offset, precision, counts["guesses"], clues=counts["clues"],
                                  clue_picks=counts["clue_picks"])
    if not np.allclose(precision, precision.T) or np.linalg.eigvalsh(precision).min() <= 0:
        raise ValueError("its precision is not a symmetric positive-definite matrix")
    return adaptation, str(data.get("created") or _now())


def read_profile(path: Path, base: ReaderParams) -> Profile:
    """The profile at ``path`` as it is, changing nothing (what ``play profile`` shows); a
    ValueError says why it cannot be read, an OSError why it cannot be opened."""
    path = Path(path)
    adaptation, created = parse_profile(path.read_text(encoding="utf-8"), base)
    return Profile(path, adaptation, created)


def load_profile(path: Path, base: ReaderParams) -> tuple[Profile, Optional[str]]:
    """The profile at ``path`` (a new one if there is none) and a warning if the file there
    could not be used: it is then renamed aside, never deleted, and a new profile begins."""
    path = Path(path)
    fresh = Profile(path, ReaderAdaptation(base), _now())
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return fresh, None
    except OSError as exc:
        return fresh, f"could not read the profile {path} ({exc}); this game starts without it"
    try:
        adaptation, created = _parse(json.loads(text), base)
    except (ValueError, TypeError, KeyError) as exc:  # JSONDecodeError is a ValueError
        aside = path.with_name(f"{path.name}.unreadable-{datetime.now(timezone.utc):%Y%m%dT%H%M%S}")
        try:
            path.replace(aside)
            kept = f"it is kept as {aside}"
        except OSError as move_exc:
            kept = f"it could not be moved aside ({move_exc}), so it is left as it is and not written"
            fresh.writable = False
        return fresh, f"the profile {path} could not be read ({exc}): {kept}; a new profile begins"
    return Profile(path, adaptation, created), None


def profile_text(a: ReaderAdaptation, created: str) -> str:
    """The profile as its readable JSON text (the file's, and the web server's stored form)."""
    data = {
        "format": FORMAT,
        "about": ABOUT,
        "guesses": a.choices,
        "clues": a.clues,
        "clue_picks": a.clue_picks,
        "created": created,
        "updated": _now(),
        "offsets": {f: round(float(v), 6) for f, v in zip(a.base.features, a.offset)},
    }
    # the precision matrix one row a line, in the features' order: readable, and still JSON
    rows = ",\n".join("  " + json.dumps([round(float(v), 6) for v in row]) for row in a.precision)
    return json.dumps(data, indent=1)[:-2] + ',\n "precision": [\n' + rows + "\n ]\n}\n"


def parse_profile(text: str, base: ReaderParams) -> tuple[ReaderAdaptation, str]:
    """(adaptation, created) from a profile's text; a ValueError says why it cannot be read."""
    try:
        return _parse(json.loads(text), base)
    except (TypeError, KeyError) as exc:
        raise ValueError(str(exc)) from None


def save_profile(profile: Profile) -> None:
    """Write the profile atomically (a temporary file in the same folder, then a rename);
    a profile that must not be written (see :attr:`Profile.writable`) is left alone."""
    if not profile.writable:
        return
    text = profile_text(profile.adaptation, profile.created)
    path = profile.path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _partners(settings, agents: dict):
    """(the shared reader, the person's partners among ``agents`` that read with it), or None
    when no partner of the person's is a `human` agent on word cards (nothing to adapt)."""
    from ..agents.human import HumanGuesser, HumanSpymaster

    if settings.mode == "pictures":
        return None  # the reader reads word cards only
    # only the person's partners learn them: in classic, not the other team's AI
    partners = {r: a for r, a in agents.items() if settings.mode != "classic" or r.startswith(f"{settings.team}_")}
    readers = [a.reader for a in partners.values() if isinstance(a, (HumanGuesser, HumanSpymaster))]
    if not readers:
        return None
    return getattr(readers[0], "base", readers[0]), partners


def session_learner(settings, agents: dict, adaptation_for: Optional[Callable[[ReaderParams], Optional[ReaderAdaptation]]] = None):
    """A learner personalising the person's `human` partners among ``agents`` (None if there
    are none), starting from ``adaptation_for(the reader's params)`` if that gives one: what
    the web server uses, whose profiles live in its database."""
    from ..agents.human.adapt import PersonLearner

    found = _partners(settings, agents)
    if found is None:
        return None
    reader, partners = found
    learner = PersonLearner(reader, adaptation_for(reader.params) if adaptation_for is not None else None)
    learner.personalise(partners)
    return learner


def start_learning(settings, agents: dict, fresh: bool = False,
                   path: Optional[Path] = None) -> tuple[Optional[object], Optional[Profile], list[str], list[str]]:
    """(learner, profile, info lines, warnings) for a session: a learner when the AI plays
    with `human` agents on word cards (their reader is what it adapts), with the person's
    profile unless ``fresh``. What to tell the person is said here, once."""
    from ..agents.human.adapt import PersonLearner

    found = _partners(settings, agents)
    if found is None:
        return None, None, [], []
    reader, partners = found
    path = Path(path) if path is not None else default_profile_path()
    if fresh:
        learner = PersonLearner(reader)
        learner.personalise(partners)
        return learner, None, [f"--fresh: the AI learns from your guesses and clues in this game only; your "
                               f"profile ({path}) is neither read nor changed."], []
    profile, warning = load_profile(path, reader.params)
    learner = PersonLearner(reader, profile.adaptation)
    learner.personalise(partners)
    info = [f"The AI learns how you read clues from your guesses and clues and remembers it in {path} "
            f"({_known(profile.adaptation)}). What it learned: 'spymaster-ai play profile'; to forget it: "
            "'spymaster-ai play forget'; to play without it, add --fresh."]
    return learner, profile, info, [warning] if warning else []


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else ('es' if word.endswith('s') else 's')}"


def _known(a: ReaderAdaptation) -> str:
    if not (a.choices or a.clues):
        return "a new profile"
    return f"it knows you from {_plural(a.choices, 'guess')} and {_plural(a.clues, 'clue')}"


def keep_profile(profile: Optional[Profile], learner) -> Optional[str]:
    """Save what this game taught (nothing new: nothing written); a warning if it failed."""
    if profile is None or learner is None or not getattr(learner, "learned", 0):
        return None
    try:
        save_profile(profile)
    except OSError as exc:
        return f"could not write the profile {profile.path} ({exc}); this game's learning is lost"
    return None


# -- saying what it learned --------------------------------------------------------------------

MODEL_NAMES = {"minilm": "MiniLM", "glove50": "GloVe", "wordllama": "WordLlama"}
# the cards each feature of the reader is high on, as "you take cards ... more readily than most people"
_FEATURE_WORDS = {
    "board_z": "that stand out for the clue among the cards on the table, as {m} reads them,",
    "evoke": "that call the clue strongly to mind, as {m} reads them,",
    "lead": "that clearly beat the next best card for the clue, as {m} reads them,",
    "card_zipf": "with common words",
    "spelled_like": "spelled like the clue (CRAB for GRAB)",
    "phrase_link": "that stand with the clue in a phrase (STORM for EYE: the eye of the storm)",
}
NEGLIGIBLE = 0.05  # a learned shift smaller than this (standardised weight) is not worth saying


def shift_words(feature: str, offset: float) -> str:
    """One learned shift in plain words, from the feature's name and the shift's sign: a
    positive shift makes the person likelier than the shipped reader (fitted to many people's
    guesses: "most people") to take cards high in that feature, whatever the shipped sign."""
    model, _, name = feature.rpartition(":")
    what = _FEATURE_WORDS[name].format(m=MODEL_NAMES.get(model, model)) if name in _FEATURE_WORDS else f"high in {feature}"
    return f"you take cards {what} {'more' if offset > 0 else 'less'} readily than most people"


CLEAR = 2.0  # a shift is said only when it is this many posterior standard deviations from 0


def largest_shifts(a: ReaderAdaptation, top: int = 3) -> list[tuple[str, float, float]]:
    """(feature, shipped weight, your weight) of the ``top`` largest clear shifts, largest
    first. Clear: at least :data:`NEGLIGIBLE` and :data:`CLEAR` standard deviations of the
    profile's own uncertainty (its precision's Laplace posterior). Why: after 30-odd guesses
    a playtester saw the top shifts change model every game and flip sign, which read as noise."""
    sd = np.sqrt(np.clip(np.diag(np.linalg.pinv(a.precision)), 0.0, None))
    clear = (np.abs(a.offset) >= NEGLIGIBLE) & (np.abs(a.offset) >= CLEAR * sd)
    order = [i for i in np.argsort(-np.abs(a.offset), kind="stable") if clear[i]][:top]
    return [(a.base.features[i], float(a.base.weights[i]), float(a.base.weights[i] + a.offset[i])) for i in order]


def describe_profile(profile: Profile) -> list[str]:
    """What ``play profile`` prints: where the profile is, what it was learned from, and the
    three largest shifts in words, each with the weight it changed."""
    if not profile.path.exists():
        return [f"No profile yet at {profile.path}: the AI has not learned you (play a game without --fresh)."]
    return ([f"Your profile: {profile.path}"] + describe_lines(profile.adaptation, profile.created)
            + ["Forget it: 'spymaster-ai play forget' (or delete the file); play one game without it: --fresh."])


def describe_lines(a: ReaderAdaptation, created: str) -> list[str]:
    """What a profile was learned from and its three largest shifts, in words (``play
    profile`` and the web server's profile page)."""
    lines = [f"Learned from {_plural(a.choices, 'guess')} of yours and {_plural(a.clues, 'clue')} of yours "
             f"({_plural(a.clue_picks, 'AI pick')} on them), since {created}."]
    shifts = largest_shifts(a)
    if not shifts:
        lines.append("No clear difference from most people learned yet: the AI reads you as it reads anyone.")
    else:
        lines.append("The largest differences it learned (weights of the AI's reader, most people -> you):")
        lines += [f"  - {shift_words(f, you - shipped)} ({f}: {shipped:+.2f} -> {you:+.2f})" for f, shipped, you in shifts]
    return lines


def learned_line(learner, before: tuple[int, int]) -> Optional[str]:
    """After a game: what this game taught, in one line (None when it taught nothing).
    ``before``: the adaptation's (guesses, clues) at the start of the game."""
    if learner is None or not getattr(learner, "learned", 0):
        return None
    a = learner.adaptation
    line = (f"The AI learned from {_plural(a.choices - before[0], 'guess')} and {_plural(a.clues - before[1], 'clue')} "
            "of yours this game.")
    shifts = largest_shifts(a, top=1)
    if shifts:
        f, shipped, you = shifts[0]
        line += f" So far, {shift_words(f, you - shipped)}."
    return line


def forget_profile(path: Optional[Path] = None) -> str:
    """Delete the profile (``play forget``); what was done, in a sentence."""
    path = Path(path) if path is not None else default_profile_path()
    try:
        path.unlink()
    except FileNotFoundError:
        return f"There is no profile at {path}: nothing to forget."
    return f"Deleted {path}: the AI no longer knows how you read clues."
