import { Db } from '/work/main/analyzer/dist/db.js';
import { loadTraces } from '/work/main/analyzer/dist/load/load-traces.js';
import { JSDuckDBValueConverter } from '@duckdb/node-api';
const db = await Db.open();
await loadTraces(db, ['/tmp/foreign.jsonl'], { allowPartial: false, maxLineBytes: 16777216 });
for (const [label, sql, conv] of [
  ['lists', `SELECT trace_id, span_id, attr_keys, attr_str FROM span_structs ORDER BY trace_id, start_ns`, true],
  ['json', `SELECT trace_id, span_id, to_json(list_zip(attr_keys, attr_str))::VARCHAR AS j FROM span_structs ORDER BY trace_id, start_ns`, true],
  ['json-map', `SELECT trace_id, span_id, to_json(map_from_entries(list_filter(list_zip(attr_keys, attr_str), lambda p: p[2] IS NOT NULL)))::VARCHAR AS j FROM span_structs ORDER BY trace_id, start_ns`, true],
]) {
  const t = performance.now();
  const res = await db.conn.stream(sql);
  let n = 0;
  for (let c = await res.fetchChunk(); c && c.rowCount > 0; c = await res.fetchChunk()) {
    if (label === 'lists') n += c.convertRows(JSDuckDBValueConverter).length;
    else { const rows = c.getRows(); for (const r of rows) { const o = JSON.parse(r[2]); n++; } }
  }
  console.log(label, n, (performance.now() - t).toFixed(0));
}
