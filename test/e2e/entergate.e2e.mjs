// The Enter gate in a trusted workspace at 500 approaches, in bash and zsh (see enterGate.mjs).
import { enterGateScenario, settings, workspaceFiles } from './enterGate.mjs';

export const vscode = ['1.100', '1.139'];
export const timeout = 300_000;
export const options = { workspaceFiles, settings };

export async function run(h) {
  await enterGateScenario(h, { untrusted: false });
}
