/**
 * Random-token miss rate, for the secret benchmark: for each credential kind of the corpus
 * generator, fresh random well-formed tokens (checksums included where the format has one), each
 * in its own detector call, bare when the kind is recognisable bare and after its key
 * (`HEROKU_API_KEY=<uuid>`) when it is not. A token the detector drops is a miss: random tokens
 * spell `fake`, `xxxx`, `...` or a run now and then, or fall below an entropy bar, and a real
 * credential can too.
 *
 * The kinds are shared out over worker threads (each runs the compiled copy of this file); every
 * kind draws from its own seed, so the figures do not depend on how many workers run.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { defaultSecretDetector } from '../secrets/index.js';
import type { SecretDetector } from '../types.js';
import { loadCorpusModule, type CredentialKind } from './secret-corpus.js';

/** Misses of one credential kind. */
export interface KindMisses {
  family: string;
  kind: string;
  /** false for kinds with no format of their own (passwords, bearer tokens of any shape). */
  fixedFormat: boolean;
  /** `bare` or `key` (after `KEY=`). */
  context: 'bare' | 'key';
  tokens: number;
  missed: number;
}

/** The kinds measured: every single-line kind of the generator. */
export function measuredKinds(kinds: readonly CredentialKind[]): CredentialKind[] {
  return kinds.filter((k) => k.multiline !== true);
}

/** The seed of kind number `index`: its draws do not depend on the other kinds. */
const kindSeed = (seed: number, index: number): number => (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;

/** Misses of the kinds at `indices` (into measuredKinds), `tokens` tokens each, in this thread. */
export async function kindMisses(detector: SecretDetector, indices: readonly number[], tokens: number, seed: number): Promise<KindMisses[]> {
  const corpus = await loadCorpusModule();
  const kinds = measuredKinds(corpus.KINDS);
  return indices.map((index) => {
    const k = kinds[index]!;
    const g = corpus.gen(corpus.prng(kindSeed(seed, index)));
    const pre = k.bare === false ? `${k.env}=` : '';
    let missed = 0;
    for (let i = 0; i < tokens; i++) {
      const value = k.make(g);
      const [a, b] = k.span ? k.span(value) : [0, value.length];
      const start = pre.length + a;
      const end = pre.length + b;
      const found = detector.findAll(pre + value);
      let hit = false;
      for (const f of found) if (f.start < end && start < f.end) hit = true;
      if (!hit) missed++;
    }
    return { family: k.family, kind: k.kind, fixedFormat: k.freeForm !== true, context: pre ? 'key' : 'bare', tokens, missed };
  });
}

/**
 * Every measured kind, `tokens` tokens each, over `workers` threads (the default detector; the
 * threads run the compiled copy of this file, so run after `tsc -b`).
 */
export async function missesInWorkers(tokens: number, seed: number, workers: number): Promise<KindMisses[]> {
  const corpus = await loadCorpusModule();
  const n = measuredKinds(corpus.KINDS).length;
  // Kinds dealt round-robin, so slow kinds (long tokens) spread over the threads.
  const shares = Array.from({ length: Math.max(1, Math.min(workers, n)) }, (_, w) => Array.from({ length: n }, (_, i) => i).filter((i) => i % workers === w));
  const results = await Promise.all(
    shares.map(
      (indices) =>
        new Promise<KindMisses[]>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { indices, tokens, seed } });
          worker.once('message', (r: KindMisses[]) => resolve(r));
          worker.once('error', reject);
          worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`random-token worker exited with code ${code}`))));
        }),
    ),
  );
  const out = new Array<KindMisses>(n);
  shares.forEach((indices, w) => indices.forEach((index, j) => (out[index] = results[w]![j]!)));
  return out;
}

if (!isMainThread && (workerData as { indices?: number[] } | undefined)?.indices) {
  const { indices, tokens, seed } = workerData as { indices: number[]; tokens: number; seed: number };
  parentPort!.postMessage(await kindMisses(defaultSecretDetector, indices, tokens, seed));
}
