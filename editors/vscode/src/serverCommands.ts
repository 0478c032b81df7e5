// The two preview commands: run jitls.showJaxpr / jitls.measureCompileCost on
// the server with a cancellable progress notification, and present the result
// (a jaxpr: document, or a one-line summary). Used by the palette commands and,
// through the client middleware, by clicks on the server's code lenses.

import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, Middleware, ResponseError } from 'vscode-languageclient/node';
import { goFunctionAt } from './goFunctionAt';
import { JaxprDocuments, JaxprText } from './jaxprDocuments';
import { JaxprTarget } from './jaxprUri';
import {
  DIFF_JAXPR,
  formatCompileCost,
  FunctionArgument,
  jaxprDocumentLinks,
  MEASURE_COMPILE_COST,
  parseCompileCostResult,
  parseDiffJaxprResult,
  parseFunctionArgument,
  parseShowJaxprResult,
  renderJaxprDiff,
  renderJaxprDocument,
  SHOW_JAXPR,
} from './serverResults';

/** Thrown when the user cancelled a running preview; shown to nobody. */
class Cancelled extends Error {}

/** Runs the preview commands against whichever client is running now. */
export class ServerCommands {
  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly documents: JaxprDocuments,
    private readonly output: vscode.OutputChannel,
  ) {}

  /** Client middleware that routes the server's own commands (its code lenses) through this class. */
  middleware(): Middleware {
    return {
      executeCommand: async (command, args, next) => {
        const arg = parseFunctionArgument(args);
        if (arg !== undefined && command === SHOW_JAXPR) {
          return this.showJaxpr(arg);
        }
        if (arg !== undefined && command === MEASURE_COMPILE_COST) {
          return this.measureCompileCost(arg);
        }
        const result: unknown = await next(command, args);
        return result;
      },
    };
  }

  /** The jitlint.showJaxpr palette command: the function at the cursor of the active Go editor. */
  async showJaxprAtCursor(): Promise<void> {
    const arg = this.functionAtCursor();
    if (arg !== undefined) {
      await this.showJaxpr(arg);
    }
  }

  /** The jitlint.measureCompileCost palette command. */
  async measureCompileCostAtCursor(): Promise<void> {
    const arg = this.functionAtCursor();
    if (arg !== undefined) {
      await this.measureCompileCost(arg);
    }
  }

  /**
   * The jitlint.diffJaxpr palette command: asks for two signatures (//jit:args
   * syntax) and opens the server's diff of the two jaxprs in a diff document.
   */
  async diffJaxprAtCursor(): Promise<void> {
    const arg = this.functionAtCursor();
    if (arg === undefined) {
      return;
    }
    const ask = (n: number, value: string): Thenable<string | undefined> =>
      vscode.window.showInputBox({
        title: `jitlint: jaxpr diff of ${arg.function}`,
        prompt: `Signature ${n} in //jit:args syntax, e.g. f32[4] or 3, f32[4,4]`,
        value,
        ignoreFocusOut: true,
      });
    const first = await ask(1, 'f32[4]');
    if (first === undefined) {
      return;
    }
    const second = await ask(2, first);
    if (second === undefined) {
      return;
    }
    try {
      const raw = await this.execute(DIFF_JAXPR, { ...arg, signatures: [first, second] }, `jitls: tracing ${arg.function} twice…`);
      const result = parseDiffJaxprResult(raw);
      this.output.appendLine(`[jaxpr diff] ${result.function}: ${result.summary}`);
      const doc = await vscode.workspace.openTextDocument({ language: 'diff', content: renderJaxprDiff(result) });
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    } catch (err) {
      await this.report(err, `diff the jaxprs of ${arg.function}`);
    }
  }

  /** Asks the server for arg's jaxpr and opens it in a read-only jaxpr: document. */
  async showJaxpr(arg: FunctionArgument): Promise<void> {
    try {
      const text = await this.fetchJaxpr(arg, true);
      await this.documents.show({ source: arg.uri, function: arg.function }, text);
    } catch (err) {
      await this.report(err, `build the jaxpr of ${arg.function}`);
    }
  }

  /** Asks the server to trace, lower, compile and time arg, and shows the phases on one line. */
  async measureCompileCost(arg: FunctionArgument): Promise<void> {
    try {
      const raw = await this.execute(MEASURE_COMPILE_COST, arg, `jitls: measuring the compile cost of ${arg.function}…`);
      const line = formatCompileCost(parseCompileCostResult(raw));
      this.output.appendLine(`[compile cost] ${line}`);
      void vscode.window.showInformationMessage(line);
    } catch (err) {
      await this.report(err, `measure the compile cost of ${arg.function}`);
    }
  }

  /** The text of target's jaxpr document, fetched from the server (for restored tabs: no progress UI). */
  fetchForDocument(target: JaxprTarget): Promise<JaxprText> {
    return this.fetchJaxpr({ uri: target.source, function: target.function }, false);
  }

  private async fetchJaxpr(arg: FunctionArgument, withProgress: boolean): Promise<JaxprText> {
    const raw = withProgress
      ? await this.execute(SHOW_JAXPR, arg, `jitls: building the jaxpr of ${arg.function}…`)
      : await this.request(SHOW_JAXPR, arg, undefined);
    const result = parseShowJaxprResult(raw);
    return { text: renderJaxprDocument(result), links: jaxprDocumentLinks(result) };
  }

  private execute(command: string, arg: FunctionArgument & { signatures?: string[] }, title: string): Promise<unknown> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) =>
        this.request(command, arg, token),
      ),
    );
  }

  private async request(
    command: string,
    arg: FunctionArgument & { signatures?: string[] },
    token: vscode.CancellationToken | undefined,
  ): Promise<unknown> {
    const client = this.client();
    if (client === undefined || !client.isRunning()) {
      throw new Error('the jitls language server is not running (see the "jitls" output for why; "jitlint: Restart Language Server" starts it again)');
    }
    try {
      return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] }, token);
    } catch (err) {
      if (token?.isCancellationRequested || err instanceof vscode.CancellationError) {
        throw new Cancelled();
      }
      throw err;
    }
  }

  private functionAtCursor(): FunctionArgument | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || editor.document.languageId !== 'go') {
      void vscode.window.showErrorMessage('jitlint: open a Go file and put the cursor in a traced function first.');
      return undefined;
    }
    const doc = editor.document;
    const name = goFunctionAt(doc.getText(), doc.offsetAt(editor.selection.active));
    if (name === undefined) {
      void vscode.window.showErrorMessage(
        'jitlint: the cursor is not inside a top-level Go function or on its name; move it into the traced function (methods are not supported).',
      );
      return undefined;
    }
    return { uri: doc.uri.toString(), function: name };
  }

  private async report(err: unknown, what: string): Promise<void> {
    if (err instanceof Cancelled) {
      return;
    }
    const detail = err instanceof ResponseError || err instanceof Error ? err.message : String(err);
    this.output.appendLine(`[error] could not ${what}: ${detail}`);
    const actions = vscode.workspace.isTrusted ? ['Show Output'] : ['Manage Workspace Trust', 'Show Output'];
    const choice = await vscode.window.showErrorMessage(`jitls could not ${what}: ${detail}`, ...actions);
    if (choice === 'Show Output') {
      this.output.show(true);
    } else if (choice === 'Manage Workspace Trust') {
      await vscode.commands.executeCommand('workbench.trust.manage');
    }
  }
}
