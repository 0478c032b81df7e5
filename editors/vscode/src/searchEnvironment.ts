// The real-machine inputs of the binary search in serverPath.ts.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SearchEnvironment } from './serverPath';

/** Builds the search environment from this process, the open workspace and extra Go variables (from `go env`). */
export function searchEnvironment(extra: { GOBIN?: string; GOPATH?: string } = {}): SearchEnvironment {
  return {
    platform: process.platform,
    env: {
      PATH: process.env.PATH,
      Path: process.env.Path,
      GOBIN: extra.GOBIN || process.env.GOBIN,
      GOPATH: extra.GOPATH || process.env.GOPATH,
    },
    homeDir: os.homedir(),
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isExecutable,
  };
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
