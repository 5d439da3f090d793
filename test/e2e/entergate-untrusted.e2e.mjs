// The Enter gate in an untrusted workspace (Restricted Mode: the memory lives in the extension's
// storage, no git) at 500 approaches, in bash and zsh (see enterGate.mjs). In VS Code 1.100 only:
// 1.139 creates no terminal in Restricted Mode ("Creating a terminal process requires executing code":
// trust the folder, or no terminal), so there is no untrusted terminal to check a line in.
import { enterGateScenario, settings, workspaceFiles } from './enterGate.mjs';

export const vscode = ['1.100'];
export const timeout = 300_000;
export const options = {
  untrusted: true,
  settings: {
    ...settings,
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never',
    'security.workspace.trust.emptyWindow': false,
  },
  workspaceFiles,
};

export async function run(h) {
  await enterGateScenario(h, { untrusted: true });
}
