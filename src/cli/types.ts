// What every CLI subcommand is given and what it declares. One handler file per subcommand
// (commands/<name>.ts), registered in commands/index.ts; main.ts parses and dispatches.

import type { TeamMemory } from '../app/team';
import type { WorkspaceMemory } from '../app/workspaceMemory';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Standard input; defaults to process.stdin. Tests pass their own stream. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** A mistake in how the CLI was called: printed with a pointer to --help, exit 1. */
export class UsageError extends Error {}

export type OptionSpec = { type: 'string' | 'boolean'; short?: string; help?: string };

export interface Context {
  io: Io;
  /** The workspace folder (absolute, existing). */
  workspace: string;
  json: boolean;
  /** Prints the human text, or the JSON value with --json. */
  print(human: string, value: unknown): void;
  /** The workspace memory, built on first use (with the offline semantic scorer where the command wants recall). */
  memory(): WorkspaceMemory;
  /** Team memory (settings.json, FAILURE_MEMORY_DATABASE_URL, PG*): the instance, or why there is none. */
  team(): { team?: TeamMemory; reason: string };
  /** --cwd as a workspace-relative folder (an absolute one inside the workspace is made relative). */
  cwd: string | undefined;
  /** Plain arguments after the subcommand's name (see Command.args). */
  args: string[];
  /** A string option's value, or undefined. */
  str(name: string): string | undefined;
  /** A required string option's value: a UsageError when it is missing or blank. */
  required(name: string): string;
  /** A boolean option. */
  flag(name: string): boolean;
  /** An integer option within [min, max]. */
  int(name: string, min: number, max: number): number | undefined;
  onWarning(message: string): void;
}

export interface Command {
  name: string;
  /** The usage line, without the program name: `check --command CMD [--cwd DIR]`. */
  usage: string;
  summary: string;
  /** Options of this subcommand (the global ones are added by main). */
  options?: Record<string, OptionSpec>;
  /** Recall-type commands get the offline semantic scorer unless --lexical. */
  semantic?: boolean;
  /**
   * A command that serves many requests in one process (mcp) keeps the parsed memory between them
   * (MemoryStore's cache); the others read once and exit, so they skip it (no freeze, no copy).
   */
  longLived?: boolean;
  /**
   * Its standard output is data written as is (export's JSON, the hook and MCP protocols, redact's
   * filtered text). Every other command's output, and every standard error, reaches a person or an
   * agent without invisible characters (core/text/hidden.ts).
   */
  raw?: boolean;
  /**
   * A command that records one run and exits (`record`) appends it to the journal beside memory.json,
   * as a hook does, instead of rewriting the whole memory: the next full write folds it in.
   */
  journal?: boolean;
  /** How many plain arguments follow the subcommand's name (`hook <harness> <event>`: 2). Default 0. */
  args?: number;
  run(ctx: Context): Promise<number>;
}
