// Finds the Go function a palette command applies to: the top-level function
// named by the identifier under the cursor (e.g. on `jit.Jit(ReluBad)`), else
// the top-level function whose body holds the cursor. A line scan, not a
// parser: gofmt'ed Go puts top-level `func` and its closing `}` in column 0.

const TOP_LEVEL_FUNC = /^func\s+([A-Za-z_][A-Za-z0-9_]*)\s*[[(]/;

/** Returns the name of the function at offset in a Go file's text, or undefined when there is none. */
export function goFunctionAt(text: string, offset: number): string | undefined {
  const declared = topLevelFunctions(text);
  const word = identifierAt(text, offset);
  if (word !== undefined && declared.has(word)) {
    return word;
  }
  return enclosingFunction(text, offset);
}

/** The names of the file's top-level functions (methods excluded). */
export function topLevelFunctions(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = TOP_LEVEL_FUNC.exec(line);
    if (m) {
      names.add(m[1]);
    }
  }
  return names;
}

function enclosingFunction(text: string, offset: number): string | undefined {
  const lines = text.split('\n');
  const cursorLine = text.slice(0, Math.max(0, Math.min(offset, text.length))).split('\n').length - 1;
  for (let i = cursorLine; i >= 0; i--) {
    const line = lines[i];
    const m = TOP_LEVEL_FUNC.exec(line);
    if (m) {
      const oneLiner = /}\s*(\/\/.*)?$/.test(line) && !/{\s*(\/\/.*)?$/.test(line);
      return oneLiner && i !== cursorLine ? undefined : m[1];
    }
    // A column-0 brace closes a top-level declaration; on the cursor's own line it is the function's end.
    if (i !== cursorLine && line.startsWith('}')) {
      return undefined;
    }
    // Any other column-0 declaration (type, var, method) means the cursor is not in a top-level function.
    if (i !== cursorLine && /^(func\s*\(|type\s|var\s|const\s|import\s|package\s)/.test(line)) {
      return undefined;
    }
  }
  return undefined;
}

function identifierAt(text: string, offset: number): string | undefined {
  const isIdent = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);
  let start = offset;
  while (start > 0 && isIdent(text[start - 1])) {
    start--;
  }
  let end = offset;
  while (end < text.length && isIdent(text[end])) {
    end++;
  }
  const word = text.slice(start, end);
  return /^[A-Za-z_]/.test(word) ? word : undefined;
}
