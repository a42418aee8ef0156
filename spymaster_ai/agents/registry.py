"""Agents by name: ``make_spymaster("robust:partner=glove50+mpnet,risk=0.6")``.

Why: benchmarks, tournaments and the CLI name their players in one string, and a researcher's
own class must plug in the same way as the built-in agents.

A spec is ``NAME[:key=value,...]``. NAME is a built-in agent (``robust``, ``closest``,
``random``), an embedding name (``minilm``, ``glove50``, ``ensemble:a+b``...: the embedding
spymaster or guesser on that model), or ``package.module:ClassName`` (also
``path/to/file.py:ClassName``) for a class implementing the protocol, or
``kim:path/to/file.py:ClassName`` for a bot written for Kim et al.'s framework
(``agents.kim_adapter``). Values are parsed as
bool (true/false), int, float, ``none``, else kept as strings. See docs/agents.md.

``isolate``: None (the default) builds a researcher's class (``package.module:ClassName``,
``file.py:ClassName``) in its own process (``agents.isolation``, docs/isolation.md) and the
built-in agents in this one; True isolates every agent, False none.
"""

from __future__ import annotations

import threading
from typing import Any, Optional

from .base import Guesser, Spymaster
from .plugins import custom_agent
from .spec_params import (  # noqa: F401  (AgentSpecError, RESOLVE, parse_spec: this module's public names)
    _COMPOSITE, _EMBEDDING_PREFIXES, RESOLVE, AgentSpecError, _build, _check, _check_values, _NotLoaded, _resolved,
    _value, parse_spec,
)

__all__ = [
    "AGENT_NAMES", "AgentSpecError", "RESOLVE", "agent_class", "check_spec", "is_isolated", "make_guesser", "make_spymaster",
    "parse_spec", "resolve_spec",
]

DEFAULT_EMBEDDING = "minilm"
# "Several models, excluding none": the partner the robust spymaster predicts by default.
DEFAULT_PARTNER = "glove50+minilm"
# Every embedding spymaster of the registry (robust or one model) plays for a partner whose
# model it may not know: it favours clues its targets evoke strongly (see
# EmbeddingSpymaster.backward_strength) ...
BACKWARD_STRENGTH = 0.3
# ... and avoids clues an assassin itself calls to mind (EmbeddingSpymaster.assassin_backward).
ASSASSIN_BACKWARD = 1.0
# Neither in Duet, where they cost the clock more tempo than they save (see EmbeddingSpymaster).
DUET_BACKWARD_STRENGTH = 0.0
DUET_ASSASSIN_BACKWARD = 0.0
# Every registry spymaster warns with a zero clue for the assassin on its first turn (classic
# rules and the Kim protocol; never in Duet or solo): EmbeddingSpymaster.warning.
WARN_CARDS = 9
# The robust spymaster expects its partner to remember its unfinished clues as the registry
# guesser does (history_weight 1.0), except in Duet, where it lost games; a single-model
# spymaster does not: it lost cross-play games with it (EmbeddingSpymaster).
MEMORY_WEIGHT = 1.0
DUET_MEMORY_WEIGHT = 0.0
# ``bold=true``: a single-model spymaster whose partner is known to be that model's embedding
# guesser (a mirror): it plays each clue's guesses out (EmbeddingSpymaster ``mirror``) and aims
# at up to this many cards, without the terms and the warning that buy safety with an unknown
# reader (mirror Kim protocol, 200 games, seed 0, GloVe: 100% in 2.46 turns without the
# warning, 98.5% in 4.00 with it).
BOLD = {"mirror": True, "max_count": 8, "backward_strength": 0.0, "assassin_backward": 0.0,
        "duet_backward_strength": 0.0, "duet_assassin_backward": 0.0, "warn_cards": 0}
# The packaged models a leave-one-out robust spymaster (``robust:exclude=G``) draws on.
LEAVE_ONE_OUT_POOL = ("minilm", "glove50", "wordllama", "e5small")

