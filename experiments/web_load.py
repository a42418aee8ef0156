"""Load on one ``spymaster-ai serve`` process: scripted clients play games at once on loopback.

    HF_HUB_OFFLINE=1 python experiments/web_load.py [--clients 50] [--moves 8] [--out experiments/results/web_load.md]

The server is started as a separate process with the default AI players (``human``: the
human-aware spymaster and guesser; two AI threads) and warms up before the clients start.
Each client, over HTTP only (it sees its seat's JSON, never the key beyond it), plays games
alternately Duet (the AI clues first) and solo (the AI spymaster clues, the client guesses)
until it has made ``--moves`` moves: a clue is a word of a fixed list (the next one if the
rules refuse it), a guess a random visible card, 'stop' after two guesses.

Measured: a player's move (the POST's round trip), and the AI's answer (from the move or new
game that hands the turn to the AI until the state, polled every 250 ms like the page's 400 ms,
says the AI has moved; so to within 250 ms). Errors: any response other than 2xx and the
expected 422 of a refused clue, or a request that fails. Memory: the server's resident set
(VmRSS) after warm-up and after the load, and its peak (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

CLUES = ("zebra quantum saxophone galaxy tornado wizard violin glacier falcon harbor meteor canyon jungle pirate "
         "lantern compass orbit thunder marble velvet").split()
POLL = 0.25


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory(pid: int) -> dict[str, int]:
    text = Path(f"/proc/{pid}/status").read_text()
    return {k: int(re.search(rf"^{k}:\s+(\d+) kB", text, re.M).group(1)) // 1024 for k in ("VmRSS", "VmHWM")}


class Stats:
    def __init__(self) -> None:
        self.move: list[float] = []
        self.ai: list[float] = []
        self.errors: list[str] = []
        self.refused = 0
        self.games = 0
        self.finished = 0


async def settle(client: httpx.AsyncClient, game_id: str, token: str, since: float, stats: Stats, hands_over: bool) -> dict:
    while True:
        r = await client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token})
        if r.status_code != 200:
            stats.errors.append(f"GET state {r.status_code}")
            raise RuntimeError(r.text)
        data = r.json()
        if not data["thinking"]:
            if hands_over:
                stats.ai.append(time.perf_counter() - since)
            return data
        hands_over = True
        await asyncio.sleep(POLL)


async def one_client(n: int, base: str, moves: int, stats: Stats) -> None:
    rng = random.Random(n)
    made = 0
    async with httpx.AsyncClient(base_url=base, timeout=600) as client:
        game_no = 0
        while made < moves:
            form = {"mode": "duet", "seed": str(1000 * n + game_no), "first": "ai"} if game_no % 2 == 0 else \
                   {"mode": "solo", "seed": str(1000 * n + game_no), "role": "guesser"}
            game_no += 1
            start = time.perf_counter()
            try:
                r = await client.post("/api/games", json=form)
            except httpx.HTTPError as exc:
                stats.errors.append(f"new game: {type(exc).__name__}")
                continue
            if r.status_code != 201:
                stats.errors.append(f"new game {r.status_code}")
                continue
            stats.games += 1
            game_id, token = r.json()["state"]["id"], r.json()["token"]
            data = await settle(client, game_id, token, start, stats, r.json()["state"]["thinking"])
            clue_words = iter(CLUES)
            while not data["over"] and made < moves:
                prompt = data["prompt"]["kind"]
                if prompt == "clue":
                    text = f"{next(clue_words)} 1"
                elif prompt == "guess" and sum(1 for c in data["cells"] if c["covered"]) and rng.random() < 0.3 \
                        and "stop" in data["prompt"]["text"]:
                    text = "stop"
                else:
                    open_cards = [c["label"] for c in data["cells"] if not c["covered"]]
                    text = rng.choice(open_cards) if prompt != "sudden_death" or rng.random() < 0.5 else "pass"
                start = time.perf_counter()
                try:
                    r = await client.post(f"/api/games/{game_id}/move", json={"text": text, "version": data["version"]},
                                          headers={"X-Seat-Token": token})
                except httpx.HTTPError as exc:
                    stats.errors.append(f"move: {type(exc).__name__}")
                    break
                stats.move.append(time.perf_counter() - start)
                if r.status_code == 422 and prompt == "clue":
                    stats.refused += 1
                    continue
                if r.status_code == 422:  # a guess the rules refuse (e.g. a card this player marked): pick again
                    stats.refused += 1
                    data = r.json()["state"]
                    continue
                if r.status_code != 200:
                    stats.errors.append(f"move {r.status_code}: {r.text[:120]}")
                    break
                made += 1
                state = r.json()["state"]
                data = await settle(client, game_id, token, start, stats, state["thinking"])
            if data["over"]:
                stats.finished += 1


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--moves", type=int, default=8, help="moves each client makes")
    parser.add_argument("--ai-threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("experiments/results/web_load.md"))
    args = parser.parse_args()
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "games.sqlite3"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    server = subprocess.Popen(
        [sys.executable, "-c", "from spymaster_ai.cli.app import main; main()", "serve", "--port", str(port),
         "--db", str(db), "--ai-threads", str(args.ai_threads)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = server.stdout.readline()  # printed once the AI is loaded and warmed up
        assert "Open http" in line, line
        base = f"http://127.0.0.1:{port}"
        while True:
            try:
                if httpx.get(base + "/").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        idle = memory(server.pid)
        stats = Stats()
        started = time.perf_counter()

        async def run_all() -> None:
            await asyncio.gather(*(one_client(n, base, args.moves, stats) for n in range(args.clients)))

        asyncio.run(run_all())
        wall = time.perf_counter() - started
        loaded = memory(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    ms = lambda x: f"{1000 * x:.0f} ms"  # noqa: E731
    rows = [
        "# Web server under load",
        "",
        f"Command: `HF_HUB_OFFLINE=1 python experiments/web_load.py --clients {args.clients} --moves {args.moves} "
        f"--ai-threads {args.ai_threads}`",
        "",
        f"One `spymaster-ai serve` process on loopback, default AI players (`human` spymaster and guesser), "
        f"{args.ai_threads} AI threads; {args.clients} scripted clients at once, each making {args.moves} moves "
        f"(Duet and solo games alternately). Machine: {os.cpu_count()} CPUs, {platform.python_version()} Python, "
        f"shared with other work. Wall time {wall:.0f} s.",
        "",
        "| measure | n | p50 | p95 | max |",
        "|---|---|---|---|---|",
        f"| a player's move (POST round trip) | {len(stats.move)} | {ms(pct(stats.move, 50))} | {ms(pct(stats.move, 95))} | {ms(max(stats.move))} |",
        f"| the AI's answer (to within {int(POLL * 1000)} ms) | {len(stats.ai)} | {ms(pct(stats.ai, 50))} | {ms(pct(stats.ai, 95))} | {ms(max(stats.ai))} |",
        "",
        f"Games started {stats.games}, finished {stats.finished}; refused moves (illegal clue or guess, "
        f"expected and answered 422) {stats.refused}; **errors {len(stats.errors)}**"
        + (f" ({'; '.join(sorted(set(stats.errors))[:5])})" if stats.errors else "") + ".",
        "",
        f"Server memory: {idle['VmRSS']} MiB resident after warm-up, {loaded['VmRSS']} MiB after the load "
        f"(peak {loaded['VmHWM']} MiB).",
        "",
        "The AI's answers queue behind one another on the AI threads (the models run on the CPU), so the AI's "
        "p95 grows with the number of games waiting at once; a player's move is not held by the AI.",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(rows) + "\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
