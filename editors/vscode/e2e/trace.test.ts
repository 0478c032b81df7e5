// End-to-end, what the trace knows (issue 12), in a trusted workspace: an
// inlay hint with an aval, the colour of a traced value's token, and a
// diagnostic from the events of a real run of the codelab's step 5
// (JITLINT_EVENTS). Opt-in (JITLINT_VSCODE_E2E=1; e2e/run.sh prepares
// everything). Saves its screenshots in .e2e/screenshots/
// (codeServerSession.ts, screenshots).

import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeServerSession, e2eEnabled, screenshots, repo } from './codeServerSession';

let cs: CodeServerSession;
let events: string;

before(async () => {
  if (!e2eEnabled) {
    return;
  }
  // A real run that compiles SumSquares three times at one call site.
  events = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jitlint-events-')), 'events.jsonl');
  execFileSync('go', ['run', './examples/codelab', '-step', '5'], { cwd: repo, env: { ...process.env, JITLINT_EVENTS: events }, stdio: 'ignore' });
  cs = await CodeServerSession.start({ 'security.workspace.trust.enabled': false, 'jitls.runtimeEvents': events });
  await cs.openFile('examples/codelab/step4_compile.go', 'Heavy');
});

after(async () => {
  await cs?.close();
  if (events !== undefined) {
    fs.rmSync(path.dirname(events), { recursive: true, force: true });
  }
});

/** The part of the browser's window the colour check uses (the test's tsconfig has no DOM types). */
interface BrowserWindow {
  getComputedStyle(el: unknown): { color: string };
}

/** The text of the active editor's lines (Monaco renders spaces as U+00A0). */
async function editorText(): Promise<string> {
  const text = (await cs.page.locator('.editor-group-container.active .monaco-editor .view-lines').textContent()) ?? '';
  return text.replace(/\u00a0/g, ' ');
}

test('inlay hints show the avals of Heavy’s parameter and loop variable', { skip: !e2eEnabled, timeout: 400_000 }, async () => {
  // The hints come after the preview, which the first inlay hint request starts in the background.
  const deadline = Date.now() + 360_000;
  let text = '';
  while (Date.now() < deadline) {
    text = await editorText();
    if (/x: f32\[8\] jit\.Array/.test(text) && /y: f32\[8\] = y\.Sin\(\)/.test(text)) {
      break;
    }
    await cs.page.waitForTimeout(2_000);
  }
  assert.match(text, /func Heavy\(x: f32\[8\] jit\.Array\)/);
  assert.match(text, /y: f32\[8\] = y\.Sin\(\)\.Mul\(y\.Cos\(\)\)\.Add\(y\.Tanh\(\)\)/);
  await cs.page.screenshot({ path: path.join(screenshots, 'inlay-hints.png') });
});

test('a traced value is coloured apart from a Go variable', { skip: !e2eEnabled, timeout: 120_000 }, async () => {
  const page = cs.page;
  // y (traced) and i (a Go int) on the loop lines; the semantic tokens colour y.
  const color = (name: string): Promise<string> =>
    page
      .locator('.editor-group-container.active .view-line span', { hasText: new RegExp(`^${name}$`) })
      .first()
      .evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).color);
  const deadline = Date.now() + 90_000;
  let traced = '';
  let plain = '';
  while (Date.now() < deadline) {
    [traced, plain] = [await color('y'), await color('i')];
    if (traced !== plain) {
      break;
    }
    await page.waitForTimeout(1_000);
  }
  assert.notEqual(traced, plain, 'y (traced) and i (a Go int) have the same colour');
  // Default Dark Modern colours string.regexp, the scope the traced modifier maps to, #D16969.
  assert.equal(traced, 'rgb(209, 105, 105)');
  await page.screenshot({ path: path.join(screenshots, 'traced-tokens.png') });
});

test('the last run’s recompiles show at their call site', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  await cs.openFile('examples/codelab/step5_recompile.go', 'SumSquares');
  const info = cs.page.locator('.editor-group-container.active .view-overlays [class*="squiggly-info"]').first();
  await info.waitFor({ state: 'attached', timeout: 180_000 });
  // The diagnostic is on the line of sumSq.Call(...), the file's first Call.
  const call = cs.page.locator('.view-line span', { hasText: /^Call$/ }).first();
  const hover = await cs.hoverUntil(call, /compiled 3 times in the last run/, 120_000);
  assert.match(hover, /the shape or dtype of x changed \(f32\[100\]→f32\[200\]→f32\[300\]\)/);
  await cs.page.screenshot({ path: path.join(screenshots, 'runtime-diagnostic.png') });
});

test('each equation of the jaxpr document links to the Go line that staged it', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  const page = cs.page;
  await page.keyboard.press('Escape');
  await page.locator('.tab', { hasText: 'step4_compile.go' }).click();
  await cs.token('Heavy').click();
  await cs.runCommand('jitlint: Show Jaxpr of Function at Cursor');
  await page.locator('.tab', { hasText: 'Heavy.jaxpr' }).waitFor({ timeout: 180_000 });
  // Every equation of Heavy (20 rounds of sin, cos, mul, tanh, add) comes from line 15.
  const links = page.locator('.editor-group-container.active .detected-link');
  await links.first().waitFor({ timeout: 60_000 });
  assert.match(await editorText(), /= sin a {2}# step4_compile\.go:15/);
  await page.screenshot({ path: path.join(screenshots, 'jaxpr-links.png') });
  await links.first().click({ modifiers: ['Control'] });
  // The Go file opens in the jaxpr's editor group, at the equation's line.
  await page.locator('.editor-group-container.active .tab.active', { hasText: 'step4_compile.go' }).waitFor({ timeout: 30_000 });
  await page.locator('.statusbar-item', { hasText: /Ln 15, Col 1/ }).waitFor({ timeout: 30_000 });
});
