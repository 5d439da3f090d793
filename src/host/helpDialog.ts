// The guard's help dialog: when an exhausted approach is run again (stopped, not started, or warned),
// what failed, why it was stopped and what to do, with the user's choices (reflect, show, run once,
// resolve, copy as a prompt). Every text from memory is made plain before it is shown.

import * as vscode from 'vscode';
import type { HelpFacts, StopResult } from '../core/rules/guardVerdict';
import { plainText } from '../core/text/plainText';
import { CommandId, type ApproachRef } from './commandIds';
import type { Logger } from './logger';

/** The help dialog's title: what stopped the run (a cause shared with other commands, or the approach's own failures) and whether it stopped. */
function helpTitle(facts: HelpFacts, stop: StopResult | undefined, label: string): string {
  const t = vscode.l10n.t;
  if (facts.cause?.stops) {
    const headline = plainText(facts.cause.headline, 120);
    if (stop?.kind === 'notStarted') return t('Failure Memory did not run “{0}”: {1}', label, headline);
    return stop?.kind === 'stopped' ? t('Failure Memory stopped “{0}”: {1}', label, headline) : t('“{0}”: {1}', label, headline);
  }
  if (!stop) return t('“{0}” has failed too often', label);
  if (stop.kind === 'notStarted') return t('Failure Memory did not run “{0}”', label);
  if (stop.kind === 'stopped') return t('Failure Memory stopped “{0}”', label);
  return stop.kind === 'stillRunning' ? t('Failure Memory could not stop “{0}”', label) : t('“{0}” ended before Failure Memory could stop it', label);
}

/** The help dialog (modal: it steps in only when an exhausted approach is run again), and what the user picks done. */
export async function showHelpDialog(
  log: Logger,
  facts: HelpFacts,
  ref: ApproachRef,
  stop: StopResult | undefined,
  rerun: (() => void) | undefined,
  seen: { label: string; lesson: string } | undefined,
): Promise<void> {
  const t = vscode.l10n.t;
  const label = plainText(facts.label, 120);
  const title = helpTitle(facts, stop, label);
  const lines: string[] = [];
  // one cause failing several commands: what it is, what it broke, what fixed it before
  if (facts.cause) lines.push(...causeLines(facts.cause));
  // team memory: what the team saw (other machines, agents, CI), in the team's own words
  if (facts.team) lines.push(t('In the team it {0}.', plainText(facts.team.summary, 400)));
  lines.push(
    facts.cause?.stops
      ? facts.failures === 1
        ? t('Here it failed once with it.')
        : t('Here it failed {0} times with it.', facts.failures)
      : facts.team?.teamOnly
      ? t('Here it failed {0} times.', facts.failures)
      : facts.cwd !== '.'
      ? t('It failed {0} times in a row in {1} (the limit is {2}).', facts.failures, plainText(facts.cwd, 120), facts.threshold)
      : t('It failed {0} times in a row (the limit is {1}).', facts.failures, facts.threshold),
  );
  if (stop?.kind === 'notStarted') lines.push(t('It did not start: the line was not run (Up in the terminal brings it back).'));
  if (stop?.kind === 'stopped' && stop.afterMs !== undefined) lines.push(t('It was stopped {0} ms after it started.', stop.afterMs));
  if (stop?.kind === 'stillRunning') lines.push(t('It is still running: press Ctrl+C in the terminal to stop it.'));
  if (stop?.kind === 'endedFirst') lines.push(stop.exitCode === undefined ? t('It ended on its own; its result is recorded.') : t('It ended on its own with exit code {0}; its result is recorded.', stop.exitCode));
  // the failing tests by name: what to open first
  if (facts.failingTests.length) {
    const names = facts.failingTests.slice(0, 3).map(n => plainText(n, 120));
    const more = facts.failingTests.length - names.length;
    lines.push(
      facts.failingTests.length === 1 ? t('Failing test: {0}', names[0]) : more > 0 ? t('Failing tests: {0} and {1} more', names.join(' · '), more) : t('Failing tests: {0}', names.join(' · ')),
    );
  }
  lines.push(facts.lastErrorLine ? t('Last error: {0}', plainText(facts.lastErrorLine, 400)) : t('No error output was captured.'));
  if (facts.lastErrorCame) lines.push(t('The same error {0}.', facts.lastErrorCame));
  if (facts.variants.length) lines.push(t('Also run as: {0}', facts.variants.map(v => plainText(v, 120)).join(' · ')));
  // the cause's own line names the commands it broke already
  if (facts.alternatives.length && !facts.cause?.stops) lines.push(t('Other approaches tried: {0}', facts.alternatives.map(v => plainText(v, 120)).join(' · ')));
  if (seen) lines.push(t('A similar failure was fixed before ({0}): {1}', plainText(seen.label, 120), plainText(seen.lesson, 400)));
  for (const h of facts.history) lines.push(plainText(h, 400));
  lines.push(
    '',
    facts.cause?.stops
      ? t('Another command that needs the same thing fails the same way: {0}. A success of any command that needs it lifts this stop.', plainText(facts.cause.remedy, 120))
      : t('Running it again unchanged will fail the same way: change the code, the configuration or the command first.'),
  );
  const items: Array<vscode.MessageItem & { id: string }> = [
    { title: t('Reflect on Failures'), id: 'reflect' },
    { title: t('Show Memory'), id: 'show' },
    ...(stop?.kind === 'stopped' || stop?.kind === 'notStarted' || !stop ? [{ title: t('Run Anyway Once'), id: 'once' }] : []),
    { title: t('Mark Resolved'), id: 'resolve' },
    { title: t('Copy as Prompt'), id: 'brief' },
    { title: t('Dismiss'), id: 'dismiss', isCloseAffordance: true },
  ];
  log.event('helpDialog', { key: ref.key, stop: stop?.kind ?? 'warned', lastErrorLine: facts.lastErrorLine ? 'real' : 'none' });
  const pick = await vscode.window.showWarningMessage(title, { modal: true, detail: lines.join('\n') }, ...items);
  log.event('helpDialogChoice', { key: ref.key, choice: pick?.id ?? 'dismiss' });
  switch (pick?.id) {
    case 'reflect':
      await vscode.commands.executeCommand(CommandId.Reflect, ref);
      break;
    case 'show':
      await vscode.commands.executeCommand(CommandId.ShowMemory, ref);
      break;
    case 'once':
      await vscode.commands.executeCommand(CommandId.RunAnywayOnce, ref);
      rerun?.();
      break;
    case 'resolve':
      await vscode.commands.executeCommand(CommandId.MarkResolved, ref);
      break;
    case 'brief':
      await vscode.commands.executeCommand(CommandId.CopyBrief, ref);
      break;
  }
}

/** The dialog's lines about a cause failing several commands. */
function causeLines(c: NonNullable<HelpFacts['cause']>): string[] {
  const t = vscode.l10n.t;
  const lines = [
    t('One cause: {0}.', plainText(c.sentence, 400)),
    t('Commands it broke: {0}', c.commands.map(x => plainText(x, 120)).join(' · ')),
  ];
  if (c.fix) lines.push(t('Last time it was fixed by: {0}', plainText(c.fix, 300)));
  return lines;
}
