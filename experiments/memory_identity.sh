#!/usr/bin/env bash
# Issue 41 item 4: streaming a run changes no output. Runs the same benches with two copies of
# the package (no git checkout in either, so every line names the same code) and compares
# summaries (timings dropped), terminal tables and results files with cmp.
#   experiments/memory_identity.sh BEFORE_DIR AFTER_DIR OUT_DIR
# BEFORE_DIR/AFTER_DIR: package copies, e.g. `git archive a3cad2a | tar -x -C /tmp/base`.
set -uo pipefail
BEFORE=$1; AFTER=$2; OUT=$3
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
G="--spymaster glove50 --guesser glove50"
strip() {  # a summary JSON without its timings and its results path (and, with a second argument, played/resumed)
  python - "$1" "${2:-}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def drop(x):
    if isinstance(x, dict):
        return {k: drop(v) for k, v in x.items()
                if k not in ("seconds", "games_per_second", "results_file") and not (sys.argv[2] and k in ("played", "resumed"))}
    if isinstance(x, list):
        return [drop(v) for v in x]
    return x
json.dump(drop(d), open(sys.argv[1] + ".cmp", "w"), indent=1, sort_keys=True)
EOF
}
for TAG in before after; do
  SRC=$BEFORE; [ "$TAG" = after ] && SRC=$AFTER
  D=$OUT/$TAG; rm -rf "$D"; mkdir -p "$D"
  export PYTHONPATH=$SRC
  run() { spymaster-ai "$@" 2>>"$D/stderr.log"; }
  run bench kim2019 --games 40 --seed 5 $G --results "$D/kim.jsonl" --out "$D/kim.json" --no-progress \
    | grep -v -i "second" > "$D/kim.txt"
  run bench kim2019 --games 20 --seed 6 --match 5 $G --results "$D/match.jsonl" --out "$D/match.json" --no-progress \
    | grep -v -i "second" > "$D/match.txt"
  run bench classic --games 30 --seed 1 --red glove50 --blue glove50 --jobs 2 --results "$D/classic.jsonl" \
    --out "$D/classic.json" --no-progress | grep -v -i "second" > "$D/classic.txt"
  # duet, interrupted by SIGINT (Ctrl-C) once 30 games are in its file, then resumed to the end
  python - "$D/duet.jsonl" $G <<'EOF' 2>>"$D/stderr.log"
import signal, subprocess, sys, time
from pathlib import Path
path = Path(sys.argv[1])
cmd = ["spymaster-ai", "bench", "duet", "--games", "120", "--seed", "2", *sys.argv[2:], "--jobs", "2",
       "--results", str(path), "--no-progress"]
# a background job starts with SIGINT ignored: give the bench Python's KeyboardInterrupt back
proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
while proc.poll() is None and (not path.exists() or len(path.read_bytes().splitlines()) < 30):
    time.sleep(0.2)
proc.send_signal(signal.SIGINT)
print("exit", proc.wait(), file=sys.stderr)
EOF
  echo "duet interrupted with $(wc -l < "$D/duet.jsonl") games in the file" >> "$D/notes.txt"
  run bench duet --games 120 --seed 2 $G --jobs 2 --results "$D/duet.jsonl" --out "$D/duet.json" --no-progress \
    | grep -v -i "second\|played\|resumed" > "$D/duet.txt"
  # the same resume from one damaged file: shuffled, a duplicate, a torn last line (played/resumed fixed)
  python - "$D/duet.jsonl" "$D/damaged.jsonl" <<'EOF'
import random, sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
keep = lines[:50] + lines[70:90]
random.Random(0).shuffle(keep)
open(sys.argv[2], "wb").write(b"".join(keep + [lines[3], lines[95][:100]]))
EOF
  run bench duet --games 120 --seed 2 $G --jobs 2 --results "$D/damaged.jsonl" --out "$D/damaged.json" --no-progress \
    | grep -v -i "second" > "$D/damaged.txt"
  run tournament --game kim2019 --spymasters glove50 --guessers glove50,random --games 12 --seed 3 --jobs 2 --results-dir "$D/tour" \
    --out "$D/tour.json" --markdown "$D/tour.md" --no-progress | grep -v -i "second" > "$D/tour.txt"
  for f in kim match classic damaged tour; do strip "$D/$f.json"; done
  strip "$D/duet.json" loose
done
status=0
for f in kim.jsonl match.jsonl classic.jsonl duet.jsonl damaged.jsonl kim.json.cmp match.json.cmp classic.json.cmp \
         duet.json.cmp damaged.json.cmp tour.json.cmp tour.md kim.txt match.txt classic.txt duet.txt damaged.txt tour.txt; do
  if cmp -s "$OUT/before/$f" "$OUT/after/$f"; then echo "identical  $f ($(wc -c < "$OUT/after/$f") bytes)"
  else echo "DIFFERENT  $f"; status=1; fi
done
for cell in "$OUT"/after/tour/*.jsonl; do
  n=$(basename "$cell")
  if cmp -s "$OUT/before/tour/$n" "$cell"; then echo "identical  tour/$n"; else echo "DIFFERENT  tour/$n"; status=1; fi
done
cat "$OUT"/*/notes.txt
exit $status
