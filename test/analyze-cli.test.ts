import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgAttributes } from '@argspan/conventions';
import { describe, expect, it } from 'vitest';
import { CANARY_AWS_KEY } from '../analyzer/src/synth/rule-cases.js';
import { analyzeBin, parseJson, query } from './analyze-helpers.js';

const TOKYO = 'fixtures/traces/tokyo-invite.jsonl';
const CLEAN = 'fixtures/traces/rules/remote_hop_without_rtt/fp.jsonl';
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-analyze-cli-'));

describe('argspan analyze: output and exit codes', () => {
  it('prints one JSON object with findings and stats, nothing else on stdout', () => {
    const run = analyzeBin(TOKYO, '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.findings[0]).toEqual({
      rule: 'assumption_span',
      severity: 'high',
      message: expect.stringMatching(/\.$/),
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      tool: 'calendar.create',
      key: expect.any(String),
      emitter: 'argspan',
      file: TOKYO,
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(out.stats).toMatchObject({ files: 1, spans: 10, malformed_lines: 0, time_ms: expect.any(Number) });
  });

  it('exits 0 with "No findings" on a clean trace, and --fail-on sets the threshold', () => {
    const clean = analyzeBin(CLEAN);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^No findings in 1 file\(s\), 3 span\(s\)\.$/m);
    expect(analyzeBin(TOKYO, '--fail-on', 'critical').code).toBe(0);
    expect(analyzeBin(TOKYO, '--fail-on', 'high').code).toBe(1);
    expect(analyzeBin(TOKYO, '--fail-on', 'none').code).toBe(0);
  });

  it('exits 2 on bad usage', () => {
    expect(analyzeBin(TOKYO, '--format', 'xml').code).toBe(2);
    expect(analyzeBin().code).toBe(2);
  });

  it('--memory-limit and --threads set DuckDB\'s limits; a bad value exits 2 naming the option, before reading input', () => {
    const limited = analyzeBin(TOKYO, '--format', 'json', '--memory-limit', '256MB', '--threads', '1');
    expect(limited.code).toBe(1);
    expect(parseJson(limited).findings).toEqual(parseJson(analyzeBin(TOKYO, '--format', 'json')).findings);
    for (const [flag, value] of [['--memory-limit', 'lots'], ['--memory-limit', '0GB'], ['--threads', '0'], ['--threads', '1.5']] as const) {
      const bad = analyzeBin('no/such/file.jsonl', flag, value);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain(`argspan analyze: ${flag} must be`);
    }
    // A size DuckDB itself refuses (too small to run) still exits 2 with an error, never a result.
    const tiny = analyzeBin(TOKYO, '--memory-limit', '1KB');
    expect(tiny.code).toBe(2);
    expect(tiny.stdout).toBe('');
  });

  it('reads directories and globs, and counts spans shared by overlapping files once', () => {
    const run = analyzeBin('fixtures/traces/formats/rotated', 'fixtures/traces/formats/otlp-lines.jsonl*', '--format', 'json');
    const out = parseJson(run);
    expect(out.stats).toMatchObject({ files: 4, spans: 10, duplicate_spans: 30 });
  });
});

