// Tokenises jaxpr text with the extension's TextMate grammar through the same
// engine VS Code uses (vscode-textmate + the oniguruma WebAssembly build).

import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const root = path.join(__dirname, '..', '..');
let grammar: textmate.IGrammar;

before(async () => {
  const wasm = fs.readFileSync(path.join(root, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: (scopeName: string) => {
      if (scopeName !== 'source.jaxpr') {
        return Promise.resolve(null);
      }
      const file = path.join(root, 'syntaxes', 'jaxpr.tmLanguage.json');
      return Promise.resolve(textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file));
    },
  });
  const loaded = await registry.loadGrammar('source.jaxpr');
  assert.ok(loaded, 'grammar source.jaxpr did not load');
  grammar = loaded;
});

/** Tokenises text and returns [token text, innermost scope] pairs, whitespace dropped. */
function tokens(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let state = textmate.INITIAL;
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const s = line.slice(t.startIndex, t.endIndex);
      if (s.trim() !== '') {
        out.push([s, t.scopes[t.scopes.length - 1]]);
      }
    }
    state = r.ruleStack;
  }
  return out;
}

/** The innermost scope of the character at marker's index plus delta. */
function scopeAt(text: string, marker: string, delta: number): string {
  const offset = text.indexOf(marker);
  assert.notEqual(offset, -1, marker);
  let lineStart = 0;
  let state = textmate.INITIAL;
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    const at = offset + delta - lineStart;
    if (at >= 0 && at < line.length) {
      const t = r.tokens.find((tok) => tok.startIndex <= at && at < tok.endIndex);
      assert.ok(t);
      return t.scopes[t.scopes.length - 1];
    }
    lineStart += line.length + 1;
    state = r.ruleStack;
  }
  throw new Error(`offset of ${marker} + ${delta} is past the text`);
}

function scopeOf(text: string, token: string, nth = 0): string {
  const hits = tokens(text).filter(([s]) => s === token);
  assert.ok(hits.length > nth, `token ${JSON.stringify(token)} #${nth} not found in ${JSON.stringify(tokens(text))}`);
  return hits[nth][1];
}

test('a flat jaxpr: keywords, binders, types, primitives, operands', () => {
  const text = '{ lambda ; a:f32[4]. let b:f32[4] = cos a; c:f32[4] = sin b in (c,) }';
  assert.deepEqual(tokens(text), [
    ['{', 'punctuation.section.braces.begin.jaxpr'],
    ['lambda', 'keyword.other.lambda.jaxpr'],
    [';', 'punctuation.separator.constvars.jaxpr'],
    ['a', 'variable.other.jaxpr'],
    [':', 'punctuation.separator.type.jaxpr'],
    ['f32', 'storage.type.dtype.jaxpr'],
    ['[', 'punctuation.definition.shape.begin.jaxpr'],
    ['4', 'constant.numeric.dimension.jaxpr'],
    [']', 'punctuation.definition.shape.end.jaxpr'],
    ['.', 'punctuation.terminator.invars.jaxpr'],
    ['let', 'keyword.other.let.jaxpr'],
    ['b', 'variable.other.jaxpr'],
    [':', 'punctuation.separator.type.jaxpr'],
    ['f32', 'storage.type.dtype.jaxpr'],
    ['[', 'punctuation.definition.shape.begin.jaxpr'],
    ['4', 'constant.numeric.dimension.jaxpr'],
    [']', 'punctuation.definition.shape.end.jaxpr'],
    ['=', 'keyword.operator.assignment.jaxpr'],
    ['cos', 'entity.name.function.primitive.jaxpr'],
    ['a', 'variable.other.jaxpr'],
    [';', 'punctuation.separator.constvars.jaxpr'],
    ['c', 'variable.other.jaxpr'],
    [':', 'punctuation.separator.type.jaxpr'],
    ['f32', 'storage.type.dtype.jaxpr'],
    ['[', 'punctuation.definition.shape.begin.jaxpr'],
    ['4', 'constant.numeric.dimension.jaxpr'],
    [']', 'punctuation.definition.shape.end.jaxpr'],
    ['=', 'keyword.operator.assignment.jaxpr'],
    ['sin', 'entity.name.function.primitive.jaxpr'],
    ['b', 'variable.other.jaxpr'],
    ['in', 'keyword.other.in.jaxpr'],
    ['(', 'punctuation.separator.jaxpr'],
    ['c', 'variable.other.jaxpr'],
    [',', 'punctuation.separator.jaxpr'],
    [')', 'punctuation.separator.jaxpr'],
    ['}', 'punctuation.section.braces.end.jaxpr'],
  ]);
});

