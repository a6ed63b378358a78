import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';

/**
 * A credential in any field of a Langfuse observation or a LangSmith run that `argspan analyze`
 * reads from their API answers is reported as in the SDK's own OpenTelemetry export of the same
 * data (`credential_in_attribute`, exit 1), under the attribute the SDK writes, or argspan's
 * `langfuse.api.*` / `langsmith.api.*` for a field the SDK has none for — and no report prints it.
 */

/** A GitHub-shaped canary of its own for case `i` (made for these tests, not a credential). */
const github = (i: number) => `ghp_C4nary${String(i).padStart(2, '0')}Q7xW2mK9pLr3TzV8bN5hJd1FgS6y`;
/** An AWS-access-key-shaped canary of its own for case `i`. */
const aws = (i: number) => `AKIACANARY${String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26))}Q2345672`;

const DERIVED = 'fixtures/traces/foreign/derived';
type Item = Record<string, unknown>;
const derived = (name: string) => JSON.parse(readFileSync(join(DERIVED, name), 'utf8')) as Item;

/** A case: the field, the attribute a finding names, which canary shape, and how the item gets it. */
type Case = [field: string, key: string, shape: 'github' | 'aws', plant: (item: Item, canary: string) => void];

const langfuseCases: Case[] = [
  // The SDK's attributes (langfuse-python's LangfuseOtelSpanAttributes).
  ['Langfuse statusMessage (level ERROR)', 'langfuse.observation.status_message', 'github', (o, c) => Object.assign(o, { level: 'ERROR', statusMessage: `401 Unauthorized: bad credentials for token ${c}` })],
  ['Langfuse metadata key', 'langfuse.observation.metadata.github_token', 'github', (o, c) => (o.metadata = { github_token: c })],
  ['Langfuse metadata nested', 'langfuse.observation.metadata.request', 'github', (o, c) => (o.metadata = { request: { headers: { authorization: `token ${c}` } } })],
  ['Langfuse metadata that is not a map', 'langfuse.observation.metadata', 'aws', (o, c) => (o.metadata = `aws ${c}`)],
  ['Langfuse modelParameters', 'langfuse.observation.model.parameters', 'aws', (o, c) => (o.modelParameters = { api_key: c, temperature: 0 })],
  ['Langfuse model', 'langfuse.observation.model.name', 'github', (o, c) => (o.model = `gpt-4 ${c}`)],
  ['Langfuse usageDetails', 'langfuse.observation.usage_details', 'github', (o, c) => (o.usageDetails = { [`cache ${c}`]: 3 })],
  ['Langfuse promptName', 'langfuse.observation.prompt.name', 'github', (o, c) => (o.promptName = `prompt ${c}`)],
  ['Langfuse v2 tags', 'langfuse.trace.tags', 'github', (o, c) => (o.tags = ['prod', `t ${c}`])],
  ['Langfuse v2 userId', 'user.id', 'github', (o, c) => (o.userId = c)],
  ['Langfuse version', 'langfuse.version', 'aws', (o, c) => (o.version = `v1 ${c}`)],
  // Fields the SDK writes no attribute for: argspan's own.
  ['Langfuse legacy usage', 'langfuse.api.usage', 'github', (o, c) => (o.usage = { input: 1, unit: `TOKENS ${c}` })],
  ['Langfuse promptId', 'langfuse.api.promptId', 'github', (o, c) => (o.promptId = `p ${c}`)],
  ['Langfuse field unknown to argspan', 'langfuse.api.someFutureField', 'github', (o, c) => (o.someFutureField = { note: c })],
  ['Langfuse id that is hashed', 'langfuse.api.id', 'github', (o, c) => (o.id = `obs:${c}`)],
];

