import type { Command } from '../types';
import { VERSION } from '../version';

export const mcp: Command = {
  name: 'mcp',
  raw: true,
  usage: 'mcp',
  summary: 'serve check/record/recall/add_learning to AI agents over stdio (MCP)',
  longLived: true,
  // its recall tool finds failures by meaning, as `recall` does
  semantic: true,
  async run(ctx) {
    // loaded only here: the MCP SDK is not needed by the hooks' quick check/record calls
    const { serveMcp } = await import('../../agents/mcpServer.js');
    await serveMcp({ workspace: ctx.workspace, memory: ctx.memory(), version: VERSION, log: (m: string) => ctx.io.err(m) });
    return 0;
  },
};