AGENT_NAMES: dict[str, str] = {
    "human": "spymaster or guesser for people: reads clues as people do (a reader fitted to human Duet play), gives clues a person can follow; the AI partner of `play`",
    "robust": "spymaster: embedding spymaster scored by a partner model, favouring clues its targets evoke strongly (default partner glove50+minilm; exclude=G: every packaged model but G)",
    "closest": "spymaster: clues its single closest own card with count 1",
    "learner": "spymaster: robust, learning its partner over the games of a match (--match K): partner-model weights and a fitted reader from every guess, and a memory of the clue words it read as intended (exclude=G as robust)",
    "bandit": "spymaster: Archibald & Brosnahan's bandit (UCB1) over expert spymasters, one a game, over a match (arms: the pool's single-model spymasters and robust; exclude=G)",
    "random": "guesser: guesses uniformly at random up to the count (seeded)",
    "minilm": "spymaster or guesser on MiniLM (all-MiniLM-L6-v2); the default",
    "glove50": "spymaster or guesser on GloVe 6B 50d",
    "mpnet": "spymaster or guesser on all-mpnet-base-v2 (extra install)",
    "kim": "spymaster or guesser: a bot written for Kim et al.'s framework, run unchanged (kim:PATH/file.py:Class[:glove=glove50]; docs/kim_framework.md)",
    "llm": "spymaster or guesser: a chat model behind any OpenAI-compatible endpoint (llm:model=NAME,base_url=URL; docs/llm.md)",
}

_ROLE_ONLY = {"robust": "spymaster", "closest": "spymaster", "learner": "spymaster", "bandit": "spymaster", "random": "guesser"}


# -- embeddings ---------------------------------------------------------------------------------

_LOADED: dict[str, Any] = {}
# Isolated specs a child process has checked (each once), with their resolved parameters.
_CHECKED: dict[tuple[str, str], dict] = {}
_LOCK = threading.Lock()


def _embedding(name: str, lang: str = "en") -> Any:
    """Load an embedding once per process (spymaster and guesser share the model); ``lang``:
    its clue vocabulary's language (an English-only model is refused on other boards)."""
    key = name if lang == "en" else f"{name}@{lang}"
    with _LOCK:
        if key not in _LOADED:
            try:
                from ..embeddings import load_embedding
            except ImportError as exc:  # pragma: no cover - the embeddings package is part of the project
                raise AgentSpecError(f"embeddings unavailable: {exc}") from exc
            try:
                _LOADED[key] = load_embedding(name) if lang == "en" else load_embedding(name, lang=lang)
            except Exception as exc:  # EmbeddingError: unknown name, missing package (with pip command)
                message = str(exc) or f"cannot load embedding {name!r}"
                if message.startswith("unknown embedding"):  # perhaps a mistyped agent name
                    message += f"; agents: {', '.join(_ROLE_ONLY)}, any embedding name, or package.module:ClassName"
                raise AgentSpecError(message) from exc
        return _LOADED[key]


def _model(name: str, lang: str) -> Any:
    """``_embedding`` for a board's language (English calls it exactly as before)."""
    return _embedding(name) if lang == "en" else _embedding(name, lang)


def _partner(value: Any, lang: str = "en") -> Any:
    """``glove50+mpnet`` -> two models (score averaged); ``ensemble:a+b`` -> one; ``self`` -> own."""
    if value is None or (isinstance(value, str) and value.lower() in ("self", "own", "mirror")):
        return None
    if not isinstance(value, str):
        raise AgentSpecError(f"partner: expected embedding names, got {value!r}")
    if value.split(":")[0] in _COMPOSITE:
        return _model(value, lang)
    names = [n.strip() for n in value.split("+")]
    if not all(names):
        raise AgentSpecError(f"partner: empty model name in {value!r}")
    return [_model(n, lang) for n in names]


