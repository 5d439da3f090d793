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
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
};

const patchAdd = (file, content) => `*** Begin Patch\n*** Add File: ${file}\n${content.split('\n').map(l => `+${l}`).join('\n')}\n*** End Patch`;
const patchUpdate = (file, oldText, newText) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-${oldText}\n+${newText}\n*** End Patch`;

export const HARNESSES = {
  claude: {
    title: 'Claude Code',
    tools: 'Write, Edit',
    shell: (command, n = 1) => ({ tool: 'Bash', input: { command, description: `attempt ${n}` } }),
    edit: (file, oldText, newText) => ({ tool: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } }),
    // Claude Code's Edit refuses a file the session has not read
    beforeEdit: file => [{ tool: 'Read', input: { file_path: file } }],
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
    tools: 'apply_patch through exec_command',
    shell: command => ({ tool: 'exec_command', input: { cmd: command } }),
    // a model outside Codex 0.169's catalog (gpt-5.1-codex here) is offered no apply_patch tool: it runs
    // `apply_patch` through exec_command, which Codex intercepts and applies itself (PreToolUse sees
    // tool_name Bash with that command; no PostToolUse follows). EDIT_VARIANTS has the tool itself.
    edit: (file, oldText, newText) => ({ tool: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n${patchUpdate(file, oldText, newText)}\nEOF` } }),
    write: (file, content) => ({ tool: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n${patchAdd(file, content)}\nEOF` } }),
    // the model provider, and the project trust a Codex user gives once (Codex loads .codex/ only
    // in a trusted project); the hooks' review is --dangerously-bypass-hook-trust below
    configure: ({ home, ws, url, model = 'gpt-5.1-codex' }) => write(path.join(home, '.codex', 'config.toml'), [
      `model = "${model}"`,
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
    tools: 'write_file, replace',
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
    tools: 'create, edit',
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
    tools: 'apply_patch',
    shell: command => ({ tool: 'run_commands', input: { commands: [command] } }),
    // Cline CLI 3.0.65 gives GPT models apply_patch, others its editor tool (EDIT_VARIANTS)
    edit: (file, oldText, newText) => ({ tool: 'apply_patch', input: { input: `${patchUpdate(file, oldText, newText)}\n` } }),
    write: (file, content) => ({ tool: 'apply_patch', input: { input: `${patchAdd(file, content)}\n` } }),
    configure: () => {},
    // `cline auth -p openai -b URL` once (the mock's port changes per run), then the prompt
    before: ({ url, model = 'gpt-4.1' }) => ({ cmd: binOf('cline'), args: ['auth', '-p', 'openai', '-k', 'sk-test', '-m', model, '-b', `${url}/v1`], env: {} }),
    run: ({ prompt }) => ({ cmd: binOf('cline'), args: [prompt], env: {} }),
  },
};

/**
 * The edit tools each harness offers its model, per model family: the harness's defaults above, and
 * the other tool where the harness chooses by model (Codex's apply_patch tool for models in its
 * catalog; Cline CLI's editor for models other than GPT). `model` goes to configure/before.
 */
export const EDIT_VARIANTS = [
  { id: 'claude', tools: 'Write, Edit' },
  { id: 'codex', tools: 'apply_patch through exec_command' },
  {
    id: 'codex',
    tools: 'the apply_patch tool',
    model: 'gpt-5.5',
    edit: (file, oldText, newText) => ({ tool: 'apply_patch', custom: true, input: `${patchUpdate(file, oldText, newText)}\n` }),
    write: (file, content) => ({ tool: 'apply_patch', custom: true, input: `${patchAdd(file, content)}\n` }),
  },
  { id: 'gemini', tools: 'write_file, replace' },
  { id: 'copilot', tools: 'create, edit' },
  { id: 'cline', tools: 'apply_patch' },
  {
    id: 'cline',
    tools: 'editor',
    model: 'claude-sonnet-4-5',
    edit: (file, oldText, newText) => ({ tool: 'editor', input: { path: file, old_text: oldText, new_text: newText } }),
    write: (file, content) => ({ tool: 'editor', input: { path: file, new_text: content } }),
  },
];

/** The environment of one harness run: nothing of this machine's HOME or credentials. */
export function harnessEnv(home, extra) {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM'];
  const base = Object.fromEntries(keep.filter(k => process.env[k] !== undefined).map(k => [k, process.env[k]]));
  return { ...base, ...QUIET_ENV, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache'), ...extra };
}
