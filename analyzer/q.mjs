import { Db } from '/work/main/analyzer/dist/db.js';
import { loadTraces } from '/work/main/analyzer/dist/load/load-traces.js';
import { JSDuckDBValueConverter } from '@duckdb/node-api';
import { createValueHasher } from '/work/main/packages/core/dist/index.js';
const db = await Db.open();
let t = performance.now();
await loadTraces(db, ['/tmp/foreign.jsonl'], { allowPartial: false, maxLineBytes: 16777216 });
console.log('load', (performance.now()-t).toFixed(0));
const mod = await import('/work/main/analyzer/dist/foreign/load-foreign.js');
t = performance.now();
const res2 = await db.conn.stream(`SELECT trace_id, span_id, parent_span_id, "name", start_ns, end_ns, scope_name, attr_keys, attr_str FROM span_structs ORDER BY trace_id, start_ns, span_id`);
let n=0; for (let c = await res2.fetchChunk(); c && c.rowCount>0; c = await res2.fetchChunk()) { n+=c.convertRows(JSDuckDBValueConverter).length; }
console.log('fetch+convert', n, (performance.now()-t).toFixed(0));
t = performance.now();
await mod.loadForeignCalls(db, createValueHasher(Buffer.alloc(32,1)), {});
console.log('loadForeign', (performance.now()-t).toFixed(0));
