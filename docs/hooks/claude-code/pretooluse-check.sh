#!/usr/bin/env bash
# Failure Memory gate for Claude Code: a PreToolUse hook for the Bash tool.
#
# Claude Code sends the tool call as JSON on stdin, e.g.
#   {"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npx prisma generate"},"cwd":"/home/me/app",...}
# This script asks `failure-memory check` about the command and answers with its exit code:
#   0  let the command run (clear, failing below the threshold, or exhausted but making progress)
#   2  block it: the command is NOT RUN, and the reason on stderr is shown to Claude
#   1  the gate itself could not decide (failure-memory missing or broken): a non-blocking error,
#      shown to the user; the command runs
#
# Needs: `failure-memory` on PATH (or FAILURE_MEMORY_BIN=/path/to/failure-memory) and node.
# The workspace is $CLAUDE_PROJECT_DIR (set by Claude Code), else the tool call's cwd.
set -u

fm=${FAILURE_MEMORY_BIN:-failure-memory}

# tool name, command, cwd as NUL-separated fields (node is there: failure-memory runs on it)
read_call() {
  node -e '
    let s = "";
    process.stdin.setEncoding("utf8").on("data", d => (s += d)).on("end", () => {
      let j = {};
      try { j = JSON.parse(s); } catch {}
      const i = (j && typeof j.tool_input === "object" && j.tool_input) || {};
      const f = [j.tool_name, i.command, j.cwd].map(v => (typeof v === "string" ? v.replace(/\0/g, "") : ""));
      process.stdout.write(f.join("\0") + "\0");
    });'
}

{ IFS= read -r -d '' tool; IFS= read -r -d '' cmd; IFS= read -r -d '' cwd; } < <(read_call) || exit 0
[ "$tool" = "Bash" ] && [ -n "${cmd//[[:space:]]/}" ] || exit 0

ws=${CLAUDE_PROJECT_DIR:-${cwd:-$PWD}}
ws=${ws%/}
cwd=${cwd:-$ws}
cwd=${cwd%/}
case "$cwd" in
  "$ws") rel=. ;;
  "$ws"/*) rel=${cwd#"$ws"/} ;;
  *) exit 0 ;; # outside the project: not ours to judge
esac

if ! command -v "$fm" >/dev/null 2>&1; then
  echo "Failure Memory hook: '$fm' not found on PATH; the command was not checked." >&2
  exit 1
fi

reason=$("$fm" check --command "$cmd" --cwd "$rel" --workspace "$ws" 2>&1 >/dev/null)
case $? in
  0) exit 0 ;;
  2)
    # explainBlock's wording: "Failure Memory: NOT RUN — `cmd` is an exhausted approach. ..."
    printf '%s\n' "$reason" >&2
    exit 2
    ;;
  *)
    printf 'Failure Memory hook: check failed, the command was not checked: %s\n' "$reason" >&2
    exit 1
    ;;
esac
