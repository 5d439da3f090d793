// `failure-memory mcp`: the agent tools over the Model Context Protocol (stdio), for agents
// outside VS Code (Claude Code, Cursor, Cline, Codex...) and for VS Code's own MCP support.
// One workspace folder per server. stdout belongs to the protocol: nothing else may write there.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { WorkspaceMemory } from '../app/workspaceMemory';
import { agentGatesSetUp } from './hooks/protect';
import { LineStdioTransport } from './stdioTransport';
import { directAccess, relativeCwd, runTool, TOOL_DEFINITIONS, ToolInputError } from './tools';

export interface McpOptions {
  /** Absolute workspace folder the memory belongs to. */
  workspace: string;
  memory: WorkspaceMemory;
  version: string;
  /** Diagnostics (stderr in the CLI). */
  log?: (message: string) => void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** The MCP server with the tools registered (not yet connected). */
export function createMcpServer(opts: Pick<McpOptions, 'workspace' | 'memory' | 'version'>): McpServer {
  const server = new McpServer(
    { name: 'failure-memory', title: 'Failure Memory', version: opts.version },
    {
      instructions:
        'Failure Memory remembers which shell commands keep failing in this workspace. Call failure_memory_check before ' +
        'running a build, test, install or deploy command (and before re-running one that failed). If it says exhausted, ' +
        'do not run that command again the same way. Report commands you run yourself with failure_memory_record, and files ' +
        'you change with your own editing tool with failure_memory_edit (a re-run after a change is a fix attempt, not a loop).',
    },
  );
  const access = directAccess(opts.memory, () => agentGatesSetUp(opts.workspace));
  for (const def of TOOL_DEFINITIONS) {
    server.registerTool(
      def.name,
      {
        title: def.displayName,
        description: def.modelDescription,
        // the tool's one zod schema (agents/tools.ts): the SDK validates calls and lists its JSON Schema
        inputSchema: def.input,
        annotations: { readOnlyHint: !def.writes, destructiveHint: false, idempotentHint: !def.writes, openWorldHint: false },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const input = { ...args };
          if (def.hasCwd) {
            // absolute folders become relative to the workspace, as the extension stores them
            const rel = relativeCwd(opts.workspace, typeof input.cwd === 'string' ? input.cwd : undefined);
            if (rel === undefined) throw new ToolInputError(`cwd ${String(input.cwd)} is outside the workspace folder of this server (${opts.workspace}).`);
            input.cwd = rel;
          }
          const answer = await runTool(def.name, access, input);
          return { content: [{ type: 'text', text: answer.text }, { type: 'text', text: JSON.stringify(answer.json) }] };
        } catch (e) {
          const message = e instanceof ToolInputError ? e.message : `Failure Memory could not answer: ${(e as Error)?.message ?? String(e)}`;
          return { isError: true, content: [{ type: 'text', text: message }] };
        }
      },
    );
  }
  return server;
}

/** How long the calls still running at the end of input may take to be answered. */
const IN_FLIGHT_GRACE_MS = 120_000;

/** Serves until the client closes stdin (or the transport closes). */
export async function serveMcp(opts: McpOptions): Promise<void> {
  const server = createMcpServer(opts);
  const stdin = (opts.stdin ?? process.stdin) as NodeJS.ReadStream;
  // our own transport: a bad or oversized line gets a JSON-RPC error reply, and serving goes on
  const transport = new LineStdioTransport(stdin, opts.stdout ?? process.stdout);
  // end of input: the calls already read are answered first (bounded, so a stuck call cannot keep the process)
  const afterInFlight = () => Promise.race([transport.idle(), new Promise<void>(r => setTimeout(r, IN_FLIGHT_GRACE_MS).unref())]);
  const closed = new Promise<void>(resolve => {
    transport.onclose = () => resolve();
    // a turn later: the transport reads the last line (one without a newline too) on the same 'end'
    const finish = () => setImmediate(() => void afterInFlight().then(resolve));
    stdin.once('end', finish);
    stdin.once('close', finish);
  });
  await server.connect(transport);
  opts.log?.(`failure-memory mcp: serving ${opts.workspace} (${TOOL_DEFINITIONS.length} tools) on stdio\n`);
  await closed;
  await server.close().catch(() => undefined);
}
