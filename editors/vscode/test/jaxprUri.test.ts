import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { isGoIdentifier, JAXPR_SCHEME, jaxprUri, parseJaxprQuery } from '../src/jaxprUri';

test('a jaxpr URI names the package directory and function, and round-trips its target', () => {
  const target = { source: 'file:///home/me/m/examples/codelab/step6_control_flow.go', function: 'ReluWhere' };
  const uri = jaxprUri(target);
  assert.equal(uri.scheme, JAXPR_SCHEME);
  assert.equal(uri.path, '/codelab/ReluWhere.jaxpr');
  assert.deepEqual(parseJaxprQuery(uri.query), target);
});

test('sources with spaces, percent signs and query characters survive the round trip', () => {
  const target = { source: 'file:///home/me/my%20dir/a%26b/x.go', function: 'F' };
  const uri = jaxprUri(target);
  assert.equal(uri.path, '/a&b/F.jaxpr');
  assert.deepEqual(parseJaxprQuery(uri.query), target);
});

test('queries that are not ours are rejected', () => {
  assert.equal(parseJaxprQuery(''), undefined);
  assert.equal(parseJaxprQuery('source=file:///x.go'), undefined);
  assert.equal(parseJaxprQuery('source=file:///x.go&function=a.b'), undefined);
  assert.equal(parseJaxprQuery('function=F'), undefined);
});

test('a source that is not a URL still gives a path', () => {
  assert.equal(jaxprUri({ source: 'not a url', function: 'F' }).path, '/go/F.jaxpr');
});

test('isGoIdentifier', () => {
  assert.equal(isGoIdentifier('ReluBad'), true);
  assert.equal(isGoIdentifier('_x9'), true);
  assert.equal(isGoIdentifier('9x'), false);
  assert.equal(isGoIdentifier('(*T).M'), false);
});
