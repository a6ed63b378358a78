import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, analyzeBin, parseJson } from './analyze-helpers.js';

/**
 * `argspan analyze` on inputs written a little differently from the exports it was built on: a
 * byte order mark, protobuf field names on JSON lines, a pipe for a path.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'argspan-input-shapes-'));
const compact = (file: string) => `${JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))}\n`;

/** Exit code, span count and findings (without the file name, which differs between copies). */
function outcome(...args: string[]) {
  const run = analyzeBin(...args, '--format', 'json');
  expect(run.code, run.stderr).toBeLessThan(2);
  const out = parseJson(run);
  return { code: run.code, spans: out.stats.spans, findings: out.findings.map((f) => ({ ...f, file: undefined })) };
}

describe('argspan analyze on files that open with a UTF-8 byte order mark', () => {
  // Windows tools (PowerShell 5's Out-File, Notepad) write one; it is read as if it were not there.
  it.each([
    ['OTLP JSON lines', () => readFileSync('fixtures/traces/tokyo-invite.jsonl', 'utf8')],
    ['an OTLP document on one line', () => compact('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json')],
    ['a pretty-printed OTLP document', () => readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')],
    ['a Jaeger JSON document', () => readFileSync('fixtures/traces/formats/jaeger-envelope.json', 'utf8')],
    ['Phoenix\'s snake_case OTLP download', () => readFileSync('fixtures/traces/foreign/derived/phoenix-export-google-adk-weather.json', 'utf8')],
    ['a Phoenix spans/otlpv1 answer', () => readFileSync('fixtures/traces/foreign/derived/phoenix-rest-anthropic-timezone.json', 'utf8')],
    ['a Langfuse observations answer', () => readFileSync('fixtures/traces/foreign/derived/langfuse-api-observations-write-document.json', 'utf8')],
    ['a LangSmith runs answer', () => readFileSync('fixtures/traces/foreign/derived/langsmith-api-runs-traceable-tool.json', 'utf8')],
  ])('%s: the same spans and findings as without it', (_name, text) => {
    const dir = tmp();
    writeFileSync(join(dir, 'plain.json'), text());
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${text()}`);
    const plain = outcome(join(dir, 'plain.json'));
    expect(plain.spans).toBeGreaterThan(0);
    expect(outcome(join(dir, 'bom.json'))).toEqual(plain);
  });
});

describe('argspan analyze on OTLP JSON lines with the protobuf field names', () => {
  // `{"resource_spans":…}` per line, as protobuf's JSON printer writes it with the proto field names.
  const snakeKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(snakeKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(x)])) : v;
  const doc = JSON.parse(readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')) as { resourceSpans: { scopeSpans: { spans: { traceId: string; attributes: unknown[] }[] }[] }[] };
  /** The document again under trace id prefix `n`, its first span padded by `pad` bytes. */
  const copy = (n: string, pad = 0) => {
    const d = JSON.parse(JSON.stringify(doc)) as typeof doc;
    for (const s of d.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans))) s.traceId = `${n}${s.traceId.slice(n.length)}`;
    if (pad) d.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push({ key: 'app.note', value: { stringValue: 'x'.repeat(pad) } });
    return d;
  };
  it.each([
    ['LF', '\n', 0],
    ['CRLF', '\r\n', 0],
    ['a first line longer than the 64 KB head detection reads', '\n', 70_000],
  ])('%s: the same spans and findings as the same lines in camelCase', (_name, eol, pad) => {
    const dir = tmp();
    const docs = [copy('aaaa', pad), copy('bbbb')];
    writeFileSync(join(dir, 'camel.jsonl'), docs.map((d) => JSON.stringify(d) + eol).join(''));
    writeFileSync(join(dir, 'snake.jsonl'), docs.map((d) => JSON.stringify(snakeKeys(d)) + eol).join(''));
    const camel = outcome(join(dir, 'camel.jsonl'));
    expect(camel.spans).toBe(8);
    expect(camel.findings).toHaveLength(2);
    expect(outcome(join(dir, 'snake.jsonl'))).toEqual(camel);
  });

  it('a broken line is named by file and line (exit 2); --allow-partial reads the others and says which it skipped', () => {
    const file = join(tmp(), 'snake.jsonl');
    writeFileSync(file, `${JSON.stringify(snakeKeys(copy('aaaa')))}\n{"resource_spans": [\n${JSON.stringify(snakeKeys(copy('bbbb')))}\n`);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:2: not valid JSON (a truncated or corrupt line)`);
    const partial = analyzeBin(file, '--format', 'json', '--allow-partial');
    expect(partial.code).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ spans: 8, skipped: [{ file, line: 2, reason: 'not valid JSON (a truncated or corrupt line)' }] });
    // SARIF and JUnit say so too: a partial run never looks whole to code scanning or the checks tab.
    const sarif = JSON.parse(analyzeBin(file, '--format', 'sarif', '--allow-partial').stdout) as { runs: { invocations: { toolExecutionNotifications: { level: string; message: { text: string } }[] }[] }[] };
    expect(sarif.runs[0]!.invocations[0]!.toolExecutionNotifications).toContainEqual({ level: 'warning', message: { text: `skipped, not analysed: ${file}:2: not valid JSON (a truncated or corrupt line)` } });
    const junit = analyzeBin(file, '--format', 'junit', '--allow-partial').stdout;
    expect(junit).toContain('<property name="argspan.skipped_inputs" value="1"/>');
    expect(junit).toMatch(/<\/testcase>\n\s*<system-err>skipped, not analysed: .*snake\.jsonl:2: not valid JSON/);
  });
  it('a line refused only for a lone surrogate escape (a text cut inside an emoji) is named for that, not as corrupt; a pair, an escaped backslash and a truly broken line are not', () => {
    const file = join(tmp(), 'surrogates.jsonl');
    const withName = (doc: ReturnType<typeof copy>, suffix: string) => JSON.stringify(doc).replace('"stringValue":"', `"stringValue":"${suffix}`);
    writeFileSync(file, [withName(copy('aaaa'), '\\ud83d'), withName(copy('bbbb'), '\\ud83d\\ude00 \\\\ud800'), withName(copy('cccc'), '\\ude00') + ',', ''].join('\n'));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:1: a \\u escape of half a character (a lone UTF-16 surrogate`);
    expect(run.stderr).not.toContain(`${file}:2:`);
    expect(run.stderr).toContain(`${file}:3: not valid JSON (a truncated or corrupt line)`);
  });
  it('OTLP lines past --max-line-bytes (one of blanks too, in a .gz) are named by number from the byte scan, never handed to DuckDB whole; --allow-partial reads the rest', () => {
    const dir = tmp();
    const file = join(dir, 'long.jsonl');
    const max = 1 << 20;
    writeFileSync(file, [readFileSync('fixtures/traces/tokyo-invite.jsonl', 'utf8').trim(), 'x'.repeat(3 * max), ' '.repeat(2 * max), readFileSync('fixtures/traces/dotenv.jsonl', 'utf8').trim(), ''].join('\n'));
    spawnSync('gzip', [file]);
    const gz = `${file}.gz`;
    const run = analyzeBin(gz, '--format', 'json', '--max-line-bytes', String(max));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${gz}:2: line is ${3 * max} bytes, larger than the maximum JSON object size (${max} bytes; raise it with --max-line-bytes)`);
    expect(run.stderr).toContain(`${gz}:3: line is ${2 * max} bytes`);
    const partial = analyzeBin(gz, '--format', 'json', '--max-line-bytes', String(max), '--allow-partial');
    expect(partial.code, partial.stderr).toBe(1);
    const out = parseJson(partial);
    expect(out.stats.skipped.map((p) => p.line)).toEqual([2, 3]);
    expect(out.findings.some((f) => f.rule === 'secret_remote' || f.severity === 'critical')).toBe(true);
  });

  it('lines are streamed: a file past the 512 MiB a document may have is read, a line too long to hold named by its number', () => {
    // A sparse file: 520 MiB of NUL bytes, one line, between two good lines, taking no disk.
    const file = join(tmp(), 'big-snake.jsonl');
    const [first, last] = [copy('aaaa'), copy('bbbb')].map((d) => Buffer.from(`${JSON.stringify(snakeKeys(d))}\n`));
    const hole = 520 * 2 ** 20;
    const fd = openSync(file, 'w');
    writeSync(fd, first!);
    ftruncateSync(fd, first!.length + hole);
    writeSync(fd, Buffer.concat([Buffer.from('\n'), last!]), 0, last!.length + 1, first!.length + hole);
    closeSync(fd);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: line longer than 268435456 bytes`);
    const partial = analyzeBin(file, '--format', 'json', '--allow-partial');
    expect(partial.code).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ spans: 8, skipped: [{ file, line: 2, reason: 'line longer than 268435456 bytes' }] });
  });
});

describe('argspan analyze given a pipe for a path', () => {
  // A pipe's size reads as 0 and its bytes come once; argspan reads a file several times.
  const REFUSED = 'not a regular file but a pipe or device (<(…), a piped /dev/stdin): argspan reads each file more than once; save the input to a file first';
  const sh = (script: string) => spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  it('/dev/stdin piped and <(…) are refused saying to save the input to a file (exit 2), never "file is empty"; /dev/stdin redirected from a file is read', () => {
    for (const [script, path] of [
      ['cat fixtures/traces/tokyo-invite.jsonl | node packages/cli/bin/argspan.js analyze /dev/stdin', '/dev/stdin'],
      ['node packages/cli/bin/argspan.js analyze <(cat fixtures/traces/tokyo-invite.jsonl)', '/dev/fd/'],
    ]) {
      const run = sh(script!);
      expect(run.status, script).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(path);
      expect(run.stderr).toContain(REFUSED);
      expect(run.stderr).not.toContain('file is empty');
    }
    const file = sh('node packages/cli/bin/argspan.js analyze /dev/stdin --format json < fixtures/traces/tokyo-invite.jsonl');
    expect(file.status).toBe(1);
    expect(parseJson({ code: file.status, stdout: file.stdout, stderr: file.stderr }).stats.spans).toBe(10);
  });
});

describe('argspan analyze walking a folder: symbolic links followed, what cannot be read named', () => {
  const sh = (script: string) => spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  it('reads a trace file reached through a symbolic link (a folder loop walked once), by folder and by glob', () => {
    const dir = tmp();
    sh(`mkdir ${dir}/exports ${dir}/elsewhere && cp fixtures/traces/dotenv.jsonl ${dir}/elsewhere/ && ln -s ../elsewhere/dotenv.jsonl ${dir}/exports/current.jsonl && ln -s .. ${dir}/exports/loop`);
    for (const path of [`${dir}/exports`, `${dir}/exports/*.jsonl`]) {
      const run = analyzeBin(path, '--format', 'json');
      expect(run.code, `${path}: ${run.stderr}`).toBe(1);
      expect(parseJson(run).findings.length).toBeGreaterThan(0);
    }
  });

  it('a symbolic link to nothing or a pipe named as a trace file is an input problem (exit 2), never passed over as "no findings"', () => {
    const dir = tmp();
    sh(`cp fixtures/traces/tokyo-invite.jsonl ${dir}/ && ln -s gone.jsonl ${dir}/traces-0001.jsonl && mkfifo ${dir}/traces-0002.jsonl && mkfifo ${dir}/notes.txt`);
    const run = analyzeBin(dir, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${dir}/traces-0001.jsonl: a symbolic link to nothing`);
    expect(run.stderr).toContain(`${dir}/traces-0002.jsonl: not a regular file but a pipe or device`);
    expect(run.stderr).not.toContain('notes.txt'); // not a name a walk reads
  });
});

describe('argspan analyze on OTLP whose spans or values are where OTLP/JSON does not put them: never reported clean', () => {
  type Doc = { resourceSpans: Record<string, unknown>[] };
  const base = JSON.parse(readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')) as Doc;
  const scopeSpans = (d: Doc) => d.resourceSpans[0]!.scopeSpans as { scope?: unknown; spans: { traceId: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[];
  /** The fixture again, its trace ids under prefix `n`, changed by `change`. */
  const variant = (n: string, change: (d: Doc) => void = () => {}) => {
    const d = JSON.parse(JSON.stringify(base)) as Doc;
    for (const s of scopeSpans(d).flatMap((ss) => ss.spans)) s.traceId = `${n}${s.traceId.slice(n.length)}`;
    change(d);
    return d;
  };
  const renamed = (d: Doc, to: string, scope: (ss: { scope?: unknown }) => Record<string, unknown> = ({ scope: _s, ...rest }) => rest) => {
    const { scopeSpans: held, ...entry } = d.resourceSpans[0]!;
    d.resourceSpans[0] = { ...entry, [to]: (held as { scope?: unknown }[]).map(scope) };
  };
  const shapes = {
    // OTLP before 1.0: spans under instrumentationLibrarySpans[].instrumentationLibrary.
    'a pre-1.0 resource entry ("instrumentationLibrarySpans")': [
      (d: Doc) => renamed(d, 'instrumentationLibrarySpans', ({ scope, ...rest }) => ({ instrumentationLibrary: scope, ...rest })),
      'OTLP JSON from before OTLP 1.0 ("instrumentationLibrarySpans"): not supported; expected "scopeSpans"',
    ],
    'a resource entry with "scope_spans"': [(d: Doc) => renamed(d, 'scope_spans', (ss) => ss), 'JSON of another shape: a "resourceSpans" entry holds "scope_spans" (the protobuf field name) where OTLP/JSON has "scopeSpans"'],
    'attribute values written {"string_value": …}': [
      (d: Doc) => {
        for (const s of scopeSpans(d).flatMap((ss) => ss.spans)) for (const a of s.attributes) if ('stringValue' in a.value) a.value = { string_value: a.value.stringValue };
      },
      'JSON of another shape: an attribute value holds "string_value" or another protobuf field name where OTLP/JSON has "stringValue", "intValue", …',
    ],
    // Read with the camelCase fields alone, each was an empty value: a credential in it went unseen.
    'an event\'s attribute value written {"string_value": …}': [
      (d: Doc) => Object.assign(scopeSpans(d)[0]!.spans[0]!, { events: [{ timeUnixNano: '1700000000000000000', name: 'log', attributes: [{ key: 'message', value: { string_value: 'text' } }] }] }),
      'JSON of another shape: an attribute value holds "string_value"',
    ],
    'a link\'s attribute value written {"string_value": …}': [
      (d: Doc) => Object.assign(scopeSpans(d)[0]!.spans[0]!, { links: [{ traceId: 'c'.repeat(32), spanId: 'c'.repeat(16), attributes: [{ key: 'why', value: { string_value: 'text' } }] }] }),
      'JSON of another shape: an attribute value holds "string_value"',
    ],
    'a resource attribute value written {"string_value": …}': [
      (d: Doc) => ((d.resourceSpans[0]!.resource as { attributes: unknown[] }).attributes = [{ key: 'service.name', value: { string_value: 'agent' } }]),
      'JSON of another shape: an attribute value holds "string_value"',
    ],
  } as const;

  // An empty value ({}) and an empty map are still read (as an empty value, and as the text "{}").
  const withEmptyValues = (d: Doc) => scopeSpans(d)[0]!.spans[0]!.attributes.push({ key: 'app.empty', value: {} }, { key: 'app.map', value: { kvlistValue: { values: [] } } });

  it.each(Object.entries(shapes))('%s: on line 2 of JSON lines, a bad line (exit 2); --allow-partial reads line 1 and says it skipped line 2', (_name, [change, reason]) => {
    const file = join(tmp(), 'traces.jsonl');
    writeFileSync(file, `${JSON.stringify(variant('aaaa', withEmptyValues))}\n${JSON.stringify(variant('bbbb', change))}\n`);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:2: ${reason}`);
    const partial = analyzeBin(file, '--format', 'json', '--allow-partial');
    expect(partial.code).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ spans: 4, skipped: [{ file, line: 2, reason: expect.stringContaining(reason) }] });
    expect(run.stderr + partial.stdout + partial.stderr).not.toContain('.env');
  });

  it.each(Object.entries(shapes))('%s: in a pretty-printed document beside a good entry, the document is refused (exit 2)', (_name, [change, reason]) => {
    const file = join(tmp(), 'trace.json');
    const d = variant('bbbb', change);
    writeFileSync(file, JSON.stringify({ resourceSpans: [...variant('aaaa').resourceSpans, ...d.resourceSpans] }, null, 2));
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${file}:1: ${reason}`);
    expect(run.stderr).not.toContain('.env');
  });
});

describe('argspan analyze finds attribute values with protobuf field names wherever the byte scan meets them', () => {
  // Only a file whose bytes hold `_value"` is read with the protobuf value fields; the scan reads 1 MiB at a time.
  it('the key "string_value" split across two of the scan\'s reads is still found (exit 2, naming line 2)', () => {
    const doc = JSON.parse(readFileSync('fixtures/traces/foreign/derived/vercel-ai-dotenv-path.json', 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[] }[] };
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    const line1 = (pad: number) => JSON.stringify({ ...doc, resourceSpans: [{ ...doc.resourceSpans[0], scopeSpans: [{ spans: [{ ...spans[0], attributes: [{ key: 'app.note', value: { stringValue: 'x'.repeat(pad) } }] }] }] }] });
    const line2 = JSON.stringify({ ...doc, resourceSpans: [{ ...doc.resourceSpans[0], scopeSpans: [{ spans: [{ ...spans[0], attributes: [{ key: 'app.note', value: { string_value: 'text' } }] }] }] }] });
    // Put the needle's first 3 bytes before the 1 MiB boundary and its last 4 after it.
    const at = line2.indexOf('_value"');
    const pad = 2 ** 20 - 3 - at - 1 - line1(0).length;
    const text = `${line1(pad)}\n${line2}\n`;
    expect(text.indexOf('_value"')).toBe(2 ** 20 - 3);
    expect(text.lastIndexOf('_value"')).toBe(2 ** 20 - 3);
    const file = join(tmp(), 'traces.jsonl');
    writeFileSync(file, text);
    const run = analyzeBin(file, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2: JSON of another shape: an attribute value holds "string_value"`);
  });
});

describe('argspan analyze on input that holds no span at all: exit 2, never "No findings"', () => {
  const NO_SPANS = 'no spans in the input: the file was read and holds no span (an empty export, page or list); nothing to analyse';
  it.each([
    ['an OTLP document', '{"resourceSpans":[]}'],
    ['OTLP JSON lines', '{"resourceSpans":[]}\n{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[]}]}\n'],
    ['a Jaeger answer', '{"data":[],"total":0,"limit":0,"offset":0,"errors":null}'],
    ['a Phoenix spans/otlpv1 page', '{"data":[],"next_cursor":null}'],
    ['a Langfuse observations page', '{"data":[],"meta":{"page":1,"limit":50,"totalItems":0,"totalPages":0}}'],
    ['a LangSmith runs/query answer', '{"runs":[],"cursors":{"next":null}}'],
  ])('%s without a span: exit 2 naming the file, with --allow-partial too', (_name, text) => {
    const file = join(tmp(), 'empty.json');
    writeFileSync(file, text);
    for (const extra of [[], ['--allow-partial']]) {
      const run = analyzeBin(file, '--format', 'json', ...extra);
      expect(run.code, extra.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`argspan analyze: ${file}: ${NO_SPANS}\n`);
    }
  });

  it('several files without a span are named together; beside a file with spans, an empty one is analysed as it is', () => {
    const dir = tmp();
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')];
    writeFileSync(a, '{"resourceSpans":[]}');
    writeFileSync(b, '{"data":[]}');
    const run = analyzeBin(a, b);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${a}, ${b}: no spans in the input: all 2 files were read and hold no span`);
    const mixed = analyzeBin(a, 'fixtures/traces/tokyo-invite.jsonl', '--format', 'json');
    expect(mixed.code).toBe(1);
    expect(parseJson(mixed).stats).toMatchObject({ files: 2, spans: 10 });
  });
});

describe('argspan analyze on JSON lines where one line holds a value of the wrong type', () => {
  // Each line one span of its own trace; line 537 breaks a typed field, as a hand-edited or buggy exporter's file does.
  const line = (i: number, attribute: string) =>
    JSON.stringify({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'agent' }, spans: [{ traceId: (i + 1).toString(16).padStart(32, '0'), spanId: (i + 1).toString(16).padStart(16, '0'), name: 'step', kind: 1, startTimeUnixNano: '1764460800000000000', endTimeUnixNano: '1764460801000000000', attributes: [JSON.parse(attribute)] }] }] }],
    });
  const good = '{"key":"weight","value":{"doubleValue":0.5}}';
  it.each([
    ['a number field holding text', '{"key":"weight","value":{"doubleValue":"abc"}}'],
    ['a list field holding an object', '{"key":"weight","value":{"arrayValue":{"values":{"stringValue":"x"}}}}'],
  ])('%s: the line is named (exit 2); --allow-partial analyses the other 999', (_name, bad) => {
    const file = join(tmp(), 'spans.jsonl');
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => line(i, i === 536 ? bad : good)).join('\n') + '\n');
    const strict = analyzeBin(file, '--format', 'json');
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain(`${file}:537: a value of the wrong type for its field`);
    expect(strict.stderr).not.toContain('abc');
    const partial = analyzeBin(file, '--format', 'json', '--allow-partial');
    expect(partial.code, partial.stderr).toBe(0);
    const out = parseJson(partial);
    expect(out.stats.spans).toBe(999);
    expect(out.stats.skipped).toEqual([{ file, line: 537, reason: expect.stringMatching(/^a value of the wrong type for its field/) }]);
  });
});

