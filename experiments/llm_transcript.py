"""A full Kim-protocol game of the LLM spymaster and guesser against the scripted chat server,
written as a transcript (docs/transcripts/llm_scripted_game.md).

    python experiments/llm_transcript.py --out docs/transcripts/llm_scripted_game.md

No model plays here: the server answers from a script (below), so the transcript shows the
protocol (every message each agent sends and receives, the legality checker refusing a clue,
an unreadable guess asked again) and says nothing about any model's quality. The script's
guesser reads the red words of the spymaster's latest request, which only a scripted server
can: that is why it wins.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spymaster_ai.agents.llm.scripted import ScriptedChatServer  # noqa: E402
from spymaster_ai.agents.registry import make_guesser, make_spymaster  # noqa: E402
from spymaster_ai.sim.play import play_game  # noqa: E402

SEED = 0
CLUE_WORDS = ("animal", "music", "water", "metal", "light", "city", "paper", "game", "space", "tree", "food", "fire")
_LIST = re.compile(r"\[([^\]]*)\]")


def _words(text: str, label: str) -> list[str]:
    match = re.search(re.escape(label) + r": \[([^\]]*)\]", text)
    return re.findall(r"'([^']+)'", match.group(1)) if match else []


class Script:
    """The scripted model: a table of what to answer to each kind of request."""

    def __init__(self) -> None:
        self.red: list[str] = []  # the red words of the spymaster's latest request
        self.count = 1
        self.first_guess = True

    def __call__(self, body: dict) -> str:
        messages = body["messages"]
        system, last = messages[0]["content"], messages[-1]["content"]
        said = sum(m["role"] == "assistant" for m in messages)
        if system.rstrip().endswith("Codemaster."):
            self.red = _words(last, "Red")
            if said == 0:
                return f"('{self.red[0].lower()}',2)"  # a word on the board: the checker refuses it
            self.count = 2 if len(self.red) > 1 else 1
            return f"('{CLUE_WORDS[said % len(CLUE_WORDS)]}',{self.count})"
        remaining = re.findall(r"'([^']+)'", _LIST.search(last).group(1))
        if "keep picking" in last:
            picked = int(re.search(r"picked (\d+) words", last).group(1))
            return "yes" if picked < self.count else "no"
        mine = [w for w in self.red if w in remaining]
        if self.first_guess:
            self.first_guess = False
            return "Let me think about this one."  # no board word in it: asked again
        return f"'{(mine or remaining)[0]}'"


def transcript() -> str:
    lines: list[str] = []

    def log(role: str, message: dict) -> None:
        who = {"system": "system", "user": "request", "assistant": "answer"}[message["role"]]
        body = message["content"].strip().replace("\n", "\n> ")
        lines.append(f"**{role} {who}**\n\n> {body}\n")

    with tempfile.TemporaryDirectory() as cache, ScriptedChatServer(Script()) as server:
        spec = f"llm:model=scripted,base_url={server.base_url},cache={cache}"
        spy, guesser = make_spymaster(spec), make_guesser(spec)
        spy.log = guesser.log = log
        result = play_game("kim2019", {"spymaster": spy, "guesser": guesser}, {"spymaster": "llm", "guesser": "llm"}, seed=SEED)
        requests = len(server.requests)
    record = result.record
    words, key = record["config"]["words"], record["config"]["key"]["identities"]
    head = [
        "# An LLM spymaster and guesser against the scripted chat server",
        "",
        "Written by `python experiments/llm_transcript.py --out docs/transcripts/llm_scripted_game.md`",
        f"(Kim et al. 2019 protocol, seed {SEED}; agents `llm:model=scripted,base_url=http://127.0.0.1:PORT/v1`).",
        "The server answers from a script, not a model: this shows the protocol (docs/llm.md), not",
        "any model's play. Its guesser reads the spymaster's red words, which no real guesser can.",
        "",
        "| word | identity |",
        "|---|---|",
        *(f"| {w} | {i} |" for w, i in zip(words, key)),
        "",
        f"Result: {'won' if result.won else 'lost'} in {result.turns} turns; {result.clues} clues; "
        f"{requests} requests to the server; error: {result.error['message'] if result.error else 'none'}.",
        "",
        "Moves: " + "; ".join(
            f"clue {a['word']} {a['count']}" if a["type"] == "clue" else (f"guess {a['word']}" if a["type"] == "guess" else a["type"])
            for a in record["actions"]
        ) + ".",
        "",
        "## Every message, in order",
        "",
    ]
    return "\n".join(head + lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write here (default: stdout)")
    args = parser.parse_args()
    text = transcript()
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
