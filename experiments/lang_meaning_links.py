"""Does the AI read a person's clue by meaning in German, Vietnamese and Persian? First picks on
plain meaning links (issue 40).

Each case of ``experiments/data/links_<lang>.tsv`` (written by a speaker; see its header) is a
clue: 1 that a speaker links by meaning to one card of a 12-card board, sharing no syllable,
word part or 3-letter run with any card, so spelling cannot find it. A guesser passes a case
when its first pick is the target. Guessers:

* ``before``: the play partner's guesser until this change (``--agent e5small`` in play: e5small
  in Vietnamese and Persian, use3 in German, with the play options);
* ``after``: the play partner's guesser now, the ``human`` guesser reading through the
  language's glossary (``spymaster_ai/data/glossary_<lang>.tsv``);
* ``e5small`` raw, for reference.

    python experiments/lang_meaning_links.py --out experiments/results/lang_meaning_links.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scipy.stats import binomtest  # noqa: E402

from spymaster_ai.agents.registry import add_language, make_guesser  # noqa: E402
from spymaster_ai.play import PlaySettings  # noqa: E402
from spymaster_ai.provenance import versions_line  # noqa: E402
from spymaster_ai.rules.lang.normalise import normalise  # noqa: E402
from spymaster_ai.rules.moves import Clue  # noqa: E402
from spymaster_ai.sim.metrics import wilson_interval  # noqa: E402
from spymaster_ai.views import GuesserView  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
LANGS = ("de", "vi", "fa")


def read_cases(lang: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(clue, target, board) per line of ``links_<lang>.tsv``; a malformed line is an error."""
    path = DATA / f"links_{lang}.tsv"
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise SystemExit(f"{path}:{n}: expected clue<TAB>target<TAB>board")
        clue, target = normalise(lang, parts[0]), normalise(lang, parts[1])
        board = tuple(normalise(lang, w) for w in parts[2].split(","))
        if target not in board or len(set(board)) != len(board):
            raise SystemExit(f"{path}:{n}: the target must be on a board of distinct cards")
        cases.append((clue, target, board))
    return cases


def first_pick(guesser, clue: str, board: tuple[str, ...]) -> str:
    view = GuesserView(game="duet", me="B", words=board, visible=board, revealed=(), clue=Clue(clue, 1),
                       guesses_made=0, max_guesses=None, can_stop=False)
    guesser.reset(0)
    return str(guesser.next_guess(view))


def specs(lang: str) -> dict[str, str]:
    return {
        "before (e5small partner)": PlaySettings(seed=0, mode="duet", lang=lang, agent="e5small").ai_guesser_spec(),
        "after (human, glossary)": PlaySettings(seed=0, mode="duet", lang=lang).ai_guesser_spec(),
        "e5small": "e5small",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    lines = ["# Meaning links: the guesser's first pick on a speaker's clue for one card", "",
             "Each case of `experiments/data/links_<lang>.tsv` (written by a helper acting as a native speaker): "
             "a clue: 1 that a speaker links to one card by meaning, with no shared syllable, on a board of "
             "12 unrelated cards. \"before\" is the partner's guesser before issue 40.", "",
             "Made by `python experiments/lang_meaning_links.py --out experiments/results/lang_meaning_links.md`.",
             f"{versions_line()}", "",
             "| language | guesser | spec | first pick = target | 95% CI |", "|---|---|---|---|---|"]
    misses: list[str] = []
    for lang in args.langs.split(","):
        cases = read_cases(lang)
        hits: dict[str, list[bool]] = {}
        for label, spec in specs(lang).items():
            guesser = make_guesser(add_language(spec, lang), isolate=False)
            picks = [first_pick(guesser, clue, board) for clue, _, board in cases]
            hits[label] = [p == t for p, (_, t, _) in zip(picks, cases)]
            k, n = sum(hits[label]), len(cases)
            lo, hi = wilson_interval(k, n)
            lines.append(f"| {lang} | {label} | `{spec}` | {k} / {n} ({100 * k / n:.0f}%) | {100 * lo:.0f}–{100 * hi:.0f}% |")
            if label.startswith("after"):
                misses += [f"- {lang}: {c.upper()} -> {p.upper()} (meant {t.upper()})"
                           for p, (c, t, _) in zip(picks, cases) if p != t]
            print(lines[-1], flush=True)
        a, b = hits["before (e5small partner)"], hits["after (human, glossary)"]
        only_after = sum(y and not x for x, y in zip(a, b))
        only_before = sum(x and not y for x, y in zip(a, b))
        p = binomtest(only_after, only_after + only_before).pvalue if only_after + only_before else 1.0
        lines.append(f"| {lang} | after vs before | paired | {only_after} cases only after, {only_before} only before | "
                     f"exact McNemar p = {p:.2g} |")
    lines += ["", "The glossed guesser's misses:", "", *misses]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
