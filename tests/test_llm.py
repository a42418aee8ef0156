"""The LLM agents end to end against a real HTTP server on loopback that speaks the OpenAI chat
completions protocol and answers from a script (``agents.llm.scripted``): the prompts and
parsing of Stephenson et al.'s protocol, the legality checker's refusals with bounded retry and
forfeit, the on-disk cache, rate limits, timeouts, server errors and malformed answers.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from spymaster_ai.agents.llm import ChatClient, LLMError, LLMForfeit, LLMGuesser, LLMSpymaster
from spymaster_ai.agents.llm import protocol
from spymaster_ai.agents.llm.scripted import Reply, ScriptedChatServer
from spymaster_ai.agents.registry import AgentSpecError, check_spec, make_guesser, make_spymaster
from spymaster_ai.rules.moves import Clue
from spymaster_ai.sim.play import play_game
from spymaster_ai.views import GuesserView, SpymasterView

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from experiments.llm_transcript import Script, transcript  # noqa: E402

WORDS = ("apple", "pear", "piano", "shark", "knife")
SPY_VIEW = SpymasterView("kim2019", "red", WORDS, WORDS, ("apple", "pear"), ("piano",), ("shark",), ("knife",))


def guesser_view(made: int = 0) -> GuesserView:
    return GuesserView("kim2019", "red", WORDS, WORDS, (), Clue("fruit", 2), made, 3, made > 0)


def spymaster(server: ScriptedChatServer, tmp_path: Path, **kw) -> LLMSpymaster:
    return LLMSpymaster("test-model", server.base_url, cache=str(tmp_path / "cache"), backoff=0.0, **kw)


def test_a_clue_in_their_format_is_parsed_and_the_request_follows_their_protocol(tmp_path):
    with ScriptedChatServer(["('fruit', 2)"]) as server:
        spy = spymaster(server, tmp_path)
        spy.reset(0)
        assert spy.give_clue(SPY_VIEW) == Clue("fruit", 2)
    (body,) = server.requests
    assert body["model"] == "test-model" and body["max_tokens"] == 512 and "temperature" not in body
    system, user = body["messages"]
    assert system["role"] == "system" and system["content"].endswith("as the Red Codemaster. ")
    assert "Red: ['APPLE', 'PEAR']. Blue: ['PIANO']. Civilian: ['SHARK']. Assassin: ['KNIFE']." in user["content"]
    assert "('pebble',2)" in user["content"]


@pytest.mark.parametrize("answer, expected", [
    ("('pebble',2)", Clue("pebble", 2)), ("pebble, 3", Clue("pebble", 3)), ("PEBBLE,1", Clue("pebble", 1)),
    ("pebble 2", None), ("(,2)", None), ("('pebble', two)", None),
])
def test_clue_parsing_reads_letters_before_the_comma_and_digits_after(answer, expected):
    assert protocol.parse_clue(answer) == expected


def test_illegal_zero_and_malformed_clues_are_refused_with_the_reason_then_asked_again(tmp_path):
    script = ["('apples', 2)", "('fruit', 0)", "I would say fruit", "('fruit', 2)"]
    with ScriptedChatServer(script) as server:
        spy = spymaster(server, tmp_path)
        spy.reset(0)
        assert spy.give_clue(SPY_VIEW) == Clue("fruit", 2)
    requests = [b["messages"][-1]["content"] for b in server.requests]
    assert len(requests) == 4
    assert requests[1].startswith("That clue is not allowed:") and "APPLE" in requests[1]
    assert requests[2].startswith(protocol.ZERO_COUNT) and requests[3].startswith(protocol.BAD_FORMAT)
    assert len(server.requests[-1]["messages"]) == 8  # one chat: system + 4 requests + 3 answers


def test_after_the_retries_an_illegal_clue_is_a_forfeit_recorded_as_the_spymasters_error(tmp_path):
    def board_word(body):  # always one of its own red words: never legal
        red = body["messages"][-1]["content"].split("Red: ['")[1].split("'")[0]
        return f"('{red.lower()}', 1)"

    with ScriptedChatServer(board_word) as server:
        spec = f"llm:model=m,base_url={server.base_url},retries=2,cache={tmp_path}"
        result = play_game("kim2019", {"spymaster": make_spymaster(spec), "guesser": make_guesser("random")},
                           {"spymaster": spec, "guesser": "random"}, seed=0)
    assert len(server.requests) == 3
    assert not result.won and result.loss_cause == "error" and result.error["role"] == "spymaster"
    assert "LLMForfeit: no acceptable clue in 3 answers" in result.error["message"] and "rule 1" in result.error["message"]


def test_the_guesser_picks_asks_whether_to_go_on_and_rereads_unreadable_answers(tmp_path):
    script = ["I think it is the APPLE", "'apple'", "perhaps", "yes", "pear.", "No."]
    with ScriptedChatServer(script) as server:
        g = LLMGuesser("m", server.base_url, cache=None, backoff=0.0)
        g.reset(0)
        assert g.next_guess(guesser_view(0)) == "apple"
        assert g.next_guess(guesser_view(1)) == "pear"
        assert g.next_guess(guesser_view(2)) is None
    asked = [b["messages"][-1]["content"] for b in server.requests]
    assert asked[1].startswith(protocol.BAD_WORD)
    assert "You have picked 1 words this turn" in asked[2] and asked[3].startswith(protocol.BAD_YES_NO)
    assert "Your Codemaster's clue is: (FRUIT, 2)" in asked[0]


def test_the_cache_replays_a_whole_game_bit_for_bit_without_a_request(tmp_path):
    cache = tmp_path / "cache"
    with ScriptedChatServer(Script()) as server:
        url = server.base_url
        spec = f"llm:model=scripted,base_url={url},cache={cache}"
        first = play_game("kim2019", {"spymaster": make_spymaster(spec), "guesser": make_guesser(spec)}, {}, seed=0)
        sent = len(server.requests)
    assert sent > 5 and first.won
    # the server is gone: every answer must come from the cache (the key is the URL and the body)
    spy, guesser = make_spymaster(spec), make_guesser(spec)
    again = play_game("kim2019", {"spymaster": spy, "guesser": guesser}, {}, seed=0)
    assert again.error is None and again.record == first.record
    assert spy.client.requests_sent == guesser.client.requests_sent == 0
    assert spy.client.cache_hits + guesser.client.cache_hits == sent
    entry = json.loads(next(cache.rglob("*.json")).read_text())
    assert set(entry) == {"url", "request", "response"}


def test_a_429_waits_its_retry_after_and_a_5xx_is_retried(tmp_path):
    waits: list[float] = []
    script = [Reply(status=429, headers={"Retry-After": "7"}), Reply(status=503), "('fruit', 2)"]
    with ScriptedChatServer(script) as server:
        client = ChatClient("m", server.base_url, cache=None, backoff=0.5, sleep=waits.append)
        assert client.complete([{"role": "user", "content": "hi"}]) == "('fruit', 2)"
    assert waits == [7.0, 1.0]  # Retry-After, then backoff 0.5 * 2^1
    assert client.requests_sent == 3


def test_rate_limits_beyond_max_wait_or_the_retries_are_clear_errors(tmp_path):
    with ScriptedChatServer([Reply(status=429, headers={"Retry-After": "3600"})]) as server:
        client = ChatClient("m", server.base_url, cache=None, max_wait=60, sleep=lambda s: None)
        with pytest.raises(LLMError, match="rate limited.*3600 s, more than max_wait 60 s"):
            client.complete([{"role": "user", "content": "hi"}])
    with ScriptedChatServer(lambda body: Reply(status=429)) as server:
        client = ChatClient("m", server.base_url, cache=None, http_retries=2, sleep=lambda s: None)
        with pytest.raises(LLMError, match=r"rate limited \(HTTP 429\) 3 times"):
            client.complete([{"role": "user", "content": "hi"}])


def test_a_slow_endpoint_times_out_with_a_clear_error(tmp_path):
    with ScriptedChatServer(lambda body: Reply(content="late", delay=1.0)) as server:
        client = ChatClient("m", server.base_url, cache=None, timeout=0.2, http_retries=1, sleep=lambda s: None)
        with pytest.raises(LLMError, match=r"no answer within 0.2 s \(2 attempts\)"):
            client.complete([{"role": "user", "content": "hi"}])
        assert client.requests_sent == 2


@pytest.mark.parametrize("reply, message", [
    (Reply(raw=b"<html>oops</html>"), "not a chat completion"),
    (Reply(raw=b'{"choices": []}'), "not a chat completion"),
    (Reply(raw=b'{"choices": [{"message": {"content": null}}]}'), "content is NoneType, not text"),
    (Reply(status=404), "HTTP 404"),
])
def test_malformed_answers_and_refusals_are_clear_errors(reply, message):
    with ScriptedChatServer([reply]) as server:
        client = ChatClient("m", server.base_url, cache=None, sleep=lambda s: None)
        with pytest.raises(LLMError, match=message):
            client.complete([{"role": "user", "content": "hi"}])


def test_the_key_comes_from_the_named_environment_variable(monkeypatch):
    monkeypatch.setenv("MY_LLM_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with ScriptedChatServer(["a", "b", Reply(status=401)]) as server:
        ChatClient("m", server.base_url, cache=None, api_key_env="MY_LLM_KEY").complete([{"role": "user", "content": "1"}])
        ChatClient("m", server.base_url, cache=None).complete([{"role": "user", "content": "2"}])
        with pytest.raises(LLMError, match=r"HTTP 401 \(is OPENAI_API_KEY set\?\)"):
            ChatClient("m", server.base_url, cache=None).complete([{"role": "user", "content": "3"}])
    assert [b["_authorization"] for b in server.requests] == ["Bearer sk-test", None, None]


def test_an_unreachable_endpoint_is_one_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    client = ChatClient("m", f"http://127.0.0.1:{port}/v1", cache=None)
    with pytest.raises(LLMError, match="cannot reach"):
        client.complete([{"role": "user", "content": "hi"}])


def test_llm_specs_are_checked_before_anything_is_sent():
    check_spec("spymaster", "llm:model=llama3:8b,base_url=http://localhost:11434/v1,timeout=30")
    with pytest.raises(AgentSpecError, match="llm needs base_url="):
        check_spec("guesser", "llm:model=x")
    with pytest.raises(AgentSpecError, match="unknown parameter 'risk'"):
        check_spec("guesser", "llm:model=x,base_url=http://a,risk=1")
    with pytest.raises(AgentSpecError, match="base_url must start with http"):
        check_spec("spymaster", "llm:model=x,base_url=localhost:8000")
    spy = make_spymaster("llm:model=llama3:8b,base_url=http://localhost:11434/v1,cache=none")
    assert spy.client.model == "llama3:8b" and spy.client.cache is None  # a model name with a colon


def test_the_committed_transcript_is_what_its_script_writes():
    committed = (ROOT / "docs" / "transcripts" / "llm_scripted_game.md").read_text(encoding="utf-8")
    assert transcript() == committed


def test_the_minimal_example_in_the_docs_runs_as_written(capsys):
    import re

    text = (ROOT / "docs" / "llm.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "docs/llm.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    promised = [line.lstrip("# ") for line in block.splitlines() if line.startswith("# ")]
    assert printed[0] == "fruit: 2" and printed[1] == promised[-1]


def test_a_guesser_with_no_readable_answer_within_its_retries_forfeits():
    with ScriptedChatServer(lambda body: "hmm, hard to say") as server:
        g = LLMGuesser("m", server.base_url, cache=None, retries=1)
        g.reset(0)
        with pytest.raises(LLMForfeit, match=r"no acceptable guess in 2 answers; last 'hmm, hard to say'"):
            g.next_guess(guesser_view(0))
    assert len(server.requests) == 2
