// What a hook answer also tells the user, whatever it decided: a file it skipped (a FIFO where memory
// lives), a gate state it restored (./gateGuard.ts). Said where that harness's user sees it: inside
// a deny or ask reason, after a context, and in the harness's visible channel (adapter.notice:
// Claude Code's systemMessage, stderr elsewhere) merged into the answer's own JSON.

import { harnessText } from '../../core/prompts/agentText';
import { takeSkipped } from '../../store/regularFile';
import type { HarnessAdapter, HookAnswer, HookEvent, HookReply, Json } from './types';

const notes: string[] = [];

/** Adds a sentence to the next answer of this process (once each). */
export function noteForUser(message: string): void {
  if (!notes.includes(message)) notes.push(message);
}

/** The sentences for this answer (files skipped since the last answer included), and forgets them. */
function takeNotes(): string[] {
  for (const s of takeSkipped()) noteForUser(`${s.path} is ${s.kind}, not a file: Failure Memory skipped it (it never opens one, which could make every hook wait). Something other than Failure Memory put it there.`);
  return notes.splice(0);
}

/** The answer with the notes in its own text (the agent reads them too). */
function withText(a: HookAnswer, text: string): HookAnswer {
  switch (a.kind) {
    case 'deny':
    case 'ask':
      return { ...a, reason: `${a.reason}\n\n${text}` };
    case 'context':
      return { ...a, text: `${a.text}\n\n${text}` };
    default:
      return a;
  }
}

/** The reply for `a`, with this process's notes for the user in it (see the file comment). */
export function replyWithNotes(a: HookAnswer, ev: HookEvent, adapter: HarnessAdapter, payload: Json, reply: (a: HookAnswer) => HookReply): HookReply {
  const pending = takeNotes();
  if (!pending.length) return reply(a);
  const text = harnessText(`Failure Memory: ${pending.join(' ')}`);
  const notice = adapter.notice(ev, text, payload);
  if (a.kind === 'allow' || a.kind === 'none') return notice;
  const answered = reply(withText(a, text));
  // the reason or the context carries the notes where the answer is not JSON (stderr and an exit code)
  if (!answered.stdout) return answered;
  // both JSON objects: the answer's fields, and the notice's visible one (systemMessage) beside them
  const merged = mergeJson(notice.stdout, answered.stdout);
  return { ...answered, stdout: merged ?? answered.stdout, stderr: answered.stderr || notice.stderr };
}

function mergeJson(notice: string, answer: string): string | undefined {
  try {
    const n: unknown = JSON.parse(notice || '{}');
    const a: unknown = JSON.parse(answer);
    if (!isObject(n) || !isObject(a)) return undefined;
    return `${JSON.stringify({ ...n, ...a })}\n`;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
