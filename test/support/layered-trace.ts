import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorType } from '@argspan/conventions';

const TOKYO = fileURLToPath(new URL('../../fixtures/traces/tokyo-invite.jsonl', import.meta.url));

interface OtlpSpan {
  traceId: string;
  spanId: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/**
 * OTLP JSON lines of an agent wrapped by argspan whose model client is traced too (OpenTelemetry's
 * openai-v2 instrumentation, GenAI conventions): `tokyo-invite.jsonl` plus a chat span whose
 * `gen_ai.output.messages` asks for the call argspan recorded as `call_00000004`, by the same id.
 * With `heldByGate`, argspan's gate held that call for a question; `title` is the proposed title.
 */
export function layeredTokyoTrace(heldByGate: boolean, title = 'Sync'): string {
  const lines = readFileSync(TOKYO, 'utf8').trim().split('\n');
  const doc = JSON.parse(lines[0]!) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
  const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
  if (heldByGate) {
    const call = spans.find((s) => s.spanId === '70c0000000000004')!;
    call.attributes = call.attributes.filter((a) => !['argspan.gate.action', 'argspan.enforcement'].includes(a.key));
    call.attributes.push(str('argspan.gate.action', 'ask'), str('argspan.enforcement', 'hold'), str('argspan.gate.question', 'Which timezone?'), str('error.type', ErrorType.CLARIFICATION));
    call.attributes.push({ key: 'argspan.gate.hits', value: { arrayValue: { values: [{ stringValue: 'calendar.create.timezone' }, { stringValue: 'calendar.create.attendee.email' }] } } });
    lines[0] = JSON.stringify(doc);
  }
  const modelSpan = {
    traceId: spans[0]!.traceId,
    spanId: '70c00000000000f1',
    parentSpanId: '70c0000000000001',
    name: 'chat gpt-4.1',
    kind: 3,
    startTimeUnixNano: spans[0]!.startTimeUnixNano,
    endTimeUnixNano: spans[0]!.startTimeUnixNano,
    attributes: [
      str('gen_ai.operation.name', 'chat'),
      str('gen_ai.request.model', 'gpt-4.1'),
      str('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Set up a sync with Kenji in Tokyo' }] }])),
      str('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_00000004', name: 'calendar.create', arguments: { title, timezone: 'Asia/Tokyo', attendee: { email: 'kenji@example.com' } } }], finish_reason: 'tool_call' }])),
    ],
  };
  lines.push(JSON.stringify({ resourceSpans: [{ resource: { attributes: [str('service.name', 'calendar-assistant')] }, scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2' }, spans: [modelSpan] }] }] }));
  return `${lines.join('\n')}\n`;
}
