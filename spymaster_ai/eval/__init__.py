"""Evaluation of agents against recorded human play."""
