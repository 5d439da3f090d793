// A reflection laid out as plain blocks of text: core builds it once, and it is rendered twice —
// as Markdown (CLI, export) and as DOM text in the read-only reflection view (webview). No block
// carries markup: every string is shown as text, so terminal output can never become a link.

export interface Span {
  text: string;
  /** Shown in a monospace font (commands, error lines, test names). */
  code?: boolean;
  strong?: boolean;
}

export type Line = Span[];

export type Block =
  | { kind: 'heading'; level: 2 | 3; line: Line }
  | { kind: 'paragraph'; line: Line }
  | { kind: 'warning'; line: Line }
  | { kind: 'list'; ordered: boolean; items: Line[] }
  | { kind: 'attempt'; outcome: 'success' | 'failure' | 'interrupted' | 'unknown'; title: Line; details: Line[] };

export interface ReflectionDoc {
  /** The approach's label (the title reads "Reflection: <label>"). */
  label: string;
  /** One-line summary under the title. */
  summary: string;
  blocks: Block[];
}

const MAX_BLOCKS = 400;
const MAX_TEXT = 20_000;

const isSpan = (v: unknown): v is Span =>
  typeof v === 'object' && v !== null && typeof (v as Span).text === 'string' && (v as Span).text.length <= MAX_TEXT;
const isLine = (v: unknown): v is Line => Array.isArray(v) && v.length <= 100 && v.every(isSpan);
const isLines = (v: unknown): v is Line[] => Array.isArray(v) && v.length <= 200 && v.every(isLine);

function isBlock(v: unknown): v is Block {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  switch (b.kind) {
    case 'heading':
      return (b.level === 2 || b.level === 3) && isLine(b.line);
    case 'paragraph':
    case 'warning':
      return isLine(b.line);
    case 'list':
      return typeof b.ordered === 'boolean' && isLines(b.items);
    case 'attempt':
      return ['success', 'failure', 'interrupted', 'unknown'].includes(b.outcome as string) && isLine(b.title) && isLines(b.details);
    default:
      return false;
  }
}

/** Validates a document received over the webview boundary. */
export function isReflectionDoc(v: unknown): v is ReflectionDoc {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d.label === 'string' && typeof d.summary === 'string' && Array.isArray(d.blocks) && d.blocks.length <= MAX_BLOCKS && d.blocks.every(isBlock);
}

/** The plain text of a line (for accessibility labels and tests). */
export const lineText = (l: Line): string => l.map(s => s.text).join('');
