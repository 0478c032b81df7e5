// Checks that package.json's contributions agree with the code: every
// analyzer has its setting, every command is registered, the grammar is
// where the manifest says, and trust is declared as the brief requires.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANALYZERS, DEFAULT_UNROLLED_LOOP_MAX } from '../src/settings';

const root = path.join(__dirname, '..', '..');
interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    configuration: { properties: Record<string, { type: string; default: unknown }> };
    commands: Array<{ command: string; title: string }>;
    menus: { commandPalette: Array<{ command: string; when: string }> };
    languages: Array<{ id: string; extensions: string[]; configuration: string }>;
    grammars: Array<{ language: string; scopeName: string; path: string }>;
    semanticTokenModifiers: Array<{ id: string }>;
    semanticTokenScopes: Array<{ language: string; scopes: Record<string, string[]> }>;
  };
}
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const extensionSource = fs.readFileSync(path.join(root, 'src', 'extension.ts'), 'utf8');

test('each analyzer has a boolean jitls.analyzers.<name> setting, on by default', () => {
  const props = manifest.contributes.configuration.properties;
  const declared = Object.keys(props).filter((k) => k.startsWith('jitls.analyzers.'));
  assert.deepEqual(declared.sort(), ANALYZERS.map((a) => `jitls.analyzers.${a}`).sort());
  for (const key of declared) {
    assert.deepEqual([props[key].type, props[key].default], ['boolean', true], key);
  }
  assert.deepEqual([props['jitls.unrolledLoopMax'].type, props['jitls.unrolledLoopMax'].default], ['integer', DEFAULT_UNROLLED_LOOP_MAX]);
  assert.equal(props['jitls.path'].default, '');
});

test('every contributed command is registered by activate(), and the palette shows them in Go files', () => {
  for (const { command } of manifest.contributes.commands) {
    assert.ok(extensionSource.includes(`registerCommand('${command}'`), `${command} is contributed but not registered`);
  }
  const palette = Object.fromEntries(manifest.contributes.menus.commandPalette.map((m) => [m.command, m.when]));
  assert.equal(palette['jitlint.showJaxpr'], 'editorLangId == go');
  assert.equal(palette['jitlint.measureCompileCost'], 'editorLangId == go');
  assert.equal(palette['jitlint.diffJaxpr'], 'editorLangId == go');
});

test('the traced and static modifiers of jitls are declared and mapped to scopes the default themes colour', () => {
  assert.deepEqual(
    manifest.contributes.semanticTokenModifiers.map((m) => m.id),
    ['traced', 'static'],
  );
  const [go] = manifest.contributes.semanticTokenScopes;
  assert.equal(go.language, 'go');
  // jitls's legend: token types variable, parameter, property (lsp/semantictokens.go).
  for (const type of ['variable', 'parameter', 'property']) {
    assert.deepEqual(go.scopes[`${type}.traced`], ['string.regexp'], type);
    assert.deepEqual(go.scopes[`${type}.static`], ['constant.language'], type);
  }
  const props = manifest.contributes.configuration.properties;
  assert.deepEqual([props['jitls.runtimeEvents'].type, props['jitls.runtimeEvents'].default], ['string', '']);
});

test('activation on Go files; limited support in untrusted workspaces, with jitls.path restricted', () => {
  assert.deepEqual(manifest.activationEvents, ['onLanguage:go']);
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['jitls.path']);
  assert.ok(extensionSource.includes('onDidGrantWorkspaceTrust'));
});

test('the jaxpr language and grammar files exist and agree', () => {
  const [language] = manifest.contributes.languages;
  const [grammar] = manifest.contributes.grammars;
  assert.deepEqual([language.id, language.extensions], ['jaxpr', ['.jaxpr']]);
  assert.equal(grammar.language, 'jaxpr');
  const tm = JSON.parse(fs.readFileSync(path.join(root, grammar.path), 'utf8')) as { scopeName: string };
  assert.equal(tm.scopeName, grammar.scopeName);
  assert.ok(fs.existsSync(path.join(root, language.configuration)));
  assert.equal(manifest.main, './dist/extension.js');
});

test('engines.vscode is what @types/vscode and vscode-languageclient were chosen for', () => {
  assert.equal(manifest.engines.vscode, `^${manifest.devDependencies['@types/vscode']}`);
  const client = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules', 'vscode-languageclient', 'package.json'), 'utf8'),
  ) as { version: string; engines: { vscode: string } };
  assert.equal(client.version, manifest.dependencies['vscode-languageclient']);
  // The client's minimum VS Code must not be newer than ours (both are ^1.N.0 ranges).
  const minor = (range: string): number => Number(/\^1\.(\d+)\./.exec(range)?.[1]);
  assert.ok(minor(client.engines.vscode) <= minor(manifest.engines.vscode), `${client.engines.vscode} vs ${manifest.engines.vscode}`);
});
