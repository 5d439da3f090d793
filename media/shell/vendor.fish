# Failure Memory: fish reads this from the folder the extension puts in front of XDG_DATA_DIRS in
# VS Code's terminals (<its global storage>/shell/xdg/fish/vendor_conf.d/failure-memory.fish). It
# takes that folder out again (programs started here see XDG_DATA_DIRS as it was) and loads the
# Enter gate.
if set -q FAILURE_MEMORY_XDG_DIR
    set -l keep
    for d in $XDG_DATA_DIRS
        test "$d" = "$FAILURE_MEMORY_XDG_DIR"; or set -a keep $d
    end
    set -gx XDG_DATA_DIRS $keep
    set -e FAILURE_MEMORY_XDG_DIR
end
if status is-interactive; and set -q FAILURE_MEMORY_SHELL_DIR; and test -r "$FAILURE_MEMORY_SHELL_DIR/enter.fish"
    source "$FAILURE_MEMORY_SHELL_DIR/enter.fish"
end
