// The four agent tools as VS Code language-model tools (declared under
// contributes.languageModelTools): agent mode and any extension can call them through
// vscode.lm.invokeTool. Same tools and wording as the MCP server (../agents/tools.ts).

import * as vscode from 'vscode';
import { agentGatesSetUp } from '../agents/hooks/protect';
import { confirmationFor, runTool, ToolInputError, TOOL_DEFINITIONS, type ToolDefinition } from '../agents/tools';
import { CommandId } from './commandIds';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { MemoryRegistry } from './registry';

type ToolInput = Record<string, unknown>;

const E2E_CONTEXT_KEY = 'failureMemory.e2e';

class FailureMemoryTool implements vscode.LanguageModelTool<ToolInput> {
  constructor(
    private readonly def: ToolDefinition,
    private readonly registry: MemoryRegistry,
    private readonly log: Logger,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ToolInput>): vscode.PreparedToolInvocation {
    const command = typeof options.input?.command === 'string' ? options.input.command : undefined;
    const confirm = this.def.writes ? confirmationFor(this.def.name, options.input) : undefined;
    return {
      invocationMessage: command ? `${this.def.displayName}: \`${command.slice(0, 120).replace(/`/g, "'")}\`` : this.def.displayName,
      ...(confirm ? { confirmationMessages: { title: confirm.title, message: new vscode.MarkdownString().appendText(confirm.message) } } : {}),
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const t0 = Date.now();
    const input: ToolInput = { ...(options.input ?? {}) };
    // the folder comes from cwd (absolute: the folder holding it; relative or none: the first folder)
    const located = this.registry.locate(typeof input.cwd === 'string' && input.cwd.trim() ? input.cwd : undefined);
    if (!located) {
      throw new Error(
        vscode.workspace.workspaceFolders?.length
          ? `cwd ${String(input.cwd)} is outside the open workspace folders: Failure Memory has no memory for it.`
          : 'No workspace folder is open: Failure Memory keeps its memory per workspace folder.',
      );
    }
    // write through the registry's own entry so its cache (status bar, guard, panel) is fresh at once
    const folder = this.registry.byFolderUri(located.folder.uri.toString()) ?? located;
    if (this.def.hasCwd) input.cwd = located.relCwd;
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    try {
      const answer = await runTool(this.def.name, { memory: folder.memory, write: op => this.registry.write(folder, op), gated: () => agentGatesSetUp(folder.memory.workspaceFolder) }, input);
      this.log.info('lmTools', `${this.def.name} in ${folder.folder.name} (${Date.now() - t0} ms): ${answer.text.split('\n')[0]}`);
      this.log.event('lmTool', { tool: this.def.name, folder: folder.folder.name, status: answer.json.status ?? null, ms: Date.now() - t0 });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text), new vscode.LanguageModelTextPart(JSON.stringify(answer.json))]);
    } catch (e) {
      this.log.warn('lmTools', `${this.def.name} failed: ${(e as Error)?.message ?? e}`);
      // the message is what the model reads: keep it plain
      if (e instanceof ToolInputError) throw new Error(e.message);
      throw e;
    }
  }
}

export class LanguageModelTools extends Disposable {
  constructor(registry: MemoryRegistry, private readonly log: Logger) {
    super();
    if (typeof vscode.lm?.registerTool !== 'function') {
      log.info('lmTools', `vscode.lm.registerTool is not available in VS Code ${vscode.version}: no language-model tools`);
      return;
    }
    for (const def of TOOL_DEFINITIONS) {
      try {
        this.track(vscode.lm.registerTool(def.name, new FailureMemoryTool(def, registry, log)));
      } catch (e) {
        log.error('lmTools', `cannot register ${def.name}`, e);
      }
    }
    log.debug('lmTools', `registered ${TOOL_DEFINITIONS.map(d => d.name).join(', ')}`);
    if (process.env.FAILURE_MEMORY_E2E_LOG) this.registerTestCommand();
  }

  /**
   * End-to-end tests drive VS Code from a browser and cannot call the extension API: this command
   * calls vscode.lm.invokeTool for them and logs the answer as an `lmToolResult` event.
   * Arguments (tool name, input) or, from the palette, one input box: `<tool> <JSON input>`.
   */
  private registerTestCommand(): void {
    this.track(
      vscode.commands.registerCommand(CommandId.InvokeToolForTests, async (name?: unknown, input?: unknown) => {
        let tool = typeof name === 'string' ? name : '';
        let args: unknown = input ?? {};
        if (!tool) {
          const line = await vscode.window.showInputBox({ prompt: 'Language-model tool and its JSON input, e.g. failure_memory_check {"command":"npm test"}', ignoreFocusOut: true });
          if (!line) return;
          const space = line.trim().indexOf(' ');
          tool = space < 0 ? line.trim() : line.trim().slice(0, space);
          args = space < 0 ? {} : JSON.parse(line.trim().slice(space + 1));
        }
        const listed = vscode.lm.tools.filter(t => t.name.startsWith('failure_memory_')).map(t => t.name);
        try {
          const result = await vscode.lm.invokeTool(tool, { input: args as object, toolInvocationToken: undefined });
          const texts = result.content.map(p => (p as { value?: unknown }).value).filter((v): v is string => typeof v === 'string');
          let json: unknown = null;
          try {
            json = texts[1] ? JSON.parse(texts[1]) : null;
          } catch {
            // a second part that is not JSON: report the text only
          }
          this.log.event('lmToolResult', { tool, input: args, text: texts[0] ?? '', json, tools: listed });
        } catch (e) {
          this.log.event('lmToolResult', { tool, input: args, error: (e as Error)?.message ?? String(e), tools: listed });
        }
      }),
    );
    void vscode.commands.executeCommand('setContext', E2E_CONTEXT_KEY, true);
  }
}
