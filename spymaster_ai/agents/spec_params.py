"""Agent spec text: ``NAME[:key=value,...]`` parsed, and its parameters checked against the
agent's constructor before any model loads.

Why its own module: the registry decides *which* agent a name means; this decides whether the
values a spec gives are ones that agent takes (by name, by its defaults' types, by a
researcher's annotations), so that a typo fails in milliseconds with a message naming it.
"""

from __future__ import annotations

import inspect
import math
import re
from typing import Any, Callable, Optional

__all__ = ["AgentSpecError", "RESOLVE", "parse_spec"]

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_COMPOSITE = ("ensemble", "consensus")
# Embedding names with a colon of their own (``vectors:PATH``, ``captions:minilm``...): a spec
# named so is an embedding agent, not ``package.module:ClassName``.
_EMBEDDING_PREFIXES = _COMPOSITE + ("captions", "vectors", "model", "clip")


class AgentSpecError(ValueError):
    """An agent spec that names nothing known, or parameters its agent does not take."""


# ``load=RESOLVE``: check the spec as ``load=False`` does, and return what the agent would be
# built with (:func:`resolve_spec`) instead of its class.
RESOLVE = "resolve"


def _resolved(cls: Any, values: dict[str, Any], models: Optional[dict[str, Any]] = None) -> dict:
    from ..provenance import resolved_parameters

    return resolved_parameters(cls, values, models or {})


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into its name and its parsed parameters."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("empty agent spec")
    parts = spec.strip().split(":")
    cut = next((i for i, p in enumerate(parts) if "=" in p), len(parts))
    name = ":".join(parts[:cut]).strip()
    if name.endswith(":") and name.count(":") == 1 and name[:-1].strip() not in ("", *_EMBEDDING_PREFIXES):
        name = name[:-1].strip()  # "glove50:" is "glove50" with no parameters
    if not name:
        raise AgentSpecError(f"agent spec {spec!r} has no name before its parameters")
    params: dict[str, Any] = {}
    text = ":".join(parts[cut:])
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not _KEY.match(key):
            raise AgentSpecError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        if key in params:
            raise AgentSpecError(f"agent spec {spec!r}: parameter {key!r} given twice")
        value = _value(raw)
        # nan, inf, 1e999: no agent parameter means them, and most would take them silently
        # (a nan weight loses games, a nan cost makes every clue an error): refused for all.
        if isinstance(value, float) and not math.isfinite(value):
            raise AgentSpecError(f"agent spec {spec!r}: {key} must be a finite number, got {raw.strip()!r}")
        params[key] = value
    return name, params


def _check(
    cls: Callable[..., Any], spec: str, params: dict[str, Any], coerce: bool, other_role: Optional[tuple[str, Callable[..., Any]]] = None
) -> dict[str, Any]:
    """The spec's parameters, checked by name (and by type for built-in agents) against ``cls``.

    Done before any model is loaded, so a typo fails in milliseconds. ``other_role``: (its name,
    its class): a parameter of the other role is named as such, the likeliest slip when one
    spec plays both roles (a tournament's ``--agents``).
    """
    # Built-in agents (coerce=True) get their models from the registry, never as spec values.
    reserved = ("embedding", "partner", "reader") if coerce else ()
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return params
    accepted = {n: p for n, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    out = dict(params)
    hints = {} if coerce else _hints(cls)
    for key, val in params.items():
        if key not in accepted or key in reserved:
            if takes_any:
                continue
            names = ", ".join(sorted(k for k in accepted if k not in reserved)) or "none"
            if other_role is not None and key in inspect.signature(other_role[1]).parameters:
                this_role = "spymaster" if other_role[0] == "guesser" else "guesser"
                raise AgentSpecError(
                    f"agent spec {spec!r}: {key!r} is a {other_role[0]} parameter, and this spec is "
                    f"used as a {this_role}: give it to the {other_role[0]}'s spec only (a tournament's "
                    f"--agents gives every spec both roles; --spymasters and --guessers separate them) "
                    f"({this_role} parameters: {names})"
                )
            raise AgentSpecError(f"agent spec {spec!r}: unknown parameter {key!r} (accepted: {names})")
        if coerce:
            out[key] = _coerce(spec, key, val, accepted[key].default)
        elif key in hints and _checkable(hints[key]):  # a researcher's class: by its annotation, before play
            out[key] = _annotated(spec, key, val, hints[key])
        else:  # ... else by its default's type (or the annotation as text: "int", "Optional[float]")
            out[key] = _coerce(spec, key, val, _typed_default(accepted[key]))
    return out


def _hints(cls: Any) -> dict[str, Any]:
    """The constructor's annotations, resolved (``from __future__ import annotations`` makes
    them text); {} when they cannot be resolved (a name imported only for type checkers)."""
    import typing

    init = cls.__init__ if isinstance(cls, type) else cls
    try:
        return typing.get_type_hints(init)
    except Exception:  # NameError and friends: fall back to the text rules of _typed_default
        return {}


_SCALARS = (bool, int, float, str)
_CONTAINERS = (list, tuple, dict, set, frozenset)


def _checkable(hint: Any) -> bool:
    """Whether :func:`_annotated` understands ``hint``: a scalar type, a container (which no
    spec value can be), Literal, and Optional/Union of these. Anything else (Any, a class of
    the researcher's) is left to the constructor."""
    import typing

    origin = typing.get_origin(hint)
    if hint in _SCALARS or hint in _CONTAINERS or origin in _CONTAINERS or hint is type(None):
        return True
    if origin is typing.Literal:
        return True
    if origin is typing.Union or type(hint).__name__ == "UnionType":
        return all(_checkable(arg) for arg in typing.get_args(hint))
    return False


def _describe(hint: Any) -> str:
    import typing

    if hint is type(None):
        return "none"
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(hint))
    if origin is typing.Union or type(hint).__name__ == "UnionType":
        return " or ".join(_describe(a) for a in typing.get_args(hint))
    if hint in _CONTAINERS or origin in _CONTAINERS:
        return f"a {getattr(origin or hint, '__name__', hint)} (which a spec cannot give: a spec's values are true/false, numbers, none or text)"
    return {bool: "true or false", int: "an integer", float: "a number", str: "text"}.get(hint, str(hint))


