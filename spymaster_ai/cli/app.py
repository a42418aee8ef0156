"""The ``spymaster-ai`` command line (typer). Each command group lives in its own module."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

# typer's type placeholders (as in "<int range>") -> the metavar shown instead
_TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "path": "PATH", "list[str]": "TEXT"}


def _plain_metavars(command: Any, ctx: Any) -> None:
    """Give ``command`` and its subcommands help without typer's type placeholders.

    Why: recent typer prints ``<bool>`` after every flag (``--help`` included) and ``<str>``,
    ``<int range>``, ``<path>`` where a metavar goes. A flag takes no value, so it gets none;
    an option without a metavar of its own gets a plain word (TEXT, INTEGER, PATH). Commands
    set their own where a better one exists (N, FILE, SPEC). Older typer prints click's
    metavars and is left as it is.
    """
    params = list(command.params)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if getattr(param, "param_type_name", None) != "option" or param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif hasattr(param, "display_type"):  # typer's placeholders
            shown = param.display_type(ctx).strip("<>").replace(" range", "")
            param.metavar = _TYPE_WORDS.get(shown, shown.upper())
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub, ctx)


class _Group(TyperGroup):
    """The root group: before any help is printed, every command gets plain metavars."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _plain_metavars(self, ctx)
        return super().parse_args(ctx, args)


app = typer.Typer(
    name="spymaster-ai",
    help="AI players for Codenames: rules engines, clue legality, embedding agents, benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_Group,
)


def _register() -> None:
    # Importing a module registers its commands on ``app``.
    from . import check_clue  # noqa: F401
    from . import bench_cmds  # noqa: F401
    from . import agent_cmds  # noqa: F401
    from . import play_cmds  # noqa: F401
    from . import embeddings_cmd  # noqa: F401
    from . import eval_cmds  # noqa: F401
    from . import sweep_cmds  # noqa: F401
    from . import pictures_cmds  # noqa: F401
    from . import serve_cmds  # noqa: F401


def main() -> None:
    _register()
    app()


if __name__ == "__main__":  # python -m spymaster_ai.cli.app, as the console script
    # Run as __main__, this file is a second module: the commands register on the package's
    # ``app`` (``spymaster_ai.cli.app``), so run that one.
    from spymaster_ai.cli.app import main as package_main

    package_main()
