// Self-reflection by a chat model available in VS Code, behind three gates: the
// setting failureMemory.reflection.useLanguageModel, a model from vscode.lm.selectChatModels(),
// and the user's consent (asked once, modal, remembered in globalState). Any failure, timeout or
// cancel keeps the engine's heuristics record (produced_by stays 'heuristics').

import * as vscode from 'vscode';
import { buildReflectionPrompt, mergeModelReflection, parseModelReflection } from '../core/prompts/lmReflection';
import { plainText } from '../core/text/plainText';
import type { ReflectionRecord } from '../core/reflection';
import type { ReflectionWriter } from './actions';
import { readSetting, SECTION, type Settings } from '../core/config';
import { Disposable } from './disposable';
import type { Logger } from './logger';
import type { FolderMemory } from './registry';

const CONSENT_KEY = 'failureMemory.reflection.languageModelConsent';
const SETTING = `${SECTION}.reflection.useLanguageModel`;
const SELECT_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 90_000;
const MAX_ANSWER_CHARS = 60_000;

type Consent = 'granted' | 'denied';

export class LanguageModelReflection extends Disposable {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Logger,
    private readonly config: () => Settings,
  ) {
    super();
    // turning the setting on again asks again, even after "Don't Allow"
    this.track(
      vscode.workspace.onDidChangeConfiguration(e => {
        if (!e.affectsConfiguration(SETTING)) return;
        const configured = vscode.workspace.getConfiguration(SECTION);
        if (readSetting(k => configured.get(k), 'reflection.useLanguageModel', []) && context.globalState.get<Consent>(CONSENT_KEY) === 'denied') {
          void context.globalState.update(CONSENT_KEY, undefined);
        }
      }),
    );
  }

  readonly write: ReflectionWriter = async (record, f) => {
    if (!this.config()['reflection.useLanguageModel']) return record;
    if (typeof vscode.lm?.selectChatModels !== 'function') {
      this.log.info('reflect', `no language-model API in VS Code ${vscode.version}: heuristics reflection`);
      return record;
    }
    let models: readonly vscode.LanguageModelChat[];
    try {
      models = await withTimeout(Promise.resolve(vscode.lm.selectChatModels()), SELECT_TIMEOUT_MS, 'selecting a chat model');
    } catch (e) {
      this.log.warn('reflect', `no chat model: ${(e as Error)?.message ?? e}; heuristics reflection`);
      return record;
    }
    const model = models[0];
    if (!model) {
      this.log.info('reflect', 'failureMemory.reflection.useLanguageModel is on, but no chat model is available (is a model provider such as Copilot installed and signed in?): heuristics reflection');
      this.log.event('lmReflection', { ok: false, reason: 'no-model' });
      return record;
    }
    if (!(await this.consent(model))) {
      this.log.event('lmReflection', { ok: false, reason: 'no-consent' });
      return record;
    }
    return this.ask(model, record, f);
  };

  private async consent(model: vscode.LanguageModelChat): Promise<boolean> {
    const known = this.context.globalState.get<Consent>(CONSENT_KEY);
    if (known === 'granted') return true;
    if (known === 'denied') {
      this.log.info('reflect', `language-model reflection was declined earlier: heuristics reflection (turn ${SETTING} off and on to be asked again)`);
      return false;
    }
    const allow = vscode.l10n.t('Allow');
    const deny = vscode.l10n.t("Don't Allow");
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t('Let the chat model “{0}” write Failure Memory\'s reflections?', model.name),
      {
        modal: true,
        detail: vscode.l10n.t(
          "To reflect on a failing command, Failure Memory would send that command's recent attempts to {0} ({1}): command lines, error signatures, test results and the last part of their output, with secrets already replaced by [REDACTED] markers. Nothing is sent unless you allow it. Your answer is remembered; the setting {2} turns it off.",
          model.name,
          model.vendor,
          SETTING,
        ),
      },
      allow,
      deny,
    );
    if (pick === allow || pick === deny) await this.context.globalState.update(CONSENT_KEY, pick === allow ? 'granted' : 'denied');
    this.log.info('reflect', `language-model consent: ${pick === allow ? 'granted' : pick === deny ? 'denied' : 'not given (asked again next time)'}`);
    return pick === allow;
  }

  private ask(model: vscode.LanguageModelChat, record: ReflectionRecord, f: FolderMemory): Thenable<ReflectionRecord> {
    const approach = f.data.approaches[record.failure_memory.key];
    const prompt = buildReflectionPrompt(record, approach, s => f.memory.redact(s));
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('{0} is reflecting on “{1}”…', model.name, plainText(record.failure_memory.label, 80)), cancellable: true },
      async (_progress, cancel) => {
        const t0 = Date.now();
        const cts = new vscode.CancellationTokenSource();
        const onCancel = cancel.onCancellationRequested(() => cts.cancel());
        const timer = setTimeout(() => cts.cancel(), ANSWER_TIMEOUT_MS);
        try {
          const response = await model.sendRequest(
            [vscode.LanguageModelChatMessage.User(prompt)],
            { justification: 'Failure Memory asks the model to reflect on repeated command failures (you enabled failureMemory.reflection.useLanguageModel).' },
            cts.token,
          );
          let text = '';
          for await (const chunk of response.text) {
            if (cts.token.isCancellationRequested) throw new vscode.CancellationError();
            text += chunk;
            if (text.length > MAX_ANSWER_CHARS) break;
          }
          if (cts.token.isCancellationRequested) throw new vscode.CancellationError();
          const merged = mergeModelReflection(record, parseModelReflection(text), { id: model.id, name: model.name, vendor: model.vendor }, s => f.memory.redact(s));
          this.log.info('reflect', `reflection written by ${model.id} in ${Date.now() - t0} ms`);
          this.log.event('lmReflection', { ok: true, model: model.id, ms: Date.now() - t0 });
          return merged;
        } catch (e) {
          const reason = cts.token.isCancellationRequested ? (cancel.isCancellationRequested ? 'cancelled' : 'timeout') : describeError(e);
          this.log.warn('reflect', `language-model reflection failed (${reason}): heuristics reflection instead`);
          this.log.event('lmReflection', { ok: false, model: model.id, reason });
          return record;
        } finally {
          clearTimeout(timer);
          onCancel.dispose();
          cts.dispose();
        }
      },
    );
  }
}

function describeError(e: unknown): string {
  if (e instanceof vscode.LanguageModelError) return `${e.code || 'LanguageModelError'}: ${e.message}`;
  return (e as Error)?.message ?? String(e);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out ${what} after ${ms} ms`)), ms);
    }),
  ]);
}
