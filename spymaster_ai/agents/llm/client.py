"""An OpenAI-compatible chat completions client: standard library HTTP, an on-disk cache,
bounded retries and errors that say what went wrong.

Why by hand: a POST of one JSON body is all the protocol needs, and every server a
researcher runs (vLLM, llama.cpp, Ollama, a hosted API) speaks it; the openai SDK would add a
dependency for nothing. Why a cache: a run replayed with the same requests gets the same
answers, bit for bit and for free, even from a model that samples.
"""

from __future__ import annotations

import email.utils
import hashlib
import http.client
import json
import os
import socket
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Optional

__all__ = ["DEFAULT_CACHE", "ChatClient", "LLMError", "request_key"]

DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "spymaster_ai" / "llm"


class LLMError(RuntimeError):
    """The endpoint could not give an answer: unreachable, timed out, refused, rate limited for
    too long, or answered something that is not a chat completion."""


def request_key(url: str, body: dict) -> str:
    """The cache key of a request: sha256 of its URL and canonical JSON body (never the key)."""
    text = json.dumps({"url": url, "body": body}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class ChatClient:
    """POSTs chat requests to ``{base_url}/chat/completions`` and returns the answer's text.

    - ``api_key_env``: the environment variable holding the key (sent as a bearer token; none
      sent when it is unset, as local servers need none).
    - ``timeout``: seconds per HTTP attempt; a timed-out attempt is retried.
    - ``http_retries``: further attempts after a timeout, a 429 or a 5xx; a 429 waits what its
      ``Retry-After`` says (at most ``max_wait`` seconds, else it is an error), others wait
      ``backoff`` × 2^attempt seconds.
    - ``cache``: a folder (one JSON file per request, named by :func:`request_key`), or None.
    """

    def __init__(
        self, model: str, base_url: str, *, api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
        http_retries: int = 4, backoff: float = 1.0, max_wait: float = 120.0, max_tokens: Optional[int] = 512,
        temperature: Optional[float] = None, cache: Optional[Path] = DEFAULT_CACHE,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not model:
            raise ValueError("model: give the model name the endpoint serves (model=NAME)")
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {base_url!r}")
        if timeout <= 0 or http_retries < 0 or backoff < 0 or max_wait < 0:
            raise ValueError("timeout must be positive; http_retries, backoff and max_wait not negative")
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key_env = api_key_env
        self.timeout = float(timeout)
        self.http_retries = int(http_retries)
        self.backoff = float(backoff)
        self.max_wait = float(max_wait)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.cache = Path(cache) if cache is not None else None
        self._sleep = sleep
        self.requests_sent = 0  # HTTP attempts made (cache hits send none)
        self.cache_hits = 0

    def body(self, messages: list[dict]) -> dict:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body

    def complete(self, messages: list[dict]) -> str:
        """The assistant's text for ``messages`` (from the cache when this request was seen)."""
        body = self.body(messages)
        key = request_key(self.url, body)
        cached = self._read_cache(key)
        if cached is not None:
            self.cache_hits += 1
            return cached
        content = self._post(body)
        self._write_cache(key, body, content)
        return content

    # -- HTTP ---------------------------------------------------------------------------------

    def _post(self, body: dict) -> str:
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        last = ""
        for attempt in range(self.http_retries + 1):
            wait = self.backoff * (2 ** attempt)
            self.requests_sent += 1
            request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
            except urllib.error.HTTPError as exc:
                text = exc.read()[:300].decode("utf-8", "replace")
                if exc.code == 429:
                    asked = _retry_after(exc.headers.get("Retry-After"))
                    if asked is not None and asked > self.max_wait:
                        raise LLMError(f"{self.url}: rate limited (HTTP 429), asked to wait {asked:g} s, more than max_wait {self.max_wait:g} s") from None
                    wait = wait if asked is None else asked
                    last = f"rate limited (HTTP 429) {self.http_retries + 1} times"
                elif exc.code >= 500:
                    last = f"server error HTTP {exc.code}: {text}"
                else:  # 400, 401, 404...: the request itself is wrong; retrying will not help
                    hint = f" (is {self.api_key_env} set?)" if exc.code in (401, 403) else ""
                    raise LLMError(f"{self.url}: HTTP {exc.code}{hint}: {text}") from None
            except (socket.timeout, TimeoutError):
                last = f"no answer within {self.timeout:g} s ({self.http_retries + 1} attempts)"
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, (socket.timeout, TimeoutError)):
                    last = f"no answer within {self.timeout:g} s ({self.http_retries + 1} attempts)"
                else:
                    raise LLMError(f"cannot reach {self.url}: {exc.reason}") from None
            except (http.client.HTTPException, ConnectionError) as exc:  # closed mid-answer: try again
                last = f"connection failed ({type(exc).__name__}: {exc}) {self.http_retries + 1} times"
            else:
                return self._content(raw)
            if attempt < self.http_retries:
                self._sleep(wait)
        raise LLMError(f"{self.url}: {last}")

    def _content(self, raw: bytes) -> str:
        try:
            data = json.loads(raw)
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError(f"{self.url}: not a chat completion: {raw[:200]!r}") from None
        if not isinstance(content, str):
            raise LLMError(f"{self.url}: the completion's content is {type(content).__name__}, not text")
        return content

    # -- cache --------------------------------------------------------------------------------

    def _path(self, key: str) -> Optional[Path]:
        return None if self.cache is None else self.cache / key[:2] / f"{key}.json"

    def _read_cache(self, key: str) -> Optional[str]:
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            content = json.loads(path.read_text(encoding="utf-8"))["response"]
        except (OSError, ValueError, KeyError, TypeError):
            return None  # a damaged entry is asked again and rewritten
        return content if isinstance(content, str) else None

    def _write_cache(self, key: str, body: dict, content: str) -> None:
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = json.dumps({"url": self.url, "request": body, "response": content}, ensure_ascii=False, indent=1)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(entry)
        os.replace(tmp, path)  # a reader never sees half an entry
