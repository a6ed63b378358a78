import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { toAnyValue } from './support/otlp-any-value.js';

/**
 * `argspan analyze` on traces whose emitters record tool arguments and messages in structured
 * form — an OTLP map (`kvlistValue`) or an array of maps — as the GenAI conventions ask where the
 * SDK can ("SHOULD be recorded in structured form", else a JSON string). Read before as empty
 * values: no tool call, no credential, "No findings". Each must read as the same values written
 * as JSON strings.
 */
const FOREIGN = 'fixtures/traces/foreign';
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-structured-'));

/** Attributes the GenAI conventions define as structured (a JSON string where the SDK cannot). */
const STRUCTURED_KEYS = new Set([
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.definitions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'pydantic_ai.all_messages',
]);

interface Attr {
  key: string;
  value: Record<string, unknown>;
}
interface Span {
  name: string;
  attributes: Attr[];
  events?: { timeUnixNano: string; name: string; attributes: Attr[] }[];
}
interface Doc {
  resourceSpans: { resource: { attributes: Attr[] }; scopeSpans: { spans: Span[] }[] }[];
}

const spansOf = (doc: Doc) => doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans));
const readDoc = (name: string) => JSON.parse(readFileSync(join(FOREIGN, name), 'utf8')) as Doc;

/** `doc` with every {@link STRUCTURED_KEYS} attribute that holds a JSON object or array as that value in structured form. */
function structured(doc: Doc): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  for (const span of spansOf(copy)) {
    for (const a of span.attributes) {
      const text = a.value.stringValue;
      if (!STRUCTURED_KEYS.has(a.key) || typeof text !== 'string' || !/^\s*[[{]/.test(text)) continue;
      a.value = toAnyValue(JSON.parse(text)) as Record<string, unknown>;
    }
  }
  return copy;
}

/** Protobuf's field names, as Phoenix's "Download → OTLP JSON" writes them. */
const snakeKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(snakeKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(x)])) : v;

/** Exit code, counts, findings and the argument rows (every column but the keyed hash, which is keyed per run). */
async function outcome(file: string) {
  const db = join(tmp(), 'analysis.duckdb');
  const run = analyzeBin(file, '--format', 'json', '--db', db);
  expect(run.code, run.stderr).toBeLessThan(2);
  const out = parseJson(run);
  const args = await query(db, `SELECT tool, "key", provenance, residency, "rule", bytes, emitter FROM tool_args ORDER BY ALL`);
  // Arrays of scalars (finish reasons, the AI SDK's tools) stay arrays in a file that holds maps.
  const arrays = await query(db, `SELECT "key", arr_value FROM span_attributes WHERE "type" = 'array' ORDER BY ALL`);
  return {
    code: run.code,
    spans: out.stats.spans,
    foreignCalls: out.stats.foreign_calls,
    noEvidence: out.stats.no_evidence_calls,
    findings: out.findings.map((f) => ({ ...f, file: undefined })),
    args,
    arrays,
  };
}

describe('argspan analyze reads structured GenAI attributes as the same values written as JSON strings', () => {
  it.each(['genai-openllmetry-anthropic-timezone-model-only.json', 'pydantic-ai-v5-format-my-ret.json', 'genai-aisdk-otel-function-tool.json'])('%s', async (name) => {
    const dir = tmp();
    const doc = readDoc(name);
    spansOf(doc)[0]!.attributes.push({ key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: 'tool_calls' }, { stringValue: 'stop' }] } } });
    const asStructured = structured(doc);
    // The fixture really holds structured candidates: its tool calls or messages change form.
    expect(JSON.stringify(asStructured)).not.toBe(JSON.stringify(doc));
    expect(JSON.stringify(asStructured)).toContain('"kvlistValue"');
    writeFileSync(join(dir, 'strings.json'), JSON.stringify(doc));
    const expected = await outcome(join(dir, 'strings.json'));
    expect(expected.foreignCalls).toBeGreaterThan(0);
    expect(expected.args.length).toBeGreaterThan(0);
    expect(expected.arrays.length).toBeGreaterThan(0);
    const forms: [string, string | Buffer][] = [
      ['document.json', JSON.stringify(asStructured)],
      ['pretty.json', JSON.stringify(asStructured, null, 2)],
      ['lines.jsonl', `${JSON.stringify(asStructured)}\n`],
      ['lines.jsonl.gz', gzipSync(`${JSON.stringify(asStructured)}\n`)],
      ['phoenix-download.json', JSON.stringify(snakeKeys(asStructured))],
      ['snake-lines.jsonl', `${JSON.stringify(snakeKeys(asStructured))}\n`],
    ];
    for (const [form, bytes] of forms) {
      writeFileSync(join(dir, form), bytes);
      expect(await outcome(join(dir, form)), form).toEqual(expected);
    }
  });
});

