# Failure Memory: the .zshenv of the ZDOTDIR the extension gives the terminals of VS Code. It puts
# the user's own ZDOTDIR back first, so every startup file after this one (and VS Code's shell
# integration, which reads ZDOTDIR back from here) is the user's as if this folder were not there,
# then loads the Enter gate (enter.zsh) into interactive shells. The extension copies this file to
# <its global storage>/shell/zdotdir/.zshenv.
if [[ -n ${FAILURE_MEMORY_USER_ZDOTDIR-} ]]; then
  ZDOTDIR=$FAILURE_MEMORY_USER_ZDOTDIR
else
  ZDOTDIR=$HOME
fi
[[ -r $ZDOTDIR/.zshenv && $ZDOTDIR/.zshenv != ${(%):-%x} ]] && builtin source "$ZDOTDIR/.zshenv"
[[ -o interactive && -r ${FAILURE_MEMORY_SHELL_DIR-}/enter.zsh ]] && builtin source "$FAILURE_MEMORY_SHELL_DIR/enter.zsh"
