// The read-only "jaxpr:" documents: a content provider holding the text the
// server returned, and able to ask the server again for a tab restored after
// a window reload.

import * as vscode from 'vscode';
import { JAXPR_SCHEME, JaxprTarget, jaxprUri, parseJaxprQuery } from './jaxprUri';
import { JaxprLink } from './serverResults';

/** A jaxpr document's text and its links from equation lines to Go lines. */
export interface JaxprText {
  text: string;
  links: JaxprLink[];
}

/** Fetches the document text for a target from the server; rejects with a readable Error. */
export type JaxprFetcher = (target: JaxprTarget) => Promise<JaxprText>;

/**
 * Provides the text of jaxpr: documents (register it with
 * registerTextDocumentContentProvider) and the links from each equation to
 * the Go line that staged it (registerDocumentLinkProvider).
 */
export class JaxprDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly texts = new Map<string, JaxprText>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();

  /** Fired when a shown document's text is replaced (a new preview of the same function). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly fetch: JaxprFetcher) {}

  /** Stores text for target and opens (or refreshes) its read-only document beside the editor. */
  async show(target: JaxprTarget, text: JaxprText): Promise<void> {
    const uri = vscode.Uri.from(jaxprUri(target));
    const key = uri.toString();
    const known = this.texts.has(key);
    this.texts.set(key, text);
    if (known) {
      this.changed.fire(uri);
    }
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'jaxpr') {
      doc = await vscode.languages.setTextDocumentLanguage(doc, 'jaxpr');
    }
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  /** Returns the stored text, or asks the server when the tab outlived this session. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const stored = this.texts.get(uri.toString());
    if (stored !== undefined) {
      return stored.text;
    }
    const target = parseJaxprQuery(uri.query);
    if (target === undefined) {
      return `# ${uri.toString()} is not a jaxpr preview made by this extension.\n`;
    }
    try {
      const text = await this.fetch(target);
      this.texts.set(uri.toString(), text);
      return text.text;
    } catch (err) {
      return `# No jaxpr for ${target.function}: ${err instanceof Error ? err.message : String(err)}\n# Run "jitlint: Show Jaxpr of Function at Cursor" again once that is fixed.\n`;
    }
  }

  /** Links the source comment of each equation of a jaxpr document to its Go line (file URI with an #L<line> fragment). */
  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const stored = this.texts.get(doc.uri.toString());
    if (stored === undefined) {
      return [];
    }
    return stored.links
      .filter((l) => l.jaxprLine < doc.lineCount)
      .map((l) => {
        // The link covers the "# file.go:line" comment (the whole line if there is none).
        const line = doc.lineAt(l.jaxprLine);
        const at = line.text.lastIndexOf('  # ');
        const range = at < 0 ? line.range : new vscode.Range(l.jaxprLine, at + 2, l.jaxprLine, line.text.length);
        const link = new vscode.DocumentLink(range, vscode.Uri.parse(l.uri).with({ fragment: `L${l.line + 1}` }));
        link.tooltip = `Go to the Go line that staged this equation (line ${l.line + 1})`;
        return link;
      });
  }

  /** Forgets a closed document's text. */
  forget(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === JAXPR_SCHEME) {
      this.texts.delete(doc.uri.toString());
    }
  }

  /** Drops every stored text and the change event. */
  dispose(): void {
    this.texts.clear();
    this.changed.dispose();
  }
}