def add_language(spec: str, lang: str) -> str:
    """``spec`` with ``lang=...`` added (the sim's way to put an agent on another language's
    board); a spec that already names a language keeps it, and a custom class is unchanged."""
    name, params = parse_spec(spec)
    if lang == "en" or "lang" in params or _is_custom(name):
        return spec
    return f"{spec},lang={lang}" if params else f"{spec}:lang={lang}"


def _language(spec: str, params: dict[str, Any]) -> str:
    """The ``lang`` parameter of a spec (the sim adds it for boards in other languages)."""
    from ..rules.lang import check_language

    lang = str(params.pop("lang", "en"))
    try:
        return check_language(lang)
    except ValueError as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from exc


def _check_languages(spec: str, names: list[str], lang: str) -> None:
    """Refuse an English-only model on another language's board before anything loads."""
    from ..embeddings.registry import EmbeddingError, check_language_model

    for name in names:
        try:
            check_language_model(name, lang)
        except EmbeddingError as exc:
            raise AgentSpecError(f"agent spec {spec!r}: {exc}") from exc


def _partner_names(value: Any) -> list[str]:
    """The embedding names a partner value will load (none for ``self``)."""
    if value is None or not isinstance(value, str) or value.lower() in ("self", "own", "mirror"):
        return []
    if value.split(":")[0] in _COMPOSITE:
        return [value]
    return [n.strip() for n in value.split("+") if n.strip()]


def _check_names(spec: str, names: list[str]) -> None:
    """Refuse an unknown model name before any model loads (a robust spymaster loads its own
    model first, several seconds, and only then its partners)."""
    from ..embeddings.registry import EmbeddingError, check_embedding_name

    for name in names:
        try:
            check_embedding_name(name)
        except EmbeddingError as exc:
            raise AgentSpecError(f"agent spec {spec!r}: {exc}") from exc


# -- construction with checked parameters -----------------------------------------------------------



def _is_custom(name: str) -> bool:
    return ":" in name and name.split(":")[0] not in _EMBEDDING_PREFIXES


def _wrong_role(name: str, spec: str, role: str) -> None:
    other = _ROLE_ONLY.get(name)
    if other is not None and other != role:
        raise AgentSpecError(f"agent spec {spec!r}: {name!r} is a {other}, not a {role}")


def _without(spec: str, exclude: str, own: Any, partner: Any) -> tuple[str, str]:
    """Leave-one-out: the robust spymaster's own model and partner models, none of them in
    ``exclude`` (``+``-separated); by default every model of :data:`LEAVE_ONE_OUT_POOL` left."""
    from ..embeddings.registry import BUILTINS, canonical_name

    banned = {canonical_name(n) for n in exclude.split("+") if n.strip()}
    if own is not None:
        own = canonical_name(str(own))
    if partner is None:
        names = [m for m in LEAVE_ONE_OUT_POOL if m not in banned]
    else:
        names = [canonical_name(n) for n in str(partner).split("+") if n.strip()]
        clash = sorted(set(names) & banned)
        if clash:
            raise AgentSpecError(f"agent spec {spec!r}: partner model(s) {', '.join(clash)} are excluded")
    # A mistyped name would exclude nothing and label the run as if it had: refuse it.
    unknown = sorted(n for n in banned if n not in BUILTINS and ":" not in n)
    if unknown:
        raise AgentSpecError(
            f"agent spec {spec!r}: exclude names no known model: {', '.join(unknown)} (known: {', '.join(BUILTINS)})"
        )
    if own is None:
        own = names[0] if names else None
    if own is None or str(own) in banned:
        raise AgentSpecError(f"agent spec {spec!r}: the spymaster's own model {own!r} is excluded")
    if not names:
        raise AgentSpecError(f"agent spec {spec!r}: no partner model left after excluding {exclude!r}")
    return str(own), "+".join(names)


