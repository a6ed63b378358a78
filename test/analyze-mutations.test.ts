import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decompressZstd } from '../analyzer/src/load/zstd.js';
import { ROOT } from './analyze-helpers.js';
import { framed, zstdRawFrame } from './support/zstd-raw.js';

/**
 * Mutated real trace files through the real binary. Every fixture in fixtures/traces/formats/
 * and fixtures/traces/*.jsonl gets a canary credential planted in its text, then a seeded choice
 * of mutations: truncation, byte flips (in the text and in the compressed container), bytes that
 * are not UTF-8, deep nesting, missing ids, values of the wrong type. The files go through
 * `argspan analyze --allow-partial` in two batches, and the exit-code contract must hold: 0, 1
 * or 2 (never 3, a signal or a hang), every message names a file of the batch, and the canary
 * is never printed. Set ARGSPAN_MUTATION_SEED to replay a failure: the seed is in every message.
 */
const SEED = Number(process.env.ARGSPAN_MUTATION_SEED ?? 20261201);
const CANARY = 'ghp_' + 'M7tAnTc4naryC4NARYc4naryC4NARYc4nary';
const run = promisify(execFile);

/** mulberry32: a small seeded generator, so a failing case can be replayed exactly. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { int, pick: <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]! };
}
type Rng = ReturnType<typeof generator>;

type Container = 'plain' | 'gzip' | 'zstd' | 'framed';
interface Source {
  name: string;
  container: Container;
  /** The text (for framed output: one text per message), or undefined for protobuf messages. */
  texts: Buffer[] | undefined;
  /** For framed output: each message's compression. */
  compression: ('json' | 'gzip' | 'zstd')[];
  raw: Buffer;
}

async function readSource(path: string): Promise<Source> {
  const raw = readFileSync(path);
  const name = basename(path);
  if (raw[0] === 0x1f && raw[1] === 0x8b) return { name, container: 'gzip', texts: [gunzipSync(raw)], compression: [], raw };
  if (raw.readUInt32LE(0) === 0xfd2fb528) return { name, container: 'zstd', texts: [await decompressZstd(raw, 1 << 26)], compression: [], raw };
  if (raw[0] === 0x7b || raw[0] === 0x0a || raw[0] === 0x20) return { name, container: 'plain', texts: [raw], compression: [], raw };
  const texts: Buffer[] = [];
  const compression: Source['compression'] = [];
  for (let at = 0; at + 4 <= raw.length; ) {
    const msg = raw.subarray(at + 4, at + 4 + raw.readUInt32BE(at));
    at += 4 + msg.length;
    const kind = msg[0] === 0x1f ? 'gzip' : msg.readUInt32LE(0) === 0xfd2fb528 ? 'zstd' : 'json';
    const text = kind === 'gzip' ? gunzipSync(msg) : kind === 'zstd' ? await decompressZstd(msg, 1 << 26) : msg;
    compression.push(kind);
    texts.push(text);
  }
  const protobuf = texts.some((t) => t[0] !== 0x7b);
  return { name, container: 'framed', texts: protobuf ? undefined : texts, compression, raw };
}

const MUTATIONS = ['truncate', 'flip', 'utf8', 'deep', 'unbalanced', 'ids', 'types', 'container'] as const;
type Mutation = (typeof MUTATIONS)[number];
/** Mutations after which the file can never be read whole: it must be named. */
const ALWAYS_BAD: readonly Mutation[] = ['utf8', 'deep', 'unbalanced'];

