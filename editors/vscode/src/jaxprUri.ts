// The "jaxpr:" URI scheme of the read-only documents that show a function's
// jaxpr. The URI carries the source file and the function name, so a jaxpr
// tab restored after a window reload can ask the server again.

/** The URI scheme of jaxpr documents. */
export const JAXPR_SCHEME = 'jaxpr';

/** Which preview a jaxpr document shows. */
export interface JaxprTarget {
  /** The Go source file's URI as a string, e.g. "file:///home/me/m/step6.go". */
  source: string;
  /** The traced top-level function's name, e.g. "ReluBad". */
  function: string;
}

/** The parts of a jaxpr URI, in the shape vscode.Uri.from takes. */
export interface UriComponents {
  scheme: string;
  path: string;
  query: string;
}

/**
 * Builds the URI of the document showing target's jaxpr. Its path,
 * "/<package directory>/<Function>.jaxpr", gives the tab a readable title and
 * the .jaxpr extension that selects the jaxpr grammar; the query holds the target.
 */
export function jaxprUri(target: JaxprTarget): UriComponents {
  const query = new URLSearchParams({ source: target.source, function: target.function }).toString();
  return { scheme: JAXPR_SCHEME, path: `/${packageDirName(target.source)}/${target.function}.jaxpr`, query };
}

/** Reads the target back from a jaxpr URI's query; undefined when it is not one of ours. */
export function parseJaxprQuery(query: string): JaxprTarget | undefined {
  const params = new URLSearchParams(query);
  const source = params.get('source');
  const fn = params.get('function');
  if (!source || !fn || !isGoIdentifier(fn)) {
    return undefined;
  }
  return { source, function: fn };
}

/** Reports whether name is a Go identifier (ASCII subset), as function names in commands must be. */
export function isGoIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

function packageDirName(source: string): string {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(source).pathname);
  } catch {
    return 'go';
  }
  const parts = pathname.split('/').filter((part) => part !== '');
  return parts.length >= 2 ? parts[parts.length - 2] : 'go';
}
