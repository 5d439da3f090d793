// Logging behind a small interface: the "Failure Memory" LogOutputChannel, tagged by component.
// For end-to-end tests, FAILURE_MEMORY_E2E_LOG=<file> also appends each decision as a JSON line.

import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { redact } from '../core/text/redact';
import { logText } from '../core/text/untrusted';

export interface Logger {
  trace(component: string, message: string): void;
  debug(component: string, message: string): void;
  info(component: string, message: string): void;
  warn(component: string, message: string): void;
  error(component: string, message: string, err?: unknown): void;
  /** A decision worth a machine-readable trace (recorded, blocked, warned…). */
  event(name: string, data?: Record<string, unknown>): void;
  show(): void;
}

export function createLogger(channel: vscode.LogOutputChannel, eventFile = process.env.FAILURE_MEMORY_E2E_LOG): Logger {
  // every line may carry a command line or output: redacted and defused here, whatever the caller passed
  const tag = (c: string, m: string) => logText(`[${c}] ${m}`);
  return {
    trace: (c, m) => channel.trace(tag(c, m)),
    debug: (c, m) => channel.debug(tag(c, m)),
    info: (c, m) => channel.info(tag(c, m)),
    warn: (c, m) => channel.warn(tag(c, m)),
    error: (c, m, err) => channel.error(tag(c, err ? `${m}: ${err instanceof Error ? err.message : String(err)}` : m)),
    event(name, data = {}) {
      channel.debug(tag('event', `${name} ${JSON.stringify(data)}`));
      if (!eventFile) return;
      try {
        appendFileSync(eventFile, `${redact(JSON.stringify({ t: new Date().toISOString(), event: name, ...data }))}\n`);
      } catch {
        // test-only sink: never disturb the user
      }
    },
    show: () => channel.show(true),
  };
}
