import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@argspan/analyzer';
import { ArgspanInstrumentation, ArgspanSession } from '@argspan/instrumentation';
import { setupTracing } from '@argspan/setup';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';

// The contract between the two halves: spans written by the real instrumentation through its
// real file exporter are read by the real `argspan analyze` binary, and the analyzer's evidence
// checks (leaf counts, labels, gate hits, lineage) agree with what the instrumentation recorded.
describe('argspan analyze over traces from @argspan/instrumentation', () => {
  it('finds the invented timezone, follows the looked-up e-mail to its source, and sees no evidence gaps', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-instr-analyze-')), 'traces');
    const tracing = setupTracing({ exporter: 'file', register: false, env: {}, serviceName: 'tokyo', file: { directory: dir } });
    const session = new ArgspanSession({ runId: 'run-tokyo-real', userText: 'Invite Alice to the Q3 sync tomorrow at 3pm' });
    const results: Record<string, unknown> = { 'contacts.lookup': { email: 'alice@example.com' } };
    const run = new ArgspanInstrumentation({ tracerProvider: tracing.provider, hashKey: Buffer.alloc(32, 7), session }).wrapDispatch(
      async (tool: string) => results[tool] ?? 'ok',
    );
    await run('contacts.lookup', { name: 'Alice' });
    await run('calendar.create', { title: 'Q3 sync', start: 'tomorrow at 3pm', timezone: 'Asia/Tokyo', attendee: { email: 'alice@example.com' } }).catch(
      () => undefined, // the gate asks (or blocks) before the side effect: expected
    );
    await tracing.shutdown();

    const out = parseJson(analyzeBin(dir, '--reports', '--format', 'json'));
    const rules = (id: string) => out.findings.filter((f) => f.rule === id);
    expect(out.stats.spans).toBeGreaterThanOrEqual(2 + 1 + 4);
    expect(rules('held_assumption').map((f) => [f.tool, f.key])).toEqual([['calendar.create', 'timezone']]);
    expect(rules('assumption_span')).toEqual([]); // held, never ran
    expect(rules('report_context_lineage').map((f) => f.message)).toEqual([
      expect.stringMatching(/^Argument attendee\.email of calendar\.create came from the result of contacts\.lookup /),
    ]);
    for (const id of ['incomplete_evidence', 'invalid_argument_label', 'gate_hit_without_inferred_leaf', 'inferred_leaf_not_in_hits', 'inferred_gate_missed', 'context_lineage_broken', 'credential_in_attribute']) {
      expect(rules(id), id).toEqual([]);
    }
  });
});

describe('argspan analyze --reports over a call with no arguments, from @argspan/instrumentation', () => {
  // `{}` is one `$` leaf (rule `empty`, 0 bytes) so the call has a row; the model invented nothing there. An empty value
  // under a named key (`{"q": ""}`, `{"tags": []}`) is still the model's choice, reported as before.
  it('reports no invented value and no argument for `{}`; still reports an empty value under a key', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-instr-noargs-')), 'traces');
    const tracing = setupTracing({ exporter: 'file', register: false, env: {}, serviceName: 'noargs', file: { directory: dir } });
    const session = new ArgspanSession({ runId: 'run-no-args', userText: 'Where am I? Search, and save a note' });
    const run = new ArgspanInstrumentation({ tracerProvider: tracing.provider, hashKey: Buffer.alloc(32, 7), session }).wrapDispatch(async () => 'ok');
    await run('getCurrentLocation', {});
    await run('web.search', { q: '' });
    await run('notes.save', { tags: [] });
    await tracing.shutdown();

    const out = parseJson(analyzeBin(dir, '--reports', '--format', 'json'));
    const rules = (id: string) => out.findings.filter((f) => f.rule === id);
    expect(rules('report_invented_fields_by_turn').map((f) => [f.tool, f.key]).sort()).toEqual([['notes.save', 'tags'], ['web.search', 'q']]);
    expect(rules('report_run_summary').map((f) => f.message)).toEqual([expect.stringMatching(/^Run run-no-args: 3 tool call\(s\), 2 argument\(s\), 2 model-inferred,/)]);
    // The HTML report's overview counts the same.
    const overview = (await analyze({ paths: [dir], overview: true })).overview!;
    expect([overview.totals.tool_calls, overview.totals.arguments, overview.totals.model_inferred]).toEqual([3, 2, 2]);
    expect(overview.turns.rows.map((r) => [r.tool, r.key]).sort()).toEqual([['notes.save', 'tags'], ['web.search', 'q']]);
    expect(overview.residency_by_tool.rows.map((r) => r.tool).sort()).toEqual(['notes.save', 'web.search']);
  });
});
