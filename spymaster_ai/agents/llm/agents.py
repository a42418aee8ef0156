"""LLM spymaster and guesser over an OpenAI-compatible chat endpoint (``llm:model=...,base_url=...``).

Why: researchers benchmark large language models as Codenames players (Stephenson et al.
2024; the IEEE CoG Codenames competition). These agents put any chat endpoint in any seat of
any game here, under the same views, the same legality checker and the same simulator as
every other agent. Prompts and parsing: ``protocol``. HTTP and cache: ``client``.

Every clue goes through the legality checker (``rules.legality.check_clue``) before it is
given; a refused answer (format, count, legality) is answered with the reason and asked again,
at most ``retries`` times; then :class:`LLMForfeit` is raised, which the simulator records as
the agent's error (its side forfeits the game). The same holds for a guesser's unreadable
answers. Endpoint failures raise :class:`~.client.LLMError`, recorded the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from ...rules.legality import check_clue
from ...rules.moves import Clue
from ...views import GuesserView, SpymasterView
from . import protocol
from .client import DEFAULT_CACHE, ChatClient

__all__ = ["LLMForfeit", "LLMGuesser", "LLMSpymaster"]

# Their agents ask again after a refused answer until more than ten were refused.
DEFAULT_RETRIES = 10


class LLMForfeit(RuntimeError):
    """No acceptable answer within the retries: the agent forfeits (an error of that agent)."""


class _LLMAgent:
    role = ""
    title = ""  # the role's name in their prompts

    def __init__(
        self, model: str = "", base_url: str = "", *, api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
        retries: int = DEFAULT_RETRIES, http_retries: int = 4, max_tokens: int = 512, temperature: Optional[float] = None,
        cache: Optional[str] = str(DEFAULT_CACHE), backoff: float = 1.0, max_wait: float = 120.0,
    ) -> None:
        if retries < 0:
            raise ValueError(f"retries must be at least 0, got {retries}")
        self.retries = retries
        cache_dir = None if cache in (None, "", "none", "off") else Path(str(cache)).expanduser()
        self.client = ChatClient(
            model, base_url, api_key_env=api_key_env, timeout=timeout, http_retries=http_retries, backoff=backoff,
            max_wait=max_wait, max_tokens=max_tokens, temperature=temperature, cache=cache_dir,
        )
        self.messages: list[dict] = []
        self.log: Optional[Callable[[str, dict], None]] = None  # sees every message (transcripts)

    def reset(self, seed: int) -> None:
        """A new game opens a new chat (their agents are built anew for every game)."""
        self.messages = []

    def _say(self, message: dict) -> None:
        self.messages.append(message)
        if self.log is not None:
            self.log(self.role, message)

    def _ask(self, game: str, me: str, prompt: str) -> str:
        if not self.messages:
            self._say({"role": "system", "content": protocol.system_prompt(game, me, self.title)})
        self._say({"role": "user", "content": prompt})
        answer = self.client.complete(list(self.messages))
        self._say({"role": "assistant", "content": answer})
        return answer

    def _until_accepted(self, game: str, me: str, request: Callable[[], str], read: Callable[[str], tuple[Any, str]], what: str) -> Any:
        """Ask, and while the answer is refused say why and ask again, ``retries`` times at most."""
        feedback = ""
        answers = []
        for _ in range(self.retries + 1):
            answer = self._ask(game, me, feedback + request())
            value, feedback = read(answer)
            if not feedback:
                return value
            answers.append(answer)
        raise LLMForfeit(
            f"no acceptable {what} in {self.retries + 1} answers; last {answers[-1][:80]!r}: {feedback.strip()}"
        )


class LLMSpymaster(_LLMAgent):
    """Gives clues as a chat model answers them; every clue checked before it is given."""

    role = "spymaster"
    title = "Codemaster"

    def give_clue(self, view: SpymasterView) -> Clue:
        def read(answer: str) -> tuple[Optional[Clue], str]:
            clue = protocol.parse_clue(answer)
            if clue is None:
                return None, protocol.BAD_FORMAT
            if clue.count < 1:
                return None, protocol.ZERO_COUNT
            verdict = check_clue(clue.word, list(view.visible), count=clue.count)
            if not verdict.legal:
                return None, protocol.illegal_clue(verdict.reason)
            return clue, ""

        return self._until_accepted(view.game, view.me, lambda: protocol.clue_request(view), read, "clue")


class LLMGuesser(_LLMAgent):
    """Picks cards, then says whether to go on, as a chat model answers."""

    role = "guesser"
    title = "Guesser"

    def next_guess(self, view: GuesserView) -> Optional[str]:
        if view.clue is None:  # Duet sudden death: their protocol has no such request; pass
            return None
        words = protocol.remaining(view)
        if view.guesses_made > 0 and view.can_stop:
            def yes_no(answer: str) -> tuple[Optional[bool], str]:
                going_on = protocol.parse_continue(answer)
                return going_on, "" if going_on is not None else protocol.BAD_YES_NO

            if not self._until_accepted(view.game, view.me, lambda: protocol.continue_request(view), yes_no, "yes or no"):
                return None

        def pick(answer: str) -> tuple[Optional[str], str]:
            word = protocol.parse_guess(answer, words)
            return word, "" if word is not None else protocol.BAD_WORD

        return self._until_accepted(view.game, view.me, lambda: protocol.guess_request(view), pick, "guess")
