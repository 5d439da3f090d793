# Failure Memory for any interactive bash: a gate before each command line, a record after it.
#
#   source /path/to/failure-memory.bash      # in ~/.bashrc
#
# Before: Enter first asks `failure-memory check`; an exhausted approach is NOT RUN (the line is
#   cleared, kept in history so Up brings it back) and the reason is printed.
# After: PROMPT_COMMAND records the exit code with `failure-memory record` (failures before the
#   next prompt, successes in the background; a plain shell cannot see the output, so only the
#   exit code is kept).
#
# Why readline and not `trap DEBUG`: a DEBUG trap (with `shopt -s extdebug`) can only skip one
# simple command at a time, sees `a && b` as two commands, and fires for PROMPT_COMMAND too;
# checking the whole line when Enter is pressed is simpler and exact.
#
# Workspace: $FAILURE_MEMORY_WORKSPACE, else the nearest folder above $PWD that has
# .vscode/failure-memory, else the git top level; outside all of these nothing is checked or kept.
# In VS Code's own terminal the extension already does both, so this stays off there unless
# FAILURE_MEMORY_SHELL_HOOK=on. FAILURE_MEMORY_SHELL_HOOK=off turns it off everywhere.
# Needs bash ≥ 4 (bind -x with READLINE_LINE), emacs key bindings, and `failure-memory` on PATH
# (or FAILURE_MEMORY_BIN). Each Enter costs one `failure-memory check` (~0.1 s).

__fm_bin() { printf '%s' "${FAILURE_MEMORY_BIN:-failure-memory}"; }

# The workspace folder for $PWD, or nothing.
# Physical paths throughout (pwd -P): a symlinked project folder is the same folder as its target.
__fm_workspace() {
  if [[ -n ${FAILURE_MEMORY_WORKSPACE-} ]]; then (cd -P -- "$FAILURE_MEMORY_WORKSPACE" 2>/dev/null && pwd -P) || printf '%s' "${FAILURE_MEMORY_WORKSPACE%/}"; return 0; fi
  local d
  d=$(pwd -P)
  while [[ -n $d ]]; do
    [[ -d $d/.vscode/failure-memory ]] && { printf '%s' "$d"; return 0; }
    d=${d%/*}
  done
  git rev-parse --show-toplevel 2>/dev/null
}

# The current folder relative to workspace $1 ('.' for the folder itself).
__fm_rel() {
  local here
  here=$(pwd -P)
  case "$here" in
    "$1") printf '.' ;;
    "$1"/*) printf '%s' "${here#"$1"/}" ;;
    *) printf '.' ;;
  esac
}

# The gate: returns 1 and prints why when the command line must not run.
__fm_gate() {
  local line=$1 ws rel reason
  [[ -n ${line//[[:space:]]/} ]] || return 0
  ws=$(__fm_workspace) && [[ -n $ws ]] || return 0
  rel=$(__fm_rel "$ws")
  reason=$("$(__fm_bin)" check --command "$line" --cwd "$rel" --workspace "$ws" 2>&1 >/dev/null)
  case $? in
    0) return 0 ;;
    2)
      # on a line of its own: readline's cursor is still on the command line
      printf '\n%s\n' "$reason" >&2
      return 1
      ;;
    127)
      # not installed: said once per shell, never silently
      [[ -n ${__fm_missing_said-} ]] || printf '\nFailure Memory: %s not found; commands are not checked in this shell.\n' "$(__fm_bin)" >&2
      __fm_missing_said=1
      return 0
      ;;
    *)
      printf '\nFailure Memory: the gate could not check this line (%s); it runs.\n' "${reason%%$'\n'*}" >&2
      return 0
      ;;
  esac
}

__fm_pending=
__fm_pending_ws=
__fm_pending_rel=

__fm_continuing=

# Bound to Enter (before accept-line): check the line, remember it for the record.
# A line of a multi-line command (`for … do` ⏎ `make` ⏎ `done`) that is blocked must stop the
# whole command, not only itself: it is replaced by a token bash cannot parse, so bash drops the
# entire compound command instead of running the rest of it.
__fm_accept() {
  if __fm_gate "$READLINE_LINE"; then
    if [[ -z $__fm_continuing ]]; then
      __fm_pending=$READLINE_LINE
      __fm_pending_ws=$(__fm_workspace)
      __fm_pending_rel=$(__fm_rel "$__fm_pending_ws")
    fi
    __fm_continuing=1
  else
    history -s -- "$READLINE_LINE"
    if [[ -n $__fm_continuing ]]; then
      READLINE_LINE=') # Failure Memory: NOT RUN, the whole command is dropped'
    else
      READLINE_LINE=''
    fi
    READLINE_POINT=0
    __fm_pending=
  fi
}

__fm_record() { # command, exit code, workspace, rel cwd
  [[ -n $3 ]] || return 0
  "$(__fm_bin)" record --command "$1" --exit-code "$2" --cwd "$4" --workspace "$3" --source terminal --no-stdin >/dev/null 2>&1
}

# First in PROMPT_COMMAND: records what the last accepted line did.
# A failure is recorded before the next prompt (so the next Enter's gate already counts it: a
# quick sixth run cannot slip through); a success, which only ever opens the gate, in the background.
__fm_precmd() {
  local rc=$? line=$__fm_pending
  __fm_pending=
  __fm_continuing=
  if [[ -n $line ]]; then
    if [[ $rc -ne 0 || ${FAILURE_MEMORY_SYNC-} == 1 ]]; then
      __fm_record "$line" "$rc" "$__fm_pending_ws" "$__fm_pending_rel"
    else
      (__fm_record "$line" "$rc" "$__fm_pending_ws" "$__fm_pending_rel" &)
    fi
  fi
  return $rc
}

if [[ $- == *i* && ${FAILURE_MEMORY_SHELL_HOOK-} != off && ( ${TERM_PROGRAM-} != vscode || ${FAILURE_MEMORY_SHELL_HOOK-} == on ) ]]; then
  bind -x '"\e\C-xfc": __fm_accept'
  bind '"\e\C-xfa": accept-line'
  bind '"\C-m": "\e\C-xfc\e\C-xfa"'
  bind '"\C-j": "\e\C-xfc\e\C-xfa"'
  PROMPT_COMMAND="__fm_precmd${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
fi
