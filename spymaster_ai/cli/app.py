"""The ``spymaster-ai`` command line (typer). Each command group lives in its own module."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="spymaster-ai",
    help="AI players for Codenames: rules engines, clue legality, embedding agents, benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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


def main() -> None:
    _register()
    app()
