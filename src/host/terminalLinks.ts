// Marks terminal lines that match a known failing signature: "seen 4 times — reflect".

import * as vscode from 'vscode';
import { matchKnownFailure } from '../core/links';
import { Commands, type ApproachRef } from './guard';
import type { MemoryRegistry } from './registry';

interface FailureLink extends vscode.TerminalLink {
  ref: ApproachRef;
}

export class FailureLinkProvider implements vscode.TerminalLinkProvider<FailureLink> {
  constructor(private readonly registry: MemoryRegistry) {}

  provideTerminalLinks(context: vscode.TerminalLinkContext): FailureLink[] {
    for (const f of this.registry.all()) {
      const m = matchKnownFailure(context.line, Object.values(f.data.approaches));
      if (!m) continue;
      const n = m.approach.failures;
      return [{
        startIndex: m.start,
        length: m.length,
        tooltip: `Failure Memory: seen ${n} time${n === 1 ? '' : 's'} (${m.approach.label}) — reflect`,
        ref: { folder: f.folder.uri.toString(), key: m.approach.key },
      }];
    }
    return [];
  }

  handleTerminalLink(link: FailureLink): void {
    void vscode.commands.executeCommand(Commands.Reflect, link.ref);
  }
}
