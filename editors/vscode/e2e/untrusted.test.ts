// End-to-end, untrusted workspace: diagnostics work, previews are refused
// with a message that says how to enable them, and granting trust restarts
// jitls so that previews work. Opt-in like trusted.test.ts.

import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CodeServerSession, e2eEnabled, screenshots } from './codeServerSession';

let cs: CodeServerSession;

before(async () => {
  if (e2eEnabled) {
    cs = await CodeServerSession.start({
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
    });
    await cs.openFile('examples/codelab/step6_control_flow.go', 'ReluBad');
  }
});

after(async () => {
  await cs?.close();
});

test('restricted mode: diagnostics, and a hover that says how to enable previews', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  const squiggle = cs.page.locator('.monaco-editor .view-overlays [class*="squiggly-"]').first();
  await squiggle.waitFor({ state: 'attached', timeout: 180_000 });
  const hover = await cs.hoverUntil(cs.token('ReluWhere'), /trust/i, 120_000);
  assert.doesNotMatch(hover, /\{ lambda/);
  assert.match(cs.jitlsOutput(), /workspace trusted: false/);
  await cs.page.screenshot({ path: path.join(screenshots, 'untrusted-hover.png') });
});

test('granting trust restarts jitls and enables the jaxpr hover', { skip: !e2eEnabled, timeout: 400_000 }, async () => {
  const page = cs.page;
  await page.mouse.move(5, 400);
  await page.keyboard.press('Escape');
  await cs.runCommand('Workspaces: Manage Workspace Trust');
  await page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first().click({ timeout: 30_000 });
  await page.locator('.tab', { hasText: 'step6_control_flow.go' }).click();
  const deadline = Date.now() + 60_000;
  while (!/\[restart\] workspace trust granted/.test(cs.jitlsOutput()) && Date.now() < deadline) {
    await page.waitForTimeout(500);
  }
  assert.match(cs.jitlsOutput(), /\[restart\] workspace trust granted/);
  assert.match(cs.jitlsOutput(), /workspace trusted: true/);
  const hover = await cs.hoverUntil(cs.token('ReluWhere'), /\{ lambda/, 360_000);
  assert.match(hover, /select_n/);
});
