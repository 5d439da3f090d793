// failure-memory: the command-line front door to a workspace's failure memory.
// Used by people, by shell hooks and by AI agents. Same engine and store as the extension.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isLearningType, LEARNING_TYPES } from './core/learnings';
import { describeApproach, explainBlock, summarize, type RecordResult } from './core/memory';
import { RedactionPatternError } from './core/redact';
import { reflectionToMarkdown } from './core/reflection';
import type { AttemptSource, EngineSettings } from './core/types';
import { createOfflineScorer } from './embeddings';
import { memoryDirFor, StoreError } from './store/memoryStore';
import { WorkspaceMemory } from './store/workspaceMemory';
import { readWorkspaceSettings } from './store/workspaceSettings';

const VERSION = '0.1.0';

const USAGE = `failure-memory ${VERSION} — remembers failing commands so you (or your agent) stop repeating them

Usage: failure-memory <command> [options]

Commands:
  record --command CMD --exit-code N [--cwd REL] [--source S]   record a finished command; output on stdin
  check --command CMD [--cwd REL]        clear | failing | exhausted; exit 2 when exhausted (the gate)
  recall --query TEXT [--k 5] [--lexical]  similar past failures, best first (--lexical: words only)
  reflect [--command CMD] [--cwd REL]    a reflection on the latest (or given) failing approach
  redact                                 stdin to stdout with secrets replaced
  resolve --command CMD [--cwd REL]      mark an approach resolved (unblocks it)
  allow --command CMD [--cwd REL]        let the next run of an exhausted approach through, once
  learn --type TYPE --text TEXT          add a learning (${LEARNING_TYPES.join(', ')})
  list                                   approaches by state
  export                                 the whole memory as JSON
  clear --yes                            forget everything in this workspace
  mcp                                    serve check/record/recall/add_learning to AI agents over stdio (MCP)

Options (all commands):
  --workspace DIR   workspace folder (default: current folder)
  --json            machine output on stdout: one JSON value
  --threshold N     failures before an approach is exhausted (default: workspace setting or 5)
  -h, --help        this help
`;

class UsageError extends Error {}

interface Args {
  command: string;
  flags: Map<string, string | true>;
}

const BOOLEAN_FLAGS = new Set(['json', 'help', 'yes', 'no-stdin', 'lexical']);

export function parseArgs(argv: string[]): Args {
  const flags = new Map<string, string | true>();
  let command = '';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h') {
      flags.set('help', true);
    } else if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (BOOLEAN_FLAGS.has(name)) flags.set(name, true);
      else {
        const v = argv[i + 1];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, v);
        i++;
      }
    } else if (!command) {
      command = a;
    } else {
      throw new UsageError(`unexpected argument: ${a}`);
    }
  }
  return { command, flags };
}

function str(args: Args, name: string, required: true): string;
function str(args: Args, name: string, required?: false): string | undefined;
function str(args: Args, name: string, required = false): string | undefined {
  const v = args.flags.get(name);
  if (v === undefined || v === true) {
    if (required) throw new UsageError(`${args.command} needs --${name}`);
    return undefined;
  }
  return v;
}

