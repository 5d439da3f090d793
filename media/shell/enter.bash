# Failure Memory's Enter gate for bash in VS Code's terminal: Enter first asks the extension
# (ask.bash) whether the line may run. A line of an exhausted approach with nothing changed since
# its last failure is not run: the line is cleared (kept in history: Up brings it back), one line
# says why, and VS Code shows the help dialog. The extension loads this file through the terminal
# environment it contributes (PROMPT_COMMAND runs it at the first prompt, after ~/.bashrc and VS Code's
# own shell integration); `failureMemory.terminal.gateAtEnter` turns it off.
#
# Why readline and not `trap DEBUG`: a DEBUG trap can only skip one simple command at a time, sees
# `a && b` as two commands, and fires for PROMPT_COMMAND too; checking the whole line when Enter is
# pressed is simpler and exact. A blocked line of a multi-line command (`for … do` ⏎ `make` ⏎ `done`)
# stops the whole command: it is replaced by a token bash cannot parse, so bash drops all of it.
# Needs bash ≥ 4.1 (bind -x with READLINE_LINE, {fd} redirections) and /dev/tcp.

[[ $- == *i* ]] || { __fm_enter=0; return 0; }
(( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1) )) || { __fm_enter=0; return 0; }
[[ ${__fm_enter-} == 1 ]] && return 0
. "${BASH_SOURCE[0]%/*}/ask.bash" || { __fm_enter=0; return 0; }
__fm_enter=1
# a nested shell or a script started here gets neither this PROMPT_COMMAND nor VS Code's
export -n PROMPT_COMMAND

__fm_enter_continuing=
__fm_enter_said=

# From PROMPT_COMMAND, before every prompt: a new command starts; say why the last line did not run.
__fm_enter_prompt() {
  __fm_enter_continuing=
  [[ -n $__fm_enter_said ]] || return 0
  printf '%s\n' "$__fm_enter_said" >&2
  __fm_enter_said=
}

# Bound to Enter, before accept-line.
__fm_enter_accept() {
  [[ -n ${READLINE_LINE//[[:space:]]/} ]] || return 0
  __fm_enter_ask bash "$$" "$PWD" "${__fm_enter_continuing:+c}" "$READLINE_LINE"
  if [[ $__fm_enter_verdict != block ]]; then
    __fm_enter_continuing=1
    return 0
  fi
  history -s -- "$READLINE_LINE"
  # said once the (emptied) line is accepted: text printed while the line is edited would be taken
  # by VS Code for the command line itself
  __fm_enter_said=$__fm_enter_message
  if [[ -n $__fm_enter_continuing ]]; then
    READLINE_LINE=') # Failure Memory: NOT RUN, the whole command is dropped'
  else
    READLINE_LINE=''
  fi
  READLINE_POINT=0
}

# VS Code's shell integration reports a command's start from a DEBUG trap, and a DEBUG trap fires
# for the command a key binding runs too (this gate's check, fzf's Ctrl+R…): VS Code would take the
# check for the start of a command, and miss the real one. Its preexec functions (and bash-preexec's)
# are wrapped once to skip what a key binding runs: READLINE_LINE is set only then.
__fm_enter_skip_bindings() { # <function name>
  local def
  def=$(declare -f "$1") || return 0
  [[ $def == *__fm_enter_orig_* ]] && return 0
  eval "__fm_enter_orig_$def"
  eval "$1() { [[ -n \${READLINE_LINE+x} ]] && return 0; __fm_enter_orig_$1 \"\$@\"; }"
}
for __fm_fn in __vsc_preexec_only __vsc_preexec_all __bp_preexec_invoke_exec; do
  __fm_enter_skip_bindings "$__fm_fn"
done
unset __fm_fn

# Enter and Ctrl+J in every key map (emacs, and vi's two modes): check, then accept the line.
for __fm_keymap in emacs vi-insert vi-command; do
  bind -m "$__fm_keymap" -x '"\C-x\C-_Fc": __fm_enter_accept'
  bind -m "$__fm_keymap" '"\C-x\C-_Fa": accept-line'
  bind -m "$__fm_keymap" '"\C-m": "\C-x\C-_Fc\C-x\C-_Fa"'
  bind -m "$__fm_keymap" '"\C-j": "\C-x\C-_Fc\C-x\C-_Fa"'
done
unset __fm_keymap
