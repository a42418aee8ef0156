"""Which seats the AI takes in a session, and the agents that sit in them."""

from __future__ import annotations

from typing import Any

from .settings import PlaySettings

__all__ = ["ai_roles", "load_session_agents"]


def ai_roles(settings: PlaySettings) -> tuple[str, ...]:
    """The roles the AI plays in this session, named like the simulator's roles."""
    if settings.mode == "duet":
        return ("b_spymaster", "b_guesser")
    if settings.solo:
        return tuple(r for r in ("spymaster", "guesser") if r != settings.role)
    human = f"{settings.team}_{settings.role}"
    return tuple(r for r in ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser") if r != human)


def load_session_agents(settings: PlaySettings) -> dict[str, Any]:
    """Build the AI players of a session from their specs (models load once per process)."""
    from ..agents.registry import add_language, make_guesser, make_spymaster

    agents: dict[str, Any] = {}
    for role in ai_roles(settings):
        spec = add_language(settings.spec_for(role), settings.lang)
        agents[role] = make_spymaster(spec) if role.endswith("spymaster") else make_guesser(spec)
    return agents
