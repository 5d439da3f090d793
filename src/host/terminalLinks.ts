// Marks terminal lines that match a known failing signature ("this error came 3 times — reflect"),
// and the `^C` of a run the guard stopped ("stopped by Failure Memory: …"). Tooltips are plain
// text built from our own words; memory text in them is neutralised.

import * as vscode from 'vscode';
import { matchKnownFailure } from '../core/text/links';
import { plainText } from '../core/text/plainText';
import { CommandId, type ApproachRef } from './commandIds';
import type { StopNote } from './guard';
import type { MemoryRegistry } from './registry';

interface FailureLink extends vscode.TerminalLink {
  ref: ApproachRef;
}

/** How long after a stop its `^C` line is explained. */
const STOP_NOTE_MS = 30 * 60 * 1000;

export class FailureLinkProvider implements vscode.TerminalLinkProvider<FailureLink> {
  constructor(
    private readonly registry: MemoryRegistry,
    private readonly stops: { get(t: vscode.Terminal): StopNote | undefined },
  ) {}

  provideTerminalLinks(context: vscode.TerminalLinkContext): FailureLink[] {
    const stop = this.stops.get(context.terminal);
    const caret = context.line.indexOf('^C');
    if (stop && caret >= 0 && Date.now() - stop.at < STOP_NOTE_MS) {
      return [
        {
          startIndex: caret,
          length: 2,
          tooltip: vscode.l10n.t('Stopped by Failure Memory: “{0}” failed {1} times in a row. Click to reflect.', plainText(stop.label, 80), stop.failures),
          ref: stop.ref,
        },
      ];
    }
    for (const f of this.registry.all()) {
      const m = matchKnownFailure(context.line, Object.values(f.data.approaches));
      if (!m) continue;
      const label = plainText(m.approach.label, 80);
      return [
        {
          startIndex: m.start,
          length: m.length,
          tooltip:
            m.count === 1
              ? vscode.l10n.t('Failure Memory: this error came once in “{0}”. Click to reflect.', label)
              : vscode.l10n.t('Failure Memory: this error came {0} times in “{1}”. Click to reflect.', m.count, label),
          ref: { folder: f.folder.uri.toString(), key: m.approach.key },
        },
      ];
    }
    return [];
  }

  handleTerminalLink(link: FailureLink): void {
    void vscode.commands.executeCommand(CommandId.Reflect, link.ref);
  }
}
