// End-to-end, trusted workspace: the packaged extension in code-server against
// a jitls built from this repository, on the codelab's step 6 file. Opt-in
// (JITLINT_VSCODE_E2E=1; e2e/run.sh prepares everything). Saves its
// screenshots in .e2e/screenshots/ (codeServerSession.ts, screenshots).

import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CodeServerSession, e2eEnabled, screenshots } from './codeServerSession';

let cs: CodeServerSession;

before(async () => {
  if (e2eEnabled) {
    cs = await CodeServerSession.start({ 'security.workspace.trust.enabled': false });
    await cs.openFile('examples/codelab/step6_control_flow.go', 'ReluBad');
  }
});

after(async () => {
  await cs?.close();
});

test('ReluBad shows the tracedbool diagnostic from jitls', { skip: !e2eEnabled, timeout: 240_000 }, async () => {
  const squiggle = cs.page.locator('.monaco-editor .view-overlays [class*="squiggly-"]').first();
  await squiggle.waitFor({ state: 'attached', timeout: 180_000 });
  const hover = await cs.hoverUntil(cs.token('Bool'), /tracedbool/, 60_000);
  assert.match(hover, /TracerBoolConversionError|traced value/);
  assert.match(hover, /jitls/);
  await cs.page.screenshot({ path: path.join(screenshots, 'diagnostic.png') });
});