def _llm(role: str, spec: str, params: dict[str, Any], load: bool) -> Any:
    """A chat model as spymaster or guesser (``agents.llm``); its parameters checked by name
    and type, ``model`` and ``base_url`` required, before anything is sent."""
    from .llm import LLMGuesser, LLMSpymaster

    cls, other = (LLMSpymaster, LLMGuesser) if role == "spymaster" else (LLMGuesser, LLMSpymaster)
    checked = _check(cls, spec, params, coerce=True)
    for required in ("model", "base_url"):
        if not checked.get(required):
            raise AgentSpecError(f"agent spec {spec!r}: llm needs {required}= (llm:model=NAME,base_url=http://HOST:PORT/v1)")
    agent = _build(cls, spec, (), checked)
    if load is RESOLVE:
        return _resolved(cls, checked)
    return agent if load else cls


def _human(role: str, spec: str, params: dict[str, Any], load: bool, lang: str = "en") -> Any:
    """The agents for people (``spymaster_ai.agents.human``), on the process's shared reader; on
    a German, Vietnamese or Persian board the same reader through the language's glossary."""
    from .human import HumanGuesser, HumanSpymaster, glossed_reader, shared_reader

    cls, other = (HumanSpymaster, HumanGuesser) if role == "spymaster" else (HumanGuesser, HumanSpymaster)
    checked = _check(cls, spec, params, coerce=True, other_role=("guesser" if role == "spymaster" else "spymaster", other))
    if role == "guesser":
        _build(cls, spec, (), {**checked, "reader": _NotLoaded()})  # range checks, no model loaded
    if load is RESOLVE:
        return _resolved(cls, checked, {"reader": "the shared human reader (agents/human)"})
    if not load:
        return cls
    reader = shared_reader(_embedding) if lang == "en" else glossed_reader(lang, _embedding)
    return _build(cls, spec, (reader,) if role == "spymaster" else (), checked,
                  **({} if role == "spymaster" else {"reader": reader}))


# -- public -----------------------------------------------------------------------------------------


def check_spec(role: str, spec: str, *, isolate: Optional[bool] = None) -> dict:
    """Every check :func:`make_spymaster` or :func:`make_guesser` makes on ``spec``, without
    loading a model: a run with several agents refuses a bad one before the first loads. A
    spec that will run isolated is checked in a child process (its module is never imported
    here). Returns :func:`resolve_spec`'s record of what the agent will be built with."""
    return resolve_spec(role, spec, isolate=isolate)


def resolve_spec(role: str, spec: str, *, isolate: Optional[bool] = None) -> dict:
    """``{"class": "module.Class", "parameters": {...}}``: the class ``spec`` builds for
    ``role`` and every constructor parameter's value (the spec's, else the registry's default,
    else the constructor's; models by name), after every check of :func:`check_spec`, with
    no model loaded. Why: defaults change between versions, so a spec string alone does not
    say which agent played; every output records this beside it."""
    if role not in ("spymaster", "guesser"):
        raise ValueError(f"role must be 'spymaster' or 'guesser', got {role!r}")
    if is_isolated(spec, isolate):
        from .isolation import check_isolated

        with _LOCK:
            if (role, spec) in _CHECKED:
                return _CHECKED[(role, spec)]
        resolution = check_isolated(role, spec)
        with _LOCK:
            _CHECKED[(role, spec)] = resolution
        return resolution
    return (make_spymaster if role == "spymaster" else make_guesser)(spec, load=RESOLVE, isolate=False)


def is_isolated(spec: str, isolate: Optional[bool] = None) -> bool:
    """Whether ``spec`` runs in its own process under ``isolate`` (see the module docstring)."""
    if isolate is not None:
        return bool(isolate)
    return _is_custom(parse_spec(spec)[0])


def agent_class(role: str, spec: str) -> type:
    """The class ``spec`` builds for ``role``, after every check of :func:`check_spec`, without
    building it or loading a model: a sweep routes each grid parameter by its signature.
    (This imports a researcher's module in this process, isolated or not.)"""
    if role not in ("spymaster", "guesser"):
        raise ValueError(f"role must be 'spymaster' or 'guesser', got {role!r}")
    return (make_spymaster if role == "spymaster" else make_guesser)(spec, load=False, isolate=False)


