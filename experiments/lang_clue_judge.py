"""A blind reading of the AI's first Duet clues in another language, to compare spymaster
variants before a playtest (issue 40: Vietnamese clues were followable 7 of 15 times).

Why: a playtest is the judge, but five games give 15 clues a language and each change needs its
own round. Here every variant gives its first clue (player B) on the same seeded boards; the
distinct (board, clue, count) items are shuffled into one file with the cards in a random order
and no sign of the targets, and a reader (a helper told to read as a native speaker, reading
only that file) names the cards they would take, up to the count, and rates the clue word.
``score`` then counts per variant: clues whose named cards are exactly the targets
("followable"), targets named, and the greens the reader's picks find on the giver's side
before a wrong card (what the turn would yield).

    python experiments/lang_clue_judge.py items --lang vi --boards 40 --seed 600 \
        --variant A= --variant E=max_count=2 --variant H=min_evoke=1.5 --out DIR
    (a reader fills DIR/answers.tsv: item<TAB>card|card<TAB>natural|odd|bad<TAB>note)
    python experiments/lang_clue_judge.py score --dir DIR [--verbose]

A variant is NAME=SPEC_PARAMS added to the play partner's spymaster spec;
``sense_discount=X``, ``sense_blend=X`` and ``phrases_only_in_phrase_models=0|1`` set the
glossary's module constants instead
(:mod:`spymaster_ai.embeddings.glossed`).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.play import PlaySettings  # noqa: E402
from spymaster_ai.play.setup import new_game  # noqa: E402
from spymaster_ai.rules.duet import Player  # noqa: E402
from spymaster_ai.rules.lang.normalise import normalise  # noqa: E402


def first_clues(lang: str, seed: int, boards: int, params: str) -> list[dict]:
    """Player B's first clue on each board (run in a child process: one variant's models)."""
    from spymaster_ai.agents.registry import add_language, make_spymaster
    from spymaster_ai.embeddings import glossed

    extra = [p for p in params.split(",") if p]
    for p in [p for p in extra if p.startswith(("sense_discount=", "sense_blend=", "phrases_only_in_phrase_models="))]:
        name, value = p.split("=", 1)
        setattr(glossed, name.upper(), bool(int(value)) if name.startswith("phrases_") else float(value))
        extra.remove(p)
    out, spymaster = [], None
    for s in range(seed, seed + boards):
        settings = PlaySettings(seed=s, mode="duet", lang=lang)
        game, _ = new_game(settings)
        if spymaster is None:
            spec = ",".join([settings.ai_spymaster_spec(), *extra])
            spymaster = make_spymaster(add_language(spec, lang))
        spymaster.reset(s)
        option = spymaster.best_option(game.spymaster_view(Player.B))
        out.append({"seed": s, "cards": list(game.words), "clue": option.word, "count": option.count,
                    "targets": list(option.targets)})
        print(f"{s} {option.word}: {option.count} -> {', '.join(option.targets)}", file=sys.stderr, flush=True)
    return out


def make_items(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    clues = {}
    for variant in args.variant:
        name, _, params = variant.partition("=")
        done = subprocess.run([sys.executable, __file__, "_clues", "--lang", args.lang, "--seed", str(args.seed),
                               "--boards", str(args.boards), "--params", params],
                              check=True, capture_output=True, text=True)
        clues[name] = json.loads(done.stdout)
    items: dict[tuple, dict] = {}
    for name, rows in clues.items():
        for r in rows:
            item = items.setdefault((r["seed"], r["clue"], r["count"]), {**r, "variants": []})
            item["variants"].append(name)
    order = list(items.values())
    random.Random(args.seed).shuffle(order)
    lines = ["# Clues to read", "", "Each item: a board of 25 cards and a clue with its count.", ""]
    for i, item in enumerate(order, 1):
        item["id"] = i
        cards = list(item["cards"])
        random.Random(args.seed * 1000 + i).shuffle(cards)
        lines += [f"## Item {i}", "", "Cards: " + ", ".join(c.upper() for c in cards), "",
                  f"Clue: **{item['clue'].upper()}: {item['count']}**", ""]
    (args.out / "items.md").write_text("\n".join(lines), encoding="utf-8")
    key = {"lang": args.lang, "variants": dict(v.partition("=")[::2] for v in args.variant), "items": order}
    (args.out / "key.json").write_text(json.dumps(key, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(order)} items for {len(clues)} variants: {args.out / 'items.md'} (give the reader only that file)")


def read_answers(path: Path, lang: str) -> dict[int, tuple[list[str], str, str]]:
    out = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        if not parts[0].strip().isdigit():
            continue
        if len(parts) < 3:
            raise SystemExit(f"{path}:{n}: expected item<TAB>picks<TAB>rating[<TAB>note]")
        picks = [normalise(lang, w) for w in parts[1].split("|") if w.strip()]
        out[int(parts[0])] = (picks, parts[2].strip(), parts[3] if len(parts) > 3 else "")
    return out


def score(args: argparse.Namespace) -> None:
    key = json.loads((args.dir / "key.json").read_text(encoding="utf-8"))
    lang, answers = key["lang"], read_answers(args.dir / "answers.tsv", key["lang"])
    missing = [it["id"] for it in key["items"] if it["id"] not in answers]
    if missing:
        raise SystemExit(f"no answer for items {missing}")
    tally = collections.defaultdict(collections.Counter)
    for it in key["items"]:
        picks, rating, note = answers[it["id"]]
        targets = set(it["targets"])
        game, _ = new_game(PlaySettings(seed=it["seed"], mode="duet", lang=lang))
        side = dict(zip(game.words, (c.name for c in game.key.side(Player.B))))
        greens, ended = 0, None
        for p in picks:
            if side.get(p) == "GREEN":
                greens += 1
            elif p in side:
                ended = side[p]
                break
        for v in it["variants"]:
            t = tally[v]
            t["clues"] += 1
            t["count"] += it["count"]
            t["followable"] += set(picks) == targets
            t["named"] += len(targets & set(picks))
            t["targets"] += len(targets)
            t["greens"] += greens
            t["natural"] += rating == "natural"
            t["black"] += ended == "BLACK"
            t["bystander"] += ended == "BYSTANDER"
        if args.verbose:
            print(it["id"], "".join(it["variants"]), it["clue"], it["count"], it["targets"], picks, rating, note[:60])
    print(f"| variant | spec params | clues | mean count | followable | targets named | greens found a clue | "
          f"ended on a bystander / black | natural clue word |")
    print("|---|---|---|---|---|---|---|---|---|")
    for v, t in tally.items():
        print(f"| {v} | `{key['variants'].get(v, '') or '(shipped)'}` | {t['clues']} | {t['count'] / t['clues']:.2f} | "
              f"{t['followable']}/{t['clues']} ({100 * t['followable'] / t['clues']:.0f}%) | {t['named']}/{t['targets']} | "
              f"{t['greens'] / t['clues']:.2f} | {t['bystander']} / {t['black']} | {t['natural']}/{t['clues']} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    a = sub.add_parser("items", help="write the reader's items and the key")
    a.add_argument("--lang", required=True)
    a.add_argument("--boards", type=int, default=40)
    a.add_argument("--seed", type=int, default=600)
    a.add_argument("--variant", action="append", required=True, help="NAME=SPEC_PARAMS (empty: the shipped partner)")
    a.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("score", help="tally a reader's answers.tsv against the key")
    s.add_argument("--dir", type=Path, required=True)
    s.add_argument("--verbose", action="store_true")
    c = sub.add_parser("_clues")
    c.add_argument("--lang")
    c.add_argument("--seed", type=int)
    c.add_argument("--boards", type=int)
    c.add_argument("--params", default="")
    args = ap.parse_args()
    if args.command == "items":
        make_items(args)
    elif args.command == "score":
        score(args)
    else:
        print(json.dumps(first_clues(args.lang, args.seed, args.boards, args.params), ensure_ascii=False))


if __name__ == "__main__":
    main()
