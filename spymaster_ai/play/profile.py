"""The person's profile: how they read clues, kept between games of ``play``.

Why a file: the AI partner learns the person from every guess (:mod:`..agents.human.adapt`),
and a person who comes back should not start as a stranger. It is small, human-readable
JSON, local only: the offsets to the shipped reader's weights by feature name, their
precision, how many guesses they come from, and when. Deleting the file forgets the person;
``--fresh`` plays one game without reading or writing it.

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
from typing import Optional

import numpy as np

from ..agents.human.adapt import ReaderAdaptation
from ..agents.human.reader import ReaderParams

__all__ = ["PROFILE_ENV", "Profile", "default_profile_path", "keep_profile", "load_profile", "save_profile", "start_learning"]

PROFILE_ENV = "SPYMASTER_AI_PROFILE"
FORMAT = 1
ABOUT = ("How you read clues, learned by spymaster-ai play from your guesses: offsets to the AI "
         "reader's weights. Delete this file to forget it; play --fresh ignores it for one game.")


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
    guesses = data.get("guesses")
    if not isinstance(guesses, int) or guesses < 0:
        raise ValueError("'guesses' must be a count")
    adaptation = ReaderAdaptation(base, offset, precision, guesses)
    if not np.allclose(precision, precision.T) or np.linalg.eigvalsh(precision).min() <= 0:
        raise ValueError("its precision is not a symmetric positive-definite matrix")
    return adaptation, str(data.get("created") or _now())


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


def save_profile(profile: Profile) -> None:
    """Write the profile atomically (a temporary file in the same folder, then a rename);
    a profile that must not be written (see :attr:`Profile.writable`) is left alone."""
    if not profile.writable:
        return
    a = profile.adaptation
    data = {
        "format": FORMAT,
        "about": ABOUT,
        "guesses": a.choices,
        "created": profile.created,
        "updated": _now(),
        "offsets": {f: round(float(v), 6) for f, v in zip(a.base.features, a.offset)},
    }
    # the precision matrix one row a line, in the features' order: readable, and still JSON
    rows = ",\n".join("  " + json.dumps([round(float(v), 6) for v in row]) for row in a.precision)
    text = json.dumps(data, indent=1)[:-2] + ',\n "precision": [\n' + rows + "\n ]\n}\n"
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


def start_learning(settings, agents: dict, fresh: bool = False,
                   path: Optional[Path] = None) -> tuple[Optional[object], Optional[Profile], list[str], list[str]]:
    """(learner, profile, info lines, warnings) for a session: a learner when the AI plays
    with `human` agents on word cards (their reader is what it adapts), with the person's
    profile unless ``fresh``. What to tell the person is said here, once."""
    from ..agents.human import HumanGuesser, HumanSpymaster
    from ..agents.human.adapt import PersonLearner

    if settings.mode == "pictures" or (settings.mode != "duet" and settings.role != "guesser"):
        return None, None, [], []  # no word-card guesses of the person's to learn from
    # only the person's partners learn them: in classic, not the other team's AI
    partners = {r: a for r, a in agents.items() if settings.mode != "classic" or r.startswith(f"{settings.team}_")}
    readers = [a.reader for a in partners.values() if isinstance(a, (HumanGuesser, HumanSpymaster))]
    if not readers:
        return None, None, [], []
    reader = getattr(readers[0], "base", readers[0])
    path = Path(path) if path is not None else default_profile_path()
    if fresh:
        learner = PersonLearner(reader)
        learner.personalise(partners)
        return learner, None, [f"--fresh: the AI learns from your guesses in this game only; your profile "
                               f"({path}) is neither read nor changed."], []
    profile, warning = load_profile(path, reader.params)
    learner = PersonLearner(reader, profile.adaptation)
    learner.personalise(partners)
    known = (f"it knows you from {profile.guesses} guess{'es' if profile.guesses != 1 else ''}" if profile.guesses
             else "a new profile")
    info = [f"The AI learns how you read clues from your guesses and remembers it in {path} ({known}). "
            "To forget it, delete that file; to play without it, add --fresh."]
    return learner, profile, info, [warning] if warning else []


def keep_profile(profile: Optional[Profile], learner) -> Optional[str]:
    """Save what this game taught (nothing new: nothing written); a warning if it failed."""
    if profile is None or learner is None or not getattr(learner, "learned", 0):
        return None
    try:
        save_profile(profile)
    except OSError as exc:
        return f"could not write the profile {profile.path} ({exc}); this game's learning is lost"
    return None
