// Offers `failure-memory mcp` to VS Code's own MCP support, so agent mode (and anything reading
// VS Code's MCP servers) finds it without configuration. The API is stable from VS Code 1.101
// (contributes.mcpServerDefinitionProviders) and was proposed in 1.100
// (contributes.modelContextServerCollections): package.json declares the id under both, and the
// API is reached by feature detection, so nothing of it leaks into our types. Older versions: skipped.

import { basename } from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from './disposable';
import type { Logger } from './logger';

export const MCP_PROVIDER_ID = 'failureMemory.mcpServers';

type StdioDefinitionCtor = new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => object;

interface McpServerDefinitionProvider {
  /** 1.101+ name of the change event. */
  onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  /** 1.100 (proposed) names of the change event. */
  onDidChangeServerDefinitions?: vscode.Event<void>;
  onDidChange?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): object[];
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
}

/**
 * The program that runs dist/cli.js: the extension host's own executable when it is a real
 * Node.js (VS Code Server, code-server), else `node` from PATH (desktop VS Code runs Electron).
 */
export function nodeExecutable(execPath: string = process.execPath, versions: NodeJS.ProcessVersions = process.versions): string {
  return !versions.electron && /^node(\.exe)?$/i.test(basename(execPath)) ? execPath : 'node';
}

export class McpServerProvider extends Disposable {
  private readonly changed = this.track(new vscode.EventEmitter<void>());

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
  ) {
    super();
    const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
    const Stdio = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinitionCtor }).McpStdioServerDefinition;
    if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Stdio !== 'function') {
      log.debug('mcp', `VS Code ${vscode.version} has no MCP server definition API: the MCP server is not offered to VS Code (use \`failure-memory mcp\` directly)`);
      log.event('mcpProvider', { registered: false, reason: 'api-missing' });
      return;
    }
    this.track(vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()));
    this.track(vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()));
    const event = this.changed.event;
    try {
      this.track(
        lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
          onDidChangeMcpServerDefinitions: event,
          onDidChangeServerDefinitions: event,
          onDidChange: event,
          provideMcpServerDefinitions: () => this.definitions(Stdio),
        }),
      );
      log.info('mcp', `MCP server definitions offered to VS Code (${MCP_PROVIDER_ID})`);
      log.event('mcpProvider', { registered: true });
    } catch (e) {
      // e.g. a VS Code whose contribution point has yet another name
      log.debug('mcp', `MCP server definition provider not registered: ${(e as Error)?.message ?? e}`);
      log.event('mcpProvider', { registered: false, reason: (e as Error)?.message ?? String(e) });
    }
  }

  private definitions(Stdio: StdioDefinitionCtor): object[] {
    // Untrusted workspaces keep memory in the extension's storage, which the CLI does not use:
    // no server that would write into the folder.
    if (!vscode.workspace.isTrusted) return [];
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file');
    const cli = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'cli.js').fsPath;
    const node = nodeExecutable();
    const version = String((this.context.extension?.packageJSON as { version?: string } | undefined)?.version ?? '0');
    const defs = folders.map(f => ({
      label: folders.length > 1 ? `Failure Memory (${f.name})` : 'Failure Memory',
      command: node,
      args: [cli, 'mcp', '--workspace', f.uri.fsPath],
    }));
    this.log.event('mcpDefinitions', { servers: defs });
    return defs.map(d => new Stdio(d.label, d.command, d.args, {}, version));
  }
}