def _isolated(role: str, spec: str) -> Any:
    from .isolation import isolated

    return isolated(role, spec)


def make_spymaster(spec: str, *, load: bool = True, isolate: Optional[bool] = None) -> Spymaster:
    """A spymaster from its spec (see the module docstring); ``load=False``: check only, and
    return the class it would build."""
    if load is True and is_isolated(spec, isolate):
        return _isolated("spymaster", spec)
    name, params = parse_spec(spec)
    if _is_custom(name):  # before importing the built-in agents: an isolated worker needs none of them
        return custom_agent(name, params, spec, Spymaster, "spymaster", load)
    from .baselines import ClosestCardSpymaster
    from .guesser import EmbeddingGuesser
    from .spymaster import EmbeddingSpymaster

    _wrong_role(name, spec, "spymaster")
    lang = _language(spec, params)
    if name == "human":
        return _human("spymaster", spec, params, load, lang)
    if name == "llm":
        return _llm("spymaster", spec, params, load)
    if name == "bandit":
        return _bandit(spec, params, load)
    own = params.pop("embedding", None)
    partner = params.pop("partner", None)
    if name not in ("robust", "closest", "learner") and own is not None:
        raise AgentSpecError(f"agent spec {spec!r}: 'embedding' is implied by the name {name!r}")
    if name == "closest":
        if partner is not None:
            raise AgentSpecError(f"agent spec {spec!r}: the closest-card spymaster takes no partner")
        checked = _check(ClosestCardSpymaster, spec, params, coerce=True)
        _check_names(spec, [str(own or DEFAULT_EMBEDDING)])
        _check_languages(spec, [str(own or DEFAULT_EMBEDDING)], lang)
        if load is RESOLVE:
            return _resolved(ClosestCardSpymaster, checked, {"embedding": str(own or DEFAULT_EMBEDDING)})
        if not load:
            return ClosestCardSpymaster
        return _build(ClosestCardSpymaster, spec, (_model(str(own or DEFAULT_EMBEDDING), lang),), checked)
    exclude = params.pop("exclude", None)
    if exclude is not None and name not in ("robust", "learner"):
        raise AgentSpecError(f"agent spec {spec!r}: only 'robust', 'learner' and 'bandit' take exclude")
    cls = EmbeddingSpymaster
    if name == "learner":  # the robust spymaster, learning its partner across a match
        from .learners import LearningSpymaster

        cls, name = LearningSpymaster, "robust"
    bold = _value(str(params.pop("bold", "false"))) if "bold" in params else False
    if bold not in (True, False):
        raise AgentSpecError(f"agent spec {spec!r}: bold is true or false, got {bold!r}")
    if bold and (name == "robust" or partner is not None):
        raise AgentSpecError(f"agent spec {spec!r}: bold is for a known partner of the spymaster's own model "
                             "(a single-model spymaster without partner=)")
    if bold:
        params = {**{k: v for k, v in BOLD.items()}, **params}
    checked = _check(cls, spec, params, coerce=True, other_role=("guesser", EmbeddingGuesser))
    _check_values(cls, spec, checked)
    if name == "robust" and exclude is not None:
        own, partner = _without(spec, str(exclude), own, partner)
    if name == "robust":
        partner = DEFAULT_PARTNER if partner is None else partner
        names = [str(own or DEFAULT_EMBEDDING), *_partner_names(partner)]
    else:
        names = [name, *_partner_names(partner)]
    _check_names(spec, names)
    _check_languages(spec, names, lang)
    # The registry's defaults, which differ from the constructor's (see the constants above).
    checked.setdefault("backward_strength", BACKWARD_STRENGTH)
    checked.setdefault("assassin_backward", ASSASSIN_BACKWARD)
    checked.setdefault("duet_backward_strength", DUET_BACKWARD_STRENGTH)
    checked.setdefault("duet_assassin_backward", DUET_ASSASSIN_BACKWARD)
    checked.setdefault("warn_cards", WARN_CARDS)
    if name == "robust":
        checked.setdefault("memory_weight", MEMORY_WEIGHT)
        checked.setdefault("duet_memory_weight", DUET_MEMORY_WEIGHT)
    own_name = str(own or DEFAULT_EMBEDDING) if name == "robust" else name
    if load is RESOLVE:
        return _resolved(cls, checked, {"embedding": own_name, "partner": partner if _partner_names(partner) else None})
    if not load:
        return cls
    emb = _model(own_name, lang)
    return _build(cls, spec, (emb,), checked, partner=_partner(partner, lang))