describe('argspan analyze on list attributes written as the text of their JSON', () => {
  // Jaeger has no list tags: its collector translator, and tools converting OTLP to Jaeger and
  // back, write `["summarise"]` as a string. argspan's list attributes (the gate's hits, the
  // remote allowlist on the resource, flatten limits, stripped keys) read the same either way.
  const asText = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(asText)
      : v !== null && typeof v === 'object'
        ? 'arrayValue' in v
          ? { stringValue: JSON.stringify(((v as { arrayValue: { values?: Record<string, unknown>[] } }).arrayValue.values ?? []).map((e) => Object.values(e)[0])) }
          : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)]))
        : v;
  it.each(['tokyo-invite.jsonl', 'dotenv.jsonl'])('%s: the same findings', (name) => {
    const dir = tmp();
    const text = readFileSync(`fixtures/traces/${name}`, 'utf8');
    const converted = text.split('\n').filter(Boolean).map((l) => JSON.stringify(asText(JSON.parse(l)))).join('\n');
    expect(converted).not.toContain('arrayValue');
    writeFileSync(join(dir, 'lists.jsonl'), text);
    writeFileSync(join(dir, 'texts.jsonl'), converted);
    const lists = outcome(join(dir, 'lists.jsonl'));
    expect(lists.findings.length).toBeGreaterThan(0);
    expect(outcome(join(dir, 'texts.jsonl'))).toEqual(lists);
  });
});

describe('argspan analyze on an argspan attribute written twice on one span', () => {
  // OTLP forbids a key twice; a merge or a hand edit writes it. The last copy is read, as the
  // collector's ClickHouse exporter keeps it (so both engines read one value) and as other
  // libraries' attributes are read.
  const withCopy = (copy: 'before' | 'after') => {
    const doc = JSON.parse(readFileSync('fixtures/traces/tokyo-invite.jsonl', 'utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: unknown[] }[] }[] }[] };
    const span = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).find((s) => s.name === 'tool_arg timezone')!;
    const other = { key: 'argspan.arg.provenance', value: { stringValue: 'user_explicit' } };
    span.attributes = copy === 'after' ? [...span.attributes, other] : [other, ...span.attributes];
    const file = join(tmp(), `${copy}.jsonl`);
    writeFileSync(file, `${JSON.stringify(doc)}\n`);
    return outcome(file).findings.filter((f) => f.key === 'timezone').map((f) => f.rule);
  };
  it('the last copy is the one read', () => {
    expect(withCopy('before')).toContain('assumption_span');
    expect(withCopy('after')).not.toContain('assumption_span');
  });
});