describe('argspan analyze finds what structured values hide: reported by tool and key, never printed', () => {
  // Shaped like credentials, made for these tests.
  const GITHUB = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
  const SLACK = 'xoxb-1234567890123-1234567890123-Zq8Lm2Xv7Rk4Tn9Wb3Yc6Hd1';
  const AWS = 'AKIAQZ2LM2XV7RK4TN3W';

  /** Pydantic AI's recorded run, its tool call's arguments a map holding a token and a secret file's path, with a map on an event and on the resource. */
  function planted(): Doc {
    const doc = readDoc('pydantic-ai-v5-format-my-ret.json');
    const tool = spansOf(doc).find((s) => s.attributes.some((a) => a.key === 'gen_ai.tool.call.arguments'))!;
    const args = tool.attributes.find((a) => a.key === 'gen_ai.tool.call.arguments')!;
    args.value = { stringValue: JSON.stringify({ ...(JSON.parse(String(args.value.stringValue)) as object), auth: { token: GITHUB }, files: [{ path: '/app/.env' }] }) };
    tool.events = [{ timeUnixNano: '1700000000500000000', name: 'gen_ai.client.inference.operation.details', attributes: [{ key: 'gen_ai.input.messages', value: toAnyValue([{ role: 'user', parts: [{ type: 'text', content: `use ${SLACK}` }] }]) as Record<string, unknown> }] }];
    doc.resourceSpans[0]!.resource.attributes.push({ key: 'deploy.settings', value: toAnyValue({ aws: [[AWS]] }) as Record<string, unknown> });
    return structured(doc);
  }

  it('a token and a secret file\'s path in a map of arguments, a token in an event\'s messages and in a nested array on the resource (exit 1)', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'planted.jsonl'), `${JSON.stringify(planted())}\n`);
    const run = analyzeBin(join(dir, 'planted.jsonl'), '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    const found = parseJson(run)
      .findings.filter((f) => f.severity !== 'info')
      .map((f) => [f.rule, f.tool, f.key, f.emitter])
      .sort();
    expect(found).toEqual([
      ['credential_in_attribute', 'my_ret', 'auth.token', 'genai-semconv'],
      ['credential_in_attribute', null, 'deploy.settings', null],
      // On an event of the tool's span: the finding names the tool.
      ['credential_in_attribute', 'my_ret', 'gen_ai.input.messages', 'genai-semconv'],
      ['sensitive_arg_dispatched', 'my_ret', 'files[0].path', 'genai-semconv'],
    ].sort());
    for (const format of ['json', 'table', 'sarif']) {
      const out = analyzeBin(join(dir, 'planted.jsonl'), '--format', format, '--reports');
      for (const canary of [GITHUB, SLACK, AWS]) expect(out.stdout + out.stderr, format).not.toContain(canary.slice(0, 12));
    }
  });
});

