import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { goFunctionAt, topLevelFunctions } from '../src/goFunctionAt';

const src = `package codelab

import "github.com/jitlint/jitlint/jit"

// ReluBad branches on a traced value.
func ReluBad(x jit.Array) jit.Array {
	if x.Gt(0).Bool() {
		return x
	}
	return jit.ZerosLike(x)
}

type T struct{}

func (T) Method(x jit.Array) jit.Array {
	return x
}

func Map[T any](x T) T { return x }

func Main() {
	f := jit.Jit(ReluBad)
	_ = f
}
`;

function at(marker: string, delta = 0): number {
  const i = src.indexOf(marker);
  assert.notEqual(i, -1, marker);
  return i + delta;
}

test('the cursor inside a body selects the enclosing function', () => {
  assert.equal(goFunctionAt(src, at('x.Gt(0)')), 'ReluBad');
  assert.equal(goFunctionAt(src, at('return jit.ZerosLike')), 'ReluBad');
  assert.equal(goFunctionAt(src, at('func ReluBad', 7)), 'ReluBad');
});

test('the closing brace belongs to the function, the line after it does not', () => {
  assert.equal(goFunctionAt(src, at('}\n\ntype T')), 'ReluBad');
  assert.equal(goFunctionAt(src, at('\ntype T')), undefined);
  assert.equal(goFunctionAt(src, at('type T', 3)), undefined);
});

test('an identifier naming a top-level function wins: the jit.Jit(ReluBad) call', () => {
  assert.equal(goFunctionAt(src, at('jit.Jit(ReluBad)', 10)), 'ReluBad');
  assert.equal(goFunctionAt(src, at('f := jit')), 'Main');
});

test('methods are not top-level functions; generic functions and one-liners are', () => {
  assert.equal(goFunctionAt(src, at('return x\n}\n\nfunc Map')), undefined);
  assert.equal(goFunctionAt(src, at('{ return x }', 3)), 'Map');
  assert.deepEqual([...topLevelFunctions(src)], ['ReluBad', 'Map', 'Main']);
});

test('after a one-line function the cursor is outside it', () => {
  const text = 'package p\n\nfunc One() int { return 1 }\n\nvar x = 1\n';
  assert.equal(goFunctionAt(text, text.indexOf('\nvar')), undefined);
  assert.equal(goFunctionAt('package p\n', 3), undefined);
});