def bandit_arms(exclude: Optional[str] = None) -> list[str]:
    """The expert spymasters of ``bandit``: every pool model's single-model spymaster and the
    robust spymaster, all without the models in ``exclude`` (``+``-separated)."""
    from ..embeddings.registry import canonical_name

    banned = {canonical_name(n) for n in str(exclude or "").split("+") if n.strip()}
    models = [m for m in LEAVE_ONE_OUT_POOL if m not in banned]
    return [*models, f"robust:exclude={exclude}" if banned else "robust"]


def _bandit(spec: str, params: dict[str, Any], load: bool) -> Any:
    from .learners import BanditSpymaster

    params = dict(params)
    exclude = params.pop("exclude", None)
    exploration = params.pop("exploration", 0.5)
    if params:
        raise AgentSpecError(f"agent spec {spec!r}: bandit takes exclude and exploration, not {', '.join(sorted(params))}")
    if not isinstance(exploration, (int, float)) or isinstance(exploration, bool) or exploration < 0:
        raise AgentSpecError(f"agent spec {spec!r}: exploration must be a number >= 0, got {exploration!r}")
    arms = bandit_arms(exclude)
    resolved = [make_spymaster(arm, load=RESOLVE if load is RESOLVE else False) for arm in arms]
    if load is RESOLVE:
        return _resolved(BanditSpymaster, {"exploration": float(exploration)}, {"arms": resolved, "names": arms})
    if not load:
        return BanditSpymaster
    return BanditSpymaster([make_spymaster(a) for a in arms], arms, float(exploration))


def make_guesser(spec: str, *, load: bool = True, isolate: Optional[bool] = None) -> Guesser:
    """A guesser from its spec (see the module docstring); ``load=False``: check only, and
    return the class it would build."""
    if load is True and is_isolated(spec, isolate):
        return _isolated("guesser", spec)
    name, params = parse_spec(spec)
    if _is_custom(name):
        return custom_agent(name, params, spec, Guesser, "guesser", load)
    from .baselines import RandomGuesser
    from .guesser import EmbeddingGuesser
    from .spymaster import EmbeddingSpymaster

    _wrong_role(name, spec, "guesser")
    lang = _language(spec, params)
    if name == "human":
        return _human("guesser", spec, params, load, lang)
    if name == "llm":
        return _llm("guesser", spec, params, load)
    if name == "random":
        checked = _check(RandomGuesser, spec, params, coerce=True)
        agent = _build(RandomGuesser, spec, (), checked)
        if load is RESOLVE:
            return _resolved(RandomGuesser, checked)
        return agent if load else RandomGuesser
    if "embedding" in params:
        raise AgentSpecError(f"agent spec {spec!r}: 'embedding' is implied by the name {name!r}")
    checked = _check(EmbeddingGuesser, spec, params, coerce=True, other_role=("spymaster", EmbeddingSpymaster))
    _check_values(EmbeddingGuesser, spec, checked)
    _check_names(spec, [name])
    _check_languages(spec, [name], lang)
    if load is RESOLVE:
        return _resolved(EmbeddingGuesser, checked, {"embedding": name})
    if not load:
        return EmbeddingGuesser
    return _build(EmbeddingGuesser, spec, (_model(name, lang),), checked)


def describe(spec: str) -> Optional[str]:
    """The one-line description of a built-in name, if it is one."""
    return AGENT_NAMES.get(parse_spec(spec)[0])
