import { Db } from '/work/main/analyzer/dist/db.js';
import { loadTraces } from '/work/main/analyzer/dist/load/load-traces.js';
const db = await Db.open();
await loadTraces(db, ['/tmp/foreign.jsonl'], { allowPartial: false, maxLineBytes: 16777216 });
let t = performance.now();
await db.run(`CREATE TEMP TABLE x AS SELECT trace_id, span_id, to_json(list_zip(attr_keys, attr_str))::VARCHAR AS j FROM span_structs ORDER BY trace_id, start_ns`);
console.log('sql only', (performance.now() - t).toFixed(0));
t = performance.now();
const res = await db.conn.stream(`SELECT j FROM x`);
let n = 0, bytes = 0;
for (let c = await res.fetchChunk(); c && c.rowCount > 0; c = await res.fetchChunk()) {
  const v = c.getColumnVector(0);
  for (let i = 0; i < c.rowCount; i++) { const s = v.getItem(i); bytes += s.length; n++; }
}
console.log('fetch strings', n, bytes, (performance.now() - t).toFixed(0));
t = performance.now();
const res2 = await db.conn.stream(`SELECT string_agg(j, chr(10)) FROM (SELECT j FROM x)`);
const c = await res2.fetchChunk(); const big = c.getColumnVector(0).getItem(0);
console.log('one string', big.length, (performance.now() - t).toFixed(0));
t = performance.now();
let m = 0; for (const line of big.split('\n')) { JSON.parse(line); m++; }
console.log('parse', m, (performance.now() - t).toFixed(0));
