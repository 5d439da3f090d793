// A reflection laid out as plain blocks of text: core builds it once, and it is rendered twice —
// as Markdown (CLI, export) and as DOM text in the read-only reflection view (webview). No block
// carries markup: every string is shown as text, so terminal output can never become a link.

import * as z from 'zod/mini';

// jitless: the reflection view's CSP forbids eval and new Function (as the panel's: ./protocol.ts)
z.config({ jitless: true });

const MAX_BLOCKS = 400;
const MAX_TEXT = 20_000;

const spanSchema = z.object({
  text: z.string().check(z.maxLength(MAX_TEXT)),
  /** Shown in a monospace font (commands, error lines, test names). */
  code: z.optional(z.boolean()),
  strong: z.optional(z.boolean()),
});

const lineSchema = z.array(spanSchema).check(z.maxLength(100));
export type Line = z.infer<typeof lineSchema>;
const linesSchema = z.array(lineSchema).check(z.maxLength(200));

const blockSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('heading'), level: z.literal([2, 3]), line: lineSchema }),
  z.object({ kind: z.literal('paragraph'), line: lineSchema }),
  z.object({ kind: z.literal('warning'), line: lineSchema }),
  z.object({ kind: z.literal('list'), ordered: z.boolean(), items: linesSchema }),
  z.object({ kind: z.literal('attempt'), outcome: z.enum(['success', 'failure', 'interrupted', 'unknown']), title: lineSchema, details: linesSchema }),
]);
export type Block = z.infer<typeof blockSchema>;

const reflectionDocSchema = z.object({
  /** The approach's label (the title reads "Reflection: <label>"). */
  label: z.string(),
  /** One-line summary under the title. */
  summary: z.string(),
  blocks: z.array(blockSchema).check(z.maxLength(MAX_BLOCKS)),
});
export type ReflectionDoc = z.infer<typeof reflectionDocSchema>;

/** Validates a document received over the webview boundary. */
export const isReflectionDoc = (v: unknown): v is ReflectionDoc => reflectionDocSchema.safeParse(v).success;

/** The plain text of a line (for accessibility labels and tests). */
export const lineText = (l: Line): string => l.map(s => s.text).join('');
