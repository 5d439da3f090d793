// What the memory panel's webview may send to the extension host: one zod schema per message kind,
// the source of both the WebviewMessage type and its validation. The host treats every message as
// untrusted (the webview renders terminal output); the webview itself does not check what it sends.
// Only the host imports this file, so full zod stays out of the webview bundle (which carries only
// zod/mini, for the host messages): the webview sees the type, through protocol.ts's type-only export.
import * as z from 'zod';
import { FORBIDDEN_KEYS, isPlainObject, LEARNING_TYPES, LIMITS } from './protocol';
import { CONTROL_IN_TEXT_RE, CONTROL_RE } from '../core/text/controls';

const ID_RE = /^[A-Za-z0-9_-]+$/;
const URI_RE = /^[a-z][a-z0-9+.-]*:/i;

/** A folder URI, an approach key or a learning id: one line, not empty, bounded, never a reserved name. */
function name(field: string, kind: 'folder' | 'key' | 'id') {
  let s = z
    .string({ error: `${field} must be a string` })
    .min(1, { error: `${field} is empty` })
    .max(LIMITS[kind], { error: `${field} is longer than ${LIMITS[kind]} characters` })
    .refine(v => !CONTROL_RE.test(v), { error: `${field} holds control characters` })
    .refine(v => !FORBIDDEN_KEYS.has(v), { error: `${field} is a reserved name` });
  if (kind === 'id') s = s.regex(ID_RE, { error: `${field} has characters an id never has` });
  if (kind === 'folder') s = s.regex(URI_RE, { error: `${field} is not a URI` });
  return s;
}

/** Text a person typed: tabs and line breaks allowed, other control characters not; `required`: not blank. */
function text(field: string, max: number, required: boolean) {
  const s = z
    .string({ error: `${field} must be a string` })
    .max(max, { error: `${field} is longer than ${max} characters` })
    .refine(v => !CONTROL_IN_TEXT_RE.test(v), { error: `${field} holds control characters` });
  return required ? s.refine(v => v.trim() !== '', { error: `${field} is empty` }) : s;
}

const learningType = z.enum(LEARNING_TYPES, { error: `learningType must be one of ${LEARNING_TYPES.join(', ')}` });
const target = { folder: name('folder', 'folder'), key: name('key', 'key') };

const SCHEMAS = {
  ready: z.strictObject({ type: z.literal('ready') }),
  resolve: z.strictObject({ type: z.literal('resolve'), ...target }),
  runAnywayOnce: z.strictObject({ type: z.literal('runAnywayOnce'), ...target }),
  reflect: z.strictObject({ type: z.literal('reflect'), ...target }),
  copyCommand: z.strictObject({ type: z.literal('copyCommand'), ...target }),
  copyBrief: z.strictObject({ type: z.literal('copyBrief'), ...target }),
  search: z.strictObject({ type: z.literal('search'), query: text('query', LIMITS.query, false) }),
  addLearning: z.strictObject({
    type: z.literal('addLearning'),
    folder: name('folder', 'folder'),
    learningType,
    text: text('text', LIMITS.learningText, true),
    key: name('key', 'key').optional(),
  }),
  updateLearning: z
    .strictObject({
      type: z.literal('updateLearning'),
      folder: name('folder', 'folder'),
      id: name('id', 'id'),
      learningType: learningType.optional(),
      text: text('text', LIMITS.learningText, true).optional(),
    })
    .refine(m => m.learningType !== undefined || m.text !== undefined, { error: 'updateLearning changes nothing' }),
  deleteLearning: z.strictObject({ type: z.literal('deleteLearning'), folder: name('folder', 'folder'), id: name('id', 'id') }),
  openLog: z.strictObject({ type: z.literal('openLog') }),
  downloadModel: z.strictObject({ type: z.literal('downloadModel') }),
};

export type WebviewMessageType = keyof typeof SCHEMAS;
export type WebviewMessage = { [K in WebviewMessageType]: z.output<(typeof SCHEMAS)[K]> }[WebviewMessageType];
export const WEBVIEW_MESSAGE_TYPES = Object.keys(SCHEMAS) as readonly WebviewMessageType[];

export type Validation = { ok: true; message: WebviewMessage } | { ok: false; reason: string };

/** The first problem zod found, as one sentence (an unknown field is named). */
function reasonOf(error: z.ZodError, type: string): string {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') return `unexpected field ${JSON.stringify(issue.keys[0]?.slice(0, 40))} in ${type}`;
  return issue?.message ?? 'malformed message';
}

/**
 * Checks a message from the webview and returns a fresh copy holding only the known fields.
 * Rejects what is not plain data (class instances, other prototypes, reserved keys), too many
 * fields, unknown kinds, then whatever the kind's schema refuses: unknown fields, wrong types,
 * over-long or control-character strings, enum values out of range. Whether the named folder,
 * approach or learning exists is the host's check: this function only knows the message.
 */
export function validateWebviewMessage(v: unknown): Validation {
  const fail = (reason: string): Validation => ({ ok: false, reason });
  if (!isPlainObject(v)) return fail('not a plain object');
  if (Object.keys(v).length > LIMITS.fields) return fail('too many fields');
  const type = v.type;
  if (typeof type !== 'string' || !Object.hasOwn(SCHEMAS, type)) return fail(`unknown message type ${JSON.stringify(String(type).slice(0, 40))}`);
  const parsed = SCHEMAS[type as WebviewMessageType].safeParse(v);
  return parsed.success ? { ok: true, message: parsed.data } : fail(reasonOf(parsed.error, type));
}

export function isWebviewMessage(v: unknown): v is WebviewMessage {
  return validateWebviewMessage(v).ok;
}
