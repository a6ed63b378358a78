import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { CallAttributes } from '@argspan/conventions';
import { classifyCall } from '@argspan/core';
import { memoryTracing } from '../test-support/tracing.js';
import { ArgspanRefusedError } from './errors.js';
import { instrumentDispatch } from './instrumentation.js';
import type { Classifier, RemoteHopRequest } from './types.js';

const key = randomBytes(32);
const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

describe('audit mode (enforce: false)', () => {
  it('records what the policy would do and dispatches anyway', async () => {
    const { provider, spans } = memoryTracing();
    const tool = vi.fn(async () => 'ran');
    const policy = { remoteTools: ['web.post'], remoteAllowlist: ['web.post'] };
    const enforced = instrumentDispatch(tool, { tracerProvider: provider, hashKey: key, policy });
    await expect(enforced('web.post', { body: TOKEN })).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(tool).not.toHaveBeenCalled();
    const audited = instrumentDispatch(tool, { tracerProvider: provider, hashKey: key, policy, enforce: false });
    await expect(audited('web.post', { body: TOKEN })).resolves.toBe('ran');
    const [first, second] = spans().filter((s) => s.name === 'execute_tool web.post');
    for (const s of [first!, second!]) {
      expect(s.attributes[CallAttributes.ENFORCEMENT]).toBe('deny');
      expect(s.attributes[CallAttributes.TOOL_REMOTE]).toBe(true);
    }
    expect(second!.attributes['error.type']).toBeUndefined();
  });
});

describe('the remote hop request', () => {
  it('never carries a leaf labelled secret or dirty-tree, whatever classifier let the call hop', async () => {
    const { provider } = memoryTracing();
    // A faulty classifier: one leaf labelled secret (inherited), yet the call said remote-ok.
    const faulty: Classifier = (call, ctx, options) => {
      const c = classifyCall(call, ctx, options);
      return {
        ...c,
        verdict: 'remote-ok',
        residency: 'bulky-public',
        leaves: c.leaves.map((l) => (l.key === 'note' ? { ...l, residency: 'secret', rule: 'inherited-secret' } : l)),
      };
    };
    const requests: RemoteHopRequest[] = [];
    const remote = vi.fn(async (r: RemoteHopRequest) => void requests.push(r));
    const run = instrumentDispatch(async () => 'local', { tracerProvider: provider, hashKey: key, classifier: faulty, remote, policy: { remoteAllowlist: ['summarise'] } });
    await run('summarise', { doc: 'x'.repeat(9000), note: 'correct-horse-battery-staple-42', list: ['a', 'b'] });
    expect(remote).toHaveBeenCalledOnce();
    expect(requests[0]!.args).toEqual({ doc: 'x'.repeat(9000), note: '[REDACTED:inherited-secret]', list: ['a', 'b'] });
  });
});
