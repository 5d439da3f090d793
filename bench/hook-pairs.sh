#!/bin/sh
# usage: node esbuild.mjs && sh bench/hook-pairs.sh LABEL [DIST]     (FILL=same sh bench/hook-pairs.sh …)
#
# The hook rows of bench/hook-bench.mjs (the payload into the command setup-agents writes, through the
# launcher, 500 approaches, a git repository), each timed as a whole process against `node -e 0` with
# farm-bench (a pair timer: A B A B …, the median of the pair ratios; it must be on PATH). DIST: the dist
# folder the launcher points at (a build of an earlier commit gives the "before"). Each row runs in the
# state hook-bench times it in: the pre rows with nothing waiting in the journal, then with four failures
# waiting (of four new commands, as hook-bench fills it; FILL=same: of the post row's own approach), then
# the post rows. Prints one line per row; writes nothing. Nothing here asserts a time.
set -e
cd "$(dirname "$0")/.."
label=${1:?usage: bench/hook-pairs.sh LABEL [DIST]}
dist=${2:-}
out=$(node --import tsx bench/hook-bench.mjs --runs 1 --keep --no-write ${dist:+--dist "$dist"} 2>&1)
home=$(echo "$out" | sed -n 's/^HOME //p')
ws=$(grep -o "CLAUDE_PROJECT_DIR='[^']*'" "$home/row-2.sh" | cut -d"'" -f2)
journal="$ws/.vscode/failure-memory/journal.jsonl"

row() {
  name=$(sed -n 2p "$home/row-$1.sh" | sed 's/^# //')
  waiting=$([ -f "$journal" ] && echo $(($(wc -l <"$journal") - 1)) || echo 0)
  res=$(farm-bench -n 20 --warmup 2 --vs 'node -e 0' -- sh "$home/row-$1.sh" 2>&1)
  med() { echo "$res" | awk -v k="$1" -v c="$2" '$0 ~ "^" k { print $c }'; }
  echo "$label | $name | runs waiting: $waiting | wall $(med 'A/B wall' 4)× | cpu $(med 'A/B cpu' 4)× | A $(med 'A wall s' 5) s, node -e 0 $(med 'B wall s' 5) s | peak $(med 'A peak MiB' 5) MiB"
}

# the runs hook-bench's own setup left in the journal are dropped: the first rows see memory.json as written
rm -f "$journal"
row 2
row 3
row 1
for i in 1 2 3 4; do
  if [ "${FILL:-}" = same ]; then sh "$home/row-8.sh" >/dev/null 2>&1; else sed "s/tool[0-9]* run/fill$i build/" "$home/row-8.sh" | sh >/dev/null 2>&1; fi
done
row 7
row 8
row 9
rm -rf "$ws" "$home"
