# Failure Memory for any interactive zsh: a gate before each command line, a record after it.
#
#   source /path/to/failure-memory.zsh       # in ~/.zshrc
#
# Before: the accept-line widget (Enter) first asks `failure-memory check`; an exhausted approach
#   is NOT RUN (the line is cleared, kept in history so Up brings it back) and the reason is shown.
#   preexec cannot cancel a command, hence the widget.
# After: preexec remembers the line, precmd records its exit code with `failure-memory record`
#   (in the background; a plain shell cannot see the output, so only the exit code is kept).
#
# Workspace: $FAILURE_MEMORY_WORKSPACE, else the nearest folder above $PWD that has
# .vscode/failure-memory, else the git top level; outside all of these nothing is checked or kept.
# In VS Code's own terminal the extension already does both, so this stays off there unless
# FAILURE_MEMORY_SHELL_HOOK=on. FAILURE_MEMORY_SHELL_HOOK=off turns it off everywhere.
# Plugins that wrap accept-line themselves (zsh-autosuggestions, ...) should be loaded after this.

__fm_bin() { print -rn -- "${FAILURE_MEMORY_BIN:-failure-memory}" }

# Physical paths throughout (:A): a symlinked project folder is the same folder as its target.
__fm_workspace() {
  if [[ -n ${FAILURE_MEMORY_WORKSPACE-} ]]; then print -rn -- "${FAILURE_MEMORY_WORKSPACE:A}"; return 0; fi
  local d=${PWD:A}
  while [[ -n $d ]]; do
    [[ -d $d/.vscode/failure-memory ]] && { print -rn -- "$d"; return 0 }
    d=${d%/*}
  done
  git rev-parse --show-toplevel 2>/dev/null
}

__fm_rel() {
  local here=${PWD:A}
  case "$here" in
    "$1") print -rn -- . ;;
    "$1"/*) print -rn -- "${here#"$1"/}" ;;
    *) print -rn -- . ;;
  esac
}

# The gate: returns 1 with the reason in $__fm_reason when the command line must not run.
typeset -g __fm_reason=
__fm_gate() {
  local line=$1 ws rel
  __fm_reason=
  [[ -n ${line//[[:space:]]/} ]] || return 0
  ws=$(__fm_workspace) && [[ -n $ws ]] || return 0
  rel=$(__fm_rel "$ws")
  __fm_reason=$("$(__fm_bin)" check --command "$line" --cwd "$rel" --workspace "$ws" 2>&1 >/dev/null)
  local rc=$?
  [[ $rc -eq 2 ]] && return 1
  if [[ $rc -eq 127 ]]; then
    # not installed: said once per shell, never silently
    [[ -n ${__fm_missing_said-} ]] || print -u2 -r -- "Failure Memory: $(__fm_bin) not found; commands are not checked in this shell."
    typeset -g __fm_missing_said=1
  elif [[ $rc -ne 0 ]]; then
    print -u2 -r -- "Failure Memory: the gate could not check this line (${__fm_reason%%$'\n'*}); it runs."
  fi
  __fm_reason=
  return 0
}

# A blocked line inside a multi-line command ($PREBUFFER holds the lines before it) must stop the
# whole command: it becomes a token zsh cannot parse, so zsh drops all of it instead of running the rest.
__fm_accept_line() {
  if ! __fm_gate "$BUFFER"; then
    print -s -- "$BUFFER"
    if [[ -n $PREBUFFER ]]; then BUFFER=') # Failure Memory: NOT RUN, the whole command is dropped'; else BUFFER=''; fi
    zle -I
    print -u2 -r -- "$__fm_reason"
  fi
  zle .accept-line
}

typeset -g __fm_pending= __fm_pending_ws= __fm_pending_rel=
__fm_preexec() {
  __fm_pending=${1:-$3}
  __fm_pending_ws=$(__fm_workspace)
  __fm_pending_rel=$(__fm_rel "$__fm_pending_ws")
}

__fm_record() { # command, exit code, workspace, rel cwd
  [[ -n $3 ]] || return 0
  "$(__fm_bin)" record --command "$1" --exit-code "$2" --cwd "$4" --workspace "$3" --source terminal --no-stdin >/dev/null 2>&1
}

__fm_precmd() {
  local rc=$? line=$__fm_pending
  __fm_pending=
  [[ -n $line ]] || return 0
  # failures before the next prompt (the next gate counts them), successes in the background
  if [[ $rc -ne 0 || ${FAILURE_MEMORY_SYNC-} == 1 ]]; then
    __fm_record "$line" "$rc" "$__fm_pending_ws" "$__fm_pending_rel"
  else
    ( __fm_record "$line" "$rc" "$__fm_pending_ws" "$__fm_pending_rel" & ) 2>/dev/null
  fi
}

if [[ -o interactive && ${FAILURE_MEMORY_SHELL_HOOK-} != off && ( ${TERM_PROGRAM-} != vscode || ${FAILURE_MEMORY_SHELL_HOOK-} == on ) ]]; then
  zle -N accept-line __fm_accept_line
  autoload -Uz add-zsh-hook
  add-zsh-hook preexec __fm_preexec
  add-zsh-hook precmd __fm_precmd
fi
