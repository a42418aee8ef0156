"""Agents: the Spymaster and Guesser protocols, embedding agents and baselines."""

from .base import Guesser, Spymaster

__all__ = ["Guesser", "Spymaster"]
