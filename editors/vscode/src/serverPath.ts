// Finds the jitls binary (and the go command used to install it) without
// touching VS Code: every input is passed in, so the search is unit-tested.

import * as path from 'node:path';

/** What the search may look at. */
export interface SearchEnvironment {
  /** process.platform; decides the path syntax, the list separator and the ".exe" suffix. */
  platform: NodeJS.Platform;
  /** The environment variables PATH, GOBIN and GOPATH (others are ignored). */
  env: { PATH?: string; Path?: string; GOBIN?: string; GOPATH?: string };
  /** The user's home directory, for "~" and the default GOPATH ~/go. */
  homeDir: string;
  /** The first workspace folder, for a relative jitls.path; undefined when no folder is open. */
  workspaceFolder?: string;
  /** True when an executable regular file exists at the absolute path. */
  isExecutable(file: string): boolean;
}

/** Where a found binary came from. */
export type FoundBy = 'setting' | 'PATH' | 'GOBIN' | 'GOPATH';

/** The outcome of a search. */
export type SearchResult =
  | { found: true; path: string; foundBy: FoundBy }
  | { found: false; searched: string[]; message: string };

/** The command that installs the server, offered when it is missing. */
export const INSTALL_PACKAGE = 'github.com/jitlint/jitlint/cmd/jitls@latest';

/**
 * Resolves the jitls binary. A non-empty jitls.path is used as given (after
 * "~" expansion and resolution against the workspace folder) and is an error
 * when nothing executable is there: an explicit setting is never silently
 * replaced by another binary. An empty setting searches PATH, then GOBIN,
 * then each GOPATH entry's bin (GOPATH defaults to ~/go), where `go install`
 * puts binaries even when they are not on VS Code's PATH.
 */
export function resolveServerPath(configured: string | undefined, search: SearchEnvironment): SearchResult {
  const p = pathApi(search.platform);
  const setting = (configured ?? '').trim();
  if (setting !== '') {
    const file = absolutize(setting, search, p);
    if (file === undefined) {
      return {
        found: false,
        searched: [setting],
        message: `jitls.path is the relative path "${setting}" but no workspace folder is open to resolve it against; set an absolute path.`,
      };
    }
    if (search.isExecutable(file)) {
      return { found: true, path: file, foundBy: 'setting' };
    }
    return {
      found: false,
      searched: [file],
      message: `jitls.path is set to "${setting}" but there is no executable file at ${file}. Fix the setting, or clear it to search PATH.`,
    };
  }
  const name = executableName('jitls', search.platform);
  const searched: string[] = [];
  const candidates: Array<[string, FoundBy]> = [];
  for (const dir of pathList(search.env.PATH ?? search.env.Path, search.platform)) {
    candidates.push([p.join(dir, name), 'PATH']);
  }
  if (search.env.GOBIN) {
    candidates.push([p.join(search.env.GOBIN, name), 'GOBIN']);
  }
  const gopath = pathList(search.env.GOPATH, search.platform);
  for (const dir of gopath.length > 0 ? gopath : [p.join(search.homeDir, 'go')]) {
    candidates.push([p.join(dir, 'bin', name), 'GOPATH']);
  }
  for (const [file, foundBy] of candidates) {
    if (searched.includes(file)) {
      continue;
    }
    searched.push(file);
    if (search.isExecutable(file)) {
      return { found: true, path: file, foundBy };
    }
  }
  return {
    found: false,
    searched,
    message: `jitls was not found on PATH, in GOBIN or in GOPATH/bin. Install it with "go install ${INSTALL_PACKAGE}" or set jitls.path.`,
  };
}

/** Finds an executable by name on PATH (used for the go command); undefined when absent. */
export function findOnPath(command: string, search: SearchEnvironment): string | undefined {
  const p = pathApi(search.platform);
  const name = executableName(command, search.platform);
  for (const dir of pathList(search.env.PATH ?? search.env.Path, search.platform)) {
    const file = p.join(dir, name);
    if (search.isExecutable(file)) {
      return file;
    }
  }
  return undefined;
}

function absolutize(setting: string, search: SearchEnvironment, p: path.PlatformPath): string | undefined {
  let file = setting;
  if (file === '~' || file.startsWith('~/') || (search.platform === 'win32' && file.startsWith('~\\'))) {
    file = p.join(search.homeDir, file.slice(1));
  }
  if (p.isAbsolute(file)) {
    return p.normalize(file);
  }
  if (search.workspaceFolder === undefined) {
    return undefined;
  }
  return p.resolve(search.workspaceFolder, file);
}

function pathList(value: string | undefined, platform: NodeJS.Platform): string[] {
  if (!value) {
    return [];
  }
  return value.split(platform === 'win32' ? ';' : ':').filter((dir) => dir !== '');
}

function executableName(command: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? `${command}.exe` : command;
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}
