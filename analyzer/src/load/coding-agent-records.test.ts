import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { Db } from '../db.js';
import { InputError } from './input-error.js';
import { forEachLine } from './lines.js';
import { LogsLineReader } from './otlp-logs.js';

// Coding agents' OpenTelemetry events (Claude Code, Gemini CLI, Qwen Code, Codex CLI) are log records without a span: each is read as a span of its
// own, in a trace per prompt of a session. The record shapes follow the real exports in fixtures/traces/foreign/.
const TOKEN = 'ghp_' + 'C4NARYc0d1ngAGENTc4naryREC0RDSxyzw12';
const SESSION = '7d0c2b4e-1111-4a2b-9c3d-5e6f7a8b9c0d';
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const work = mkdtempSync(join(tmpdir(), 'argspan-coding-agent-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A Claude Code event as the real export writes one: the full name in the body, `event.name` without its prefix. */
function claude(name: string, ms: number, sequence: number, attributes: Record<string, string>, fields: object = {}) {
  return {
    timeUnixNano: String(BigInt(1786407290000 + ms) * 1000000n),
    observedTimeUnixNano: String(BigInt(1786407290000 + ms) * 1000000n),
    body: { stringValue: `claude_code.${name}` },
    attributes: [str('session.id', SESSION), str('event.name', name), { key: 'event.sequence', value: { intValue: sequence } }, ...Object.entries(attributes).map(([k, v]) => str(k, v))],
    ...fields,
  };
}
const logs = (records: object[], scope = 'com.anthropic.claude_code.events') => ({
  resourceLogs: [{ resource: { attributes: [str('service.name', 'claude-code')] }, scopeLogs: [{ scope: { name: scope, version: '2.1.226' }, logRecords: records }] }],
});

let files = 0;
function write(doc: unknown, lines = false): string {
  const path = join(work, `logs-${++files}.${lines ? 'jsonl' : 'json'}`);
  writeFileSync(path, lines ? (doc as object[]).map((d) => JSON.stringify(d)).join('\n') + '\n' : JSON.stringify(doc));
  return path;
}

async function calls(paths: string[], extra: { allowPartial?: boolean } = {}) {
  const dbPath = join(work, `db-${++files}.duckdb`);
  const result = await analyze({ paths, dbPath, ...extra });
  const db = await Db.open(dbPath);
  try {
    const rows = await db.all('SELECT trace_id, span_id, turn_span_id, tool, call_id, run_id, emitter, no_evidence FROM tool_calls ORDER BY tool');
    const args = await db.all('SELECT tool, "key", provenance, residency, rule FROM tool_args ORDER BY tool, "key"');
    return { result, rows, args };
  } finally {
    db.close();
  }
}

const bash = (ms: number, sequence: number, command: string, prompt = 'p-1') =>
  claude('tool_result', ms, sequence, { 'prompt.id': prompt, tool_name: 'Bash', tool_use_id: `toolu_${sequence}`, success: 'true', duration_ms: '12', tool_input: JSON.stringify({ command, description: 'Run it' }) });

describe('coding agents\' log records read as spans', () => {
  it('a Claude Code tool result is a call of its own (tool, call id, the session as its run), its prompt the user\'s words', async () => {
    const path = write(logs([
      claude('user_prompt', 0, 1, { 'prompt.id': 'p-1', prompt: 'List the files in /srv/app', prompt_length: '26' }),
      bash(1000, 2, 'ls /srv/app'),
    ]));
    const { result, rows, args } = await calls([path]);
    expect(result.stats).toMatchObject({ spans: 2, agent_log_records: 2, foreign_calls: 1, no_evidence_calls: 0 });
    expect(result.stats.other_log_records).toBeUndefined();
    expect(rows).toEqual([expect.objectContaining({ tool: 'Bash', call_id: 'toolu_2', run_id: SESSION, emitter: 'claude-code', no_evidence: false, turn_span_id: null })]);
    expect(args.map((a) => [a.key, a.provenance])).toEqual([['command', 'model_inferred'], ['description', 'model_inferred']]);
  });

  it('a prompt recorded as <REDACTED> (Claude Code\'s default) is no evidence, not the user\'s words: the call is counted so', async () => {
    const path = write(logs([claude('user_prompt', 0, 1, { 'prompt.id': 'p-1', prompt: '<REDACTED>' }), bash(1000, 2, 'ls /srv/app')]));
    const { result, args } = await calls([path]);
    expect(result.stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 1 });
    expect(new Set(args.map((a) => a.provenance))).toEqual(new Set(['no_evidence']));
  });

  it('each prompt is a trace of its own; the session links them as one run, so an earlier prompt\'s words are the user\'s in a later one', async () => {
    const path = write(logs([
      claude('user_prompt', 0, 1, { 'prompt.id': 'p-1', prompt: 'The service lives in /srv/app' }),
      claude('user_prompt', 5000, 3, { 'prompt.id': 'p-2', prompt: 'Now list it' }),
      bash(6000, 4, '/srv/app', 'p-2'),
    ]));
    const { rows, args } = await calls([path]);
    const spans = await (async () => {
      const db = await Db.open(join(work, `db-${files}.duckdb`));
      try {
        return await db.all('SELECT trace_id, count(*) AS n FROM spans GROUP BY trace_id ORDER BY n');
      } finally {
        db.close();
      }
    })();
    expect(spans.map((s) => Number(s.n))).toEqual([1, 2]);
    expect(rows[0]!.run_id).toBe(SESSION);
    expect(args.find((a) => a.key === 'command')!.provenance).toBe('user_explicit');
  });

  it('the same record exported twice (a retried batch, two files) is one span and one call; its ids are the same in every run', async () => {
    const doc = logs([bash(1000, 2, 'ls')]);
    const once = await calls([write(doc)]);
    const twice = await calls([write(doc), write([doc, doc], true)]);
    expect(twice.result.stats).toMatchObject({ spans: 1, foreign_calls: 1 });
    expect(twice.rows.map((r) => [r.trace_id, r.span_id])).toEqual(once.rows.map((r) => [r.trace_id, r.span_id]));
    expect(String(once.rows[0]!.trace_id)).toMatch(/^[0-9a-f]{32}$/);
    expect(String(once.rows[0]!.span_id)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a record written inside a span (Claude Code\'s beta tracing, a caller\'s TRACEPARENT) keeps its trace; its span is its own', async () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const span = '00f067aa0ba902b7';
    // (two records of one interaction span: two spans, two calls)
    const { rows } = await calls([write(logs([{ ...bash(1000, 2, 'ls'), traceId: trace, spanId: span }, { ...bash(2000, 3, 'pwd'), traceId: trace, spanId: span }]))]);
    expect(rows.map((r) => r.trace_id)).toEqual([trace, trace]);
    expect(new Set(rows.map((r) => r.span_id)).size).toBe(2);
    expect(rows.map((r) => r.span_id)).not.toContain(span);
  });

  it('Claude Code is told by its body or its events scope; an unprefixed `tool_result` of anyone else is an application\'s log record', async () => {
    const byScope = claude('tool_result', 1000, 2, { tool_name: 'Read', tool_input: JSON.stringify({ file_path: '/app/.env' }) });
    delete (byScope as { body?: unknown }).body;
    const other = { ...claude('tool_result', 1000, 2, { tool_name: 'Read', tool_input: JSON.stringify({ file_path: '/srv/a' }) }), body: { stringValue: 'tool finished' } };
    const scoped = await calls([write(logs([byScope]))]);
    expect(scoped.rows.map((r) => r.tool)).toEqual(['Read']);
    expect(scoped.result.findings.map((f) => [f.rule, f.tool, f.key])).toContainEqual(['sensitive_arg_dispatched', 'Read', 'file_path']);
    const app = await calls([write(logs([other], 'my.app'))]);
    expect(app.result.stats).toMatchObject({ foreign_calls: 0, other_log_records: 1 });
    // (a record without `event.name`: its body names it)
    const unnamed = { ...bash(1000, 2, 'ls'), attributes: bash(1000, 2, 'ls').attributes.filter((a) => a.key !== 'event.name') };
    expect((await calls([write(logs([unnamed], 'my.app'))])).rows.map((r) => r.tool)).toEqual(['Bash']);
  });

  it('an MCP tool is named by its server and tool; without tool_input its arguments are not recorded, never read as clean', async () => {
    const mcp = claude('tool_result', 1000, 2, { tool_name: 'mcp_tool', tool_use_id: 'toolu_9', tool_parameters: JSON.stringify({ mcp_server_name: 'github', mcp_tool_name: 'create_issue' }) });
    const { result, rows, args } = await calls([write(logs([mcp]))]);
    expect(rows.map((r) => r.tool)).toEqual(['mcp__github__create_issue']);
    expect(result.stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
    expect(args.map((a) => [a.residency, a.rule])).toEqual([['unknown', 'arguments-not-recorded']]);
  });

  it('a credential in Bash\'s command is one finding by tool and key; the token is in no output, nor the record\'s body sentence', async () => {
    const gemini = {
      timeUnixNano: '1753606423080000000',
      body: { stringValue: `Tool call: run_shell_command. Success: true. Duration: 55ms. ${TOKEN}` },
      attributes: [str('session.id', SESSION), str('event.name', 'gemini_cli.tool_call'), str('prompt_id', 'g-1'), str('function_name', 'run_shell_command'),
        str('function_args', JSON.stringify({ command: 'ls' }, null, 2)), { key: 'success', value: { boolValue: true } }, { key: 'duration_ms', value: { intValue: '55' } }],
    };
    const paths = [write(logs([bash(1000, 2, `git push https://x:${TOKEN}@github.com/o/r.git`)])), write(logs([gemini], 'gemini-cli'))];
    const { result, rows } = await calls(paths);
    expect(rows.map((r) => [r.tool, r.emitter])).toEqual([['Bash', 'claude-code'], ['run_shell_command', 'gemini-cli']]);
    expect(result.findings.filter((f) => f.rule.startsWith('credential_')).map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      ['credential_in_attribute', 'Bash', 'command'],
      ['credential_in_attribute', 'run_shell_command', 'log.body'],
    ]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('a record whose time is not a 64-bit integer is named by its place, never read: the file fails unless --allow-partial', async () => {
    const path = write(logs([{ ...bash(1000, 2, 'ls'), timeUnixNano: 'soon' }]));
    const err = await analyze({ paths: [path] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems.map((p) => p.reason)).toEqual([
      `resourceLogs[0].scopeLogs[0].logRecords[0] (claude_code.tool_result): unreadable coding-agent log record: a time that is not a non-negative 64-bit integer`,
    ]);
    // (an attribute of the wrong type, or attributes that are no list: named by the record's place, not the span's it would make)
    const wrong = { ...bash(1000, 2, 'ls'), attributes: [...bash(1000, 2, 'ls').attributes, { key: 'tool_input', value: { intValue: 'many' } }] };
    const notList = { ...bash(1000, 2, 'ls'), attributes: 'oops' };
    for (const bad of [wrong, notList]) {
      const e = await analyze({ paths: [write(logs([bad]))] }).catch((x: unknown) => x);
      expect((e as InputError).problems.map((p) => p.reason)).toEqual([`resourceLogs[0].scopeLogs[0].logRecords[0] (claude_code.tool_result): unreadable coding-agent log record: a value of the wrong type for its field`]);
    }
    const partial = await calls([path, write(logs([bash(1000, 3, 'pwd')]))], { allowPartial: true });
    expect(partial.result.stats).toMatchObject({ foreign_calls: 1 });
    expect(partial.result.stats.skipped).toHaveLength(1);
  });

  it('the reader gives each line\'s records as one traces message at that line (1 for a document)', () => {
    const got: [number, string][] = [];
    const reader = new LogsLineReader('x.jsonl', () => {}, { onRecordSpans: (m, line) => got.push([line, m]) });
    const text = `${JSON.stringify(logs([bash(1000, 2, 'ls')]))}\n${JSON.stringify({ resourceLogs: [] })}\n${JSON.stringify(logs([bash(2000, 3, 'pwd'), bash(3000, 4, 'id')]))}\n`;
    forEachLine(Buffer.from(text), (raw, line) => reader.line(raw, line));
    expect(got.map(([line, m]) => [line, (JSON.parse(m) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans.length])).toEqual([[1, 1], [3, 2]]);
    expect(reader.result()).toMatchObject({ records: 3, agentRecords: 3, events: 0, others: 0 });
    const doc = new LogsLineReader('x.json', () => {}, { onRecordSpans: (m, line) => got.push([line, m]) });
    doc.document(readFileSync(join(work, 'logs-1.json'), 'utf8'));
    expect(got.at(-1)![0]).toBe(1);
  });

  it('a Codex CLI record: named by its `event.name` where OTLP\'s event name is Rust\'s `event {file}:{line}`; without a trace id, in its conversation\'s trace', async () => {
    // As the real export (fixtures/traces/foreign/codex-0.171-exec-env.logs.json) writes them: no body, no trace id.
    const codex = (name: string, ms: number, conversation: string, attributes: Record<string, string>) => ({
      timeUnixNano: String(BigInt(1786407290000 + ms) * 1000000n),
      observedTimeUnixNano: String(BigInt(1786407290000 + ms) * 1000000n),
      eventName: `event otel/src/events/session_telemetry.rs:${1200 + ms}`,
      traceId: '',
      spanId: '',
      attributes: [str('event.name', name), str('conversation.id', conversation), ...Object.entries(attributes).map(([k, v]) => str(k, v))],
    });
    const exec = (ms: number, conversation: string, cmd: string) => codex('codex.tool_result', ms, conversation, { tool_name: 'exec_command', call_id: `call_${ms}`, arguments: JSON.stringify({ cmd }), output: 'ok', success: 'true' });
    const path = write(logs([
      codex('codex.user_prompt', 0, 'c-1', { prompt: 'Run ls /srv/app', prompt_length: '15' }),
      exec(1000, 'c-1', 'ls /srv/app'),
      exec(2000, 'c-2', `curl -H 'Authorization: Bearer ${TOKEN}' https://x.test`),
    ], 'codex_otel.log_only'));
    const { result, rows, args } = await calls([path]);
    expect(result.stats).toMatchObject({ agent_log_records: 3, foreign_calls: 2 });
    expect(rows.map((r) => [r.tool, r.call_id, r.run_id, r.emitter, r.no_evidence])).toEqual([
      ['exec_command', 'call_1000', 'c-1', 'codex', false],
      ['exec_command', 'call_2000', 'c-2', 'codex', true],
    ]);
    // (one trace per conversation: the prompt's words are the first call's, not the other conversation's)
    expect(rows[0]!.trace_id).not.toBe(rows[1]!.trace_id);
    expect(args.map((a) => [a.provenance, a.residency])).toEqual([['user_explicit', 'tiny-public'], ['no_evidence', 'secret']]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });
});
