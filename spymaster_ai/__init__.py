"""spymaster_ai: AI players for Codenames, Codenames Duet and Codenames Pictures."""

__version__ = "0.4.6"
