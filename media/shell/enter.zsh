# Failure Memory's Enter gate for zsh in VS Code's terminal: the accept-line widget (Enter) first
# asks the extension whether the line may run. A line of an exhausted approach with nothing changed
# since its last failure is not run: the line is cleared (kept in history: Up brings it back), one
# line says why, and VS Code shows the help dialog. preexec cannot cancel a command, hence the widget.
#
# The extension points ZDOTDIR at a folder whose .zshenv (zdotdir.zsh) puts the user's own ZDOTDIR
# back and sources this file; the widget is installed at the first prompt, after every startup file
# and VS Code's own shell integration, wrapping whatever accept-line is then (a plugin's or zsh's).
# A blocked line of a multi-line command ($PREBUFFER holds the lines before it) stops the whole
# command: it becomes a token zsh cannot parse, so zsh drops all of it. TCP through zsh/net/tcp.

[[ -o interactive ]] || return 0
[[ ${__fm_enter-} == 1 ]] && return 0
zmodload zsh/net/tcp 2>/dev/null || return 0
typeset -g __fm_enter=1 __fm_enter_skip_until=0 __fm_enter_verdict= __fm_enter_message=

# Sets __fm_enter_verdict (run or block) and __fm_enter_message; see ask.bash for the exchange.
__fm_enter_ask() { # <line> <flags>
  __fm_enter_verdict=run
  __fm_enter_message=
  local file=${FAILURE_MEMORY_ENTER-} proto port ctok stok wait fd hello verb msg
  [[ -n $file && -r $file ]] || return 0
  (( SECONDS >= __fm_enter_skip_until )) || return 0
  IFS=' ' read -r proto port ctok stok wait < "$file" || return 0
  [[ $proto == FM1 && $port == <-> && $wait =~ '^[0-9.]+$' ]] || return 0
  ztcp 127.0.0.1 "$port" 2>/dev/null || return 0
  fd=$REPLY
  if IFS= read -r -t 1 -u "$fd" hello && [[ $hello == "FM1 $stok" ]]; then
    printf '%s\0%s\0%s\0%s\0%s\0%s\0' "$ctok" "$$" zsh "$PWD" "$2" "$1" >&$fd 2>/dev/null
    if IFS=' ' read -r -t "$wait" -u "$fd" verb msg; then
      [[ $verb == block ]] && { __fm_enter_verdict=block; __fm_enter_message=$msg; }
    else
      __fm_enter_skip_until=$(( SECONDS + 30 ))
    fi
  fi
  ztcp -c "$fd" 2>/dev/null
  return 0
}

__fm_enter_accept_line() {
  if [[ -n ${BUFFER//[[:space:]]/} ]]; then
    __fm_enter_ask "$BUFFER" "${PREBUFFER:+c}"
    if [[ $__fm_enter_verdict == block ]]; then
      print -s -- "$BUFFER"
      if [[ -n $PREBUFFER ]]; then BUFFER=') # Failure Memory: NOT RUN, the whole command is dropped'; else BUFFER=''; fi
      # said at the next prompt: text printed while the line is edited would be taken by VS Code for the command line
      __fm_enter_said=$__fm_enter_message
      zle .accept-line
      return
    fi
  fi
  zle __fm_enter_accept_line_before
}

typeset -g __fm_enter_said=
__fm_enter_prompt() {
  [[ -n $__fm_enter_said ]] || return 0
  print -u2 -r -- "$__fm_enter_said"
  __fm_enter_said=
}

# At the first prompt: wrap accept-line as it is then.
__fm_enter_install() {
  add-zsh-hook -d precmd __fm_enter_install
  add-zsh-hook precmd __fm_enter_prompt
  zle -A accept-line __fm_enter_accept_line_before 2>/dev/null || zle -A .accept-line __fm_enter_accept_line_before
  zle -N accept-line __fm_enter_accept_line
}
autoload -Uz add-zsh-hook
add-zsh-hook precmd __fm_enter_install
