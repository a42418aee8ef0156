"""Reinforcement-learning environments over the engines and views (docs/envs.md).

PettingZoo AEC environments, one seat per agent (:func:`classic_env`, :func:`duet_env`,
:func:`kim2019_env`), and Gymnasium single-agent wrappers that seat the built-in agents in
every other seat (:class:`GuesserEnv`, :class:`SpymasterEnv`).
"""

from .aec import CodenamesEnv, classic_env, default_clue_words, duet_env, kim2019_env
from .encoding import ActionLayout, ViewEncoder
from .single import GuesserEnv, SpymasterEnv

__all__ = [
    "ActionLayout",
    "CodenamesEnv",
    "GuesserEnv",
    "SpymasterEnv",
    "ViewEncoder",
    "classic_env",
    "default_clue_words",
    "duet_env",
    "kim2019_env",
]
