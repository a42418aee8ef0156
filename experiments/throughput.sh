#!/usr/bin/env bash
# Headline table 4: simulator throughput (games per second, Duet, self-play) for the default
# MiniLM agents and GloVe, with 1 and 2 worker processes. The first run of each model also
# builds its vocabulary cache; the figures below come from a second, warm run.
#   experiments/throughput.sh [GAMES]
set -euo pipefail
GAMES=${1:-100}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p experiments/results
OUT=experiments/results/throughput.md
echo "| agents | jobs | games | seconds | games/s |" > "$OUT"
echo "|---|---|---|---|---|" >> "$OUT"
for MODEL in minilm glove50; do
  spymaster-ai bench duet --games 2 --seed 1 --spymaster "$MODEL" --guesser "$MODEL" --json > /dev/null  # warm caches
  for JOBS in 1 2; do
    spymaster-ai bench duet --games "$GAMES" --seed 0 --spymaster "$MODEL" --guesser "$MODEL" --jobs "$JOBS" --json \
      | python -c "import json,sys; d=json.load(sys.stdin); print(f\"| \`$MODEL\` | $JOBS | {d['games']} | {d['seconds']:.1f} | {d['games_per_second']:.2f} |\")" >> "$OUT"
  done
done
python -c "from spymaster_ai.provenance import versions_line; print(f'\nLibrary versions: {versions_line()}.')" >> "$OUT"
cat "$OUT"
