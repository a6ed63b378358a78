/**
 * Secret-detection benchmark: `npm run bench:secrets` (after `tsc -b`).
 *
 * 1. Quality on the labelled corpus (fixtures/secrets): recall and false-positive rate per rule
 *    family, and leaks after redaction.
 * 2. Throughput of the detector and of secretlint 9.3.4's recommend preset (lintSource) on the
 *    same samples in the same run, and the ratio. secretlint runs in a worker thread that times
 *    each lintSource call itself (see secretlint-worker.ts for why), one sample at a time.
 * 3. Worst-case milliseconds per KB over adversarial inputs (10 MB each by default).
 *
 * Flags: --adversarial-mb N (default 10), --per-context N (default 4), --seed N.
 */
import { fileURLToPath } from 'node:url';
import { BUILTIN_RULES, defaultSecretDetector, redactSecrets } from '../secrets/index.js';
import { REPO_ROOT, adversarialInputs, loadCorpusModule, scoreDetector, type PositiveSample } from './secret-corpus.js';
import { startSecretlintWorker } from './secretlint-worker.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const mb = (chars: number): number => chars / (1024 * 1024);
const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

async function main(): Promise<void> {
  const seed = flag('seed', 20261130);
  const perContext = flag('per-context', 4);
  const advMb = flag('adversarial-mb', 10);
  const corpus = await loadCorpusModule();
  const hand = corpus.readHandSets();
  const positives: PositiveSample[] = [...corpus.generatePositives(seed, perContext), ...hand.positives];
  const packageFiles = corpus.readPackageNegatives(fileURLToPath(new URL('node_modules', REPO_ROOT)));
  const packageText = corpus.toArgumentValues(packageFiles, seed);
  const negatives = [...corpus.generateNegatives(seed, 25), ...hand.negatives, ...packageText];
  const familyOf = new Map(BUILTIN_RULES.map((r) => [r.id, r.family ?? r.id]));
  // Through JSON, as a tool call's arguments arrive: the generator builds its texts by
  // concatenation, and V8 keeps such strings as ropes that no detector would ever be handed.
  const asArguments = (texts: readonly string[]): string[] => JSON.parse(JSON.stringify(texts)) as string[];
  const all = asArguments([...positives.map((p) => p.text), ...negatives.map((n) => n.text)]);
  const chars = all.reduce((s, t) => s + t.length, 0);
  console.log(
    `corpus: ${positives.length} positives (${new Set(positives.map((p) => p.family)).size} families x ${new Set(positives.map((p) => p.context)).size} contexts), ` +
      `${negatives.length} negatives (${packageFiles.length} package files cut into ${packageText.length} argument-sized values), ${mb(chars).toFixed(2)} MB`,
  );

  // 1. Quality.
  const score = scoreDetector(defaultSecretDetector, (t) => redactSecrets(t).text, positives, negatives, (id) => familyOf.get(id) ?? id);
  console.log('\nfamily                 positives  recall    leaked  false-pos  fp-rate');
  for (const f of score.families) {
    const recall = f.positives ? pct(f.detected / f.positives) : '-';
    console.log(
      `${f.family.padEnd(22)} ${String(f.positives).padStart(9)}  ${recall.padStart(7)}  ${String(f.leaked).padStart(6)}  ${String(f.falsePositives).padStart(9)}  ${pct(f.falsePositives / score.negatives).padStart(7)}`,
    );
  }
  console.log(`\nrecall ${score.recall.toFixed(4)} (target >= 0.97)   false-positive rate ${score.fpRate.toFixed(4)} (${score.flaggedNegatives}/${score.negatives} negatives flagged; target <= 0.01)`);
  if (score.misses.length) console.log(`missed (first ${score.misses.length}): ${score.misses.join('; ')}`);
  if (score.falseHits.length) console.log(`flagged negatives (first ${score.falseHits.length}): ${score.falseHits.join('; ')}`);

  // 2. Throughput, same samples, same run, interleaved sample by sample so that both see the
  // same machine load (the machine is shared): per sample, the detector (3 rounds) then
  // secretlint in its worker; the worker is idle while the detector runs, and the other way round.
  const secretlint = startSecretlintWorker();
  const lint = secretlint.lint;
  for (const t of all) defaultSecretDetector.findAll(t); // JIT warm-up: one full pass
  for (const t of all.slice(0, 300)) await lint(t);
  // `batch` samples at a time: 1 interleaves sample by sample (each tool starts every sample
  // with caches the other one left); a larger batch runs each tool over the batch in turn, as
  // a detector runs over a stream of tool calls, while machine load still hits both alike.
  const race = async (texts: readonly string[], batch = 1) => {
    const rounds = 3;
    let oursMs = 0;
    let slMs = 0;
    const hits = new Map<string, [number, number][]>();
    for (let i = 0; i < texts.length; i += batch) {
      const part = texts.slice(i, i + batch);
      const a = now();
      for (let r = 0; r < rounds; r++) for (const t of part) defaultSecretDetector.findAll(t);
      oursMs += (now() - a) / rounds;
      for (const t of part) {
        const r = await lint(t);
        hits.set(t, r.ranges);
        slMs += r.ms;
      }
    }
    const size = mb(texts.reduce((s, t) => s + t.length, 0));
    return { hits, size, ours: size / (oursMs / 1000), secretlint: size / (slMs / 1000), oursMs, slMs };
  };
  const main = await race(all);
  let slDetected = 0;
  for (const p of positives) if ((main.hits.get(p.text) ?? []).some(([s, e]) => s < p.end && p.start < e)) slDetected++;
  const slFlagged = negatives.filter((n) => (main.hits.get(n.text) ?? []).length > 0).length;
  console.log(`\nthroughput argspan detector: ${main.ours.toFixed(1)} MB/s (${main.oursMs.toFixed(0)} ms per pass over ${main.size.toFixed(2)} MB, ${all.length} values)`);
  console.log(`throughput secretlint 9.3.4 recommend (lintSource): ${main.secretlint.toFixed(2)} MB/s (${main.slMs.toFixed(0)} ms)`);
  console.log(`speed ratio: ${(main.ours / main.secretlint).toFixed(1)}x (target >= 30x), interleaved sample by sample`);
  const batched = await race(all, 100);
  console.log(
    `same corpus in batches of 100 samples: argspan ${batched.ours.toFixed(1)} MB/s, secretlint ${batched.secretlint.toFixed(2)} MB/s, ` +
      `speed ratio ${(batched.ours / batched.secretlint).toFixed(1)}x`,
  );
  console.log(`secretlint on the same corpus: recall ${(slDetected / positives.length).toFixed(4)}, false-positive rate ${(slFlagged / negatives.length).toFixed(4)}`);
  const files = await race(asArguments(packageFiles.map((f) => f.text)));
  console.log(
    `whole package files (${packageFiles.length}, ${files.size.toFixed(2)} MB, not cut into values): argspan ${files.ours.toFixed(1)} MB/s, ` +
      `secretlint ${files.secretlint.toFixed(2)} MB/s, ratio ${(files.ours / files.secretlint).toFixed(1)}x`,
  );

  await secretlint.close();

  // 3. Adversarial worst case.
  let worst = { name: '', msPerKb: 0 };
  const bytes = Math.round(advMb * 1024 * 1024);
  console.log(`\nadversarial inputs (${advMb} MB each):`);
  for (const { name, text } of adversarialInputs(bytes)) {
    const s = now();
    const n = defaultSecretDetector.findAll(text).length;
    const ms = now() - s;
    const msPerKb = ms / (text.length / 1024);
    if (msPerKb > worst.msPerKb) worst = { name, msPerKb };
    console.log(`  ${name.padEnd(20)} ${ms.toFixed(0).padStart(6)} ms  ${msPerKb.toFixed(4)} ms/KB  findings ${n}`);
  }
  console.log(`worst case: ${worst.msPerKb.toFixed(4)} ms/KB (${worst.name}; budget 1 ms/KB)`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
