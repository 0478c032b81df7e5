import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  formatCompileCost,
  formatMs,
  parseCompileCostResult,
  parseFunctionArgument,
  jaxprDocumentLinks,
  parseDiffJaxprResult,
  parseShowJaxprResult,
  renderJaxprDiff,
  renderJaxprDocument,
} from '../src/serverResults';

const jaxpr = '{ lambda ; a:f32[1000000]. let b:f32[1000000] = sin a in (b,) }';

test('a showJaxpr result becomes a document with a header line', () => {
  const result = parseShowJaxprResult({ function: 'Heavy', signature: 'f32[1000000]', jaxpr, eqns: 1, extra: 1 });
  assert.equal(renderJaxprDocument(result), `# Heavy(f32[1000000]) · 1 equation\n${jaxpr}\n`);
  assert.equal(renderJaxprDocument({ ...result, eqns: 61, jaxpr: 'x\n' }), '# Heavy(f32[1000000]) · 61 equations\nx\n');
});

test('malformed results name the command and the bad field', () => {
  assert.throws(() => parseShowJaxprResult(null), /jitls.showJaxpr returned null, not an object/);
  assert.throws(
    () => parseShowJaxprResult({ function: 'F', signature: 's', jaxpr: 1, eqns: 1 }),
    /jitls.showJaxpr returned no string "jaxpr" \(got 1\)/,
  );
  assert.throws(() => parseCompileCostResult({ function: 'F' }), /jitls.measureCompileCost returned no string "signature"/);
});

test('a compile-cost result is summarised on one line', () => {
  const result = parseCompileCostResult({
    function: 'Heavy',
    signature: 'f32[1000000]',
    backend: 'cpu',
    device: 'cpu:0',
    traceMs: 1.2,
    lowerMs: 0.3,
    compileMs: 41.23,
    firstCallMs: 123.4,
    cachedCallMs: 0.031,
  });
  assert.equal(
    formatCompileCost(result),
    'Heavy(f32[1000000]): compile 41.2 ms · cached call 0.031 ms · first call 123 ms · trace 1.20 ms · lower 0.300 ms · cpu:0',
  );
  assert.match(formatCompileCost({ ...result, device: '' }), / · lower 0.300 ms · cpu$/);
  assert.match(formatCompileCost({ ...result, device: 'cpu (2 threads)' }), / · cpu \(2 threads\)$/);
  assert.match(formatCompileCost({ ...result, backend: 'gpu', device: 'NVIDIA H200' }), / · gpu \(NVIDIA H200\)$/);
});

test('formatMs keeps about three significant digits', () => {
  assert.equal(formatMs(0.0312), '0.031 ms');
  assert.equal(formatMs(4.5), '4.50 ms');
  assert.equal(formatMs(41.23), '41.2 ms');
  assert.equal(formatMs(1234.5), '1235 ms');
  assert.equal(formatMs(Number.NaN), 'NaN ms');
});

test('command arguments are {uri, function} objects', () => {
  assert.deepEqual(parseFunctionArgument([{ uri: 'file:///a.go', function: 'F' }]), { uri: 'file:///a.go', function: 'F' });
  assert.equal(parseFunctionArgument([]), undefined);
  assert.equal(parseFunctionArgument(['F']), undefined);
  assert.equal(parseFunctionArgument([{ uri: 'file:///a.go' }]), undefined);
});

test('showJaxpr with sources: the document shows them and links each equation line (after the header) to its Go line', () => {
  const jaxprSources = '{ lambda ; a:f32[4]. let\n    b:f32[4] = sin a  # m.go:11\n  in (b,) }';
  const result = parseShowJaxprResult({
    function: 'Model',
    signature: 'f32[4]',
    jaxpr: '{ lambda ; a:f32[4]. let b:f32[4] = sin a in (b,) }',
    eqns: 1,
    jaxprSources,
    links: [
      { jaxprLine: 1, location: { uri: 'file:///w/m.go', range: { start: { line: 10, character: 0 }, end: { line: 10, character: 0 } } } },
      { jaxprLine: 'x', location: {} },
    ],
  });
  const text = renderJaxprDocument(result);
  assert.equal(text, `# Model(f32[4]) · 1 equation\n${jaxprSources}\n`);
  const links = jaxprDocumentLinks(result);
  assert.deepEqual(links, [{ jaxprLine: 2, uri: 'file:///w/m.go', line: 10 }]);
  assert.match(text.split('\n')[links[0].jaxprLine], /# m\.go:11$/);
  // An older server without sources: the plain jaxpr and no links.
  const old = parseShowJaxprResult({ function: 'Model', signature: 'f32[4]', jaxpr: 'j', eqns: 1 });
  assert.deepEqual([renderJaxprDocument(old), jaxprDocumentLinks(old)], ['# Model(f32[4]) · 1 equation\nj\n', []]);
});

test('diffJaxpr results are checked and rendered with the summary first', () => {
  const result = parseDiffJaxprResult({
    function: 'Power',
    signatures: ['2, f32[4]', '3, f32[4]'],
    jaxprs: ['a', 'b'],
    diff: '--- Power(2, f32[4])\n+++ Power(3, f32[4])\n@@ -1 +1 @@\n-a\n+b\n',
    summary: 'equations 2 → 3; primitives mul 2→3',
  });
  assert.equal(
    renderJaxprDiff(result),
    '# Power: 2, f32[4] → 3, f32[4]\n# equations 2 → 3; primitives mul 2→3\n--- Power(2, f32[4])\n+++ Power(3, f32[4])\n@@ -1 +1 @@\n-a\n+b\n',
  );
  assert.match(renderJaxprDiff({ ...result, diff: '' }), /# the two jaxprs are identical\n$/);
  assert.throws(() => parseDiffJaxprResult({ function: 'F', signatures: ['a'], diff: '', summary: '' }), /no two "signatures"/);
});
