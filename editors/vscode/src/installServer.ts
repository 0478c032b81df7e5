// Installs jitls with `go install` when the user accepts the offer made when
// the binary is missing.

import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { findOnPath, INSTALL_PACKAGE } from './serverPath';
import { searchEnvironment } from './searchEnvironment';

/** Where `go install` put binaries: go env's GOBIN and GOPATH. */
export interface GoBinDirs {
  GOBIN?: string;
  GOPATH?: string;
}

/**
 * Runs `go install github.com/jitlint/jitlint/cmd/jitls@latest` from the home
 * directory (so no workspace go.mod or toolchain line takes part), with a
 * progress notification. Returns go env's GOBIN/GOPATH on success, undefined
 * after telling the user what failed.
 */
export async function installServer(output: vscode.OutputChannel): Promise<GoBinDirs | undefined> {
  const go = findOnPath('go', searchEnvironment());
  if (go === undefined) {
    void vscode.window.showErrorMessage(
      `jitlint: the go command is not on PATH, so jitls cannot be installed. Install Go (https://go.dev/dl/), then run "go install ${INSTALL_PACKAGE}".`,
    );
    return undefined;
  }
  output.appendLine(`[install] ${go} install ${INSTALL_PACKAGE}`);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Installing jitls (go install ${INSTALL_PACKAGE})…` },
    () => run(go, ['install', INSTALL_PACKAGE]),
  );
  output.append(result.stderr);
  if (result.error !== undefined) {
    output.appendLine(`[install] failed: ${result.error}`);
    output.show(true);
    void vscode.window.showErrorMessage(
      `jitlint: "go install ${INSTALL_PACKAGE}" failed: ${lastLine(result.stderr) || result.error}. The "jitls" output has the full log.`,
    );
    return undefined;
  }
  const env = await run(go, ['env', 'GOBIN', 'GOPATH']);
  const [gobin = '', gopath = ''] = env.stdout.split(/\r?\n/);
  output.appendLine(`[install] done (GOBIN=${gobin || '<unset>'} GOPATH=${gopath})`);
  return { GOBIN: gobin.trim() || undefined, GOPATH: gopath.trim() || undefined };
}

interface RunResult {
  stdout: string;
  stderr: string;
  error?: string;
}

function run(command: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: os.homedir(), timeout: 10 * 60 * 1000 }, (err, stdout, stderr) => {
      resolve({ stdout, stderr, error: err ? err.message : undefined });
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines[lines.length - 1] ?? '';
}
