// The payloads of jitls's workspace/executeCommand commands (see the jitls ↔
// editor contract): checking them and turning them into text for the user.

/** The server command that returns a function's jaxpr. */
export const SHOW_JAXPR = 'jitls.showJaxpr';
/** The server command that traces, lowers, compiles and times a function. */
export const MEASURE_COMPILE_COST = 'jitls.measureCompileCost';
/** The server command that traces a function under two signatures and diffs the jaxprs. */
export const DIFF_JAXPR = 'jitls.diffJaxpr';

/** The argument object of both server commands (and of the server's code lenses). */
export interface FunctionArgument {
  /** The Go file's URI. */
  uri: string;
  /** The traced top-level function's name. */
  function: string;
}

/** What jitls.showJaxpr returns. jaxprSources and links are absent from servers older than the source map. */
export interface ShowJaxprResult {
  function: string;
  signature: string;
  jaxpr: string;
  eqns: number;
  /** The jaxpr with "# file.go:line" after each equation ("" when the server did not send it). */
  jaxprSources: string;
  /** For lines of jaxprSources that end an equation: the Go line that staged it. */
  links: JaxprLink[];
}

/** A line of a jaxpr (0-based, in jaxprSources) and the Go location (URI, 0-based line) that staged it. */
export interface JaxprLink {
  jaxprLine: number;
  uri: string;
  line: number;
}

/** What jitls.diffJaxpr returns. */
export interface DiffJaxprResult {
  function: string;
  signatures: [string, string];
  diff: string;
  summary: string;
}

/** What jitls.measureCompileCost returns; times are in milliseconds. */
export interface CompileCostResult {
  function: string;
  signature: string;
  backend: string;
  device: string;
  traceMs: number;
  lowerMs: number;
  compileMs: number;
  firstCallMs: number;
  cachedCallMs: number;
}

/** Reads the argument of a server command invocation (the first element of its arguments). */
export function parseFunctionArgument(args: readonly unknown[]): FunctionArgument | undefined {
  const arg = args[0];
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const { uri, function: fn } = arg as Record<string, unknown>;
  if (typeof uri !== 'string' || typeof fn !== 'string' || uri === '' || fn === '') {
    return undefined;
  }
  return { uri, function: fn };
}

/** Checks a jitls.showJaxpr result; throws an Error naming the first bad field. */
export function parseShowJaxprResult(value: unknown): ShowJaxprResult {
  const obj = expectObject(value, SHOW_JAXPR);
  return {
    function: expectField(obj, 'function', 'string', SHOW_JAXPR),
    signature: expectField(obj, 'signature', 'string', SHOW_JAXPR),
    jaxpr: expectField(obj, 'jaxpr', 'string', SHOW_JAXPR),
    eqns: expectField(obj, 'eqns', 'number', SHOW_JAXPR),
    jaxprSources: typeof obj.jaxprSources === 'string' ? obj.jaxprSources : '',
    links: Array.isArray(obj.links) ? obj.links.flatMap(parseLink) : [],
  };
}

/** Reads one {jaxprLine, location: {uri, range}} link; a malformed one is dropped. */
function parseLink(value: unknown): JaxprLink[] {
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  const { jaxprLine, location } = value as { jaxprLine?: unknown; location?: { uri?: unknown; range?: { start?: { line?: unknown } } } };
  const uri = location?.uri;
  const line = location?.range?.start?.line;
  if (typeof jaxprLine !== 'number' || typeof uri !== 'string' || typeof line !== 'number') {
    return [];
  }
  return [{ jaxprLine, uri, line }];
}

/** Checks a jitls.diffJaxpr result; throws an Error naming the first bad field. */
export function parseDiffJaxprResult(value: unknown): DiffJaxprResult {
  const obj = expectObject(value, DIFF_JAXPR);
  const sigs = obj.signatures;
  if (!Array.isArray(sigs) || sigs.length !== 2 || typeof sigs[0] !== 'string' || typeof sigs[1] !== 'string') {
    throw new Error(`${DIFF_JAXPR} returned no two "signatures" (got ${JSON.stringify(sigs)}); is jitls older or newer than this extension?`);
  }
  return {
    function: expectField(obj, 'function', 'string', DIFF_JAXPR),
    signatures: [sigs[0], sigs[1]],
    diff: expectField(obj, 'diff', 'string', DIFF_JAXPR),
    summary: expectField(obj, 'summary', 'string', DIFF_JAXPR),
  };
}

