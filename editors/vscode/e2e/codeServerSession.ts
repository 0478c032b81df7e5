// A code-server 4.100.3 (VS Code 1.100.3) with the packaged extension
// installed in a fresh profile, opened on this repository in Debian's
// Chromium through playwright-core, with helpers to drive its editor.

import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';

/** The extension's directory (editors/vscode). */
export const extDir = path.join(__dirname, '..', '..');
/** The repository root, opened as the workspace folder. */
export const repo = path.join(extDir, '..', '..');
/**
 * Where the tests save their screenshots: $JITLINT_E2E_SCREENSHOTS, by default
 * .e2e/screenshots (ignored by git). The README's copies in images/ change only
 * through e2e/update-screenshots.sh.
 */
export const screenshots = process.env.JITLINT_E2E_SCREENSHOTS || path.join(extDir, '.e2e', 'screenshots');
/** True when the end-to-end tests should run (JITLINT_VSCODE_E2E=1, set by e2e/run.sh). */
export const e2eEnabled = process.env.JITLINT_VSCODE_E2E === '1';

const codeServer = path.join(extDir, '.e2e', 'code-server', 'node_modules', '.bin', 'code-server');
const jitls = path.join(extDir, '.e2e', 'bin', 'jitls');
const vsix = path.join(extDir, 'jitlint.vsix');

/** One running code-server and the browser page showing it. */
export class CodeServerSession {
  private log = '';

  private constructor(
    readonly page: Page,
    readonly profile: string,
    private readonly server: ChildProcess,
    private readonly browser: Browser,
  ) {}

  /** Installs the .vsix into a new profile with these user settings and opens the repository. */
  static async start(settings: Record<string, unknown>): Promise<CodeServerSession> {
    for (const file of [codeServer, jitls, vsix]) {
      assert.ok(fs.existsSync(file), `${file} is missing; run e2e/run.sh, which builds or installs it`);
    }
    fs.mkdirSync(screenshots, { recursive: true });
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jitlint-e2e-'));
    const data = path.join(profile, 'data');
    const extensions = path.join(profile, 'extensions');
    fs.mkdirSync(path.join(data, 'User'), { recursive: true });
    fs.writeFileSync(
      path.join(data, 'User', 'settings.json'),
      JSON.stringify({
        'jitls.path': jitls,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.colorTheme': 'Default Dark Modern',
        'extensions.ignoreRecommendations': true,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'chat.commandCenter.enabled': false,
        'editor.hover.delay': 200,
        'editor.minimap.enabled': false,
        'jitls.trace.server': 'messages',
        ...settings,
      }),
    );
    execFileSync(codeServer, ['--extensions-dir', extensions, '--user-data-dir', data, '--install-extension', vsix], {
      stdio: 'inherit',
    });
    const port = await freePort();
    const config = path.join(profile, 'config.yaml');
    fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const args = ['--config', config, '--user-data-dir', data, '--extensions-dir', extensions];
    args.push('--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened', repo);
    // jitls.path is set above; .e2e/bin is also first on the server's PATH,
    // as `go install` would put jitls on a user's: in an untrusted window
    // code-server 4.100.3 does not apply the user value of a restricted
    // setting (jitls.path), and the test must not depend on a jitls that
    // happens to be installed in ~/go/bin.
    const env = { ...process.env, PATH: `${path.dirname(jitls)}${path.delimiter}${process.env.PATH ?? ''}` };
    const server = spawn(codeServer, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let log = '';
    server.stdout?.on('data', (b: Buffer) => (log += b.toString()));
    server.stderr?.on('data', (b: Buffer) => (log += b.toString()));
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, () => log);

    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const session = new CodeServerSession(page, profile, server, browser);
    server.stdout?.on('data', (b: Buffer) => (session.log += b.toString()));
    session.log = log;
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(repo)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    return session;
  }

  /** Opens a file of the repository with Quick Open and waits until its text is shown. */
  async openFile(relative: string, waitForToken: string): Promise<void> {
    const page = this.page;
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type(relative);
    // The list first shows recently opened files; wait for the file itself and pick it.
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(relative) }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await page.locator('.tab', { hasText: path.basename(relative) }).waitFor({ timeout: 30_000 });
    await this.token(waitForToken).waitFor({ timeout: 30_000 });
  }

  /** The first rendered editor token whose whole text is text. */
  token(text: string): Locator {
    return this.page.locator('.view-line span', { hasText: new RegExp(`^${text}$`) }).first();
  }

  /** Runs a palette command by its title. */
  async runCommand(title: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type(title);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
  }

  /** Hovers target until the hover widget's text matches want; returns that text. */
  async hoverUntil(target: Locator, want: RegExp, timeoutMs: number): Promise<string> {
    const page = this.page;
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      await page.mouse.move(5, 400);
      await target.hover();
      const widget = page.locator('.monaco-hover:not(.hidden)').first();
      try {
        await widget.waitFor({ state: 'visible', timeout: 5_000 });
        await page.waitForTimeout(1_000);
        last = (await widget.textContent()) ?? '';
        if (want.test(last)) {
          return last;
        }
      } catch {
        // No hover yet: the server may still be loading packages or building the preview.
      }
      await page.waitForTimeout(3_000);
    }
    await page.screenshot({ path: path.join(this.profile, 'hover-timeout.png') });
    assert.fail(`hover never matched ${want}; last hover text: ${JSON.stringify(last)}`);
  }

  /** The "jitls" output channel as written to the profile's logs so far. */
  jitlsOutput(): string {
    const logs = path.join(this.profile, 'data', 'logs');
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(p);
        } else if (entry.name.endsWith('-jitls.log')) {
          found.push(fs.readFileSync(p, 'utf8'));
        }
      }
    };
    if (fs.existsSync(logs)) {
      walk(logs);
    }
    return found.join('\n');
  }

  /** Stops the browser and code-server; keeps the profile when JITLINT_E2E_KEEP=1. */
  async close(): Promise<void> {
    await this.page.screenshot({ path: path.join(this.profile, 'last.png') }).catch(() => undefined);
    await this.browser.close();
    this.server.kill();
    if (process.env.JITLINT_E2E_KEEP === '1') {
      console.log(`e2e profile kept in ${this.profile}; code-server log:\n${this.log.slice(-3000)}`);
    } else {
      fs.rmSync(this.profile, { recursive: true, force: true });
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr !== null ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHttp(url: string, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms; its log:\n${log().slice(-4000)}`);
}
