"""When does a person follow a clue through a set phrase? The evidence behind the reader's
``phrase_reading`` (issue 39), from every first guess of the human Duet data.

For each first guess whose clue is linked through a phrase to at least one visible card:
how often the person took a linked card (and each linked card: a link's own share), by how many visible cards the clue links
(one names a card; four name none) and by how many words the clue is linked to in the index
(BATTEN, in a few phrases, against LINE, in a thousand).

    python experiments/phrase_specificity.py --data ../shared/data/human-duet
"""

from __future__ import annotations

import argparse

import numpy as np

from spymaster_ai.eval.human_data import load_human_data


def main() -> None:
    from spymaster_ai.embeddings.phrase_links import phrase_links

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    index = phrase_links()
    data = load_human_data(args.data)
    by_links: dict[str, list[int]] = {}
    by_degree: dict[str, list[int]] = {}
    for turn in data.guesses:
        if not turn.guesses:
            continue
        cards = [c.lower() for c in turn.remaining]
        row = index.links([turn.clue.lower()], cards)[0]
        linked = row > 0
        if not linked.any():
            continue
        took = int(linked[cards.index(turn.guesses[0].lower())]) if turn.guesses[0].lower() in cards else 0
        n = int(linked.sum())
        deg = float(index.degrees([turn.clue.lower()])[0])
        by_links.setdefault("1" if n == 1 else "2-3" if n <= 3 else "4+", []).append((took, n))
        by_degree.setdefault("<30" if deg < 30 else "30-300" if deg <= 300 else ">300", []).append((took, n))
    for title, groups, keys in (("visible cards the clue links", by_links, ("1", "2-3", "4+")),
                                ("words the clue is linked to", by_degree, ("<30", "30-300", ">300"))):
        print(f"\n| {title} | first guesses | first pick on a linked card | on each linked card |\n|---|---|---|---|")
        for k in keys:
            v = groups.get(k, [])
            took = np.array([t for t, _ in v], dtype=float)
            each = np.array([t / n for t, n in v], dtype=float)
            print(f"| {k} | {len(v)} | {took.mean():.0%} | {each.mean():.0%} |" if v else f"| {k} | 0 | - | - |")


if __name__ == "__main__":
    main()
