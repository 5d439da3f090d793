// Every harness adapter, by id: the table the runner, setup-agents and the docs are driven by.
import { claude } from './claude';
import { cline } from './cline';
import { codex } from './codex';
import { copilot } from './copilot';
import { cursor } from './cursor';
import { gemini } from './gemini';
import type { HarnessAdapter, HarnessId } from './types';
import { vscode } from './vscode';
import { windsurf } from './windsurf';

export const HARNESSES: Readonly<Record<HarnessId, HarnessAdapter>> = { vscode, claude, copilot, cursor, gemini, codex, cline, windsurf };
export * from './types';
