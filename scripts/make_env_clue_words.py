"""Write spymaster_ai/envs/clue_words.txt, the environments' default clue vocabulary.

Why these words: they are exactly the vocabulary of the built-in spymaster
``glove50:vocabulary_size=500`` (the 500 most frequent common clue words GloVe 6B 50d reads,
agents.vocabulary.clue_candidates), so that spymaster's every clue is an action of the
environments and a policy trained against it sees clues it could give itself.

    HF_HUB_OFFLINE=1 python scripts/make_env_clue_words.py
"""

from __future__ import annotations

from pathlib import Path

from spymaster_ai.agents.registry import make_spymaster

SIZE = 500
OUT = Path(__file__).resolve().parents[1] / "spymaster_ai" / "envs" / "clue_words.txt"


def main() -> None:
    words = make_spymaster(f"glove50:vocabulary_size={SIZE}").vocabulary
    OUT.write_text("".join(f"{w}\n" for w in words))
    print(f"{len(words)} words -> {OUT}")


if __name__ == "__main__":
    main()
