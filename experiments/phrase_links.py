"""Does the ``human`` guesser follow a clue through a set phrase, an idiom, a title or a story?

Issue 39: a person's EYE: 2 (private eye, eye of the storm) was read as PEACOCK, BATTEN
(batten down the hatches) drew the assassin DART. This reads every case of
``experiments/data/phrase_links.tsv`` (clue, the phrase's card, the other cards of a board of
8 to 25 cards; written by a project engineer) and counts how often

* the ``human`` guesser's first pick is the phrase's card (a classic turn, clue count 1);
* the human reader's likeliest card is it (top-1), and its rank and probability.

It writes a Markdown section named ``--label`` into ``--out`` (other sections are kept), so
that the figures before and after a change stand side by side. It runs on any version of the
package (the phrase index is reported only where the version has one):

    python experiments/phrase_links.py --label after --out experiments/results/phrase_links.md
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data") / "phrase_links.tsv"


def load_cases(path: Path = DATA) -> list[dict]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        clue, card, phrase, kind, others = line.split("\t")
        board = [card] + [w.strip() for w in others.split(",")]
        cases.append({"clue": clue, "card": card, "phrase": phrase, "kind": kind, "board": board})
    return cases


def place(board: list[str], card: str, seed: int) -> list[str]:
    """The board in a fixed shuffled order, so that the card is not always first (a tie or an
    unread clue would otherwise pick it)."""
    rng = np.random.default_rng(seed)
    return [board[i] for i in rng.permutation(len(board))]


def run(cases: list[dict]) -> list[dict]:
    from spymaster_ai.agents.registry import make_guesser
    from spymaster_ai.rules.moves import Clue
    from spymaster_ai.views import GuesserView

    guesser = make_guesser("human")
    guesser.reset(0)
    try:
        from spymaster_ai.embeddings.phrase_links import phrase_links

        index = phrase_links()
    except ImportError:
        index = None
    rows = []
    for n, case in enumerate(cases):
        words = tuple(place(case["board"], case["card"], n))
        view = GuesserView(game="classic", me="red", words=words, visible=words, revealed=(),
                           clue=Clue(case["clue"], 1), guesses_made=0, max_guesses=2, can_stop=True, own_left=9)
        first = guesser.next_guess(view)
        reads = guesser.reader.reads(case["clue"])
        p = guesser.reader.probabilities(list(words), case["clue"]) if reads else np.full(len(words), 1 / len(words))
        j = words.index(case["card"])
        order = np.argsort(-p, kind="stable")
        rows.append({**case, "first": first, "reads": reads, "top1": words[int(order[0])],
                     "rank": int(np.flatnonzero(order == j)[0]) + 1, "p": float(p[j]),
                     "link": index.link(case["clue"], case["card"]) if index is not None else None})
    return rows


def section(label: str, rows: list[dict], seconds: float) -> str:
    n = len(rows)
    hit = sum(r["first"] == r["card"] for r in rows)
    top = sum(r["top1"] == r["card"] for r in rows)
    linked = [r for r in rows if r["link"]]
    lines = [f"## {label}", "",
             f"{n} cases, {seconds:.0f} s. The guesser's first pick is the phrase's card in **{hit} of {n}**; "
             f"the reader's likeliest card in **{top} of {n}**; mean rank {np.mean([r['rank'] for r in rows]):.2f}, "
             f"median probability {np.median([r['p'] for r in rows]):.2f}."
             + (f" The phrase index links {len(linked)} of the {n} clue-card pairs." if rows[0]["link"] is not None else ""),
             "", "| kind | cases | first pick | reader top-1 |", "|---|---|---|---|"]
    by_kind = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    for kind, rs in sorted(by_kind.items()):
        lines.append(f"| {kind} | {len(rs)} | {sum(r['first'] == r['card'] for r in rs)} | {sum(r['top1'] == r['card'] for r in rs)} |")
    lines += ["", "| clue | card | phrase | cards | first pick | rank | p | link |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mark = "" if r["first"] == r["card"] else " ✗"
        link = "-" if r["link"] is None else f"{r['link']:.2f}"
        read = "" if r["reads"] else " (unread)"
        lines.append(f"| {r['clue']}{read} | {r['card']} | {r['phrase']} | {len(r['board'])} | {r['first']}{mark} | "
                     f"{r['rank']} | {r['p']:.2f} | {link} |")
    return "\n".join(lines) + "\n"


def write_section(out: Path, label: str, text: str) -> None:
    """Put ``text`` as section ``label`` of ``out``, replacing that section if present."""
    head = "# Clues through phrases, idioms, titles and stories\n\nWritten by `experiments/phrase_links.py`.\n\n"
    old = out.read_text(encoding="utf-8") if out.exists() else head
    parts = re.split(r"(?m)^(?=## )", old)
    kept = [p for p in parts[1:] if not p.startswith(f"## {label}\n")]
    out.write_text(parts[0] + "".join(kept) + text + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", default="now")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results") / "phrase_links.md")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    rows = run(load_cases(args.data))
    text = section(args.label, rows, time.perf_counter() - start)
    print(text)
    write_section(args.out, args.label, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
