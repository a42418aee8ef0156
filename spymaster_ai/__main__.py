"""``python -m spymaster_ai``: the same command line as ``spymaster-ai``."""

from spymaster_ai.cli.app import main

main()