describe('argspan analyze on a file with structured values still refuses what it refuses elsewhere', () => {
  it('a double written as text in an array of scalars: the line is named (exit 2), as in a file without maps', () => {
    const doc = structured(readDoc('pydantic-ai-v5-format-my-ret.json'));
    spansOf(doc)[0]!.attributes.push({ key: 'app.ratios', value: { arrayValue: { values: [{ doubleValue: 0.5 }, { doubleValue: 'ghp_not_a_number' }] } } });
    const file = join(tmp(), 'wrong-type.jsonl');
    writeFileSync(file, `${JSON.stringify(readDoc('pydantic-ai-v5-format-my-ret.json'))}\n${JSON.stringify(doc)}\n`);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: a value of the wrong type for its field`);
    expect(run.stderr).not.toContain('ghp_');
  });
});

describe('argspan analyze on structured values a careless or hostile exporter writes', () => {
  const GITHUB = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
  /** One GenAI `execute_tool lookup` span with `attrs`. */
  const toolSpan = (attrs: Attr[]) => ({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeSpans: [
          {
            scope: { name: 'genai' },
            spans: [
              {
                traceId: '0123456789abcdef0123456789abcdef',
                spanId: '0123456789abcdef',
                name: 'execute_tool lookup',
                kind: 1,
                startTimeUnixNano: '1767225600000000000',
                endTimeUnixNano: '1767225600040000000',
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                  { key: 'gen_ai.tool.name', value: { stringValue: 'lookup' } },
                  { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_1' } },
                  ...attrs,
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  const kv = (pairs: [string, unknown][]) => ({ kvlistValue: { values: pairs.map(([key, value]) => ({ key, value })) } });
  const args = (value: Record<string, unknown>): Attr => ({ key: 'gen_ai.tool.call.arguments', value });
  const meta: Attr = { key: 'app.meta', value: kv([['a', { stringValue: 'b' }]]) };
  function analyze(doc: unknown) {
    const file = join(tmp(), 'trace.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.stdout + run.stderr).not.toContain(GITHUB.slice(0, 12));
    return { file, run, found: run.code === 2 ? [] : parseJson(run).findings.filter((f) => f.severity !== 'info').map((f) => `${f.rule}:${f.key}`) };
  }

  it('a key written twice reads as the JSON-string form reads it: the last value is the argument (an invented timezone is found)', () => {
    const userSaid: Attr = { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'use UTC' }] }]) } };
    const structuredForm = analyze(toolSpan([args(kv([['timezone', { stringValue: 'UTC' }], ['timezone', { stringValue: 'Asia/Tokyo' }]])), userSaid]));
    const stringForm = analyze(toolSpan([args({ stringValue: '{"timezone":"UTC","timezone":"Asia/Tokyo"}' }), userSaid]));
    expect(structuredForm.found).toEqual(['assumption_span:timezone']);
    expect(structuredForm.found).toEqual(stringForm.found);
  });

  it('an earlier value of a key written twice is still scanned: a token behind a later value is found', () => {
    expect(analyze(toolSpan([args(kv([['token', { stringValue: GITHUB }], ['token', { stringValue: 'x' }]]))])).run.code).toBe(1);
  });

  it.each([
    ['a map and an array holding a map, both set', args({ kvlistValue: { values: [{ key: 'x', value: { intValue: '0' } }] }, arrayValue: { values: [kv([['token', { stringValue: GITHUB }]])] } })],
    ['protobuf field names inside a map', args(kv([['token', { string_value: GITHUB }]]))],
    ['a nested array whose element has another field first, in a file without a map', { key: 'app.list', value: { arrayValue: { values: [{ stringValue: null, arrayValue: { values: [{ stringValue: GITHUB }] } }] } } }],
  ] as [string, Attr][])('%s: the token is found (exit 1)', (_name, attr) => {
    const { run, found } = analyze(toolSpan([attr]));
    expect(run.code, run.stderr).toBe(1);
    expect(found.some((f) => f.startsWith('credential_in_attribute:'))).toBe(true);
  });

  it('a map whose field name is spelled with JSON escapes, as DuckDB reads it: the token is found (exit 1)', () => {
    const file = join(tmp(), 'escaped.json');
    writeFileSync(file, JSON.stringify(toolSpan([args(kv([['token', { stringValue: GITHUB }]]))])).replace('"kvlistValue"', '"\\u006bvlistValue"'));
    expect(readFileSync(file, 'utf8')).not.toContain('kvlist');
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code, run.stderr).toBe(1);
    expect(parseJson(run).findings.map((f) => `${f.rule}:${f.key}`)).toContain('credential_in_attribute:token');
  });

  it.each([
    ['a map that is a string', args({ kvlistValue: GITHUB })],
    ['a map whose values are strings', args({ kvlistValue: { values: [GITHUB] } })],
    ['a map key that is an object', args({ kvlistValue: { values: [{ key: { k: GITHUB }, value: { intValue: '1' } }] } })],
    ['an integer holding an object', args(kv([['a', { intValue: { t: GITHUB } }]]))],
    ['an array that is a string', { key: 'app.list', value: { arrayValue: GITHUB } }],
    ['an array whose values are strings', { key: 'app.list', value: { arrayValue: { values: [GITHUB] } } }],
  ] as [string, Attr][])('%s, in a file with maps: refused as a value of the wrong type (exit 2), as in a file without', (_name, attr) => {
    const { file, run } = analyze(toolSpan([meta, attr]));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: could not be read as its detected format: a value of the wrong type`);
  });

  it('a token in an array of strings on the span, an event or the resource is found, as the ClickHouse engine finds it in the array\'s text', () => {
    const list = { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: GITHUB }] } };
    const doc = toolSpan([{ key: 'app.list', value: list }]);
    const span = doc.resourceSpans[0]!.scopeSpans[0]!.spans[0]! as Record<string, unknown>;
    // (another token on the event: one credential in a span's attribute and its event's is one finding)
    const eventList = { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: GITHUB.replace('ghp_Qz8', 'ghp_Wy5') }] } };
    span.events = [{ timeUnixNano: '1767225600010000000', name: 'log', attributes: [{ key: 'event.list', value: eventList }] }];
    doc.resourceSpans[0]!.resource.attributes.push({ key: 'resource.list', value: list } as never);
    expect(analyze(doc).found.filter((f) => f.startsWith('credential_in_attribute')).sort()).toEqual(['credential_in_attribute:app.list', 'credential_in_attribute:event.list', 'credential_in_attribute:resource.list']);
  });

  it('an array of strings that holds the text "arrayValue" stays an array', async () => {
    const file = join(tmp(), 'trace.json');
    writeFileSync(file, JSON.stringify(toolSpan([meta, { key: 'app.list', value: { arrayValue: { values: [{ stringValue: 'arrayValue' }, { stringValue: 'kvlistValue' }] } } }])));
    const db = join(tmp(), 'analysis.duckdb');
    expect(analyzeBin(file, '--db', db).code).toBeLessThan(2);
    expect(await query(db, `SELECT "type", arr_value FROM span_attributes WHERE "key" = 'app.list'`)).toEqual([{ type: 'array', arr_value: ['arrayValue', 'kvlistValue'] }]);
  });
});
