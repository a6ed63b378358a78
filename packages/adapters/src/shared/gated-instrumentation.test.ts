import { describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes } from '@argspan/conventions';
import { classifyCall } from '@argspan/core';
import { ArgspanRefusedError, FAIL_CLOSED_REASON } from '@argspan/instrumentation';
import { argSpans, memoryTracing, only } from '../../test-support/fixtures.js';
import { gatedInstrumentation, toolSchemaFromJsonSchema } from './gated-instrumentation.js';

const hashKey = new Uint8Array(32).fill(9);
const dirty = { root: '/repo', paths: new Set(['src/config.py']), prefixes: [], lines: new Set<string>() };

describe('gatedInstrumentation', () => {
  it('denies a secret call by default (the policy\'s denyResidencies) and never runs the tool; the reason keeps the rule and key', async () => {
    const { provider, spans } = memoryTracing();
    const run = vi.fn();
    const { instrumentation } = gatedInstrumentation({ tracerProvider: provider, hashKey });
    const err = await instrumentation.call('fs.read', { path: '.env' }, { callId: 'c1' }, run).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArgspanRefusedError);
    expect(run).not.toHaveBeenCalled();
    const core = classifyCall({ tool: 'fs.read', args: { path: '.env' } });
    expect(core.verdict).toBe('local');
    const attrs = only(spans(), 'execute_tool fs.read').attributes;
    expect(attrs[CallAttributes.VERDICT_REASON]).toBe(core.reason);
    expect(attrs[CallAttributes.ENFORCEMENT_REASON]).toBe(core.enforcement.reason);
  });

  it('runs a dirty-tree call by default and denies it when the policy lists dirty-tree', async () => {
    const call = (denyResidencies?: ('secret' | 'dirty-tree')[]) => {
      const { instrumentation } = gatedInstrumentation({ hashKey, policy: { dirty, ...(denyResidencies ? { denyResidencies } : {}) } });
      return instrumentation.call('fs.read', { path: '/repo/src/config.py' }, undefined, () => 'ran');
    };
    await expect(call()).resolves.toBe('ran');
    await expect(call(['secret', 'dirty-tree'])).rejects.toBeInstanceOf(ArgspanRefusedError);
    await expect(call([])).resolves.toBe('ran');
  });

  it('rejects a misspelt residency when it is built, instead of silently denying nothing', () => {
    expect(() => gatedInstrumentation({ hashKey, policy: { denyResidencies: ['secrets' as 'secret'] } })).toThrow(/denyResidencies must hold residency labels/);
  });

  it('fails closed when a custom classifier throws', async () => {
    const { provider, spans } = memoryTracing();
    const run = vi.fn();
    const { instrumentation } = gatedInstrumentation({ tracerProvider: provider, hashKey, classifier: () => { throw new Error('boom'); } });
    await expect(instrumentation.call('t', { a: 1 }, undefined, run)).rejects.toBeInstanceOf(ArgspanRefusedError);
    expect(run).not.toHaveBeenCalled();
    expect(only(spans(), 'execute_tool t').attributes[CallAttributes.VERDICT_REASON]).toBe(FAIL_CLOSED_REASON);
  });

  it('uses a schema learned after construction, but a configured schema wins', async () => {
    const { provider, spans } = memoryTracing();
    const g = gatedInstrumentation({ tracerProvider: provider, hashKey, schemas: { pinned: { defaults: {} } } });
    const schema = { type: 'object', properties: { sort: { type: 'string', default: 'name' } } };
    g.learnTool('listing', { type: 'function', jsonSchema: schema });
    g.learnTool('pinned', { type: 'function', jsonSchema: schema });
    expect(g.hasSchema('listing')).toBe(true);
    await g.instrumentation.call('listing', { sort: 'name' }, undefined, () => 1);
    await g.instrumentation.call('pinned', { sort: 'name' }, undefined, () => 1);
    const provenance = (tool: string) => argSpans(spans(), only(spans(), `execute_tool ${tool}`))[0]?.attributes[ArgAttributes.PROVENANCE];
    expect(provenance('listing')).toBe('schema_default');
    expect(provenance('pinned')).toBe('model_inferred');
  });

  it('reads declared keys and defaults from a JSON schema', () => {
    expect(
      toolSchemaFromJsonSchema({
        type: 'object',
        properties: { path: { type: 'string' }, opts: { type: 'object', properties: { depth: { type: 'number', default: 2 } } } },
      }),
    ).toEqual({ publicKeys: ['path', 'opts', 'opts.depth'], defaults: { 'opts.depth': 2 } });
  });
});
