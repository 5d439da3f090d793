#!/usr/bin/env bash
# Failure Memory recorder for Claude Code: a PostToolUse and PostToolUseFailure hook for Bash.
#
# Claude Code runs it after a Bash tool call with the call and its result as JSON on stdin:
#   PostToolUse         {"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},
#                        "tool_response":{"stdout":"...","stderr":"...","interrupted":false},"cwd":"..."}
#   PostToolUseFailure  {"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{...},
#                        "error":"Exit code 1\n...","is_interrupt":false,"cwd":"..."}
# (The shapes are as far as we know them; see docs/agents.md. The script reads them leniently:
# an explicit exit code wins, then "exit code N" in the error text; a failure without one counts
# as exit 1, an interrupt as 130, which is never counted as a failure.)
#
# It records the result with `failure-memory record`, which redacts secrets before storing.
# It always exits 0: recording must never disturb the agent.
set -u

fm=${FAILURE_MEMORY_BIN:-failure-memory}

# tool name, command, cwd, exit code, output as NUL-separated fields
read_result() {
  node -e '
    let s = "";
    process.stdin.setEncoding("utf8").on("data", d => (s += d)).on("end", () => {
      let j = {};
      try { j = JSON.parse(s); } catch {}
      const i = (j && typeof j.tool_input === "object" && j.tool_input) || {};
      const r = j.tool_response;
      const str = v => (typeof v === "string" ? v : "");
      const int = v => (typeof v === "number" && Number.isInteger(v) ? v : typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : undefined);
      let code, output;
      if (j.hook_event_name === "PostToolUseFailure" || (j.error !== undefined && r === undefined)) {
        const err = typeof j.error === "string" ? j.error : j.error ? JSON.stringify(j.error) : "";
        const m = /(?:exit(?:ed)?(?: with)?(?: non-zero)?(?: status)? code|status code)[:\s]+(-?\d+)/i.exec(err);
        code = j.is_interrupt ? 130 : m ? Number(m[1]) : 1;
        output = err.replace(/^(?:Error: )?Exit code -?\d+\s*\n?/i, "");
      } else if (r && typeof r === "object") {
        code = int(r.exit_code) ?? int(r.exitCode) ?? int(r.returnCode) ?? int(r.code);
        if (code === undefined) code = r.interrupted ? 130 : r.is_error || r.isError ? 1 : 0;
        output = [str(r.stdout), str(r.stderr), str(r.output)].filter(Boolean).join("\n");
      } else {
        code = 0;
        output = str(r);
      }
      const f = [str(j.tool_name), str(i.command), str(j.cwd), String(code), output].map(v => v.replace(/\0/g, ""));
      process.stdout.write(f.join("\0") + "\0");
    });'
}

{ IFS= read -r -d '' tool; IFS= read -r -d '' cmd; IFS= read -r -d '' cwd; IFS= read -r -d '' code; IFS= read -r -d '' output; } < <(read_result) || exit 0
[ "$tool" = "Bash" ] && [ -n "${cmd//[[:space:]]/}" ] || exit 0
command -v "$fm" >/dev/null 2>&1 || exit 0

ws=${CLAUDE_PROJECT_DIR:-${cwd:-$PWD}}
ws=${ws%/}
cwd=${cwd:-$ws}
cwd=${cwd%/}
case "$cwd" in
  "$ws") rel=. ;;
  "$ws"/*) rel=${cwd#"$ws"/} ;;
  *) exit 0 ;;
esac

printf '%s' "$output" | "$fm" record --command "$cmd" --exit-code "$code" --cwd "$rel" --workspace "$ws" --source agent >/dev/null 2>&1
exit 0
