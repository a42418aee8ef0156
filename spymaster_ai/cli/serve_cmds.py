"""``spymaster-ai serve``: the web page to play with the AI partner (see docs/web.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .app import app
from .errors import fail


@app.command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST", help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, metavar="PORT", help="Port to listen on."),
    db: Optional[Path] = typer.Option(None, "--db", metavar="FILE",
                                      help="SQLite file of the games (default: games.sqlite3 in the user's data folder)."),
    workers: int = typer.Option(2, "--ai-threads", min=1, max=32, metavar="N", help="Threads that run the AI's moves."),
) -> None:
    """Serve the game in a browser: Duet with the AI partner, solo, classic and Pictures against an AI team."""
    from ..web.db import default_db_path

    path = db or default_db_path()
    if path.is_dir():
        fail(f"--db: {path} is a folder; give a file")
    try:
        import uvicorn

        from ..web import create_app
        from ..web.app import allowed_hosts_for
    except ImportError as exc:  # pragma: no cover - the server's packages are dependencies
        fail(f"the web server needs fastapi and uvicorn: {exc}")
    typer.echo("Loading the AI players and playing one clue to warm them up (once per server)...", err=True)
    _warm_up()
    try:
        web = create_app(path, workers=workers, allowed_hosts=allowed_hosts_for(host))
    except Exception as exc:  # sqlite3.Error, OSError: the database cannot be opened
        fail(f"--db: cannot open {path}: {exc}")
    typer.echo(f"Games are stored in {path}", err=True)
    typer.echo(f"Open http://{host if host not in ('0.0.0.0', '::') else '127.0.0.1'}:{port}/ in your browser (Ctrl-C stops the server).")
    uvicorn.run(web, host=host, port=port, log_level="warning")


def _warm_up() -> None:
    """Load the default agents' models and play one AI clue, so the first player waits no longer
    than the next (the models and encoded vocabularies are shared by every game of the process)."""
    from ..play import PlaySettings, Session, load_session_agents, new_game

    for mode in ("duet", "classic"):
        settings = PlaySettings(mode=mode, seed=0)
        game, labels = new_game(settings)
        agents = load_session_agents(settings)
        if mode == "duet":
            Session(settings, game, agents, labels).advance()
