import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  ANALYZERS,
  DEFAULT_UNROLLED_LOOP_MAX,
  didChangeConfigurationSettings,
  initializationOptions,
  readServerSettings,
} from '../src/settings';

const allOn = {
  tracedbool: true,
  unrolledloop: true,
  staticargs: true,
  shapechurn: true,
  traceeffect: true,
  wherenan: true,
  batchedcond: true,
};

test('defaults: every analyzer on, loop limit 32, no problems', () => {
  const { settings, problems } = readServerSettings({});
  assert.deepEqual(settings, { analyzers: allOn, unrolledLoopMax: DEFAULT_UNROLLED_LOOP_MAX, runtimeEvents: '' });
  assert.deepEqual(problems, []);
  assert.deepEqual([...ANALYZERS].sort(), Object.keys(allOn).sort());
});

test('user values are carried into initializationOptions with the trust state', () => {
  const { settings } = readServerSettings({ analyzers: { shapechurn: false }, unrolledLoopMax: 8, runtimeEvents: ' /tmp/ev.jsonl ' });
  assert.deepEqual(initializationOptions(settings, true), {
    allowCodeExecution: true,
    analyzers: { ...allOn, shapechurn: false },
    unrolledLoopMax: 8,
    runtimeEvents: '/tmp/ev.jsonl',
  });
  assert.equal(initializationOptions(settings, false).allowCodeExecution, false);
});

test('didChangeConfiguration payload is {jitls: {analyzers, unrolledLoopMax}} without trust', () => {
  const { settings } = readServerSettings({ analyzers: { traceeffect: false }, unrolledLoopMax: 64 });
  const payload = didChangeConfigurationSettings(settings);
  assert.deepEqual(payload, { jitls: { analyzers: { ...allOn, traceeffect: false }, unrolledLoopMax: 64, runtimeEvents: '' } });
  assert.equal('allowCodeExecution' in payload.jitls, false);
});

test('the payloads are copies: changing one does not change the settings', () => {
  const { settings } = readServerSettings({});
  initializationOptions(settings, true).analyzers.tracedbool = false;
  didChangeConfigurationSettings(settings).jitls.analyzers.staticargs = false;
  assert.deepEqual(settings.analyzers, allOn);
});

test('bad values fall back to defaults and are reported by setting name', () => {
  const { settings, problems } = readServerSettings({
    analyzers: { tracedbool: 'no', nosuch: false, unrolledloop: false },
    unrolledLoopMax: 2.5,
  });
  assert.deepEqual(settings, { analyzers: { ...allOn, unrolledloop: false }, unrolledLoopMax: 32, runtimeEvents: '' });
  assert.deepEqual(
    problems.map((p) => p.setting),
    ['jitls.analyzers.tracedbool', 'jitls.analyzers.nosuch', 'jitls.unrolledLoopMax'],
  );
  assert.match(problems[1].message, /known: tracedbool, unrolledloop/);
  assert.match(problems[2].message, /at least 1.*using 32/);
});

test('zero, negative and non-number loop limits are rejected', () => {
  for (const bad of [0, -3, '16', Number.NaN]) {
    const { settings, problems } = readServerSettings({ unrolledLoopMax: bad });
    assert.equal(settings.unrolledLoopMax, 32, String(bad));
    assert.equal(problems.length, 1, String(bad));
  }
});

test('a non-object analyzers value is reported and ignored', () => {
  const { settings, problems } = readServerSettings({ analyzers: ['tracedbool'] });
  assert.deepEqual(settings.analyzers, allOn);
  assert.equal(problems[0].setting, 'jitls.analyzers');
});

test('runtimeEvents must be a string; anything else is reported and turned off', () => {
  const { settings, problems } = readServerSettings({ runtimeEvents: 42 });
  assert.equal(settings.runtimeEvents, '');
  assert.deepEqual(
    problems.map((p) => p.setting),
    ['jitls.runtimeEvents'],
  );
});
