# Failure Memory's Enter gate: asks the VS Code window this terminal belongs to whether a command
# line may run. Sourced by enter.bash (the function), run by enter.fish (as a program):
#   bash ask.bash <shell> <pid> <cwd> <flags> <line>     prints "run" or "block <line to print>"
# The window's address is in the file $FAILURE_MEMORY_ENTER names ("FM1 <port> <client token>
# <server token> <seconds to wait>"), read at every Enter: a window that restarted is found again,
# and no file means no gate. No answer in time (or no window): the line runs, and the gate is not
# asked again for 30 seconds, so a stuck window never slows every Enter. Speaks TCP through bash's
# own /dev/tcp: no process is started (enter.fish starts this one bash).

__fm_enter_skip_until=${__fm_enter_skip_until:-0}

# Sets __fm_enter_verdict (run or block) and __fm_enter_message.
__fm_enter_ask() { # <shell> <pid> <cwd> <flags> <line>
  __fm_enter_verdict=run
  __fm_enter_message=
  local file=${FAILURE_MEMORY_ENTER-} proto port ctok stok wait fd hello verb msg
  [[ -n $file && -r $file ]] || return 0
  (( SECONDS >= __fm_enter_skip_until )) || return 0
  IFS=' ' read -r proto port ctok stok wait < "$file" || return 0
  [[ $proto == FM1 && $port =~ ^[0-9]+$ && $wait =~ ^[0-9.]+$ ]] || return 0
  { exec {fd}<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 0
  # the server speaks first: a line goes only to the window that wrote the file
  if IFS= read -r -t 1 -u "$fd" hello && [[ $hello == "FM1 $stok" ]]; then
    printf '%s\0%s\0%s\0%s\0%s\0%s\0' "$ctok" "$2" "$1" "$3" "$4" "$5" >&"$fd" 2>/dev/null
    if IFS=' ' read -r -t "$wait" -u "$fd" verb msg; then
      [[ $verb == block ]] && { __fm_enter_verdict=block; __fm_enter_message=$msg; }
    else
      __fm_enter_skip_until=$((SECONDS + 30))
    fi
  fi
  exec {fd}>&-
  return 0
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  __fm_enter_ask "$@"
  printf '%s %s\n' "$__fm_enter_verdict" "$__fm_enter_message"
fi
