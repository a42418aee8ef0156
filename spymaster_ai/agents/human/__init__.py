"""Agents for people: a reader fitted to human play, a guesser and a spymaster built on it.

``make_spymaster("human")`` / ``make_guesser("human")`` build them (see ``docs/agents.md``).
"""

from .guesser import HumanGuesser
from .reader import HumanReader, ReaderParams, glossed_reader, load_params, shared_reader
from .spymaster import HumanSpymaster

__all__ = ["HumanGuesser", "HumanReader", "HumanSpymaster", "ReaderParams", "glossed_reader", "load_params", "shared_reader"]
