import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson } from './analyze-helpers.js';
import { FOREIGN } from './support/analyze-foreign.js';

/**
 * `argspan analyze` on real foreign fixtures a hostile or unlucky user bent into shapes that are
 * still readable: a call must not pass as clean because of the shape it was recorded in.
 */
/** A GitHub-token-shaped canary made for this file (not a credential). */
const TOKEN = 'ghp_Zq7RtK2mW9xLp4Vn8sB3dF6hJ1cG5yT0aE2u';

interface Attribute { key: string; value: Record<string, unknown> }
interface OtlpDoc { resourceSpans: { scopeSpans: { spans: { attributes: Attribute[] }[] }[] }[] }

/** The fixture `name` with `edit` applied to each span's attributes, written to a new temporary file. */
function mutated(name: string, edit: (attributes: Attribute[]) => Attribute[]): string {
  const doc = JSON.parse(readFileSync(join(FOREIGN, name), 'utf8')) as OtlpDoc;
  for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) span.attributes = edit(span.attributes);
  const file = join(mkdtempSync(join(tmpdir(), 'argspan-foreign-hostile-')), name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** Findings (rule, tool, key) and the foreign stats of `file`, checking no output holds `secret`. */
function analyse(file: string, secret: string): { code: number | null; findings: string[]; calls: unknown; unreadable: unknown } {
  const run = analyzeBin(file, '--format', 'json');
  expect(run.stdout + run.stderr).not.toContain(secret);
  const out = parseJson(run);
  return { code: run.code, findings: out.findings.map((f) => `${f.rule} ${f.tool} ${f.key}`), calls: out.stats.foreign_calls, unreadable: out.stats.unreadable_args_calls };
}

const OI_CALL = 'llm.output_messages.0.message.tool_calls.0.tool_call.';

describe('argspan analyze on foreign calls in hostile shapes', () => {
  it('reports a model call whose name was left out: the secret path in its arguments, on the unnamed tool', () => {
    const file = mutated('openinference-llama-index-weather-model-only.json', (attrs) =>
      attrs
        .filter((a) => a.key !== `${OI_CALL}function.name`)
        .map((a) => (a.key === `${OI_CALL}function.arguments` ? { key: a.key, value: { stringValue: JSON.stringify({ location: '/app/.env' }) } } : a)),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched (unnamed) location'], calls: 1, unreadable: 0 });
  });

  it('counts a model call whose arguments are an array attribute, not text, as not checked', () => {
    const file = mutated('openinference-llama-index-weather-model-only.json', (attrs) =>
      attrs.map((a) => (a.key === `${OI_CALL}function.arguments` ? { key: a.key, value: { arrayValue: { values: [{ stringValue: '/app/.env' }] } } } : a)),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 0, findings: [], calls: 1, unreadable: 1 });
  });

  it('reads an arguments attribute written twice: the earlier copy is not hidden by the later one', () => {
    const args = `${OI_CALL}function.arguments`;
    const withEarlier = (earlier: unknown) =>
      mutated('openinference-llama-index-weather-model-only.json', (attrs) => (attrs.some((a) => a.key === args) ? [{ key: args, value: { stringValue: JSON.stringify(earlier) } }, ...attrs] : attrs));
    // (found, and still not wholly read: what else the copies held was not checked)
    expect(analyse(withEarlier({ location: '/app/.env' }), TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched get_weather $'], calls: 1, unreadable: 1 });
    expect(analyse(withEarlier({ location: TOKEN }), TOKEN)).toMatchObject({ code: 1, findings: ['credential_in_attribute get_weather $'] });
    // A guessed zone in the earlier copy cannot be told from the later: the call is counted as not checked.
    expect(analyse(withEarlier({ timezone: 'Europe/Paris' }), TOKEN)).toEqual({ code: 0, findings: [], calls: 1, unreadable: 1 });
  });

  it('reads arguments whose JSON names a key twice: the copy JSON.parse drops is not lost', () => {
    const file = mutated('vercel-ai-legacy-v4-streamtext-tool.json', (attrs) =>
      attrs.map((a) => (a.key === 'ai.toolCall.args' ? { key: a.key, value: { stringValue: '{"value": "/app/.env", "value": "value"}' } } : a)),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched tool1 $'], calls: 1, unreadable: 1 });
  });

  it("reads a model's output messages cut off at the emitter's length limit as far as they are whole, not as nothing", () => {
    // The model-only OpenLLMetry trace: its one output attribute holds both calls. Cut inside the
    // second call's arguments (as OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT cuts), the calls were not seen at all;
    // the first is whole (its planted path by tool and key), the second counted as not wholly read.
    const file = mutated('genai-openllmetry-anthropic-timezone-model-only.json', (attrs) =>
      attrs.map((a) => {
        const text = a.value.stringValue;
        if (a.key !== 'gen_ai.output.messages' || typeof text !== 'string') return a;
        const planted = text.replace('"New York, NY"', '"/app/.env"');
        return { key: a.key, value: { stringValue: planted.slice(0, planted.indexOf('America/')) } };
      }),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched get_weather location'], calls: 2, unreadable: 1 });
  });

  it("reports a secret file in a cut-off model output's arguments string, cut after the path inside it", () => {
    // OpenAI's chat completion as OpenInference records it, `output.value` its only copy of the
    // calls: the arguments are a JSON string inside the JSON text, cut where the limit fell.
    const file = mutated('openinference-openai-chat-completions-tool-calls-model-only.json', (attrs) =>
      attrs
        .filter((a) => !a.key.startsWith('llm.output_messages.'))
        .map((a) => {
          const text = a.value.stringValue;
          if (a.key !== 'output.value' || typeof text !== 'string') return a;
          const planted = text.replace(JSON.stringify('{"city": "San Francisco"}'), JSON.stringify('{"city": "/app/.env", "units": "metric"}'));
          return { key: a.key, value: { stringValue: planted.slice(0, planted.indexOf('metric')) } };
        }),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched (unnamed) $'], calls: 1, unreadable: 1 });
  });

  it("reads an emitter's kind attribute in either case (Langfuse's API writes TOOL, its SDK tool)", () => {
    const KINDS = new Set(['openinference.span.kind', 'traceloop.span.kind', 'langsmith.span.kind', 'langfuse.observation.type']);
    const flipped = (name: string, edit: (a: Attribute) => Attribute = (a) => a) =>
      mutated(name, (attrs) =>
        attrs.map((a) => {
          const v = a.value.stringValue;
          if (!KINDS.has(a.key) || typeof v !== 'string') return edit(a);
          return { key: a.key, value: { stringValue: v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase() } };
        }),
      );
    // The Langfuse tool observation is the trace's only record of the call: in the other case it was passed over.
    const planted = flipped('langfuse-langchain-tool-write-document.json', (a) =>
      a.key === 'langfuse.observation.input' ? { key: a.key, value: { stringValue: String(a.value.stringValue).replace('/tmp/example.md', '/app/.env') } } : a,
    );
    expect(analyse(planted, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched write_document path'], calls: 1, unreadable: 0 });
    for (const name of ['langsmith-otel-traceable-tool.json', 'openinference-claude-agent-sdk-bash.json', 'openllmetry-openai-agents-weather.json']) {
      expect(analyse(flipped(name), TOKEN), name).toEqual(analyse(join(FOREIGN, name), TOKEN));
    }
  });

  it("reads a model's output messages in a shape no reader knows as one unreadable call, not as nothing", () => {
    // The conventions' list wrapped in an object: its calls were passed over, the trace clean.
    const wrapped = (output: (messages: unknown) => unknown) =>
      mutated('genai-openllmetry-anthropic-timezone-model-only.json', (attrs) =>
        attrs.map((a) => {
          const text = a.value.stringValue;
          if (a.key !== 'gen_ai.output.messages' || typeof text !== 'string') return a;
          return { key: a.key, value: { stringValue: JSON.stringify(output(JSON.parse(text.replace('"New York, NY"', '"/app/.env"')))) } };
        }),
      );
    expect(analyse(wrapped((messages) => ({ messages })), TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched (unnamed) $'], calls: 1, unreadable: 1 });
    // One message for the list of one is the list: its two calls read by name.
    expect(analyse(wrapped((messages) => (messages as unknown[])[0]), TOKEN)).toEqual({ code: 1, findings: ['assumption_span get_time timezone', 'sensitive_arg_dispatched get_weather location'], calls: 2, unreadable: 0 });
  });

  it('reads a call under an OpenInference index that is not a number', () => {
    const file = mutated('openinference-llama-index-weather-model-only.json', (attrs) =>
      attrs.map((a) => {
        if (!a.key.startsWith(OI_CALL)) return a;
        const key = a.key.replace('.tool_calls.0.', '.tool_calls.-1.');
        return key.endsWith('function.arguments') ? { key, value: { stringValue: JSON.stringify({ location: '/app/.env' }) } } : { key, value: a.value };
      }),
    );
    expect(analyse(file, TOKEN)).toEqual({ code: 1, findings: ['sensitive_arg_dispatched get_weather location'], calls: 1, unreadable: 0 });
  });

  it("counts ADK's model response cut off at the length limit as a call, not as nothing", () => {
    const file = mutated('openinference-google-adk-weather.json', (attrs) =>
      attrs.map((a) => {
        const text = a.value.stringValue;
        if (a.key !== 'gcp.vertex.agent.llm_response' || typeof text !== 'string' || !text.includes('function_call')) return a;
        const planted = text.replace('"New York"', '"/app/.env", "unit": "c"');
        return { key: a.key, value: { stringValue: planted.slice(0, planted.indexOf('"unit"')) } };
      }),
    );
    expect(analyse(file, TOKEN)).toMatchObject({ code: 1, findings: expect.arrayContaining(['sensitive_arg_dispatched (unnamed) $']) });
  });

  it('says of a call known only from the model\'s output that the model asked for it, not that it ran; of a tool span\'s, that it ran', () => {
    const asked = mutated('openinference-llama-index-weather-model-only.json', (attrs) =>
      attrs.map((a) => (a.key === `${OI_CALL}function.arguments` ? { key: a.key, value: { stringValue: JSON.stringify({ location: '/app/.env' }) } } : a)));
    const messages = (file: string) => parseJson(analyzeBin(file, '--format', 'json')).findings.map((f) => f.message.slice(f.message.indexOf('never dispatches, ') + 18));
    expect(messages(asked)).toEqual(['but the model asked for the call (its request recorded by openinference; the trace holds no run of it).']);
    const ran = mutated('genai-aisdk-otel-function-tool.json', (attrs) => attrs.map((a) => (a.key === 'gen_ai.tool.call.arguments' ? { key: a.key, value: { stringValue: '{"path":"/app/.env"}' } } : a)));
    expect(messages(ran)).toEqual([expect.stringMatching(/^but the call ran \(recorded by \S+\)\.$/)]);
  });

  it('reports a credential as an argument\'s key, or written in \\u escapes, as a credential (critical), by tool and key', () => {
    const withArgs = (blob: string) =>
      mutated('genai-aisdk-otel-function-tool.json', (attrs) => attrs.map((a) => (a.key === 'gen_ai.tool.call.arguments' ? { key: a.key, value: { stringValue: blob } } : a)));
    // (the key shown redacted, the finding saying where the credential is)
    const inKey = analyzeBin(withArgs(JSON.stringify({ query: 'test', [TOKEN]: 'x' })), '--format', 'json', '--fail-on', 'critical');
    expect(inKey.stdout + inKey.stderr).not.toContain(TOKEN);
    expect([inKey.code, parseJson(inKey).findings.map((f) => `${f.rule} ${f.key} ${f.message.slice(f.message.indexOf(', has') + 2)}`)]).toEqual([
      1, ['credential_in_attribute [REDACTED:github-pat] has a key matching the github-pat credential shape.'],
    ]);
    // An encoder that escapes every character writes no keyword the pre-filter looks for: the text is read still.
    const escaped = [...TOKEN].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('');
    const run = analyzeBin(withArgs(`{"q":"${escaped}"}`), '--format', 'json', '--fail-on', 'critical');
    expect([run.code, parseJson(run).findings.map((f) => `${f.rule} ${f.tool} ${f.key}`)]).toEqual([1, [expect.stringMatching(/^credential_in_attribute \S+ q$/)]]);
  });
});