test('typed literals, multi-dimensional shapes and unused outputs', () => {
  const text = [
    '{ lambda ; a:f32[3,4] b:i32[]. let',
    '    c:bool[3,4] = gt a 0.0:f32[]',
    '    _:i32[] = add b -1:i32[]',
    '    d:f32[3,4] = select_n c 1.6699999570846558:f32[] a',
    '    e:bool[] = and True:bool[] True:bool[]',
    '  in (d,) }',
  ].join('\n');
  assert.equal(scopeOf(text, '0.0'), 'constant.numeric.literal.jaxpr');
  assert.equal(scopeOf(text, '-1'), 'constant.numeric.literal.jaxpr');
  assert.equal(scopeOf(text, '1.6699999570846558'), 'constant.numeric.literal.jaxpr');
  assert.equal(scopeOf(text, 'True', 1), 'constant.numeric.literal.jaxpr');
  assert.equal(scopeOf(text, 'bool'), 'storage.type.dtype.jaxpr');
  assert.equal(scopeOf(text, 'i32', 1), 'storage.type.dtype.jaxpr');
  assert.equal(scopeOf(text, '_'), 'variable.other.jaxpr');
  assert.equal(scopeOf(text, 'select_n'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeOf(text, ','), 'punctuation.separator.dimension.jaxpr');
  assert.equal(scopeOf(text, '}'), 'punctuation.section.braces.end.jaxpr');
});

test('params: keys, values, and not mistaken for primitives', () => {
  const text =
    '{ lambda ; a:f32[8]. let b:f32[] = reduce_sum[axes=(0,) out_sharding=None] a; ' +
    'c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b in (c,) }';
  assert.equal(scopeOf(text, 'reduce_sum'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeOf(text, 'axes'), 'variable.parameter.jaxpr');
  assert.equal(scopeOf(text, 'None'), 'constant.language.jaxpr');
  assert.equal(scopeOf(text, 'False'), 'constant.language.jaxpr');
  assert.equal(scopeOf(text, 'float32'), 'support.constant.jaxpr');
  assert.equal(scopeOf(text, 'new_dtype'), 'variable.parameter.jaxpr');
  assert.equal(scopeAt(text, 'reduce_sum[', 10), 'punctuation.section.parameters.begin.jaxpr');
  assert.equal(scopeAt(text, 'None]', 4), 'punctuation.section.parameters.end.jaxpr');
  assert.equal(scopeOf(text, 'convert_element_type'), 'entity.name.function.primitive.jaxpr');
});

test('nested jaxprs in broken params, and the hoisted "let name = ... in" form', () => {
  const text = [
    'let lambda = { lambda ; a:f32[1]. let b:f32[1] = integer_pow[y=2] a in (b,) } in',
    '{ lambda ; c:f32[1]. let',
    '    d:f32[1] = jit[',
    '      name=<lambda>',
    '      jaxpr={ lambda ; c:f32[1]. let',
    '          e:f32[1] = jit[name=<lambda> jaxpr=lambda] c',
    '          d:f32[1] = add e e',
    '        in (d,) }',
    '    ] c',
    '  in (d,) }',
  ].join('\n');
  assert.equal(scopeOf(text, 'let'), 'keyword.other.let.jaxpr');
  assert.equal(scopeOf(text, 'lambda'), 'entity.name.function.jaxpr');
  assert.equal(scopeOf(text, 'integer_pow'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeOf(text, 'y'), 'variable.parameter.jaxpr');
  assert.equal(scopeOf(text, '2'), 'constant.numeric.jaxpr');
  assert.equal(scopeOf(text, '<lambda>'), 'string.unquoted.name.jaxpr');
  assert.equal(scopeOf(text, 'jaxpr'), 'variable.parameter.jaxpr');
  assert.equal(scopeOf(text, 'add'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeAt(text, '    ] c', 4), 'punctuation.section.parameters.end.jaxpr');
  assert.equal(scopeAt(text, 'jaxpr=lambda]', 12), 'punctuation.section.parameters.end.jaxpr');
  // After the nested jaxpr and the params close, the outer jaxpr is still being read.
  const last = tokens(text).slice(-7);
  assert.deepEqual(last, [
    ['c', 'variable.other.jaxpr'],
    ['in', 'keyword.other.in.jaxpr'],
    ['(', 'punctuation.separator.jaxpr'],
    ['d', 'variable.other.jaxpr'],
    [',', 'punctuation.separator.jaxpr'],
    [')', 'punctuation.separator.jaxpr'],
    ['}', 'punctuation.section.braces.end.jaxpr'],
  ]);
});

test('cond branches: a tuple of jaxprs inside params; the header comment', () => {
  const text = [
    '# SoftOrSharp(bool[], f32[3]) · 2 equations',
    '{ lambda ; a:bool[] b:f32[3]. let',
    '    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a',
    '    d:f32[3] = cond[',
    '      branches=(',
    '        { lambda ; e:f32[3]. let f:f32[3] = logistic e in (f,) }',
    '        { lambda ; g:f32[3]. let h:f32[3] = max g 0.0:f32[] in (h,) }',
    '      )',
    '    ] c b',
    '  in (d,) }',
  ].join('\n');
  assert.equal(scopeOf(text, '# SoftOrSharp(bool[], f32[3]) · 2 equations'), 'comment.line.number-sign.jaxpr');
  assert.equal(scopeOf(text, 'branches'), 'variable.parameter.jaxpr');
  assert.equal(scopeOf(text, 'logistic'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeOf(text, 'max'), 'entity.name.function.primitive.jaxpr');
  assert.equal(scopeOf(text, 'lambda', 2), 'keyword.other.lambda.jaxpr');
  assert.equal(scopeOf(text, '0.0'), 'constant.numeric.literal.jaxpr');
  assert.equal(scopeOf(text, 'in', 2), 'keyword.other.in.jaxpr');
});
