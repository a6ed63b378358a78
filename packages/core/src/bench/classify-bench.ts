/**
 * `npm run bench:classify` — the classification core's cost, next to references run in the same
 * process (these machines are shared and noisy: compare ratios, not absolute numbers).
 *   1. median µs to classify and gate the 9-leaf Tokyo calendar call, vs JSON.parse(JSON.stringify(args))
 *   2. MB/s over one 1 MB bulky value, vs one pass of a simple regex over the same bytes
 *   3. residency that follows the value: the 9-leaf call with 50 earlier tool results in context
 *      (one a `.env` read, some holding credentials, several supplying the call's values), with
 *      taint tracking on vs off (`inheritResidency: false`); target ≤ 1.5×
 */
import { classifyCall } from '../classify.js';
import { ProvenanceIndex } from '../provenance.js';
import { fmt, medianMicros } from './measure.js';

const args = {
  title: 'Q3 roadmap sync',
  when: 'next Tuesday 10:00',
  duration_minutes: 30,
  timezone: 'Asia/Tokyo',
  attendee: { name: 'Kenji Sato', email: 'kenji.sato@example.co.jp' },
  location: 'Zoom',
  reminders: [15],
  send_updates: 'all',
};
const ctx = {
  userText: 'Set up a 30 minute Q3 roadmap sync with Kenji Sato next Tuesday 10:00 on Zoom.',
  context: [{ callId: 'call_1', content: { name: 'Kenji Sato', email: 'Kenji.Sato@example.co.jp', office: 'Tokyo' } }],
  schemaDefaults: { reminders: [15], send_updates: 'all' },
};
const call = { tool: 'calendar.create', args };

const check = classifyCall(call, ctx);
if (check.leaves.length !== 9 || check.gate.hits.join() !== 'calendar.create.timezone') throw new Error('bench fixture drifted');

const ref = medianMicros(() => JSON.parse(JSON.stringify(args)), 20_000);
const perCall = medianMicros(() => classifyCall(call, ctx), 5_000);
const index = ProvenanceIndex.from(ctx);
const perCallIndexed = medianMicros(() => classifyCall(call, { ...ctx, index }), 5_000);

const line = 'The configuration parser reads sections and keys in order, then validates values. ';
const bulky = line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024);
const bulkyCall = { tool: 'summarise', args: { text: bulky } };
const policy = { remoteAllowlist: ['summarise'] };
const mb = bulky.length / (1024 * 1024);
const refScan = medianMicros(() => /(?:AKIA|sk-|ghp_)[A-Za-z0-9]{16}/.test(bulky), 20, 9);
const bulkyMicros = medianMicros(() => classifyCall(bulkyCall, {}, policy), 20, 9);

// 50 earlier results: ~600 characters each; the attendee and a ticket id come from them, one is
// a `.env` read (secret source), a few hold credentials in their own text.
const results = Array.from({ length: 50 }, (_, i) => ({
  callId: `call_${i}`,
  content: {
    id: `ticket-${(i * 7919).toString(36)}-${(i * 104729).toString(36)}`,
    summary: `Item ${i}: the configuration parser reads sections and keys in order, then validates values against the schema. `.repeat(4),
    owner: i === 17 ? { name: 'Kenji Sato', email: 'kenji.sato@example.co.jp' } : { name: `Owner ${i}`, email: `owner${i}@example.com` },
    ...(i % 10 === 3 ? { config: `API_TOKEN=tok-${'q8Zr2LmX0pVt'.repeat(2)}${i}` } : {}),
  },
  ...(i === 5 ? { residency: 'secret' as const } : {}),
}));
const taintArgs = { ...args, title: `Q3 roadmap sync for ${results[23]!.content.id}` , ticket: results[41]!.content.id };
delete (taintArgs as Record<string, unknown>).send_updates;
const taintCall = { tool: 'calendar.create', args: taintArgs };
const taintCtx = { userText: ctx.userText, context: results, schemaDefaults: ctx.schemaDefaults };
if (classifyCall(taintCall, taintCtx).leaves.length !== 9) throw new Error('taint bench fixture drifted');
const taintIndex = ProvenanceIndex.from(taintCtx);
const plainIndex = ProvenanceIndex.from(taintCtx);
// Interleaved rounds, so a noisy neighbour slows both sides alike; the median of per-round ratios.
const ratios: number[] = [];
let onMicros = 0;
let offMicros = 0;
for (let round = 0; round < 15; round++) {
  const on = medianMicros(() => classifyCall(taintCall, { ...taintCtx, index: taintIndex }), 500, 3);
  const off = medianMicros(() => classifyCall(taintCall, { ...taintCtx, index: plainIndex }, { inheritResidency: false }), 500, 3);
  ratios.push(on / off);
  onMicros += on / 15;
  offMicros += off / 15;
}
ratios.sort((a, b) => a - b);
// The first call after the results arrive also indexes them (and scans the sources its values match).
const freshOn = medianMicros(() => classifyCall(taintCall, taintCtx), 200, 9);
const freshOff = medianMicros(() => classifyCall(taintCall, taintCtx, { inheritResidency: false }), 200, 9);

console.log('argspan bench: classification core (same-process references)');
console.log(`classify+gate 9-leaf calendar call: median ${fmt(perCall)} µs/call (reference JSON round-trip ${fmt(ref)} µs, ratio ${fmt(perCall / ref)}x)`);
console.log(`classify+gate 9-leaf call, provenance index kept across the turn: median ${fmt(perCallIndexed)} µs/call (ratio ${fmt(perCallIndexed / ref)}x)`);
console.log(`classify+gate 1 MB bulky value: ${fmt(mb / (bulkyMicros / 1e6), 1)} MB/s (reference single-regex scan ${fmt(mb / (refScan / 1e6), 1)} MB/s, ratio ${fmt(bulkyMicros / refScan)}x the scan time)`);
console.log(
  `taint tracking, 9-leaf call with 50 earlier results, index kept across the turn: ${fmt(onMicros)} µs/call on vs ${fmt(offMicros)} µs off, median ratio ${fmt(ratios[7]!)}x (IQR ${fmt(ratios[3]!)}–${fmt(ratios[11]!)}; target ≤ 1.50x)`,
);
console.log(`taint tracking, same call indexing the 50 results afresh: ${fmt(freshOn)} µs on vs ${fmt(freshOff)} µs off, ratio ${fmt(freshOn / freshOff)}x`);
