import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query, type Run } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';
import { ANTHROPIC_RUN_TOKEN, recordAnthropicSdkRun } from './support/anthropic-sdk-run.js';

/**
 * `argspan analyze` on the traces Anthropic's own TypeScript SDK writes (its OpenTelemetry spans:
 * `anthropic.messages.create` per request, `anthropic.custom_tool_use {tool}` per tool run), made
 * by the real SDK's tool runner in each test, with content capture on and at the size limits the
 * SDK cuts content to.
 */

const USER = 'Deploy the billing service to staging with its latest build. The registry token is ' + ANTHROPIC_RUN_TOKEN + '.';
/** The same words, with the team's time zone in a first block of their own: the one the SDK cuts first. */
const USER_IN_BLOCKS = [
  { type: 'text' as const, text: 'All times for this team are in the America/New_York timezone.' },
  { type: 'text' as const, text: USER },
];

/** Findings other than the run's reports, as [rule, tool, key, emitter], sorted. */
const findingsOf = (run: Run) =>
  parseJson(run)
    .findings.filter((f) => !f.rule.startsWith('report_'))
    .map((f) => [f.rule, f.tool, f.key, f.emitter])
    .sort();

/** The deploy call's argument rows: key → [provenance, residency, rule]. */
async function deployArgs(file: string): Promise<Record<string, [string, string, string]>> {
  const db = join(tmp(), 'analysis.duckdb');
  analyzeBin(file, '--db', db, '--format', 'json');
  const rows = await query(db, `SELECT "key", provenance, residency, rule FROM tool_args WHERE tool = 'deploy' ORDER BY "key"`);
  return Object.fromEntries(rows.map((r) => [r.key as string, [r.provenance, r.residency, r.rule] as [string, string, string]]));
}

describe('argspan analyze on the Anthropic TypeScript SDK\'s own traces', () => {
  it('whole content: the invented time zone, the secret file and the token are reported by tool and key; the account copied from a result is not', async () => {
    const file = await recordAnthropicSdkRun({ user: USER });
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 0, unreadable_args_calls: 0 });
    expect(findingsOf(run)).toEqual([
      ['assumption_span', 'deploy', 'timezone', 'genai-semconv'],
      // (the token as the user gave it, in the request's messages, and as the call carried it: one finding each, the call's by tool and key)
      ['credential_in_attribute', null, 'gen_ai.input.messages', null],
      ['credential_in_attribute', 'deploy', 'registry_token', 'genai-semconv'],
      ['sensitive_arg_dispatched', 'deploy', 'attachment', 'genai-semconv'],
    ]);
    for (const value of [ANTHROPIC_RUN_TOKEN, '/app/.env']) expect(run.stdout + run.stderr).not.toContain(value);
    expect((await deployArgs(file)).account_id?.[0]).toBe('context_retrieved');
  });

  it('the user\'s first words cut by the SDK (`anthropic.content.truncated`): the time zone they gave is no evidence, not a guess; the account is still the result\'s', async () => {
    // 340 bytes (320–380 do): the first request keeps the second block and its tool call, the later ones lose their input.
    const file = await recordAnthropicSdkRun({ user: USER_IN_BLOCKS, maxContentBytes: 340 });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('anthropic.content.truncated');
    expect(text).not.toContain('America/New_York timezone');
    const run = analyzeBin(file, '--format', 'json');
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, no_evidence_calls: 2 });
    expect(findingsOf(run)).toEqual([
      ['credential_in_attribute', null, 'gen_ai.input.messages', null],
      ['credential_in_attribute', 'deploy', 'registry_token', 'genai-semconv'],
      ['sensitive_arg_dispatched', 'deploy', 'attachment', 'genai-semconv'],
    ]);
    const args = await deployArgs(file);
    expect(args.timezone?.[0]).toBe('no_evidence');
    // (the request that sent the result back was cut: the tool span's own `anthropic.tool_result.content` says it)
    expect(args.account_id?.[0]).toBe('context_retrieved');

    // The control: the same spans without the flag read the words kept as all the user said.
    const unflagged = join(tmp(), 'unflagged.jsonl');
    writeFileSync(unflagged, text.replace(/\{"key":"anthropic\.content\.truncated","value":\{"boolValue":true\}\},?/g, '').replace(/,\]/g, ']'));
    expect(findingsOf(analyzeBin(unflagged, '--format', 'json'))).toContainEqual(['assumption_span', 'deploy', 'timezone', 'genai-semconv']);
  });

  it('arguments over the limit, left out whole by the SDK: the call is counted as cut off, not as unrecorded', async () => {
    const file = await recordAnthropicSdkRun({ user: USER, maxContentBytes: 200 });
    const run = analyzeBin(file, '--format', 'json');
    expect(parseJson(run).stats).toMatchObject({ foreign_calls: 2, unreadable_args_calls: 1 });
    // (one leaf for the arguments not read; the user's words were cut too, so no evidence either way)
    expect(await deployArgs(file)).toEqual({ $: ['no_evidence', 'unknown', 'arguments-truncated'] });
    expect(run.stdout + run.stderr).not.toContain(ANTHROPIC_RUN_TOKEN);
  });
});
