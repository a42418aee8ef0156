"""A researcher's own agent named in a spec: ``package.module:Class``, ``path/file.py:Class``
or ``kim:path/file.py:Class`` (a bot written for Kim et al.'s framework), imported, checked
against its constructor and built.

Why its own module: importing a stranger's code and reporting its failures in one line is a
different job from naming the built-in agents (``agents.registry``).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from .spec_params import RESOLVE, AgentSpecError, _build, _check, _resolved

__all__ = ["custom_agent"]


def _import_class(name: str, spec: str) -> type:
    module_name, _, class_name = name.rpartition(":")
    if not module_name or not class_name:
        raise AgentSpecError(f"agent spec {spec!r}: expected package.module:ClassName")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise AgentSpecError(f"agent spec {spec!r}: no file {module_name}")
            mod_spec = importlib.util.spec_from_file_location(f"_spymaster_agent_{path.stem}", path)
            assert mod_spec is not None and mod_spec.loader is not None
            module = importlib.util.module_from_spec(mod_spec)
            mod_spec.loader.exec_module(module)
        else:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if os.getcwd() in sys.path or not (exc.name and module_name.startswith(exc.name)):
                    raise
                sys.path.append(os.getcwd())  # a researcher's module beside them, run from a console script
                module = importlib.import_module(module_name)
    except AgentSpecError:
        raise
    except Exception as exc:
        raise AgentSpecError(f"agent spec {spec!r}: cannot import {module_name}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if cls is None:
        raise AgentSpecError(f"agent spec {spec!r}: {module_name} has no {class_name!r}")
    return cls


def _kim(name: str, params: dict[str, Any], spec: str, role: str, load: Any) -> Any:
    """A bot written for Kim et al.'s framework (``kim:PATH/file.py:Class``), through
    ``agents.kim_adapter``; ``glove=`` names the vectors it gets as ``glove_vecs``, every other
    parameter is passed to its constructor as their ``Game`` passes ``cm_kwargs``."""
    from .kim_adapter import KimCodemaster, KimGuesser, kim_source

    adapter = KimCodemaster if role == "spymaster" else KimGuesser
    try:
        path, class_name = kim_source(name)
    except ValueError as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from exc
    if not path.is_file():
        raise AgentSpecError(f"agent spec {spec!r}: no file {path}")
    glove = params.get("glove", "glove50")
    if glove is not None and not isinstance(glove, str):
        raise AgentSpecError(f"agent spec {spec!r}: glove is an embedding name or none, got {glove!r}")
    values = {"path": str(path), "class_name": class_name, **params}
    if load is RESOLVE:
        return _resolved(adapter, values)
    if not load:
        return adapter
    try:
        return adapter(**values)
    except Exception as exc:  # their code failed to import or build: say where, in one line
        raise AgentSpecError(f"agent spec {spec!r}: loading {class_name} raised {type(exc).__name__}: {exc}") from exc


def custom_agent(name: str, params: dict[str, Any], spec: str, protocol: type, role: str, load: bool = True) -> Any:
    if name.startswith("kim:"):
        return _kim(name, params, spec, role, load)
    cls = _import_class(name, spec)
    checked = _check(cls, spec, params, coerce=False)
    if load is RESOLVE:
        return _resolved(cls, checked)
    if not load:  # the researcher's constructor may load models: checked by name only
        return cls
    title = getattr(cls, "__qualname__", name)
    try:
        agent = _build(cls, spec, (), checked)
    except AgentSpecError:
        raise
    except Exception as exc:  # the researcher's own code failed: say where, in one line
        raise AgentSpecError(
            f"agent spec {spec!r}: building {title} raised {type(exc).__name__}: {exc} "
            "(build it in Python to see the traceback)"
        ) from exc
    if not isinstance(agent, protocol):
        needs = "reset(seed) and give_clue(view)" if role == "spymaster" else "reset(seed) and next_guess(view)"
        raise AgentSpecError(
            f"agent spec {spec!r}: {title} gave a {type(agent).__name__}, which is not a {role} (needs {needs})"
        )
    return agent