/** The text of a diff document: the one-line summary as a comment, then the unified diff. */
export function renderJaxprDiff(result: DiffJaxprResult): string {
  const head = `# ${result.function}: ${result.signatures[0]} → ${result.signatures[1]}\n# ${result.summary}\n`;
  return result.diff === '' ? `${head}# the two jaxprs are identical\n` : `${head}${result.diff}`;
}

/** Checks a jitls.measureCompileCost result; throws an Error naming the first bad field. */
export function parseCompileCostResult(value: unknown): CompileCostResult {
  const obj = expectObject(value, MEASURE_COMPILE_COST);
  const num = (key: string): number => expectField(obj, key, 'number', MEASURE_COMPILE_COST);
  const str = (key: string): string => expectField(obj, key, 'string', MEASURE_COMPILE_COST);
  return {
    function: str('function'),
    signature: str('signature'),
    backend: str('backend'),
    device: typeof obj.device === 'string' ? obj.device : '',
    traceMs: num('traceMs'),
    lowerMs: num('lowerMs'),
    compileMs: num('compileMs'),
    firstCallMs: num('firstCallMs'),
    cachedCallMs: num('cachedCallMs'),
  };
}

/**
 * The text of a jaxpr document: a "#" header line naming the function, then
 * the jaxpr (with "# file.go:line" per equation when the server sent it).
 */
export function renderJaxprDocument(result: ShowJaxprResult): string {
  const eqns = `${result.eqns} equation${result.eqns === 1 ? '' : 's'}`;
  const jaxpr = result.jaxprSources !== '' ? result.jaxprSources : result.jaxpr;
  const body = jaxpr.endsWith('\n') ? jaxpr : `${jaxpr}\n`;
  return `# ${result.function}(${result.signature}) · ${eqns}\n${body}`;
}

/** The links of the document renderJaxprDocument makes: its 0-based line (after the header) → Go location. */
export function jaxprDocumentLinks(result: ShowJaxprResult): JaxprLink[] {
  if (result.jaxprSources === '') {
    return [];
  }
  return result.links.map((l) => ({ ...l, jaxprLine: l.jaxprLine + 1 }));
}

/**
 * One line summarising a measurement, the numbers people look for first (a
 * notification shows only its start): "Heavy(f32[8]): compile 41.2 ms ·
 * cached call 0.031 ms · first call 45.0 ms · trace 1.20 ms · lower 0.300 ms · cpu".
 */
export function formatCompileCost(result: CompileCostResult): string {
  const device = result.device.trim();
  const where = device === '' || device.startsWith(result.backend) ? device || result.backend : `${result.backend} (${device})`;
  const phases = [
    `compile ${formatMs(result.compileMs)}`,
    `cached call ${formatMs(result.cachedCallMs)}`,
    `first call ${formatMs(result.firstCallMs)}`,
    `trace ${formatMs(result.traceMs)}`,
    `lower ${formatMs(result.lowerMs)}`,
    where,
  ];
  return `${result.function}(${result.signature}): ${phases.join(' · ')}`;
}

/** Formats milliseconds with about three significant digits: 0.031 ms, 4.50 ms, 41.2 ms, 1234 ms. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) {
    return `${ms} ms`;
  }
  const abs = Math.abs(ms);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${ms.toFixed(digits)} ms`;
}

function expectObject(value: unknown, command: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${command} returned ${JSON.stringify(value)}, not an object; is jitls older or newer than this extension?`);
  }
  return value as Record<string, unknown>;
}

function expectField<T extends 'string' | 'number'>(
  obj: Record<string, unknown>,
  key: string,
  type: T,
  command: string,
): T extends 'string' ? string : number {
  const value = obj[key];
  if (typeof value !== type) {
    throw new Error(`${command} returned no ${type} "${key}" (got ${JSON.stringify(value)}); is jitls older or newer than this extension?`);
  }
  return value as T extends 'string' ? string : number;
}
