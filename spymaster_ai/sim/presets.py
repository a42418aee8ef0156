"""Named rule presets: another paper's protocol in one word, so our cells read against theirs.

Why: a published number holds only under its authors' rules. ``kim2019`` is Kim et al.'s
framework (github.com/CodenamesAICompetition/Game, ``game.py``) as their bots were scored:
one team alone on 8/7/9/1, a loss counting 25 turns, no check of the clue (their game takes
any word, a board word included: ``legality="off"``), and no zero-clue opener from our
spymasters (``warn_cards=0``; by default they open a Kim-protocol game with "word: 0", a
warning their codemasters never give). Their board pool is theirs to point at
(``--wordlist PATH/codenames/game_wordpool.txt``); our own list is the default.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from typing import Any

from .play import PlayOptions

__all__ = ["PRESETS", "Preset", "apply_preset"]


@dataclass(frozen=True)
class Preset:
    game: str
    options: dict[str, Any]  # PlayOptions fields
    spymaster: dict[str, Any] = field(default_factory=dict)  # parameters for spymasters that take them
    note: str = ""


PRESETS: dict[str, Preset] = {
    "kim2019": Preset(
        game="kim2019", options={"legality": "off"}, spymaster={"warn_cards": 0},
        note="Kim et al. 2019 (CodenamesAICompetition/Game): no clue check, no zero-clue opener",
    ),
}


def _takes(role: str, spec: str, key: str) -> bool:
    """Whether the class ``spec`` builds names ``key`` among its constructor's parameters (a
    class that only takes ``**kwargs``, e.g. a Kim bot's adapter, does not count)."""
    from ..agents.registry import agent_class

    cls = agent_class(role, spec)
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return key in params and params[key].kind is not inspect.Parameter.VAR_KEYWORD


def _with(spec: str, key: str, value: Any) -> str:
    from ..agents.registry import parse_spec

    _, params = parse_spec(spec)
    if key in params:  # the user's own value wins
        return spec
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f"{spec}{',' if params else ':'}{key}={text}"


def apply_preset(name: str, game: str, specs: dict[str, str], options: PlayOptions) -> tuple[dict[str, str], PlayOptions]:
    """The specs and options of a run under preset ``name``: its rule options over
    ``options``, and its spymaster parameters added to every spymaster spec whose class takes
    them and does not set them already."""
    preset = PRESETS.get(name)
    if preset is None:
        raise ValueError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    if game != preset.game:
        raise ValueError(f"preset {name!r} is for bench {preset.game}, not {game}")
    out = dict(specs)
    for role, spec in specs.items():
        if not role.endswith("spymaster"):
            continue
        for key, value in preset.spymaster.items():
            if _takes("spymaster", spec, key):
                out[role] = _with(out[role], key, value)
    return out, replace(options, **preset.options)
