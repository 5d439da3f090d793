#!/bin/sh
# FAILURE_MEMORY_BIN while the suite captures payloads (AGENTS_CAPTURE=dir): keeps each hook's
# stdin as the harness sent it, then runs the launcher that setup-agents wrote, unchanged.
d="$AGENTS_CAPTURE_DIR"
mkdir -p "$d"
f="$d/$(date +%s%N)-$2-$3.json"
cat > "$f"
exec "$HOME/.failure-memory/bin/failure-memory" "$@" < "$f"
