// Composition root: build the objects, register them, no logic. Nothing heavy loads here.

import * as vscode from 'vscode';
import { readConfig, RESTRICTED_SETTINGS, SECTION, type Settings } from './core/config';
import type { ReflectionRecord } from './core/reflection';
import { ApproachActions } from './host/actions';
import { CommandId, type ApproachRef } from './host/commandIds';
import { AgentGates } from './host/agentGates';
import { CommandHandlers } from './host/commands';
import { CapturePause } from './host/capturePause';
import { EditWatcher } from './host/editWatcher';
import { GateNotices } from './host/gateNotices';
import { EnterGate } from './host/enterGate';
import { Guard } from './host/guard';
import { createLogger } from './host/logger';
import { LanguageModelReflection } from './host/lmReflection';
import { LanguageModelTools } from './host/lmTools';
import { McpServerProvider } from './host/mcpProvider';
import { ModelDownloads } from './host/modelDownload';
import { WalkthroughProgress } from './host/walkthroughProgress';
import { MemoryPanel } from './host/panel';
import { ReflectionView } from './host/reflectionView';
import { MemoryRegistry } from './host/registry';
import { SettingsProblems } from './host/settingsProblems';
import { StatusBar } from './host/statusBar';
import { TeamHub } from './host/team';
import { TaskWatcher } from './host/taskWatcher';
import { FailureLinkProvider } from './host/terminalLinks';
import { TerminalWatcher } from './host/terminalWatcher';
import type { CaptureView } from './shared/protocol';

export function activate(context: vscode.ExtensionContext): void {
  const t0 = Date.now();
  const channel = vscode.window.createOutputChannel('Failure Memory', { log: true });
  const log = createLogger(channel);

  const settingsProblems = new SettingsProblems(log);
  let config: Settings = loadConfig();
  function loadConfig(): Settings {
    const settings = vscode.workspace.getConfiguration(SECTION);
    // in Restricted Mode a restricted setting (redaction.extraPatterns) comes from the user's settings only
    const trusted = vscode.workspace.isTrusted;
    const { config: c, problems } = readConfig(k => (!trusted && RESTRICTED_SETTINGS.includes(k) ? settings.inspect(k)?.globalValue : settings.get(k)));
    settingsProblems.report(problems);
    return c;
  }
  const currentConfig = () => config;

  // team memory (off by default): built before the registry, which asks it for each folder's link
  const team = new TeamHub(context, log, () => config.threshold, settingsProblems);
  // semantic recall: the model is offered in the panel and the walkthrough (never by a prompt)
  const models = new ModelDownloads(log, () => registry.reload());
  const registry = new MemoryRegistry(context, log, config, s => models.noteScorer(s), team);
  const pause = new CapturePause(context, log);
  // the watchers act on the configuration with capture off while paused
  const captureConfig = () => pause.apply(config);
  // edits as evidence: saves and file operations in the editor (the guard also reads the unwritten ones)
  const edits = new EditWatcher(registry, log, captureConfig);
  const guard = new Guard(registry, log, currentConfig, edits);
  // the terminal's check at Enter (a loop repeated never starts); the start event's interrupt is its fallback
  const enterGate = new EnterGate(context, registry, guard, log, captureConfig);
  const terminals = new TerminalWatcher(context, registry, guard, log, captureConfig, enterGate);
  const tasks = new TaskWatcher(registry, guard, log, captureConfig);
  const capture = (): CaptureView => ({ terminal: config['capture.terminal'], tasks: config['capture.tasks'], terminalsWithIntegration: terminals.activeCount, terminals: terminals.terminalCount, paused: pause.paused });
  const status = new StatusBar(registry, capture, log, team);

  // what can be done to an approach, and where it shows: the panel and the reflection view
  const lmReflection = new LanguageModelReflection(context, log, currentConfig);
  const actions = new ApproachActions(registry, log, currentConfig, lmReflection.write);
  const reflections = new ReflectionView(context.extensionUri, log, registry);
  const panel = new MemoryPanel(context.extensionUri, registry, actions, reflections, log, capture, terminals.onDidChangeState, team, models);
  // the walkthrough's steps tick themselves off for what the user has done (shell integration on, memory shown…)
  const walkthrough = new WalkthroughProgress(context, () => terminals.activeCount, terminals.onDidChangeState);
  const views = { showMemory: (ref?: ApproachRef) => (walkthrough.mark('memoryShown'), panel.reveal(ref)), showReflection: (r: ReflectionRecord, folder: string) => reflections.show(r, folder), exported: () => walkthrough.mark('exported') };
  const commands = new CommandHandlers(registry, actions, views, log);

  context.subscriptions.push(
    channel,
    team,
    registry,
    edits,
    guard,
    enterGate,
    terminals,
    tasks,
    status,
    pause,
    pause.onDidChange(() => status.update()),
    lmReflection,
    reflections,
    models,
    panel,
    commands,
    terminals.onDidChangeState(() => status.update()),
    walkthrough,
    vscode.window.registerTerminalLinkProvider(new FailureLinkProvider(registry, guard.stops)),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (!e.affectsConfiguration(SECTION)) return;
      if (e.affectsConfiguration('failureMemory.team')) {
        team.reloadSettings();
        registry.reload();
      }
      config = loadConfig();
      registry.applyConfig(config);
      enterGate.apply();
      status.update();
      log.info('config', `settings applied: ${JSON.stringify(config)}`);
      log.event('settingsApplied');
    }),
    // agents: language-model tools and the MCP server offered to VS Code
    new LanguageModelTools(registry, log),
    new McpServerProvider(context, log),
    // agent hooks: the launcher (on PATH in terminals) and Set Up Agent Gates
    new AgentGates(context, log, () => walkthrough.mark('agentGates')),
    // what was done to the gate behind Failure Memory's back: said, with Restore / Keep
    new GateNotices(registry, log),
    vscode.commands.registerCommand(CommandId.DownloadModel, () => models.download(registry.firstScorer())),
    // restricted settings (redaction.extraPatterns) take the workspace's value once it is trusted
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      config = loadConfig();
      registry.applyConfig(config);
    }),
  );

  const took = Date.now() - t0;
  log.info('activate', `Failure Memory activated in ${took} ms (capture: terminal ${config['capture.terminal'] ? 'on' : 'off'}, tasks ${config['capture.tasks'] ? 'on' : 'off'}; blockMode ${config.blockMode}; threshold ${config.threshold})`);
  log.event('activated', { ms: took, vscode: vscode.version, extensionPath: context.extensionPath, folders: registry.all().map(f => f.folder.name) });
}

export function deactivate(): void {}
