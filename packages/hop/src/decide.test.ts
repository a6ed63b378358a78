import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';

const up = { ok: true };
const down = { ok: false };
const free = { live: false };
const held = { live: true };
const step = (o: object = {}) => ({ index: 0, secretsLeft: false, ...o });

// Seed 001 `decide(step, probe, lease)`: the first matching rule wins.
describe('decide (seed 001 precedence)', () => {
  it.each([
    ['localOnly beats everything', step({ localOnly: true, needRemoteCapacity: true, secretsLeft: true }), up, free, 'local', 'local-only'],
    ['localOnly beats a failed probe', step({ localOnly: true }), down, held, 'local', 'local-only'],
    ['secrets left + forbidRemoteSecrets -> local', step({ secretsLeft: true, forbidRemoteSecrets: true, needRemoteCapacity: true }), up, free, 'local', 'secrets-left'],
    ['secrets left beat a failed probe', step({ secretsLeft: true }), down, free, 'local', 'secrets-left'],
    ['forbidRemoteSecrets defaults to true', step({ secretsLeft: true, needRemoteCapacity: true }), up, free, 'local', 'secrets-left'],
    ['secrets allowed remote when forbidRemoteSecrets is false', step({ secretsLeft: true, forbidRemoteSecrets: false, needRemoteCapacity: true }), up, free, 'remote', 'need-remote-capacity'],
    ['probe failed -> queue', step({ needRemoteCapacity: true }), down, free, 'queue', 'probe-failed'],
    ['probe failed beats a live lease', step({ needRemoteCapacity: true }), down, held, 'queue', 'probe-failed'],
    ['probe failed queues even without remote need', step(), down, free, 'queue', 'probe-failed'],
    ['live lease -> wait', step({ needRemoteCapacity: true }), up, held, 'wait', 'lease-live'],
    ['live lease -> wait even without remote need', step(), up, held, 'wait', 'lease-live'],
    ['needRemoteCapacity -> remote', step({ needRemoteCapacity: true }), up, free, 'remote', 'need-remote-capacity'],
    ['else local', step(), up, free, 'local', 'prefer-local'],
  ])('%s', (_name, s, probe, lease, decision, reason) => {
    expect(decide(s, probe, lease)).toEqual({ decision, reason });
  });
});
