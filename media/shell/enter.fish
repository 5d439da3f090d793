# Failure Memory's Enter gate for fish in VS Code's terminal: Enter first asks the extension whether
# the command may run (through ask.bash: fish has no sockets of its own, so this costs one bash, a
# few milliseconds). A command of an exhausted approach with nothing changed since its last failure
# is not run: the command line is cleared (kept in the history: Up brings it back), one line says why,
# and VS Code shows the help dialog.
# fish edits a multi-line command as one buffer, so the whole command is checked once it is complete.
# The extension puts a folder in front of XDG_DATA_DIRS whose fish/vendor_conf.d/ sources this file.

if status is-interactive; and not set -q __fm_enter; and command -q bash
    set -g __fm_enter 1

    function __fm_enter_accept
        set -l line (commandline | string collect)
        # an incomplete command (an open block or quote), or nothing: Enter does what it always does
        if not commandline --is-valid; or test -z (string trim -- "$line")
            commandline -f execute
            return
        end
        set -l reply (bash "$FAILURE_MEMORY_SHELL_DIR/ask.bash" fish $fish_pid "$PWD" "" "$line" 2>/dev/null)
        if string match -q 'block *' -- "$reply"
            # kept in the history: Up brings it back
            builtin history append -- "$line" 2>/dev/null
            commandline -r ''
            echo
            string sub -s 7 -- "$reply" >&2
            commandline -f repaint
            return
        end
        commandline -f execute
    end

    function __fm_enter_bind
        bind \r __fm_enter_accept
        bind \n __fm_enter_accept
        bind -M insert \r __fm_enter_accept 2>/dev/null
        bind -M insert \n __fm_enter_accept 2>/dev/null
    end

    # fish sets up its key bindings at the first prompt (and again when fish_key_bindings changes): bind after it
    function __fm_enter_first_prompt --on-event fish_prompt
        functions -e __fm_enter_first_prompt
        __fm_enter_bind
    end
    function __fm_enter_rebind --on-variable fish_key_bindings
        __fm_enter_bind
    end
end
