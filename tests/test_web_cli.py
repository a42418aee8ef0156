"""``spymaster-ai serve``'s options: bad ones are refused before any model loads."""

from __future__ import annotations

from typer.testing import CliRunner

from spymaster_ai.cli.app import _register, app


def run(*args: str):
    _register()
    return CliRunner().invoke(app, ["serve", *args])


def test_serve_refuses_a_folder_as_its_database(tmp_path):
    result = run("--db", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.output


def test_serve_refuses_a_port_out_of_range():
    result = run("--port", "70000")
    assert result.exit_code == 2


def test_serve_help_names_its_options():
    result = run("--help")
    assert result.exit_code == 0 and all(o in result.output for o in ("--host", "--port", "--db"))