function int(args: Args, name: string, required = false): number | undefined {
  const v = str(args, name, required as false);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw new UsageError(`--${name} must be an integer, got "${v}"`);
  return Number(v);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const MAX = 64 * 1024 * 1024;
  for await (const c of process.stdin) {
    const b = c as Buffer;
    if (size < MAX) chunks.push(size + b.length > MAX ? b.subarray(0, MAX - size) : b);
    size += b.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

export async function main(argv: string[], io: Io = { out: s => process.stdout.write(s), err: s => process.stderr.write(s) }): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.err(`failure-memory: ${(e as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (args.flags.has('help') || !args.command || args.command === 'help') {
    (args.command || args.flags.has('help') ? io.out : io.err)(USAGE);
    return args.command || args.flags.has('help') ? 0 : 1;
  }
  if (args.command === 'version' || args.command === '--version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const json = args.flags.has('json');
  const print = (human: string, value: unknown) => io.out(json ? `${JSON.stringify(value, null, 2)}\n` : human.endsWith('\n') ? human : `${human}\n`);
  try {
    const workspace = resolve(str(args, 'workspace') ?? process.cwd());
    const settings: Partial<EngineSettings> = readWorkspaceSettings(workspace);
    const threshold = int(args, 'threshold');
    if (threshold !== undefined) {
      if (threshold < 1) throw new UsageError('--threshold must be at least 1');
      settings.threshold = threshold;
    }
    const onWarning = (m: string) => io.err(`failure-memory: warning: ${m}\n`);
    // recall (and reflect, which recalls similar failures) use the offline semantic scorer: no model,
    // vectors cached beside memory.json; never replacing vectors of the extension's transformer
    const semantic = (args.command === 'recall' || args.command === 'reflect') && !args.flags.has('lexical');
    const scorer = semantic ? createOfflineScorer({ memoryDir: memoryDirFor(workspace), claim: false, onWarning }) : undefined;
    const memory = new WorkspaceMemory(workspace, { settings, onWarning, scorer });
    // --cwd is relative to the workspace; an absolute one inside it is made relative
    const cwdArg = str(args, 'cwd');
    const cwd = cwdArg !== undefined && isAbsolute(cwdArg) ? toWorkspaceRelative(workspace, cwdArg) : cwdArg;

    switch (args.command) {
      case 'record': {
        const command = str(args, 'command', true);
        const exitRaw = str(args, 'exit-code', true);
        const exitCode = exitRaw === 'unknown' ? null : int(args, 'exit-code', true)!;
        const source = (str(args, 'source') ?? 'cli') as AttemptSource;
        if (!['terminal', 'task', 'cli', 'agent'].includes(source)) throw new UsageError('--source must be terminal, task, cli or agent');
        const output = args.flags.has('no-stdin') ? '' : await readStdin();
        const r = await memory.record({ command, cwd, exitCode, source, output });
        print(describeRecord(r), recordJson(r, memory.settings.threshold));
        return 0;
      }
      case 'check': {
        const c = await memory.check(str(args, 'command', true), cwd);
        if (json) print('', { status: c.status, verdict: c.verdict, attempts: c.attempts, threshold: c.threshold, key: c.key, label: c.label, lastError: c.lastError, alternatives: c.alternatives, progress: c.progress, patterns: c.patterns.map(p => p.kind), allowOnce: c.allowOnce, reason: c.reason });
        else if (c.status === 'clear') io.out(`clear: ${c.label} has not failed here (${c.reason}).\n`);
        else if (c.verdict !== 'block') io.out(`${c.status}: ${c.label} — ${c.reason}${c.lastError ? `\nlast error: ${c.lastError}` : ''}\n`);
        if (c.verdict === 'block') {
          io.err(`${explainBlock(c)}\n`);
          return 2;
        }
        if (c.status === 'exhausted') io.err(`failure-memory: ${c.reason}\n`);
        return 0;
      }
      case 'recall': {
        const query = str(args, 'query', true);
        const k = int(args, 'k') ?? 5;
        if (k < 1 || k > 100) throw new UsageError('--k must be between 1 and 100');
        const hits = await memory.recall(query, k);
        const human = hits.length
          ? hits.map((h, i) => `${i + 1}. [${h.score.toFixed(2)}] ${h.label} (${h.status})${h.errorSignature ? `\n   ${h.errorSignature}` : ''}${h.lesson ? `\n   lesson: ${h.lesson}` : ''}`).join('\n')
          : 'No similar failure in memory.';
        print(human, hits.map(h => ({ command: h.command, key: h.key, errorSignature: h.errorSignature, score: h.score, status: h.status, ...(h.lesson ? { lesson: h.lesson } : {}) })));
        return 0;
      }
      case 'reflect': {
        const command = str(args, 'command');
        const r = await memory.reflect(command, cwd);
        if (!r) {
          if (json) print('', null);
          else io.out(command ? `No memory of \`${command}\` failing here.\n` : 'Nothing to reflect on: no failing approach in memory.\n');
          return command ? 1 : 0;
        }
        print(reflectionToMarkdown(r), r);
        return 0;
      }
      case 'redact': {
        io.out(memory.redact(await readStdin()));
        return 0;
      }
      case 'resolve':
      case 'allow': {
        const command = str(args, 'command', true);
        const found = await memory.find(command, cwd);
        if (!found) {
          io.err(`failure-memory: no memory of \`${command}\`${cwd ? ` in ${cwd}` : ''}\n`);
          return 1;
        }
        const a = args.command === 'resolve' ? await memory.resolve(found.key) : await memory.allowOnce(found.key);
        print(args.command === 'resolve' ? `resolved: ${describeApproach(a!)}` : `allowed once: the next run of ${describeApproach(a!)} goes through`, { key: a!.key, status: a!.status, allowOnce: !!a!.allowOnce });
        return 0;
      }
      case 'learn': {
        const type = str(args, 'type', true);
        if (!isLearningType(type)) throw new UsageError(`--type must be one of ${LEARNING_TYPES.join(', ')}`);
        const command = str(args, 'command');
        const key = command ? (await memory.find(command, cwd))?.key : undefined;
        const l = await memory.addLearning(type, str(args, 'text', true), { key, source: 'user' });
        print(`learned (${l.type}): ${l.text}`, l);
        return 0;
      }
      case 'list': {
        const data = await memory.read();
        const s = summarize(data);
        const line = (a: (typeof s.exhausted)[number]) => `  ${describeApproach(a)} — ${a.failures} failure(s)${a.lastErrorSignature ? `: ${a.lastErrorSignature}` : ''}`;
        const human = [
          `Exhausted (${s.exhausted.length}):`, ...s.exhausted.map(line),
          `Failing (${s.failing.length}):`, ...s.failing.map(line),
          `Resolved (${s.resolved.length}):`, ...s.resolved.map(a => `  ${describeApproach(a)}`),
          `Learnings: ${data.learnings.length} · Reflections: ${data.reflections.length}`,
        ].join('\n');
        print(human, {
          exhausted: s.exhausted.map(listJson),
          failing: s.failing.map(listJson),
          resolved: s.resolved.map(listJson),
          learnings: data.learnings.length,
          reflections: data.reflections.length,
        });
        return 0;
      }
      case 'export': {
        io.out(`${JSON.stringify(await memory.read(), null, 2)}\n`);
        return 0;
      }
      case 'clear': {
        if (!args.flags.has('yes')) throw new UsageError('clear forgets everything in this workspace: pass --yes to confirm');
        await memory.clear();
        print('Workspace memory cleared.', { cleared: true });
        return 0;
      }
      case 'mcp': {
        // loaded only here: the MCP SDK is not needed by the hooks' quick check/record calls
        const { serveMcp } = await import('./agents/mcpServer.js');
        await serveMcp({ workspace, memory, version: VERSION, log: (m: string) => io.err(m) });
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${args.command}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`failure-memory: ${e.message}\nRun \`failure-memory --help\` for usage.\n`);
      return 1;
    }
    if (e instanceof StoreError || e instanceof RedactionPatternError) {
      io.err(`failure-memory: ${e.message}\n`);
      return 1;
    }
    io.err(`failure-memory: unexpected error: ${(e as Error)?.stack ?? e}\n`);
    return 1;
  }
}

