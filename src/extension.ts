// Composition root: build the objects, register them, no logic. Nothing heavy loads here.

import * as vscode from 'vscode';
import { CommandHandlers } from './host/commands';
import { readConfig, SECTION, type ExtensionConfig } from './host/config';
import { CapturePause } from './host/capturePause';
import { Guard } from './host/guard';
import { createLogger } from './host/logger';
import { LanguageModelReflection } from './host/lmReflection';
import { LanguageModelTools } from './host/lmTools';
import { McpServerProvider } from './host/mcpProvider';
import { ModelDownloads } from './host/modelDownload';
import { MemoryPanel } from './host/panel';
import { MemoryRegistry } from './host/registry';
import { StatusBar } from './host/statusBar';
import { TeamHub } from './host/team';
import { TaskWatcher } from './host/taskWatcher';
import { FailureLinkProvider } from './host/terminalLinks';
import { TerminalWatcher } from './host/terminalWatcher';

export function activate(context: vscode.ExtensionContext): void {
  const t0 = Date.now();
  const channel = vscode.window.createOutputChannel('Failure Memory', { log: true });
  const log = createLogger(channel);

  let config: ExtensionConfig = loadConfig();
  function loadConfig(): ExtensionConfig {
    const { config: c, problems } = readConfig();
    for (const p of problems) {
      log.warn('config', p);
      void vscode.window.showWarningMessage(`Failure Memory: ${p}`);
    }
    return c;
  }

  // team memory (off by default): built before the registry, which asks it for each folder's link
  const team = new TeamHub(context, log, () => config.threshold);
  const registry = new MemoryRegistry(context, log, config, team);
  const pause = new CapturePause(context, log);
  const guard = new Guard(registry, log, () => config);
  const terminals = new TerminalWatcher(context, registry, guard, log, () => pause.apply(config));
  const tasks = new TaskWatcher(registry, guard, log, () => pause.apply(config));
  const commands = new CommandHandlers(registry, log);
  const capture = () => ({ terminal: config.captureTerminal, tasks: config.captureTasks, terminalsWithIntegration: terminals.activeCount, terminals: terminals.terminalCount, paused: pause.paused });
  const status = new StatusBar(registry, capture, log, team);

  context.subscriptions.push(
    channel,
    team,
    registry,
    terminals,
    tasks,
    commands,
    status,
    pause,
    pause.onDidChange(() => status.update()),
    terminals.onDidChangeState(() => status.update()),
    vscode.window.registerTerminalLinkProvider(new FailureLinkProvider(registry)),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (!e.affectsConfiguration(SECTION)) return;
      if (e.affectsConfiguration('failureMemory.team')) {
        team.reloadSettings();
        registry.reload();
      }
      config = loadConfig();
      registry.applyConfig(config);
      status.update();
      log.info('config', `settings applied: ${JSON.stringify(config)}`);
    }),
  );
  context.subscriptions.push(new MemoryPanel(context.extensionUri, registry, commands, log, capture, terminals.onDidChangeState, team));

  // agents: language-model tools, the MCP server offered to VS Code, reflections by a chat model
  const lmReflection = new LanguageModelReflection(context, log, () => config);
  commands.writeReflection = lmReflection.write;
  context.subscriptions.push(new LanguageModelTools(registry, log), new McpServerProvider(context, log), lmReflection);

  // semantic recall: the model is offered (once) when recall first needs it, never here
  const models = new ModelDownloads(context, log, () => registry.reload());
  registry.onScorerCreated = s => models.maybeOffer(s);
  context.subscriptions.push(vscode.commands.registerCommand('failureMemory.downloadModel', () => models.download(registry.firstScorer())));

  const took = Date.now() - t0;
  log.info('activate', `Failure Memory activated in ${took} ms (capture: terminal ${config.captureTerminal ? 'on' : 'off'}, tasks ${config.captureTasks ? 'on' : 'off'}; blockMode ${config.blockMode}; threshold ${config.threshold})`);
  log.event('activated', { ms: took, vscode: vscode.version, extensionPath: context.extensionPath, folders: registry.all().map(f => f.folder.name) });
}

export function deactivate(): void {}
