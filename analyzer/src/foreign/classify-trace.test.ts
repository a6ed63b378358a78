import { describe, expect, it } from 'vitest';
import { classifyForeignTrace, type ForeignArgRow, type ForeignRowSink } from './classify-trace.js';
import type { ForeignSpan } from './types.js';

// A value copied out of the result of a call that read a secret file is secret in the call it is
// copied into, as in argspan's own sessions: the result is linked to its call by call id
// (GenAI conventions) or, without one, by the tool span that returned it (OpenLLMetry).
const HOST = 'billing-7f3k9q.internal.example';
const RESULT = `API_HOST=${HOST}\nDEBUG=false`;

let clock = 0n;
function span(spanId: string, attrs: Record<string, string>): ForeignSpan {
  const startNs = (clock += 1000n);
  const endNs = (clock += 1000n);
  return { traceId: 't1', spanId, parentSpanId: 'root', name: spanId, startNs, endNs, recordedEndNs: endNs, scope: 'other', fileId: 1, attrs: new Map(Object.entries(attrs)) };
}

const userPrompt = () => span('chat', { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Look up the billing service host and check it.' }] }]) });

function genAiTool(spanId: string, tool: string, callId: string, args: unknown, result?: string): ForeignSpan {
  return span(spanId, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'gen_ai.tool.call.id': callId,
    'gen_ai.tool.call.arguments': JSON.stringify(args),
    ...(result !== undefined ? { 'gen_ai.tool.call.result': result } : {}),
  });
}

function traceloopTool(spanId: string, tool: string, kwargs: unknown, result?: string): ForeignSpan {
  return span(spanId, {
    'traceloop.span.kind': 'tool',
    'traceloop.entity.name': tool,
    'traceloop.entity.input': JSON.stringify({ args: [], kwargs }),
    ...(result !== undefined ? { 'traceloop.entity.output': result } : {}),
  });
}

/** The argument rows of `tool` in the trace, as `key residency rule provenance`. */
function argsOf(spans: ForeignSpan[], tool: string): string[] {
  const tools: string[] = [];
  const rows: { callNo: number; row: ForeignArgRow }[] = [];
  const sink: ForeignRowSink = {
    call: (c) => tools.push(c.tool) - 1,
    arg: (callNo, row) => rows.push({ callNo, row }),
    blob: () => {},
  };
  classifyForeignTrace(spans, { policy: {} }, sink);
  return rows.filter((r) => tools[r.callNo] === tool).map(({ row }) => `${row.key} ${row.residency} ${row.rule} ${row.provenance}`);
}

describe('classifyForeignTrace: residency passed on by results', () => {
  it('makes a value copied from a secret file read secret (linked by call id)', () => {
    const spans = [userPrompt(), genAiTool('read', 'read_file', 'call_1', { path: '/app/.env' }, RESULT), genAiTool('check', 'check_host', 'call_2', { host: HOST })];
    expect(argsOf(spans, 'check_host')).toEqual(['host secret inherited-secret context_retrieved']);
  });

  it('makes a value copied from a secret file read secret (linked by the tool span, no call id)', () => {
    const spans = [userPrompt(), traceloopTool('read', 'read_file', { path: '/app/.env' }, RESULT), traceloopTool('check', 'check_host', { host: HOST })];
    expect(argsOf(spans, 'check_host')).toEqual(['host secret inherited-secret context_retrieved']);
  });

  it('leaves a value copied from an ordinary file read as it is', () => {
    const spans = [userPrompt(), genAiTool('read', 'read_file', 'call_1', { path: '/app/config.txt' }, RESULT), genAiTool('check', 'check_host', 'call_2', { host: HOST })];
    expect(argsOf(spans, 'check_host')).toEqual(['host tiny-public tiny context_retrieved']);
  });

  it('passes nothing to a call that started before the result was returned', () => {
    const read = genAiTool('read', 'read_file', 'call_1', { path: '/app/.env' }, RESULT);
    const early = genAiTool('check', 'check_host', 'call_2', { host: HOST });
    early.startNs = read.startNs;
    expect(argsOf([userPrompt(), read, early], 'check_host')).toEqual(['host tiny-public tiny model_inferred']);
  });
});
