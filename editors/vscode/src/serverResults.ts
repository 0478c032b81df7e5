// The payloads of jitls's workspace/executeCommand commands (see the jitls ↔
// editor contract): checking them and turning them into text for the user.

/** The server command that returns a function's jaxpr. */
export const SHOW_JAXPR = 'jitls.showJaxpr';
/** The server command that traces, lowers, compiles and times a function. */
export const MEASURE_COMPILE_COST = 'jitls.measureCompileCost';

/** The argument object of both server commands (and of the server's code lenses). */
export interface FunctionArgument {
  /** The Go file's URI. */
  uri: string;
  /** The traced top-level function's name. */
  function: string;
}

/** What jitls.showJaxpr returns. */
export interface ShowJaxprResult {
  function: string;
  signature: string;
  jaxpr: string;
  eqns: number;
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
  };
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

/** The text of a jaxpr document: a "#" header line naming the function, then the jaxpr. */
export function renderJaxprDocument(result: ShowJaxprResult): string {
  const eqns = `${result.eqns} equation${result.eqns === 1 ? '' : 's'}`;
  const body = result.jaxpr.endsWith('\n') ? result.jaxpr : `${result.jaxpr}\n`;
  return `# ${result.function}(${result.signature}) · ${eqns}\n${body}`;
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
