"""The cells of `lang_partner_play.py` so far, read from its results files (issue 40).

Why: a 500-game cell with the e5small partner plays a few games a minute on two cores, so a
language's table may stop part-way; this prints every cell's games so far without playing,
each the same seeded games a finished run would hold first.

    python experiments/lang_partner_tally.py DIR [DIR ...]   # DIR: lang_partner_play.py --out's <lang> folder
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spymaster_ai.sim.metrics import wilson_interval  # noqa: E402


def main() -> None:
    print("| language | spymaster | guesser | games | won % [95% Wilson] | sudden death reached | won after it | assassin losses |")
    print("|---|---|---|---|---|---|---|---|")
    for folder in map(Path, sys.argv[1:]):
        for path in sorted(folder.glob("*.jsonl")):
            games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            if not games:
                continue
            agents = games[0]["agents"]
            wins = sum(g["won"] for g in games)
            sd = [g for g in games if (g.get("extra") or {}).get("sudden_death")]
            lo, hi = wilson_interval(wins, len(games))
            print(f"| {folder.name} | `{agents['a_spymaster']}` | `{agents['a_guesser']}` | {len(games)} | "
                  f"{100 * wins / len(games):.1f} [{100 * lo:.1f}, {100 * hi:.1f}] | {len(sd)} | "
                  f"{sum(g['won'] for g in sd)} | {sum(g['loss_cause'] == 'assassin' for g in games)} |")


if __name__ == "__main__":
    main()
