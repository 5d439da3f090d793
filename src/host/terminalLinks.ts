// Marks terminal lines that match a known failing signature: "seen 4 times — reflect".

import * as vscode from 'vscode';
import { normalizeErrorLine, stripAnsi } from '../core/signature';
import { Commands, type ApproachRef } from './guard';
import type { MemoryRegistry } from './registry';

interface FailureLink extends vscode.TerminalLink {
  ref: ApproachRef;
}

export class FailureLinkProvider implements vscode.TerminalLinkProvider<FailureLink> {
  constructor(private readonly registry: MemoryRegistry) {}

  provideTerminalLinks(context: vscode.TerminalLinkContext): FailureLink[] {
    const raw = stripAnsi(context.line);
    const line = raw.trim();
    if (line.length < 8 || line.length > 2000) return [];
    const norm = normalizeErrorLine(line);
    if (norm.length < 8) return [];
    for (const f of this.registry.all()) {
      for (const a of Object.values(f.data.approaches)) {
        if (a.failures === 0 || !a.lastErrorSignature) continue;
        const parts = a.lastErrorSignature.split(' | ');
        if (!parts.some(p => p === norm || (p.length >= 12 && norm.includes(p)) || (norm.length >= 12 && p.includes(norm)))) continue;
        const start = context.line.indexOf(line);
        return [{
          startIndex: Math.max(0, start),
          length: line.length,
          tooltip: `Failure Memory: seen ${a.failures} time${a.failures === 1 ? '' : 's'} (${a.label}) — reflect`,
          ref: { folder: f.folder.uri.toString(), key: a.key },
        }];
      }
    }
    return [];
  }

  handleTerminalLink(link: FailureLink): void {
    void vscode.commands.executeCommand(Commands.Reflect, link.ref);
  }
}