/** Plant the canary in place of a string value, so it sits where a leaked credential would. */
function plantCanary(text: string, rng: Rng): string {
  const values = [...text.matchAll(/:\s*"[^"\\]{4,}"/g)];
  if (values.length === 0) return `${text.trimEnd()}\n{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"${CANARY}"}]}]}]}\n`;
  const m = rng.pick(values);
  return `${text.slice(0, m.index)}:"${CANARY}"${text.slice(m.index! + m[0].length)}`;
}

/** A position in `text` outside the canary. */
function spot(text: string, rng: Rng): number {
  const c = text.indexOf(CANARY);
  for (;;) {
    const at = rng.int(1, Math.max(1, text.length - 1));
    if (c < 0 || at <= c || at >= c + CANARY.length) return at;
  }
}

function mutateText(text: string, mutation: Mutation, rng: Rng): Buffer {
  const at = spot(text, rng);
  switch (mutation) {
    case 'truncate': {
      const c = text.indexOf(CANARY) + CANARY.length;
      // Cut inside a value after the canary: the text is always left unfinished.
      return Buffer.from(text.slice(0, rng.int(c + 1, Math.max(c + 1, text.lastIndexOf('}') - 1))));
    }
    case 'flip': {
      const b = Buffer.from(text);
      for (let k = rng.int(1, 6); k > 0; k--) {
        const i = spot(text, rng);
        b[i] = b[i]! ^ rng.int(1, 255);
      }
      return b;
    }
    case 'utf8':
      return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([rng.pick([0xff, 0xc0, 0xed, 0xf5, 0x80])]), Buffer.from(text.slice(at))]);
    case 'deep': {
      const objects = [...text.matchAll(/\{"/g)].map((m) => m.index!);
      const o = objects.length ? rng.pick(objects) : 0;
      const n = rng.int(20_000, 100_000);
      return Buffer.from(`${text.slice(0, o + 1)}"deep":${'['.repeat(n)}${']'.repeat(n)},${text.slice(o + 1)}`);
    }
    case 'unbalanced': {
      // Opened in a value's place (inside a string, brackets are only text).
      const values = [...text.matchAll(/":/g)].map((m) => m.index! + 2);
      const v = values.length ? rng.pick(values) : at;
      return Buffer.from(text.slice(0, v) + rng.pick(['[', '{"a":']).repeat(rng.int(2_000, 60_000)) + text.slice(v));
    }
    case 'ids': {
      const ids = [...text.matchAll(/"(?:traceId|spanId|traceID|spanID|parentSpanId)"\s*:\s*"[^"]*",?/g)];
      let out = text;
      for (const m of ids.filter(() => rng.int(0, 2) === 0).reverse()) {
        out = `${out.slice(0, m.index)}${rng.pick(['', `"spanId":"zz",`, `"spanId":${rng.int(1, 2 ** 40)},`])}${out.slice(m.index! + m[0].length)}`;
      }
      return Buffer.from(out);
    }
    case 'types':
    case 'container': {
      const values = [...text.matchAll(/:\s*("[^"\\]*"|-?\d+|true|false)/g)].filter((m) => !m[0].includes(CANARY));
      let out = text;
      for (const m of values.filter(() => rng.int(0, 3) === 0).reverse()) {
        out = `${out.slice(0, m.index)}:${rng.pick(['{"x":1}', '[1,2]', '"sideways"', '123456789012345678901234567890', 'true', 'null', '-1', '""'])}${out.slice(m.index! + m[0].length)}`;
      }
      return Buffer.from(out);
    }
  }
}

/** Re-wrap mutated text the way the source was wrapped; `container` mutations then damage the wrapping. */
function wrap(source: Source, texts: Buffer[], mutation: Mutation, rng: Rng): Buffer {
  let bytes: Buffer;
  if (source.container === 'gzip') bytes = gzipSync(texts[0]!);
  else if (source.container === 'zstd') bytes = zstdRawFrame(texts[0]!);
  else if (source.container === 'framed') bytes = framed(texts.map((t, i) => (source.compression[i] === 'gzip' ? gzipSync(t) : source.compression[i] === 'zstd' ? zstdRawFrame(t) : t)));
  else bytes = texts[0]!;
  return mutation !== 'container' || source.container === 'plain' ? bytes : damage(bytes, rng);
}

/** Cut the bytes short, or flip a few of them. */
function damage(bytes: Buffer, rng: Rng): Buffer {
  const damaged = Buffer.from(bytes);
  if (rng.int(0, 1) === 0) return damaged.subarray(0, rng.int(1, damaged.length - 1));
  for (let k = rng.int(1, 4); k > 0; k--) {
    const i = rng.int(0, damaged.length - 1);
    damaged[i] = damaged[i]! ^ rng.int(1, 255);
  }
  return damaged;
}

async function mutatedFiles(dir: string, rng: Rng): Promise<{ path: string; mutation: Mutation }[]> {
  const formats = join(ROOT, 'fixtures/traces/formats');
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  const sources = [...walk(formats), ...readdirSync(join(ROOT, 'fixtures/traces')).filter((n) => n.endsWith('.jsonl')).map((n) => join(ROOT, 'fixtures/traces', n))].sort();
  const out: { path: string; mutation: Mutation }[] = [];
  for (const path of sources) {
    const source = await readSource(path);
    // Each mutation in turn across the sources (so every one is tried), then two more picked at random.
    const chosen = [MUTATIONS[out.length % MUTATIONS.length]!, rng.pick(MUTATIONS), rng.pick(MUTATIONS)];
    for (const [k, mutation] of chosen.entries()) {
      let bytes: Buffer;
      if (source.texts === undefined) {
        // Protobuf messages: no text to mutate; a JSON message with the canary is added, then the bytes are damaged.
        bytes = damage(source.raw, rng);
        bytes = Buffer.concat([bytes, framed([Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"${CANARY}"}]}]}]}`)])]);
      } else {
        const texts = source.texts.map((t) => Buffer.from(t));
        const target = rng.int(0, texts.length - 1);
        const planted = plantCanary(texts[target]!.toString('utf8'), rng);
        texts[target] = mutation === 'container' ? Buffer.from(planted) : mutateText(planted, mutation, rng);
        bytes = wrap(source, texts, mutation, rng);
      }
      const file = join(dir, `${source.name}.${k}-${mutation}`);
      writeFileSync(file, bytes);
      out.push({ path: file, mutation });
    }
  }
  return out;
}

describe(`argspan analyze on mutated trace files (seed ${SEED}; replay with ARGSPAN_MUTATION_SEED=${SEED})`, () => {
  it('exits 0, 1 or 2, names the files it could not read, never prints the planted credential', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-mutations-'));
    const files = await mutatedFiles(dir, generator(SEED));
    const batches = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
    const results = await Promise.all(
      batches.map((batch) =>
        run(process.execPath, ['packages/cli/bin/argspan.js', 'analyze', ...batch.map((f) => f.path), '--allow-partial', '--format', 'json'], { cwd: ROOT, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).then(
          (r) => ({ code: 0, signal: null as string | null, stdout: r.stdout, stderr: r.stderr }),
          (e: { code?: number | string; signal?: string | null; killed?: boolean; stdout?: string; stderr?: string }) => ({ code: e.code, signal: e.signal ?? null, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
        ),
      ),
    );
    for (const [i, r] of results.entries()) {
      const batch = batches[i]!;
      const where = `seed ${SEED}, batch ${i}`;
      expect(r.signal, `${where}: killed (crash or hang)`).toBeNull();
      expect([0, 1, 2], `${where}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
      expect(r.stdout.includes(CANARY) || r.stderr.includes(CANARY), `${where}: the canary was printed`).toBe(false);
      expect(r.stderr, where).not.toContain('internal error');
      const paths = new Set(batch.map((f) => f.path));
      // Every message names a file of this batch (or is the run's own summary).
      for (const line of r.stderr.split('\n').filter(Boolean)) {
        const named = /^argspan analyze: (?:skipped )?(.+?)(?::\d+)?: /.exec(line)?.[1];
        const ok = line.startsWith('argspan analyze: input could not be read') || line.startsWith('argspan analyze: rule ') || (named !== undefined && named.split(', ').every((p) => paths.has(p)));
        expect(ok, `${where}: a message that names no file of the batch: ${line}`).toBe(true);
      }
      const mentioned = r.code === 2 ? r.stderr : (JSON.parse(r.stdout) as { stats: { skipped: { file: string }[] } }).stats.skipped.map((p) => p.file).join('\n');
      if (r.code === 2) expect(r.stdout, where).toBe('');
      for (const f of batch.filter((b) => ALWAYS_BAD.includes(b.mutation))) expect(mentioned, `${where}: ${f.path} (${f.mutation}) was read as if whole`).toContain(f.path);
    }
  });
});
