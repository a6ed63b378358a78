import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { ArgAttributes, CallAttributes, GenAiAttributes, OtelAttributes } from '@argspan/conventions';
import { parseRecordedCall } from '@argspan/core';
import type { ClassifyOptions } from '@argspan/core';
import { ArgspanGateError, ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { memoryTracing } from '../packages/instrumentation/test-support/tracing.js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { checkCase, loadCases } from './support/case-table.js';

function byCallId(spans: ReadableSpan[], callId: string): ReadableSpan {
  const found = spans.filter((s) => s.attributes[GenAiAttributes.TOOL_CALL_ID] === callId);
  expect(found, `execute_tool span of ${callId}`).toHaveLength(1);
  return found[0]!;
}

/**
 * The shared case table run through the instrumentation: each case's context entries are real
 * earlier tool calls (so links point at real spans), then the case's call is dispatched and its
 * spans are read back into the shape `checkCase` checks.
 */
describe('shared case table through the instrumentation spans', () => {
  for (const c of loadCases()) {
    it(c.name, async () => {
      const { provider, spans } = memoryTracing();
      const rec = parseRecordedCall(c.raw);
      const policy: ClassifyOptions = { ...rec.policy };
      if (rec.dirty) policy.dirty = { root: '/repo', paths: new Set(rec.dirty), prefixes: [], lines: new Set() };
      const userText = rec.context.userText;
      const session = new ArgspanSession({ runId: `case-${c.name.slice(0, 9)}`, ...(userText !== undefined ? { userText } : {}) });
      const schema = {
        ...(rec.context.schemaDefaults ? { defaults: rec.context.schemaDefaults } : {}),
        ...(rec.context.safeDefaults ? { safeDefaults: rec.context.safeDefaults } : {}),
      };
      const results = new Map<string, unknown>();
      const dispatch = vi.fn(async (tool: string) => (tool === 'context.source' ? results.get('next') : 'done'));
      const inst = new ArgspanInstrumentation({
        tracerProvider: provider,
        hashKey: Buffer.alloc(32, 1),
        session,
        policy: { ...policy, localTools: ['context.source'] },
        schemas: { [rec.call.tool]: schema },
      });
      const run = inst.wrapDispatch(dispatch);
      const sourceSpans = new Map<string, string>();
      for (const [i, entry] of (rec.context.context ?? []).entries()) {
        const e = typeof entry === 'string' ? { content: entry } : entry;
        results.set('next', e.content);
        const callId = e.callId ?? `anon-${i}`;
        // A context source call has no arguments worth classifying; it only produces the result.
        await run('context.source', { n: i }, { callId }).catch(() => undefined);
        if (e.callId) sourceSpans.set(e.callId, byCallId(spans(), callId).spanContext().spanId);
      }
      dispatch.mockClear();

      const err = await run(rec.call.tool, rec.call.args, { callId: 'case-call' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const tool = byCallId(spans(), 'case-call');
      const a = tool.attributes;
      const args = spans().filter((s) => s.parentSpanContext?.spanId === tool.spanContext().spanId);
      checkCase(
        {
          residency: String(a[CallAttributes.RESIDENCY]),
          verdict: String(a[CallAttributes.VERDICT]),
          gate: { action: String(a[CallAttributes.GATE_ACTION]), hits: (a[CallAttributes.GATE_HITS] as string[]) ?? [] },
          leaves: args.map((s) => {
            const l = {
              key: String(s.attributes[ArgAttributes.KEY]),
              residency: String(s.attributes[ArgAttributes.RESIDENCY]),
              provenance: String(s.attributes[ArgAttributes.PROVENANCE]),
              rule: String(s.attributes[ArgAttributes.RULE]),
            };
            const src = s.attributes[ArgAttributes.SOURCE_CALL_ID];
            return src === undefined ? l : { ...l, sourceCallId: String(src) };
          }),
        },
        c.expect,
      );
      // Every context_retrieved leaf with a source call links to that call's span.
      for (const s of args) {
        const src = s.attributes[ArgAttributes.SOURCE_CALL_ID];
        if (src !== undefined) expect(s.links.map((l) => l.context.spanId)).toEqual([sourceSpans.get(String(src))]);
      }
      const stopped = a[CallAttributes.VERDICT] === 'refuse' || a[CallAttributes.GATE_ACTION] !== 'allow';
      expect(dispatch).toHaveBeenCalledTimes(stopped ? 0 : 1);
      expect(err instanceof ArgspanGateError).toBe(stopped);
      expect(tool.status.code).toBe(stopped ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
      if (stopped) expect(a[OtelAttributes.ERROR_TYPE]).toBe((err as ArgspanGateError).errorType);
      // The canary AWS-shaped value of seed000-1 never reaches a span.
      expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('AKIAQ7CANARYZARGSPAN');
    });
  }
});