def _annotated(spec: str, key: str, val: Any, hint: Any) -> Any:
    """``val`` checked against the annotation ``hint`` (see :func:`_checkable`); an int
    given for a float becomes a float, a number given for text stays text as written."""
    import typing

    options = typing.get_args(hint) if typing.get_origin(hint) is typing.Union or type(hint).__name__ == "UnionType" else (hint,)
    for option in options:
        if option is type(None):
            if val is None:
                return None
            continue
        if typing.get_origin(option) is typing.Literal:
            if any(val == choice and type(val) is type(choice) for choice in typing.get_args(option)):
                return val  # Literal[1, 2] takes 1, not true
            continue
        if option is bool and isinstance(val, bool):
            return val
        if option is int and isinstance(val, int) and not isinstance(val, bool):
            return val
        if option is float and isinstance(val, (int, float)) and not isinstance(val, bool):
            return float(val)
        if option is str and val is not None:
            return val if isinstance(val, str) else _spec_text(spec, key, val)
    raise AgentSpecError(f"agent spec {spec!r}: {key} must be {_describe(hint)}, got {val!r}")


def _spec_text(spec: str, key: str, val: Any) -> str:
    """A number or a bool given for a text parameter, as the spec wrote it (``name=007``
    stays "007", not "7")."""
    for item in spec.split(","):
        k, eq, raw = item.rpartition(":")[2].partition("=")
        if eq and k.strip() == key:
            return raw.strip()
    return str(val).lower() if isinstance(val, bool) else str(val)


_ANNOTATED = re.compile(r"^(?:Optional\[)?(bool|int|float|str)\]?(?:\s*\|\s*None)?$")


def _typed_default(param: inspect.Parameter) -> Any:
    """What :func:`_coerce` checks a researcher's parameter against: its default, or for a
    parameter without one, a value of its annotated type (``int``, ``Optional[float]``...);
    anything else is not checked."""
    default = param.default
    if default is not inspect.Parameter.empty and default is not None:
        return default if type(default) in (bool, int, float, str) else inspect.Parameter.empty
    note = param.annotation
    if isinstance(note, type) and note in (bool, int, float, str):
        return note()
    match = _ANNOTATED.match(note.strip()) if isinstance(note, str) else None
    return {"bool": False, "int": 0, "float": 0.0, "str": ""}[match.group(1)] if match else inspect.Parameter.empty


class _NotLoaded:
    """Stands in for a model while a built-in agent's parameter values are checked: the
    embedding agents' constructors only store their models, so their range checks (``risk``
    in [0, 1]...) run in milliseconds, before any model loads."""

    def similarity(self, rows: Any, cols: Any) -> Any:
        raise RuntimeError("the stand-in of an unloaded model was asked for similarities")


def _check_values(cls: Callable[..., Any], spec: str, params: dict[str, Any]) -> None:
    """Run ``cls``'s own checks on the spec's values with :class:`_NotLoaded` as its model."""
    _build(cls, spec, (_NotLoaded(),), params)


def _build(cls: Callable[..., Any], spec: str, args: tuple, params: dict[str, Any], **fixed: Any) -> Any:
    """``cls(*args, **params, **fixed)``, its refusals reported as spec errors.

    ``fixed`` holds keyword arguments that are not spec values (loaded partner models).
    """
    try:
        return cls(*args, **params, **fixed)
    except AgentSpecError:
        raise
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from exc


def _coerce(spec: str, key: str, val: Any, default: Any) -> Any:
    """Check a parsed value against the type of the parameter's default."""
    if default is inspect.Parameter.empty or default is None or val is None:
        return val
    kind = type(default)
    ok = {
        bool: isinstance(val, bool),
        int: isinstance(val, int) and not isinstance(val, bool),
        float: isinstance(val, (int, float)) and not isinstance(val, bool),
    }.get(kind, True)
    if not ok:
        want = {bool: "true or false", int: "an integer", float: "a number"}[kind]
        raise AgentSpecError(f"agent spec {spec!r}: {key} must be {want}, got {val!r}")
    if kind is float:
        return float(val)
    if kind is str:
        return str(val)
    return val
