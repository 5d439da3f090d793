// How each real harness is run headless against the scripted model (./mockModel.mjs): its own
// configuration in a fresh HOME, its environment, its command line, and how its model asks for a
// shell command or a file edit (the tool names and arguments the harness offers its model).
// Each `configure` writes only what a user of that harness would set up once (model endpoint,
// key, the trust step for automation); the hooks come from `failure-memory setup-agents` alone.
import fs from 'node:fs';
import path from 'node:path';
import { binOf } from './install.mjs';

const write = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

/** No update checks, telemetry or colour in any harness: nothing but the mock on 127.0.0.1, plain output. */
const QUIET_ENV = {
  NO_COLOR: '1',
  CI: 'true',
  DO_NOT_TRACK: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  COPILOT_AUTO_UPDATE: 'false',
  GEMINI_TELEMETRY_ENABLED: 'false',
};

export const HARNESSES = {
  claude: {
    title: 'Claude Code',
    shell: (command, n = 1) => ({ tool: 'Bash', input: { command, description: `attempt ${n}` } }),
    edit: (file, oldText, newText) => ({ tool: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } }),
    write: (file, content) => ({ tool: 'Write', input: { file_path: file, content } }),
    configure: () => {},
    run: ({ url, prompt }) => ({
      cmd: binOf('claude'),
      args: ['-p', prompt, '--dangerously-skip-permissions', '--output-format', 'json'],
      // IS_SANDBOX: bypass permissions as root
      env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-ant-test', IS_SANDBOX: '1' },
    }),
  },
  codex: {
    title: 'Codex CLI',
    shell: command => ({ tool: 'exec_command', input: { cmd: command } }),
    // Codex 0.169 offers its model no apply_patch tool here: the model runs `apply_patch` through
    // exec_command, which Codex intercepts (its PreToolUse hook sees tool_name Bash with that command)
    edit: (file, oldText, newText) => ({ tool: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: ${file}\n@@\n-${oldText}\n+${newText}\n*** End Patch\nEOF` } }),
    write: (file, content) => ({ tool: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${file}\n${content.split('\n').map(l => `+${l}`).join('\n')}\n*** End Patch\nEOF` } }),
    // the model provider, and the project trust a Codex user gives once (Codex loads .codex/ only
    // in a trusted project); the hooks' review is --dangerously-bypass-hook-trust below
    configure: ({ home, ws, url }) => write(path.join(home, '.codex', 'config.toml'), [
      'model = "gpt-5.1-codex"',
      'model_provider = "mock"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${url}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      '',
      `[projects."${ws}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n')),
    run: ({ home, prompt }) => ({
      cmd: binOf('codex'),
      args: ['exec', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', prompt],
      env: { CODEX_HOME: path.join(home, '.codex'), MOCK_API_KEY: 'sk-test' },
    }),
  },
  gemini: {
    title: 'Gemini CLI',
    // a different description each time: Gemini CLI stops a run of identical tool calls itself
    shell: (command, n = 1) => ({ tool: 'run_shell_command', input: { command, description: `attempt ${n}` } }),
    edit: (file, oldText, newText) => ({ tool: 'replace', input: { file_path: file, old_string: oldText, new_string: newText, instruction: 'edit' } }),
    write: (file, content) => ({ tool: 'write_file', input: { file_path: file, content } }),
    configure: ({ home }) => write(path.join(home, '.gemini', 'settings.json'), `${JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }, null, 2)}\n`),
    run: ({ url, prompt }) => ({
      cmd: binOf('gemini'),
      args: ['-p', prompt, '--yolo'],
      // project hooks load only in a trusted folder: the headless trust switch
      env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'test-key', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    }),
  },
  copilot: {
    title: 'Copilot CLI',
    shell: (command, n = 1) => ({ tool: 'bash', input: { command, description: `attempt ${n}` } }),
    edit: (file, oldText, newText) => ({ tool: 'edit', input: { path: file, old_str: oldText, new_str: newText } }),
    write: (file, content) => ({ tool: 'create', input: { path: file, file_text: content } }),
    configure: () => {},
    run: ({ url, prompt }) => ({
      cmd: binOf('copilot'),
      args: ['-p', prompt, '--allow-all-tools'],
      // BYOK against the mock; -p loads repository hooks only with the PROMPT_MODE switch
      env: { COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: `${url}/v1`, COPILOT_PROVIDER_API_KEY: 'sk-test', COPILOT_MODEL: 'gpt-4.1', GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' },
    }),
  },
  cline: {
    title: 'Cline CLI',
    shell: command => ({ tool: 'run_commands', input: { commands: [command] } }),
    edit: (file, oldText, newText) => ({ tool: 'apply_patch', input: { input: `*** Begin Patch\n*** Update File: ${file}\n@@\n-${oldText}\n+${newText}\n*** End Patch\n` } }),
    write: (file, content) => ({ tool: 'apply_patch', input: { input: `*** Begin Patch\n*** Add File: ${file}\n${content.split('\n').map(l => `+${l}`).join('\n')}\n*** End Patch\n` } }),
    configure: () => {},
    // `cline auth -p openai -b URL` once (the mock's port changes per run), then the prompt
    before: ({ url }) => ({ cmd: binOf('cline'), args: ['auth', '-p', 'openai', '-k', 'sk-test', '-m', 'gpt-4.1', '-b', `${url}/v1`], env: {} }),
    run: ({ prompt }) => ({ cmd: binOf('cline'), args: [prompt], env: {} }),
  },
};

/** The environment of one harness run: nothing of this machine's HOME or credentials. */
export function harnessEnv(home, extra) {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM'];
  const base = Object.fromEntries(keep.filter(k => process.env[k] !== undefined).map(k => [k, process.env[k]]));
  return { ...base, ...QUIET_ENV, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache'), ...extra };
}
