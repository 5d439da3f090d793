#!/bin/sh
# usage: node esbuild.mjs && sh bench/setup-scale.sh LABEL [DIST] [SIZES_MB]     (SIZES_MB default "1 8 30")
#
# setup-agents, doctor and setup-agents --remove on a Claude Code settings file of 1, 8 and 30 MB (a
# long permissions list and one hook of the user's), each timed as a whole process with farm-bench
# (3 runs after one warm-up; the median). DIST: the dist folder whose cli.js runs (a build of an
# earlier commit gives the "before"). A HOME of its own: nothing is written into the user's. Prints one
# line per size and command; writes nothing else. Nothing here asserts a time.
set -e
cd "$(dirname "$0")/.."
label=${1:?usage: bench/setup-scale.sh LABEL [DIST] [SIZES_MB]}
dist=$(cd "${2:-dist}" && pwd)
sizes=${3:-1 8 30}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fm-setup-scale-XXXXXX")
export HOME="$tmp/home"
mkdir -p "$HOME"
for mb in $sizes; do
  ws="$tmp/ws-$mb"
  mkdir -p "$ws/.claude"
  node -e '
    const [file, mb] = process.argv.slice(1);
    const allow = []; let size = 0;
    for (let i = 0; size < mb * 1024 * 1024; i++) { const s = `Bash(npm run script-${i} -- --flag value-${"x".repeat(40)})`; allow.push(s); size += s.length + 8; }
    require("node:fs").writeFileSync(file, JSON.stringify({ permissions: { allow }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] }] } }, null, 2));
  ' "$ws/.claude/settings.json" "$mb"
  real=$(wc -c <"$ws/.claude/settings.json")
  cp "$ws/.claude/settings.json" "$tmp/original-$mb.json"
  for cmd in 'setup-agents --harness claude' 'doctor --harness claude' 'setup-agents --harness claude --remove'; do
    # each run starts from the file as that command finds it in use: set up for doctor and --remove, not for setup
    case "$cmd" in
      *--remove*|doctor*) node "$dist/cli.js" setup-agents --harness claude --workspace "$ws" >/dev/null ;;
      *) cp "$tmp/original-$mb.json" "$ws/.claude/settings.json" ;;
    esac
    res=$(farm-bench -n 3 --warmup 1 --timeout 900 -- sh -c "cp '$ws/.claude/settings.json' '$tmp/before.json'; node '$dist/cli.js' $cmd --workspace '$ws' >/dev/null 2>&1; st=\$?; cp '$tmp/before.json' '$ws/.claude/settings.json'; [ \$st -le 1 ]" 2>&1)
    med() { echo "$res" | awk -v k="$1" '$0 ~ "^" k { print $5 }'; }
    echo "$label | $(awk "BEGIN { printf \"%.1f\", $real / 1048576 }") MB | $cmd | wall $(med 'A wall s') s | cpu $(med 'A cpu s') s | peak $(med 'A peak MiB') MiB"
  done
done
rm -rf "$tmp"
