// Starts, stops and restarts the jitls language client: finds the binary,
// passes the trust state and settings at start, forwards setting changes, and
// offers to install jitls when it is missing.

import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';
import { GoBinDirs, installServer } from './installServer';
import { searchEnvironment } from './searchEnvironment';
import { resolveServerPath } from './serverPath';
import { didChangeConfigurationSettings, initializationOptions, readServerSettings, ServerSettings } from './settings';

/** Owns the one running LanguageClient for jitls. */
export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  private goBinDirs: GoBinDirs = {};
  private reportedProblems = new Set<string>();

  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly middleware: Middleware,
  ) {}

  /** The running client, if any. */
  get languageClient(): LanguageClient | undefined {
    return this.client;
  }

  /** Starts the server unless it is running. Calls are serialised with stop and restart. */
  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  /** Stops the server and starts it again (new binary path, trust granted, or the user asked). */
  restart(reason: string): Promise<void> {
    return this.enqueue(async () => {
      this.output.appendLine(`[restart] ${reason}`);
      await this.doStop();
      await this.doStart();
    });
  }

  /** Sends the current jitls settings to the running server (workspace/didChangeConfiguration). */
  async sendSettings(): Promise<void> {
    const client = this.client;
    if (client === undefined || !client.isRunning()) {
      return;
    }
    const settings = didChangeConfigurationSettings(this.readSettings());
    this.output.appendLine(`[settings] sent to jitls: ${JSON.stringify(settings.jitls)}`);
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings });
  }

  /** Stops the server; the returned promise settles when it has exited. */
  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  /** Stops the server (fire and forget; use stop() to wait). */
  dispose(): void {
    void this.stop();
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async doStart(): Promise<void> {
    if (this.client !== undefined) {
      return;
    }
    const configured = vscode.workspace.getConfiguration('jitls').get<string>('path');
    const found = resolveServerPath(configured, searchEnvironment(this.goBinDirs));
    if (!found.found) {
      this.output.appendLine(`[start] ${found.message}`);
      this.output.appendLine(`[start] searched: ${found.searched.join(', ')}`);
      void this.offerInstall(found.message, (configured ?? '').trim() !== '');
      return;
    }
    this.output.appendLine(`[start] ${found.path} (found by ${found.foundBy}); workspace trusted: ${vscode.workspace.isTrusted}`);
    this.logVersion(found.path);
    // No `transport`: with TransportKind.stdio the client would append --stdio, which jitls rejects;
    // an Executable without one is spoken to over stdin/stdout as is.
    const serverOptions: ServerOptions = {
      command: found.path,
      args: [],
      options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file', language: 'go' }],
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // A function: evaluated at every (re)start, so a restart after trust is granted sends the new state.
      initializationOptions: () => initializationOptions(this.readSettings(), vscode.workspace.isTrusted),
      middleware: this.middleware,
    };
    const client = new LanguageClient('jitls', 'jitls', serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      this.client = undefined;
      const detail = err instanceof Error ? err.message : String(err);
      this.output.appendLine(`[start] failed: ${detail}`);
      const choice = await vscode.window.showErrorMessage(`jitlint: jitls (${found.path}) did not start: ${detail}`, 'Show Output');
      if (choice === 'Show Output') {
        this.output.show(true);
      }
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    try {
      await client.stop(5000);
    } catch (err) {
      this.output.appendLine(`[stop] ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private readSettings(): ServerSettings {
    const cfg = vscode.workspace.getConfiguration('jitls');
    const { settings, problems } = readServerSettings({
      analyzers: cfg.get('analyzers'),
      unrolledLoopMax: cfg.get('unrolledLoopMax'),
      runtimeEvents: resolveInWorkspace(cfg.get('runtimeEvents')),
    });
    for (const problem of problems) {
      if (!this.reportedProblems.has(problem.message)) {
        this.reportedProblems.add(problem.message);
        this.output.appendLine(`[settings] ${problem.message}`);
        void vscode.window.showWarningMessage(`jitlint: ${problem.message}`);
      }
    }
    return settings;
  }

  private async offerInstall(message: string, pathIsSet: boolean): Promise<void> {
    const actions = pathIsSet ? ['Open Settings'] : ['Install jitls', 'Open Settings'];
    const choice = await vscode.window.showWarningMessage(`jitlint: ${message}`, ...actions);
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'jitls.path');
    } else if (choice === 'Install jitls') {
      const dirs = await installServer(this.output);
      if (dirs !== undefined) {
        this.goBinDirs = dirs;
        await this.start();
      }
    }
  }

  private logVersion(binary: string): void {
    execFile(binary, ['-version'], { timeout: 10_000 }, (err, stdout, stderr) => {
      const text = (stdout || stderr).trim();
      this.output.appendLine(err ? `[version] ${binary} -version failed: ${err.message}` : `[version] ${text}`);
    });
  }
}

/** Resolves a relative path setting against the first workspace folder (other values pass through). */
function resolveInWorkspace(value: unknown): unknown {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (typeof value !== 'string' || value === '' || folder === undefined || value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value)) {
    return value;
  }
  return vscode.Uri.joinPath(folder.uri, value).fsPath;
}
