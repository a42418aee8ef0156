"""Large language models as Codenames players, over any OpenAI-compatible chat endpoint (docs/llm.md)."""

from .agents import LLMForfeit, LLMGuesser, LLMSpymaster
from .client import ChatClient, LLMError

__all__ = ["ChatClient", "LLMError", "LLMForfeit", "LLMGuesser", "LLMSpymaster"]
