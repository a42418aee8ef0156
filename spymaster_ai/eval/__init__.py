"""Evaluation of agents against recorded human play (``spymaster-ai eval human``).

The pipeline, one module per step: ``human_data`` reads the files, ``human_join`` links rows
by content and groups them into games, ``adapter`` asks an agent through its public methods,
``human_metrics`` computes the four figures (``bootstrap`` their intervals), ``calibration``
fits the optional guesser on held-out games, and ``human_eval`` assembles one report.
"""

from .adapter import AgentAdapter, Unscorable, make_adapter
from .human_data import HumanDataError, HumanDataset, load_human_data
from .human_eval import METRICS, HumanEvalReport, evaluate_human

__all__ = [
    "METRICS",
    "AgentAdapter",
    "HumanDataError",
    "HumanDataset",
    "HumanEvalReport",
    "Unscorable",
    "evaluate_human",
    "load_human_data",
    "make_adapter",
]