test('hovering ReluWhere shows its jaxpr', { skip: !e2eEnabled, timeout: 400_000 }, async () => {
  const hover = await cs.hoverUntil(cs.token('ReluWhere'), /\{ lambda/, 360_000);
  assert.match(hover, /select_n|gt/);
  assert.match(hover, /f32\[/);
  await cs.page.screenshot({ path: path.join(screenshots, 'hover-jaxpr.png') });
});

test('the Show Jaxpr command opens a highlighted jaxpr: document', { skip: !e2eEnabled, timeout: 240_000 }, async () => {
  const page = cs.page;
  await page.mouse.move(5, 400);
  await page.keyboard.press('Escape');
  await cs.token('ReluWhere').click();
  await cs.runCommand('jitlint: Show Jaxpr of Function at Cursor');
  await page.locator('.tab', { hasText: 'ReluWhere.jaxpr' }).waitFor({ timeout: 180_000 });
  const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
  const deadline = Date.now() + 60_000;
  while (!((await editor.textContent()) ?? '').includes('lambda') && Date.now() < deadline) {
    await page.waitForTimeout(500);
  }
  const text = (await editor.textContent()) ?? '';
  assert.match(text, /#\sReluWhere\(f32\[8\]\)/); // Monaco renders spaces as U+00A0
  // The grammar coloured the primitive: its token carries a different class than the variables.
  const primitive = page.locator('.editor-group-container.active .view-line span', { hasText: /^select_n$/ });
  const variable = page.locator('.editor-group-container.active .view-line span', { hasText: /^d$/ }).first();
  assert.notEqual(await primitive.getAttribute('class'), await variable.getAttribute('class'));
  await page.screenshot({ path: path.join(screenshots, 'jaxpr-document.png') });
});

test('Measure Compile Cost reports the phases', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  const page = cs.page;
  await page.locator('.tab', { hasText: 'step6_control_flow.go' }).click();
  await cs.token('ReluWhere').click();
  await cs.runCommand('jitlint: Measure Compile Cost of Function at Cursor');
  const toast = page.locator('.notification-toast', { hasText: /: compile [\d.]+ ms/ }).first();
  await toast.waitFor({ timeout: 240_000 });
  const text = (await toast.textContent()) ?? '';
  assert.match(text, /ReluWhere\(f32\[8\]\): compile [\d.]+ ms · cached call [\d.]+ ms/);
  // The whole line, with every phase, is in the output channel.
  assert.match(cs.jitlsOutput(), /\[compile cost\] ReluWhere\(f32\[8\]\): compile [\d.]+ ms · cached call [\d.]+ ms · first call [\d.]+ ms · trace [\d.]+ ms · lower [\d.]+ ms · \w+/);
  await page.locator('.notification-toast', { hasText: 'measuring the compile cost' }).waitFor({ state: 'detached', timeout: 30_000 });
  // jitls asks for a code-lens refresh after a measurement; the lens title then shows the cost.
  const lens = page.locator('.codelens-decoration', { hasText: /compile [\d.]+ ms/ }).first();
  await lens.waitFor({ timeout: 60_000 });
  await page.screenshot({ path: path.join(screenshots, 'compile-cost.png') });
});

test('clicking the "jaxpr" code lens above ReluBad reports why it cannot be traced', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  // The lens runs the server's jitls.showJaxpr command; the extension's middleware shows the outcome.
  const page = cs.page;
  await page.locator('.tab', { hasText: 'step6_control_flow.go' }).click();
  const name = await cs.token('ReluBad').boundingBox();
  assert.ok(name, 'ReluBad is not on screen');
  // The lens line is the one just above the function's name.
  let best: { index: number; dy: number } | undefined;
  const links = page.locator('.codelens-decoration a', { hasText: /^jaxpr( \(tracing failed\))?$/ });
  for (let i = 0; i < (await links.count()); i++) {
    const box = await links.nth(i).boundingBox();
    const dy = box === null ? -1 : name.y - box.y;
    if (box !== null && dy > 0 && (best === undefined || dy < best.dy)) {
      best = { index: i, dy };
    }
  }
  assert.ok(best, 'no "jaxpr" lens above ReluBad');
  await links.nth(best.index).click();
  const toast = page.locator('.notification-toast', { hasText: 'could not build the jaxpr of ReluBad' }).first();
  await toast.waitFor({ timeout: 240_000 });
  assert.match((await toast.textContent()) ?? '', /TracerBoolConversionError/);
  await page.waitForTimeout(1_000); // let the notification finish sliding in
  await page.screenshot({ path: path.join(screenshots, 'lens-error.png') });
});

test('switching tracedbool off in the Settings editor removes its diagnostic, on brings it back', { skip: !e2eEnabled, timeout: 300_000 }, async () => {
  // The change reaches jitls as workspace/didChangeConfiguration, without a restart.
  const page = cs.page;
  await page.keyboard.press('Escape');
  const source = page.locator('.tab', { hasText: 'step6_control_flow.go' });
  await source.click();
  const squiggles = page.locator('.editor-group-container.active .view-overlays [class*="squiggly-"]');
  await squiggles.first().waitFor({ state: 'attached', timeout: 60_000 });
  const toggle = async (): Promise<void> => {
    await cs.runCommand('Preferences: Open Settings (UI)');
    // The Settings editor opens with the focus in its search box.
    await page.locator('.settings-editor').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1_000);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('jitls.analyzers.tracedbool');
    const checkbox = page.locator('.settings-editor .setting-item-bool .setting-value-checkbox').first();
    await checkbox.waitFor({ timeout: 30_000 });
    await checkbox.click();
    await source.click();
  };
  // The file has other findings too (batchedcond's, on the Cond under Vmap), so
  // the test counts squiggles: one fewer with tracedbool off, as many again with it on.
  const countBecomes = async (ok: (n: number) => boolean): Promise<void> => {
    const deadline = Date.now() + 120_000;
    while (!ok(await squiggles.count())) {
      if (Date.now() > deadline) {
        throw new Error(`squiggle count stayed at ${await squiggles.count()}`);
      }
      await page.waitForTimeout(250);
    }
  };
  await page.waitForTimeout(2_000); // let every finding of the file render
  const before = await squiggles.count();
  await toggle();
  await countBecomes((n) => n < before);
  assert.match(cs.jitlsOutput(), /\[settings\] sent to jitls: .*"tracedbool":false/);
  await toggle();
  await countBecomes((n) => n === before);
  assert.match(cs.jitlsOutput(), /\[settings\] sent to jitls: .*"tracedbool":true/);
  assert.doesNotMatch(cs.jitlsOutput(), /\[restart\]/);
});
