"""Benchmark every installed embedding backend: load, vocabulary encode, hot similarity call.

Each backend runs in its own fresh process (so load times include imports), against an
empty temporary cache (so the vocabulary encode is really measured), then once more from
the cache it just wrote. A benchmark, not a test:

    python experiments/bench_embeddings.py                      # all installed, 30,000 words
    python experiments/bench_embeddings.py --models glove50,minilm --vocab-size 5000
    python experiments/bench_embeddings.py --cache ~/.cache/spymaster_ai   # reuse built caches
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BOARD = ["apple", "orange", "car", "piano", "bank", "river", "engine", "doctor", "moon", "bridge",
         "shoe", "knife", "ice cream", "loch ness", "scuba diver", "horseshoe", "pilot", "table",
         "spring", "court", "china", "jupiter", "ninja", "octopus", "band"]


def measure(name: str, vocab_size: int) -> dict:
    started = time.perf_counter()
    from spymaster_ai.embeddings import VectorEmbedding, load_embedding
    from spymaster_ai.embeddings.registry import _build_vocabulary_vectors

    emb = load_embedding(name, vocab_size=vocab_size)
    loaded = time.perf_counter()
    _build_vocabulary_vectors(emb)
    if not isinstance(emb, VectorEmbedding):
        emb.similarity_stats()
    encoded = time.perf_counter()
    vocab = emb.clue_vocabulary()
    emb.similarity(vocab, BOARD)  # board words encoded and memoised
    times = []
    for _ in range(20):
        t = time.perf_counter()
        emb.similarity(vocab, BOARD)
        times.append(time.perf_counter() - t)
    t = time.perf_counter()
    emb.similarity(["fruit"], BOARD)
    single = time.perf_counter() - t
    return {"name": name, "dim": getattr(emb, "dim", None), "vocabulary": len(vocab),
            "load_s": round(loaded - started, 2), "vocab_vectors_s": round(encoded - loaded, 2),
            "similarity_vocab_x_board_ms": round(1000 * statistics.median(times), 2),
            "similarity_one_clue_ms": round(1000 * single, 2)}


def run_child(name: str, vocab_size: int, cache: str) -> dict:
    env = {**os.environ, "SPYMASTER_AI_CACHE": cache, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    out = subprocess.run([sys.executable, __file__, "--child", name, "--vocab-size", str(vocab_size)],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        return {"name": name, "error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", help="comma-separated names (default: every installed built-in)")
    parser.add_argument("--vocab-size", type=int, default=30_000)
    parser.add_argument("--cache", help="cache folder to use and keep (default: a fresh temporary one, "
                                        "so the encode column measures a real encode)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.vocab_size)))
        return

    from spymaster_ai.embeddings import available_embeddings

    names = args.models.split(",") if args.models else [
        e.name for e in available_embeddings() if e.installed and ":" not in e.name]
    print(f"{os.cpu_count()} CPUs, vocabulary {args.vocab_size}, board of {len(BOARD)}")
    header = f"{'model':<34}{'dim':>5}{'vocab':>7}{'load s':>8}{'encode s':>10}{'cached s':>10}{'vocab x board ms':>18}{'1 clue ms':>11}"
    print(header)
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or tmp
        for name in names:
            cold = run_child(name, args.vocab_size, cache)
            if "error" in cold:
                print(f"{name:<34}error: {cold['error']}")
                continue
            warm = run_child(name, args.vocab_size, cache)
            print(f"{name:<34}{cold['dim'] or '-':>5}{cold['vocabulary']:>7}{warm['load_s']:>8}"
                  f"{cold['vocab_vectors_s']:>10}{warm['vocab_vectors_s']:>10}"
                  f"{warm['similarity_vocab_x_board_ms']:>18}{warm['similarity_one_clue_ms']:>11}", flush=True)


if __name__ == "__main__":
    main()
