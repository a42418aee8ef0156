#!/usr/bin/env bash
# Duet mission Cairo (9 tokens, only 5 of them bystander-face): does the spymaster's
# mission-aware bystander cost pay? Default: a bystander costs nothing beyond the turn while
# a bystander-face token is left, then one more turn (DUET_EXTRA_TURN_COST own cards), then
# the game; against flat costs of 0 and 1.5 own cards for every bystander. Cairo is the only
# mission of RULES.md §3 with fewer bystander-face tokens than tokens, so the only one where
# the three differ. Resumable (one JSON-lines file per cell); writes results/duet_missions.md.
#   experiments/duet_missions.sh [GAMES] [JOBS]
set -euo pipefail
GAMES=${1:-500}
JOBS=${2:-2}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
cd "$(dirname "$0")"
OUT=results/duet_missions
mkdir -p "$OUT"
MODELS=(minilm glove50 wordllama e5small mpnet)
cell() {  # name spymaster guesser
  spymaster-ai bench duet --mission cairo -n "$GAMES" --seed 21 --jobs "$JOBS" --no-progress \
    --spymaster "$2" --guesser "$3" --results "$OUT/$1.jsonl" --out "$OUT/$1.json" >/dev/null
  echo "done $1"
}
for G in minilm mpnet; do
  POOL=$(printf '%s\n' "${MODELS[@]}" | grep -vx "$G" | paste -sd+)
  cell "robust_G=${G}_default" "robust:exclude=$G,partner=$POOL" "$G"
  cell "robust_G=${G}_flat0" "robust:exclude=$G,partner=$POOL,bystander_cost=0" "$G"
  cell "robust_G=${G}_flat1.5" "robust:exclude=$G,partner=$POOL,bystander_cost=1.5" "$G"
done
cell "mirror_glove50_default" "glove50" "glove50"
cell "mirror_glove50_flat0" "glove50:bystander_cost=0" "glove50"
cell "mirror_glove50_flat1.5" "glove50:bystander_cost=1.5" "glove50"
python - "$OUT" "$GAMES" > results/duet_missions.md <<'PY'
import json, sys
from pathlib import Path
out, games = Path(sys.argv[1]), sys.argv[2]
rows = {}
for f in sorted(out.glob("*.json")):
    pair, cost = f.stem.rsplit("_", 1)
    rows.setdefault(pair, {})[cost] = json.loads(f.read_text())
print(f"Duet mission Cairo (9 tokens, 5 bystander-face), {games} games per cell, seed 21.")
print("Win % [95% Wilson interval]; assassin / sudden-death (mistake) losses.\n")
print("| spymaster -> guesser | mission-aware bystander cost (default) | flat 0 | flat 1.5 own cards |")
print("|---|---|---|---|")
for pair, cells in rows.items():
    def show(c):
        s = cells[c]
        lo, hi = s["ci95"]
        return (f"{100 * s['win_rate']:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]; "
                f"{s['loss_causes'].get('assassin', 0)} / {s['loss_causes'].get('mistake', 0)}")
    kind, model = pair.split("_", 1)
    model = model.removeprefix("G=")
    label = f"robust ({model} held out) -> {model}" if kind == "robust" else f"{model} -> {model} (mirror)"
    print(f"| {label} | {show('default')} | {show('flat0')} | {show('flat1.5')} |")
PY
echo "wrote results/duet_missions.md"