const langSmithCases: Case[] = [
  // The exporter's attributes, and record_exception's event.
  ['LangSmith error', 'exception.message', 'github', (r, c) => (r.error = `HTTPError('401 Client Error: Unauthorized for url: https://api.github.com/user?access_token=${c}')`)],
  ['LangSmith extra.metadata', 'langsmith.metadata.aws_key', 'aws', (r, c) => (r.extra = { metadata: { aws_key: c } })],
  ['LangSmith tags', 'langsmith.span.tags', 'github', (r, c) => (r.tags = ['weather', `t ${c}`])],
  ['LangSmith session_name', 'langsmith.trace.session_name', 'github', (r, c) => (r.session_name = `project ${c}`)],
  ['LangSmith serialized.doc', 'gen_ai.serialized.doc', 'github', (r, c) => (r.serialized = { name: 'get_weather', doc: `Uses ${c}` })],
  // Text inputs are the tool's arguments as a whole: `$`, as for the exporter's `gen_ai.prompt` of that text.
  ['LangSmith inputs that are text', '$', 'github', (r, c) => (r.inputs = `city=London token ${c}`)],
  // Fields the exporter drops: span events, or argspan's own attributes.
  ['LangSmith events[].kwargs', 'langsmith.api.event.kwargs', 'github', (r, c) => (r.events = [{ name: 'new_token', time: '2025-08-15T17:56:12.483000', kwargs: { token: c } }])],
  ['LangSmith events[].name', 'langsmith.api.event.name', 'github', (r, c) => (r.events = [{ name: `token ${c}`, time: '2025-08-15T17:56:12.483000' }])],
  ['LangSmith extra.invocation_params', 'langsmith.api.extra.invocation_params', 'aws', (r, c) => (r.extra = { metadata: {}, invocation_params: { openai_api_key: c } })],
  ['LangSmith serialized.kwargs', 'langsmith.api.serialized.kwargs', 'github', (r, c) => (r.serialized = { lc: 1, type: 'constructor', kwargs: { api_key: c } })],
  ['LangSmith feedback_stats', 'langsmith.api.feedback_stats', 'github', (r, c) => (r.feedback_stats = { correctness: { n: 1, comments: [`leaked ${c}`] } })],
  ['LangSmith attachments', 'langsmith.api.attachments', 'aws', (r, c) => (r.attachments = { report: { presigned_url: `https://bucket.s3.amazonaws.com/r?X-Amz-Credential=${c}%2F20250815` } })],
  ['LangSmith field unknown to argspan', 'langsmith.api.some_future_field', 'github', (r, c) => (r.some_future_field = `x ${c}`)],
];

const cases = [...langfuseCases, ...langSmithCases].map(([field, key, shape, plant], i) => ({ field, key, plant, tool: `case_${i}`, canary: shape === 'github' ? github(i) : aws(i) }));

/** One copy of `base` per case, named by its case's tool and holding its canary; `id` gives each its own span id. */
function itemsOf(base: Item, own: readonly typeof cases[number][], id: (i: number) => Item): Item[] {
  return own.map((c, i) => {
    const item: Item = { ...structuredClone(base), ...id(i), name: c.tool };
    c.plant(item, c.canary);
    return item;
  });
}

/** The reports of one run over both answers (json, table, sarif, junit, html, a baseline), each case's tool call in a span of its own. */
function analyzeAnswers() {
  const dir = mkdtempSync(join(tmpdir(), 'argspan-api-fields-'));
  const page = derived('langfuse-api-observations-write-document.json');
  const observation = (page.data as Item[])[0]!;
  page.data = itemsOf(observation, cases.slice(0, langfuseCases.length), (i) => ({ id: `ace4923326${String(i).padStart(6, '0')}` }));
  const answer = derived('langsmith-api-runs-traceable-tool.json');
  const [chain, tool] = answer.runs as Item[];
  answer.runs = [chain, ...itemsOf(tool!, cases.slice(langfuseCases.length), (i) => ({ id: `${String(i).padStart(8, '0')}-04fc-8b09-0000-000000000000` }))];
  const files = [join(dir, 'observations.json'), join(dir, 'runs.json')];
  writeFileSync(files[0]!, JSON.stringify(page, null, 2));
  writeFileSync(files[1]!, JSON.stringify(answer, null, 2));
  const json = analyzeBin(...files, '--format', 'json', '--reports');
  const outputs: Record<string, string> = { json: json.stdout + json.stderr };
  const codes: Record<string, number | null> = { json: json.code };
  for (const format of ['table', 'sarif', 'junit', 'html']) {
    const run = analyzeBin(...files, '--format', format, '--reports');
    [outputs[format], codes[format]] = [run.stdout + run.stderr, run.code];
  }
  const baseline = join(dir, 'baseline.json');
  const written = analyzeBin(...files, '--write-baseline', baseline);
  [outputs.baseline, codes.baseline] = [`${written.stdout}${written.stderr}${readFileSync(baseline, 'utf8')}`, written.code];
  return { findings: json.code === 1 ? parseJson(json).findings : [], outputs, codes };
}

describe('argspan analyze: a credential in any field of a Langfuse or LangSmith API answer', () => {
  let result: ReturnType<typeof analyzeAnswers>;
  beforeAll(() => {
    result = analyzeAnswers();
  }, 180_000);

  it('fails the run (exit 1) in every report; the baseline is written (exit 0)', () => {
    expect(result.codes).toEqual({ json: 1, table: 1, sarif: 1, junit: 1, html: 1, baseline: 0 });
  });

  it.each(cases)('$field: credential_in_attribute on $key, and no report prints it', ({ key, tool, canary }) => {
    expect(result.findings.filter((f) => f.rule === 'credential_in_attribute' && f.tool === tool).map((f) => f.key)).toContain(key);
    // The canary, and its characters past the shape's prefix (a redaction that kept the tail would print them).
    for (const [format, out] of Object.entries(result.outputs)) {
      expect(out, format).not.toContain(canary);
      expect(out, format).not.toContain(canary.slice(4, 16));
    }
  });
});
