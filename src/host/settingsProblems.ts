// What is wrong with the settings, told to the person once per window: each problem logged and shown
// a single time however often the configuration is read again, as plain text (a value such as a
// redaction pattern may hold `[text](command:…)`: no link, icon or markup may form from it).

import * as vscode from 'vscode';
import { plainText } from '../core/text/plainText';
import type { Logger } from './logger';

export class SettingsProblems {
  private readonly told = new Set<string>();

  constructor(private readonly log: Logger) {}

  report(problems: readonly string[]): void {
    for (const p of problems) {
      if (this.told.has(p)) continue;
      this.told.add(p);
      this.log.warn('config', p);
      void vscode.window.showWarningMessage(plainText(`Failure Memory: ${p}`, 500));
    }
  }
}
