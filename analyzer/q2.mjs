import { readFileSync } from 'node:fs';
import { classifyForeignTrace } from '/work/main/analyzer/dist/foreign/classify-trace.js';
import { createValueHasher } from '/work/main/packages/core/dist/index.js';
const traces = new Map();
for (const line of readFileSync('/tmp/foreign.jsonl', 'utf8').trim().split('\n')) {
  const d = JSON.parse(line);
  for (const rs of d.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) {
    const attrs = new Map();
    for (const a of s.attributes ?? []) { const v = a.value; if (v.stringValue !== undefined) attrs.set(a.key, v.stringValue); else if (v.arrayValue) attrs.set(a.key, v.arrayValue.values.map((x) => x.stringValue)); }
    const sp = { traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || null, name: s.name, startNs: BigInt(s.startTimeUnixNano), endNs: BigInt(s.endTimeUnixNano), scope: ss.scope?.name ?? null, attrs };
    if (!traces.has(s.traceId)) traces.set(s.traceId, []); traces.get(s.traceId).push(sp);
  }
}
const hasher = createValueHasher(Buffer.alloc(32, 1));
const t = performance.now(); let calls = 0, args = 0;
for (const spans of traces.values()) { const r = classifyForeignTrace(spans, { hasher, policy: {} }); calls += r.calls.length; args += r.args.length; }
console.log(traces.size, 'traces', calls, 'calls', args, 'args', (performance.now() - t).toFixed(0), 'ms');
