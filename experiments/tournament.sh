#!/usr/bin/env bash
# Headline table 3: the full cross-play matrix (every spymaster model x every guesser model)
# on Duet and on the Kim et al. 2019 protocol. Resumable: rerun the same command after an
# interruption and finished games are kept (one JSON-lines file per cell).
#   experiments/tournament.sh [GAMES] [JOBS] [AGENTS]
set -euo pipefail
GAMES=${1:-200}
JOBS=${2:-2}
AGENTS=${3:-glove50,minilm,mpnet,wordllama,e5small}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
cd "$(dirname "$0")"  # results/ is experiments/results/, wherever the script is run from
mkdir -p results
for GAME in duet kim2019; do
  spymaster-ai tournament --game "$GAME" --agents "$AGENTS" --games "$GAMES" --seed 0 --jobs "$JOBS" \
    --results-dir "results/tournament_$GAME" --out "results/tournament_$GAME.json" \
    --markdown "results/tournament_$GAME.md"
done