describe('argspan analyze: unreadable input never reads as clean', () => {
  it.each([
    ['fixtures/traces/bad/truncated.jsonl', 'fixtures/traces/bad/truncated.jsonl:2: not valid JSON'],
    ['fixtures/traces/bad/not-json.jsonl', 'fixtures/traces/bad/not-json.jsonl:2: not valid JSON'],
    ['fixtures/traces/bad/other-shape.jsonl', 'fixtures/traces/bad/other-shape.jsonl:2: JSON of another shape'],
    ['fixtures/traces/bad/empty.jsonl', 'fixtures/traces/bad/empty.jsonl: file is empty'],
    ['fixtures/traces/bad/missing.jsonl', 'fixtures/traces/bad/missing.jsonl: no such file'],
    ['fixtures/traces/formats/collector-framed-proto.bin', 'collector-framed-proto.bin:1: collector framed output with protobuf messages is not supported'],
  ])('%s: exit 2, names file and line, prints nothing on stdout', (file, message) => {
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('a path that names nothing to read is never skipped, and the run does not suggest --allow-partial for it', () => {
    for (const extra of [[], ['--allow-partial']]) {
      const run = analyzeBin('fixtures/traces/bad/missing.jsonl', 'fixtures/traces/dotenv.jsonl', ...extra);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        'argspan analyze: fixtures/traces/bad/missing.jsonl: no such file or directory\n' +
          'argspan analyze: no analysis result: a path given names nothing to read (a path is never skipped, with --allow-partial too)\n',
      );
    }
    // Input that is there but damaged is what --allow-partial is for: the run says so.
    expect(analyzeBin('fixtures/traces/bad/not-json.jsonl').stderr).toContain('(use --allow-partial to analyse the readable rest)');
  });

  it('--allow-partial analyses the rest and reports the skipped line in stats and on stderr', () => {
    const run = analyzeBin('fixtures/traces/bad/not-json.jsonl', '--allow-partial', '--format', 'json');
    expect(run.code).toBe(1);
    const out = parseJson(run);
    expect(out.stats.spans).toBe(6);
    expect(out.stats.malformed_lines).toBe(1);
    expect(out.stats.skipped).toEqual([{ file: 'fixtures/traces/bad/not-json.jsonl', line: 2, reason: expect.stringMatching(/not valid JSON/) }]);
    expect(run.stderr).toContain('skipped fixtures/traces/bad/not-json.jsonl:2');
    const table = analyzeBin('fixtures/traces/bad/not-json.jsonl', '--allow-partial');
    expect(table.stdout).toContain('Skipped 1 unreadable line(s) or file(s):');
  });

  it('a small file that is not JSON at all is called not valid JSON, not JSON of another shape', () => {
    const dir = tmp();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, `{"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "${CANARY_AWS_KEY}"`);
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, '{bad\n');
    for (const f of [broken, bare]) {
      const run = analyzeBin(f);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:[^\\n]*not valid JSON`));
      expect(run.stderr).not.toContain('another shape');
      expect(run.stderr).not.toContain(CANARY_AWS_KEY);
    }
  });

  it('never echoes a value from a bad line in an error', () => {
    const dir = tmp();
    const top = join(dir, 'top.jsonl');
    writeFileSync(top, `{"resourceSpans":"${CANARY_AWS_KEY}"}\n`);
    const nested = join(dir, 'nested.jsonl');
    writeFileSync(nested, `{"resourceSpans":[{"scopeSpans":"${CANARY_AWS_KEY}"}]}\n`);
    for (const f of [top, nested]) {
      const run = analyzeBin(f);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(f);
      expect(run.stderr + run.stdout).not.toContain(CANARY_AWS_KEY);
    }
  });
});

describe('argspan analyze: rules, baseline, allowlist, db and parquet', () => {
  it('--write-baseline then --baseline suppresses the accepted findings', () => {
    const dir = tmp();
    const baseline = join(dir, 'baseline.json');
    // Recording the baseline is a success: exit 0 once it is written, whatever it holds.
    expect(analyzeBin(TOKYO, '--write-baseline', baseline).code).toBe(0);
    const written = JSON.parse(readFileSync(baseline, 'utf8')) as { findings: unknown[] };
    expect(written.findings).toHaveLength(5);
    const run = analyzeBin(TOKYO, '--baseline', baseline, '--format', 'json');
    expect(run.code).toBe(0);
    expect(parseJson(run).stats.suppressed).toBe(5);
    expect(analyzeBin(TOKYO, '--baseline', join(dir, 'nope.json')).code).toBe(2);
  });

  it('a baseline recorded from one run\'s traces accepts the same findings in the next recording, whose trace and span ids are new', () => {
    const dir = tmp();
    const baseline = join(dir, 'baseline.json');
    expect(analyzeBin(TOKYO, '--write-baseline', baseline).code).toBe(0);
    // The same agent run recorded again: every trace and span id another (the SDK draws them at random).
    const again = join(dir, 'again.jsonl');
    const ids = new Map<string, string>();
    const fresh = (id: string) => ids.get(id) ?? (ids.set(id, [...id].map((c, i) => ((parseInt(c, 16) + i + 7) % 16).toString(16)).join('')), ids.get(id)!);
    writeFileSync(again, readFileSync(TOKYO, 'utf8').replace(/"(traceId|spanId|parentSpanId)":\s*"([0-9a-f]+)"/g, (_m, k: string, id: string) => `"${k}":"${fresh(id)}"`));
    const first = parseJson(analyzeBin(TOKYO, '--format', 'json'));
    const second = parseJson(analyzeBin(again, '--format', 'json'));
    expect(second.findings.map((f) => f.trace_id)).not.toEqual(first.findings.map((f) => f.trace_id));
    expect(second.findings.map((f) => f.fingerprint).sort()).toEqual(first.findings.map((f) => f.fingerprint).sort());
    const gated = analyzeBin(again, '--baseline', baseline, '--format', 'json');
    expect(gated.code).toBe(0);
    expect(parseJson(gated).stats.suppressed).toBe(first.findings.length);
  });

  it('updating a baseline (--baseline B --write-baseline B) keeps what it accepted and adds the new findings; a byte order mark is skipped', () => {
    const dir = tmp();
    const baseline = join(dir, 'baseline.json');
    expect(analyzeBin(TOKYO, '--write-baseline', baseline).code).toBe(0);
    writeFileSync(baseline, `\uFEFF${readFileSync(baseline, 'utf8')}`);
    const update = analyzeBin(TOKYO, 'fixtures/traces/dotenv.jsonl', '--baseline', baseline, '--write-baseline', baseline);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stderr).toMatch(/wrote \d+ finding\(s\) to the baseline .* \(5 accepted by .* and still found, \d+ new\)/);
    const both = analyzeBin(TOKYO, 'fixtures/traces/dotenv.jsonl', '--baseline', baseline, '--format', 'json');
    expect(both.code).toBe(0);
    expect(parseJson(both).findings).toEqual([]);
    expect(parseJson(both).stats.suppressed).toBe((JSON.parse(readFileSync(baseline, 'utf8')) as { findings: unknown[] }).findings.length);
  });

  it('--rules DIR adds the user\'s rules; a duplicate id or a broken rule exits 2 naming the file', () => {
    const dir = tmp();
    const ok = join(dir, 'ok');
    mkdirSync(ok);
    writeFileSync(
      join(ok, 'schema_default_used.sql'),
      `-- id: schema_default_used\n-- title: Schema default used\n-- severity: medium\n-- kind: gate\n-- description: A schema default filled an argument.\n-- remedy: None.\nSELECT trace_id, span_id, tool, "key", 'Default used for ' || "key" || '.' AS reason FROM tool_args WHERE provenance = 'schema_default'\n`,
    );
    const run = analyzeBin(TOKYO, '--rules', ok, '--format', 'json');
    expect(parseJson(run).findings.filter((f) => f.rule === 'schema_default_used').map((f) => f.key)).toEqual(['duration_minutes']);

    const dup = join(dir, 'dup');
    mkdirSync(dup);
    writeFileSync(join(dup, 'a.sql'), readFileSync('analyzer/rules/assumption_span.sql'));
    const d = analyzeBin(TOKYO, '--rules', dup);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/a\.sql: duplicate rule id "assumption_span"/);

    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'b.sql'), `-- id: bad_shape\n-- title: t\n-- severity: low\n-- kind: gate\n-- description: d\n-- remedy: r\nSELECT 1 AS x\n`);
    const b = analyzeBin(TOKYO, '--rules', broken);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/b\.sql: rule bad_shape failed/);

    // A rule file that is not UTF-8 (a literal saved as Latin-1 would match nothing) is broken, not read with replacements;
    // a byte order mark is skipped; a `requires` naming no table (a typo) is broken, never skipped as if the table were empty.
    const latin1 = join(dir, 'latin1');
    mkdirSync(latin1);
    writeFileSync(join(latin1, 'l.sql'), Buffer.from(`-- id: cafe_order\n-- title: t\n-- severity: low\n-- kind: gate\n-- description: d\n-- remedy: r\nSELECT trace_id, span_id, tool, NULL AS "key", 'x' AS reason FROM tool_calls WHERE tool = 'caf\u00e9'\n`, 'latin1'));
    const l1 = analyzeBin(TOKYO, '--rules', latin1);
    expect(l1.code).toBe(2);
    expect(l1.stderr).toMatch(/l\.sql: rule file is not UTF-8/);
    const bom = join(dir, 'bom');
    mkdirSync(bom);
    writeFileSync(join(bom, 'm.sql'), `\uFEFF${readFileSync(join(ok, 'schema_default_used.sql'), 'utf8')}`);
    expect(analyzeBin(TOKYO, '--rules', bom).code).toBe(1);
    const typo = join(dir, 'typo');
    mkdirSync(typo);
    writeFileSync(join(typo, 't.sql'), `-- id: every_call\n-- title: t\n-- severity: low\n-- kind: gate\n-- requires: tool_call\n-- description: d\n-- remedy: r\nSELECT trace_id, span_id, tool, NULL AS "key", 'x' AS reason FROM tool_calls\n`);
    const t = analyzeBin(TOKYO, '--rules', typo);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/t\.sql: rule every_call requires "tool_call", which no table or view is named/);

    // A rule whose error would quote a value (a failed cast) never echoes it.
    const leaky = join(dir, 'leaky');
    mkdirSync(leaky);
    writeFileSync(join(leaky, 'c.sql'), `-- id: leaky_cast\n-- title: t\n-- severity: low\n-- kind: gate\n-- description: d\n-- remedy: r\nSELECT a.trace_id, a.span_id, NULL AS tool, a."key", CAST(a.str_value AS INTEGER)::VARCHAR AS reason FROM span_attributes a WHERE a."key" = '${ArgAttributes.EXCERPT}'\n`);
    const l = analyzeBin('fixtures/traces/dotenv.jsonl', '--rules', leaky);
    expect(l.code).toBe(2);
    expect(l.stderr).toMatch(/c\.sql: rule leaky_cast failed.*: a value of the wrong type$/m);
    expect(l.stderr).not.toContain(CANARY_AWS_KEY);
  });

  it('JUnit fails a rule\'s case only for findings that fail the run (--fail-on), and --reports never changes the exit', () => {
    const held = 'fixtures/traces/rules/held_assumption/tp.jsonl';
    const run = analyzeBin(held, '--format', 'junit', '--fail-on', 'low');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('failures="0"');
    expect(run.stdout).toMatch(/<testcase classname="argspan\.\w+" name="held_assumption">\s*<system-out>3 finding\(s\) reported, not failing the run/);
    const atInfo = analyzeBin(held, '--format', 'junit', '--fail-on', 'info');
    expect(atInfo.code).toBe(1);
    expect(atInfo.stdout).toMatch(/name="held_assumption">\s*<failure type="info"/);
    // A run summary per run (a report, severity info) is no problem: the exit is the same with and without --reports.
    expect(analyzeBin(CLEAN, '--fail-on', 'info').code).toBe(0);
    const reports = analyzeBin(CLEAN, '--fail-on', 'info', '--reports', '--format', 'junit');
    expect(reports.code).toBe(0);
    expect(reports.stdout).toContain('failures="0"');
    expect(reports.stdout).toContain('name="report_run_summary">');
  });

  it('takes the remote allowlist from the resource attribute and --remote-allowlist; says when it has none', () => {
    const tp = 'fixtures/traces/rules/remote_hop_not_allowlisted/tp.jsonl';
    const hits = (args: string[]) => parseJson(analyzeBin(tp, '--format', 'json', ...args)).findings.filter((f) => f.rule === 'remote_hop_not_allowlisted');
    expect(hits([])).toHaveLength(1);
    expect(hits(['--remote-allowlist', 'calendar.create,mail.send'])).toHaveLength(0);
    // Calls that went remote with no allowlist known: the rule cannot run, and the run says so.
    const unlisted = join(tmp(), 'no-allowlist.jsonl');
    const text = readFileSync(tp, 'utf8');
    const withoutAllowlist = text.replace(/\{"key":"argspan\.remote\.allowlist","value":\{"arrayValue":\{"values":\[[^\]]*\]\}\}\},?/g, '');
    expect(withoutAllowlist).not.toBe(text);
    writeFileSync(unlisted, withoutAllowlist);
    const none = analyzeBin(unlisted, '--format', 'json');
    expect(parseJson(none).stats.rules_skipped).toEqual([{ rule: 'remote_hop_not_allowlisted', reason: 'needs remote_allowlist, which is empty' }]);
    expect(none.stderr).toContain('rule remote_hop_not_allowlisted not run');
    // No call went remote (a local run, another library's traces): nothing to check, nothing to say.
    const jaeger = analyzeBin('fixtures/traces/formats/jaeger-trace.json', '--format', 'json');
    expect(parseJson(jaeger).stats.rules_skipped).toEqual([]);
    expect(jaeger.stderr).not.toContain('not run');
    expect(analyzeBin('fixtures/traces/foreign/openinference-crewai-scrape-website.json').stdout).not.toContain('not run');
  });

  it('--db keeps the database and --export-parquet writes every table; the CLI output stays canary-free', async () => {
    const dir = tmp();
    const dbFile = join(dir, 'traces.duckdb');
    const pq = join(dir, 'parquet');
    const run = analyzeBin('fixtures/traces/dotenv.jsonl', '--db', dbFile, '--export-parquet', pq, '--reports', '--format', 'json');
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(CANARY_AWS_KEY);
    expect(await query(dbFile, 'SELECT count(*) AS n FROM spans')).toEqual([{ n: '6' }]);
    expect(await query(dbFile, 'SELECT tool, went_remote FROM tool_calls ORDER BY tool')).toEqual([
      { tool: 'fs.read', went_remote: false },
      { tool: 'summarise', went_remote: true },
    ]);
    // The attribute views survive in the file (they depend on no session macro).
    expect(await query(dbFile, `SELECT count(*) AS n FROM span_attributes WHERE "key" = '${ArgAttributes.EXCERPT}'`)).toEqual([{ n: '1' }]);
    expect(existsSync(join(pq, 'span_attributes.parquet'))).toBe(true);
    expect(await query(undefined, `SELECT count(*) AS n FROM read_parquet('${join(pq, 'spans.parquet')}')`)).toEqual([{ n: '6' }]);
    // Re-running into the same --db replaces the analyzer's tables.
    expect(analyzeBin(TOKYO, '--db', dbFile).code).toBe(1);
    expect(await query(dbFile, 'SELECT count(*) AS n FROM spans')).toEqual([{ n: '10' }]);
  });

  it('--reports adds the parent-span joins: invented fields per turn, run summary, lineage', () => {
    const out = parseJson(analyzeBin(TOKYO, '--reports', '--format', 'json'));
    const reports = out.findings.filter((f) => f.rule.startsWith('report_')).map((f) => f.message);
    expect(reports).toEqual(
      expect.arrayContaining([
        'Turn invoke_agent calendar-assistant: calendar.create got 1 model-inferred value(s) for timezone.',
        'Run run-tokyo: 2 tool call(s), 7 argument(s), 2 model-inferred, 0 held, 0 denied, 0 remote.',
        expect.stringMatching(/^Argument attendee\.name of calendar\.create came from the result of contacts\.lookup \(span [0-9a-f]{16}, call call_[0-9a-f]+\)\.$/),
      ]),
    );
  });
});
