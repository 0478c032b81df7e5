// Entry point of the jitlint VS Code extension: wires the jitls language
// client, the preview commands, the jaxpr: documents and the trust and
// configuration events together.

import * as vscode from 'vscode';
import { JaxprDocuments } from './jaxprDocuments';
import { JAXPR_SCHEME } from './jaxprUri';
import { ServerCommands } from './serverCommands';
import { ServerController } from './serverController';

let controller: ServerController | undefined;

/** Called by VS Code when a Go file is opened or a jitlint command runs. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('jitls');
  // Each part reaches the others through closures that run only after activation.
  const documents: JaxprDocuments = new JaxprDocuments((target) => commands.fetchForDocument(target));
  const commands: ServerCommands = new ServerCommands(() => server.languageClient, documents, output);
  const server: ServerController = new ServerController(output, commands.middleware());
  controller = server;

  context.subscriptions.push(
    output,
    documents,
    server,
    vscode.workspace.registerTextDocumentContentProvider(JAXPR_SCHEME, documents),
    vscode.languages.registerDocumentLinkProvider({ scheme: JAXPR_SCHEME }, documents),
    vscode.workspace.onDidCloseTextDocument((doc) => documents.forget(doc)),
    vscode.commands.registerCommand('jitlint.showJaxpr', () => commands.showJaxprAtCursor()),
    vscode.commands.registerCommand('jitlint.measureCompileCost', () => commands.measureCompileCostAtCursor()),
    vscode.commands.registerCommand('jitlint.diffJaxpr', () => commands.diffJaxprAtCursor()),
    vscode.commands.registerCommand('jitlint.restartServer', () => server.restart('restart requested')),
    vscode.workspace.onDidGrantWorkspaceTrust(() => server.restart('workspace trust granted: previews are now allowed')),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('jitls.path')) {
        void server.restart('jitls.path changed');
      } else if (
        e.affectsConfiguration('jitls.analyzers') ||
        e.affectsConfiguration('jitls.unrolledLoopMax') ||
        e.affectsConfiguration('jitls.runtimeEvents')
      ) {
        void server.sendSettings();
      }
    }),
  );
  await server.start();
}

/** Called by VS Code on shutdown: stops jitls and waits for it. */
export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.stop();
}
