#!/bin/sh
# FAILURE_MEMORY_BIN while the suite captures payloads (AGENTS_CAPTURE=dir): keeps each hook's
# stdin as the harness sent it, with what the hook can tell of the session (the harness's
# CLAUDE_CODE_ENTRYPOINT, the command line and stdin of the harness process that ran it) and the
# state of the suite's project (src/pad.js still requiring left-pad: the suite fails), then runs the
# launcher that setup-agents wrote, unchanged.
d="$AGENTS_CAPTURE_DIR"
mkdir -p "$d"
f="$d/$(date +%s%N)-$2-$3"
cat > "$f.json"
{
  printf 'CLAUDE_CODE_ENTRYPOINT=%s\n' "${CLAUDE_CODE_ENTRYPOINT-}"
  printf 'tty=%s\n' "$(readlink "/proc/$PPID/fd/0" 2>/dev/null)"
  if [ -f src/pad.js ]; then if grep -q "require('left-pad')" src/pad.js; then echo 'suite=fails'; else echo 'suite=passes'; fi; fi
  tr '\0' '\n' < "/proc/$PPID/cmdline" 2>/dev/null | sed 's/^/argv=/'
} > "$f.context"
exec "$HOME/.failure-memory/bin/failure-memory" "$@" < "$f.json"
