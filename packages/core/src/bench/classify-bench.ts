/**
 * `npm run bench:classify` — the classification core's cost, next to references run in the same
 * process (these machines are shared and noisy: compare ratios, not absolute numbers).
 *   1. median µs to classify and gate the 9-leaf Tokyo calendar call, vs JSON.parse(JSON.stringify(args))
 *   2. MB/s over one 1 MB bulky value, vs one pass of a simple regex over the same bytes
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

console.log('argspan bench: classification core (same-process references)');
console.log(`classify+gate 9-leaf calendar call: median ${fmt(perCall)} µs/call (reference JSON round-trip ${fmt(ref)} µs, ratio ${fmt(perCall / ref)}x)`);
console.log(`classify+gate 9-leaf call, provenance index kept across the turn: median ${fmt(perCallIndexed)} µs/call (ratio ${fmt(perCallIndexed / ref)}x)`);
console.log(`classify+gate 1 MB bulky value: ${fmt(mb / (bulkyMicros / 1e6), 1)} MB/s (reference single-regex scan ${fmt(mb / (refScan / 1e6), 1)} MB/s, ratio ${fmt(bulkyMicros / refScan)}x the scan time)`);