/** An absolute cwd inside the workspace as a relative folder ('.' for the root); outside it stays absolute. */
export function toWorkspaceRelative(workspace: string, cwd: string): string {
  const rel = relative(workspace, resolve(cwd));
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return resolve(cwd);
  return rel.split(sep).join('/');
}

function listJson(a: ReturnType<typeof summarize>['exhausted'][number]) {
  return { key: a.key, label: a.label, command: a.command, cwd: a.cwd, status: a.status, attempts: a.failures, lastError: a.lastErrorSignature, alternatives: a.alternativesTried };
}

function recordJson(r: RecordResult, threshold: number) {
  const t = r.attempt;
  return {
    id: t.id,
    command: t.command,
    key: t.key,
    cwd: t.cwd,
    exitCode: t.exitCode,
    outcome: t.outcome,
    source: t.source,
    errorSignature: t.errorSignature,
    testResults: t.testResults,
    output: t.output,
    outputTruncated: t.outputTruncated,
    status: r.approach.status,
    attempts: r.approach.failures,
    threshold,
    patterns: r.patterns.map(p => p.kind),
    progress: r.progress,
    becameExhausted: r.becameExhausted,
    resolved: r.resolved,
    stored: r.stored,
    reason: r.reason,
  };
}

function describeRecord(r: RecordResult): string {
  const t = r.attempt;
  const lines = [`recorded: ${t.command} → ${t.outcome}${t.exitCode !== null ? ` (exit ${t.exitCode})` : ''}`, `approach: ${describeApproach(r.approach)} — ${r.approach.status}, ${r.reason}`];
  if (t.errorSignature) lines.push(`error: ${t.errorSignature}`);
  if (t.testResults) lines.push(`tests: ${t.testResults.passed}/${t.testResults.total} passed (${t.testResults.framework})`);
  for (const p of r.patterns) lines.push(`warning: ${p.message}`);
  return lines.join('\n');
}

// Run when executed (not when imported by tests).
if (require.main === module) {
  main(process.argv.slice(2)).then(
    code => {
      process.exitCode = code;
    },
    e => {
      process.stderr.write(`failure-memory: ${e}\n`);
      process.exitCode = 1;
    },
  );
}
