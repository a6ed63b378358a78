import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Db } from '../db.js';
import { DEFAULT_MAX_LINE_BYTES, loadFile } from './load-file.js';
import { attachLogEventsSql, STAGING_DDL } from './schema.js';
import { JAEGER_MACROS } from './stage-jaeger.js';

const FOREIGN = fileURLToPath(new URL('../../../fixtures/traces/foreign/', import.meta.url));
const TRACES = join(FOREIGN, 'otel-python-openai-v2-weather.traces.json');
const LOGS = join(FOREIGN, 'otel-python-openai-v2-weather.logs.json');

/** The spans, with their events, after the staged records are attached in `shares` shares. */
async function attached(files: readonly string[], shares: number): Promise<Record<string, unknown>[]> {
  const db = await Db.open();
  try {
    await db.run(STAGING_DDL + JAEGER_MACROS);
    const tmpDir = mkdtempSync(join(tmpdir(), 'argspan-attach-'));
    for (const [i, file] of files.entries()) await loadFile(db, i + 1, file, { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES, tmpDir });
    const sql = attachLogEventsSql(shares);
    expect(sql.shares).toHaveLength(shares);
    for (const share of sql.shares) await db.run(share);
    await db.run(sql.stageSpans);
    return await db.all(`SELECT trace_id, span_id, "name", start_ns, end_ns, resource_id, res::VARCHAR AS res, scope_name, events::VARCHAR AS events FROM span_structs ORDER BY trace_id, span_id`);
  } finally {
    db.close();
  }
}

describe('attaching GenAI log records to their spans', () => {
  it('in shares of the spans gives the spans one pass gives: events in order, a record exported twice once, spans known only from their records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-attach-'));
    const text = readFileSync(LOGS, 'utf8');
    // The same records under other traces (their spans in no trace file), each trace with a resource of its own.
    const others = Array.from({ length: 12 }, (_, i) => {
      const file = join(dir, `other-${i}.logs.json`);
      const doc = JSON.parse(text.replaceAll('a1f0c3d25e6b47188c9d0e1f2a3b4c5d', `${String(i).padStart(8, '0')}5e6b47188c9d0e1f2a3b4c5d`)) as { resourceLogs: { resource?: { attributes: unknown[] } }[] };
      doc.resourceLogs[0]!.resource = { attributes: [{ key: 'service.name', value: { stringValue: `agent-${i % 3}` } }] };
      writeFileSync(file, JSON.stringify(doc));
      return file;
    });
    expect(text).toContain('a1f0c3d25e6b47188c9d0e1f2a3b4c5d');
    const files = [TRACES, LOGS, ...others, LOGS, others[0]!];
    const whole = await attached(files, 1);
    expect(whole).toHaveLength(2 + 12 * 2);
    expect(whole.filter((s) => s.name === 'gen_ai log records')).toHaveLength(24);
    // Each span holds its records once, though two files exported them.
    const events = (s: Record<string, unknown>) => String(s.events).split("'name': ").length - 1;
    expect(whole.filter((s) => s.name !== 'gen_ai log records').map(events).sort()).toEqual([3, 6]);
    expect(new Set(whole.filter((s) => s.name === 'gen_ai log records').map((s) => s.res)).size).toBe(3);
    for (const shares of [2, 5]) expect(await attached(files, shares), `${shares} shares`).toEqual(whole);
  });

  it('a span made from its records has its own resource, however many resources the export holds', async () => {
    const n = 5000;
    const hex = (i: number, digits: number) => i.toString(16).padStart(digits, '0');
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-attach-')), 'many-resources.logs.jsonl');
    const resourceLogs = Array.from({ length: n }, (_, i) => ({
      resource: { attributes: [{ key: 'service.instance.id', value: { stringValue: `agent-${i}` } }] },
      scopeLogs: [{ scope: { name: 'agent' }, logRecords: [{ timeUnixNano: '1764583200000000000', traceId: hex(i + 1, 32), spanId: hex(i + 1, 16), eventName: 'gen_ai.user.message', body: { stringValue: 'hi' } }] }],
    }));
    // Two lines: the second repeats no resource of the first.
    writeFileSync(file, `${JSON.stringify({ resourceLogs: resourceLogs.slice(0, n / 2) })}\n${JSON.stringify({ resourceLogs: resourceLogs.slice(n / 2) })}\n`);
    const spans = await attached([file], 3);
    expect(spans).toHaveLength(n);
    for (const s of spans) expect(s.res, String(s.span_id)).toContain(`'stringValue': agent-${Number.parseInt(String(s.span_id), 16) - 1},`);
  });
});
