import { gzipSync } from 'node:zlib';
import type { OtlpSpan } from './otlp-json.js';
import { RULE_CASES, ruleCaseLines, FIXTURE_RESOURCE } from './rule-cases.js';
import { dotenvLeak, tokyoInvite } from './scenarios.js';

/** Files under fixtures/traces/ that are generated (everything except the zstd ones and the corpus copies). */
export function fixtureFiles(): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  const text = (lines: string[]) => Buffer.from(lines.join('\n') + '\n');
  const tokyo = tokyoInvite();
  files['tokyo-invite.jsonl'] = text(tokyo.lines('agent', 200, FIXTURE_RESOURCE));
  files['dotenv.jsonl'] = text(dotenvLeak().lines('agent', 200, FIXTURE_RESOURCE));
  for (const rule of Object.keys(RULE_CASES)) {
    files[`rules/${rule}/tp.jsonl`] = text(ruleCaseLines(rule, 'tp'));
    files[`rules/${rule}/fp.jsonl`] = text(ruleCaseLines(rule, 'fp'));
  }
  const lines = tokyo.lines('agent', 3, FIXTURE_RESOURCE);
  files['formats/otlp-lines.jsonl'] = text(lines);
  files['formats/otlp-lines.jsonl.gz'] = gzipSync(text(lines));
  files['formats/rotated/traces.jsonl.1'] = text(lines);
  const doc = JSON.parse(tokyo.lines('agent', 1000, FIXTURE_RESOURCE)[0]!) as { resourceSpans: unknown };
  files['formats/otlp-document.json'] = Buffer.from(JSON.stringify(doc, null, 2) + '\n');
  files['formats/otlp-result.json'] = Buffer.from(JSON.stringify({ result: doc }, null, 2) + '\n');
  const jaeger = toJaeger(tokyo.spans);
  files['formats/jaeger-envelope.json'] = Buffer.from(JSON.stringify({ data: [jaeger], total: 0, limit: 0, offset: 0, errors: null }, null, 2) + '\n');
  files['formats/jaeger-trace.json'] = Buffer.from(JSON.stringify(jaeger, null, 2) + '\n');
  files['formats/collector-framed-json.bin'] = framed(lines.map((l) => Buffer.from(l)));
  files['formats/collector-framed-gzip.bin'] = framed(lines.map((l) => gzipSync(Buffer.from(l))));
  files['formats/collector-framed-proto.bin'] = framed([Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x00])]);
  // Overlapping exports: the second file repeats the first file's last line.
  files['formats/overlap-a.jsonl'] = text(lines.slice(0, 3));
  files['formats/overlap-b.jsonl'] = text(lines.slice(2));
  files['formats/quirks.jsonl'] = Buffer.from(quirks(lines) + '\n');
  files['bad/truncated.jsonl'] = Buffer.from(`${lines[0]}\n${lines[1]!.slice(0, 120)}\n`);
  files['bad/not-json.jsonl'] = Buffer.from(`${lines[0]}\nthis is not json\n${lines[1]}\n`);
  files['bad/other-shape.jsonl'] = Buffer.from(`${lines[0]}\n{"logs":[{"body":"hello"}]}\n`);
  files['bad/empty.jsonl'] = Buffer.alloc(0);
  files['bad/collector-framed-truncated.bin'] = framed(lines.slice(0, 2).map((l) => Buffer.from(l))).subarray(0, -10);
  return files;
}

/** 4-byte big-endian length before each message, as the collector file exporter frames them. */
export function framed(messages: readonly Buffer[]): Buffer {
  return Buffer.concat(
    messages.flatMap((m) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(m.length);
      return [len, m];
    }),
  );
}

/** Upper-case ids, times and ints as JSON numbers, `parentSpanId: ""` on roots, unknown fields. */
function quirks(lines: string[]): string {
  return lines
    .map((l) =>
      l
        .replace(/"(traceId|spanId|parentSpanId)":"([0-9a-f]+)"/g, (_m, k: string, v: string) => `"${k}":"${v.toUpperCase()}"`)
        .replace(/"(startTimeUnixNano|endTimeUnixNano|timeUnixNano|intValue)":"(\d+)"/g, '"$1":$2')
        .replace(/"name":"invoke_agent/g, '"parentSpanId":"","droppedAttributesCount":0,"name":"invoke_agent'),
    )
    .join('\n');
}

/** The same spans in Jaeger's JSON model (µs times, typed tags, CHILD_OF/FOLLOWS_FROM references, logs). */
function toJaeger(spans: readonly OtlpSpan[]): unknown {
  const us = (ns: string | number) => Number(BigInt(ns) / 1000n);
  const tag = (kv: OtlpSpan['attributes'][number]) => {
    const v = kv.value as Record<string, unknown>;
    if ('boolValue' in v) return { key: kv.key, type: 'bool', value: v.boolValue };
    if ('intValue' in v) return { key: kv.key, type: 'int64', value: Number(v.intValue) };
    if ('doubleValue' in v) return { key: kv.key, type: 'float64', value: v.doubleValue };
    if ('arrayValue' in v) return { key: kv.key, type: 'string', value: JSON.stringify((v.arrayValue as { values: { stringValue: string }[] }).values.map((x) => x.stringValue)) };
    return { key: kv.key, type: 'string', value: v.stringValue };
  };
  return {
    traceID: spans[0]!.traceId,
    spans: spans.map((s) => ({
      traceID: s.traceId,
      spanID: s.spanId,
      operationName: s.name,
      references: [
        ...(s.parentSpanId ? [{ refType: 'CHILD_OF', traceID: s.traceId, spanID: s.parentSpanId }] : []),
        ...(s.links ?? []).map((l) => ({ refType: 'FOLLOWS_FROM', traceID: l.traceId, spanID: l.spanId })),
      ],
      startTime: us(s.startTimeUnixNano),
      duration: us(s.endTimeUnixNano) - us(s.startTimeUnixNano),
      tags: [{ key: 'span.kind', type: 'string', value: 'internal' }, ...s.attributes.map(tag)],
      logs: (s.events ?? []).map((e) => ({ timestamp: us(e.timeUnixNano), fields: [{ key: 'event', type: 'string', value: e.name }, ...e.attributes.map(tag)] })),
      processID: 'p1',
      warnings: null,
    })),
    processes: { p1: { serviceName: 'agent', tags: [{ key: 'hostname', type: 'string', value: 'ci-runner' }] } },
    warnings: null,
  };
}
