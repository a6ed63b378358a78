/**
 * Secret-detection benchmark: `npm run bench:secrets` (after `tsc -b`).
 *
 * 1. Quality on the labelled corpus (fixtures/secrets): recall and false-positive rate per rule
 *    family, and leaks after redaction.
 * 2. Random-token miss rate: for every credential kind of the generator, fresh random
 *    well-formed tokens (checksums included), each in its own call; misses per million, against
 *    a target of 10 for every kind with a fixed format (random-tokens.ts).
 * 3. Throughput of the detector and of secretlint 9.3.4's recommend preset (lintSource) on the
 *    same values in the same run, and the ratio: batches alternate between the tools, each value
 *    once per tool per pass. secretlint runs in a worker thread that times each lintSource call
 *    itself (see secretlint-worker.ts for why). Then the same on whole files, and cold single
 *    calls (one value at a time, tools alternating).
 * 4. Worst-case milliseconds per KB over adversarial inputs (10 MB each by default).
 *
 * Flags: --batch N (default 500), --passes N (default 5), --adversarial-mb N (default 10),
 * --per-context N (default 4), --seed N, --tokens-per-kind N (default 1000000; 0 skips part 2),
 * --workers N (threads for part 2, default 2).
 */
import { fileURLToPath } from 'node:url';
import { BUILTIN_RULES, defaultSecretDetector, redactSecrets } from '../secrets/index.js';
import { REPO_ROOT, adversarialInputs, loadCorpusModule, scoreDetector, type PositiveSample } from './secret-corpus.js';
import { missesInWorkers } from './random-tokens.js';
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
  const batchSize = flag('batch', 500);
  const passes = flag('passes', 5);
  const tokensPerKind = flag('tokens-per-kind', 1_000_000);
  const workers = flag('workers', 2);
  const corpus = await loadCorpusModule();
  const hand = corpus.readHandSets();
  const positives: PositiveSample[] = [...corpus.generatePositives(seed, perContext), ...hand.positives];
  const packageList = corpus.readPackageNegatives(fileURLToPath(new URL('node_modules', REPO_ROOT)));
  const packageFiles = packageList.files;
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
  const unread = packageList.missing + packageList.changed;
  if (unread > 0) {
    console.log(
      `  ${unread} of the ${packageList.listed} listed package files left out (${packageList.missing} not installed, ${packageList.changed} another version): ` +
        'the package-text figures are over fewer files than at other runs (fixtures/secrets/write-package-list.mjs lists what is installed now)',
    );
  }

  // 1. Quality.
  const score = scoreDetector(defaultSecretDetector, (t) => redactSecrets(t).text, positives, negatives, (id) => familyOf.get(id) ?? id);
  console.log('\nfamily                 positives  recall    leaked  false-pos  fp-rate');
  for (const f of score.families) {
    const recall = f.positives ? pct(f.detected / f.positives) : '-';
    console.log(
      `${f.family.padEnd(22)} ${String(f.positives).padStart(9)}  ${recall.padStart(7)}  ${String(f.leaked).padStart(6)}  ${String(f.falsePositives).padStart(9)}  ${pct(f.falsePositives / score.negatives).padStart(7)}`,
    );
  }
  console.log(`\nrecall ${score.recall.toFixed(4)} (target >= 0.99)   false-positive rate ${score.fpRate.toFixed(4)} (${score.flaggedNegatives}/${score.negatives} negatives flagged; target <= 0.005)`);
  if (score.misses.length) console.log(`missed (first ${score.misses.length}): ${score.misses.join('; ')}`);
  if (score.falseHits.length) console.log(`flagged negatives (first ${score.falseHits.length}): ${score.falseHits.join('; ')}`);

  // 2. Random well-formed tokens, each in its own call.
  if (tokensPerKind > 0) {
    const t0 = now();
    const kinds = await missesInWorkers(tokensPerKind, seed, workers);
    const perMillion = (k: { missed: number; tokens: number }): number => (k.missed / k.tokens) * 1e6;
    console.log(`\nrandom well-formed tokens: ${tokensPerKind} per kind, ${kinds.length} kinds, each token in its own call (bare, or after its key), ${workers} threads, ${((now() - t0) / 1000).toFixed(0)} s`);
    console.log('kind (with misses)                       context  missed  per million');
    for (const k of kinds) {
      if (k.missed === 0) continue;
      const name = `${k.family}/${k.kind}${k.fixedFormat ? '' : ' (free-form)'}`;
      console.log(`  ${name.padEnd(39)} ${k.context.padEnd(7)} ${String(k.missed).padStart(6)}  ${perMillion(k).toFixed(1).padStart(11)}`);
    }
    const fixed = kinds.filter((k) => k.fixedFormat);
    const worst = fixed.reduce((w, k) => (perMillion(k) > perMillion(w) ? k : w), fixed[0]!);
    const over = fixed.filter((k) => perMillion(k) > 10).length;
    const freeForm = kinds.filter((k) => !k.fixedFormat);
    const worstFree = freeForm.reduce((w, k) => (perMillion(k) > perMillion(w) ? k : w), freeForm[0]!);
    console.log(
      `random-token miss rate: worst fixed-format kind ${perMillion(worst).toFixed(1)} per million (${worst.family}/${worst.kind}; target <= 10), ` +
        `${over} of ${fixed.length} fixed-format kinds over the target; free-form kinds up to ${perMillion(worstFree).toFixed(1)} per million (${worstFree.family}/${worstFree.kind})`,
    );
  }

  // 3. Throughput: both tools get the same values, each value once per tool per pass, in batches
  // that alternate between them (and which of them goes first), so that load on the shared
  // machine hits both alike. A batch is a stream of tool calls, as the analyzer's re-scan or a
  // busy agent sends them. Single calls after a gap are measured apart (cold calls, below): on
  // this machine a call that follows other work starts with cold caches, which costs a short
  // call proportionally more.
  const secretlint = startSecretlintWorker();
  const lint = secretlint.lint;
  for (const t of all) defaultSecretDetector.findAll(t); // JIT warm-up: one full pass
  for (const t of all) await lint(t);
  const race = async (texts: readonly string[], batch: number, passes: number) => {
    const ours: number[] = []; // ms per batch, every pass
    const theirs: number[] = []; // ms per value
    const oursBest: number[] = []; // per batch, the fastest pass: noise only ever adds time
    const theirsBest: number[] = [];
    const passRatios: number[] = [];
    // per batch, summed over passes: for the ratio over a slice of the values (positives, negatives)
    const oursByBatch: number[] = [];
    const theirsByBatch: number[] = [];
    const hits = new Map<string, [number, number][]>();
    for (let p = 0; p < passes; p++) {
      let oursMs = 0;
      let slMs = 0;
      for (let i = 0, k = 0; i < texts.length; i += batch, k++) {
        const part = texts.slice(i, i + batch);
        // Timed per batch (per value only in batches of one, for the median).
        const runOurs = (): void => {
          const a = now();
          for (const t of part) defaultSecretDetector.findAll(t);
          const ms = now() - a;
          ours.push(ms);
          oursMs += ms;
          oursByBatch[k] = (oursByBatch[k] ?? 0) + ms;
          oursBest[k] = Math.min(oursBest[k] ?? Infinity, ms);
        };
        if ((k + p) % 2 === 0) runOurs();
        let batchMs = 0;
        for (const t of part) {
          const r = await lint(t);
          if (p === 0) hits.set(t, r.ranges);
          theirs.push(r.ms);
          batchMs += r.ms;
        }
        slMs += batchMs;
        theirsByBatch[k] = (theirsByBatch[k] ?? 0) + batchMs;
        theirsBest[k] = Math.min(theirsBest[k] ?? Infinity, batchMs);
        if ((k + p) % 2 === 1) runOurs();
      }
      passRatios.push(slMs / oursMs);
    }
    const size = mb(texts.reduce((s, t) => s + t.length, 0)) * passes;
    const total = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    /** The ratio over the batches that lie wholly inside values [from, to). */
    const ratioOver = (from: number, to: number): number => {
      let o = 0;
      let t = 0;
      for (let k = Math.ceil(from / batch); (k + 1) * batch <= to; k++) {
        o += oursByBatch[k]!;
        t += theirsByBatch[k]!;
      }
      return t / o;
    };
    return {
      hits,
      ratioOver,
      ours: size / (total(ours) / 1000),
      secretlint: size / (total(theirs) / 1000),
      ratio: total(theirs) / total(ours),
      bestRatio: total(theirsBest) / total(oursBest),
      passRatios,
      oursMedianUs: median(ours) * 1000,
      slMedianUs: median(theirs) * 1000,
    };
  };
  const range = (xs: number[]): string => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}x`;
  const main = await race(all, batchSize, passes);
  let slDetected = 0;
  for (const p of positives) if ((main.hits.get(p.text) ?? []).some(([s, e]) => s < p.end && p.start < e)) slDetected++;
  const slFlagged = negatives.filter((n) => (main.hits.get(n.text) ?? []).length > 0).length;
  console.log(`\nthroughput, ${all.length} values (${mb(chars).toFixed(2)} MB) in batches of ${batchSize}, ${passes} passes, each value once per tool per pass:`);
  console.log(`  argspan detector: ${main.ours.toFixed(1)} MB/s`);
  console.log(`  secretlint 9.3.4 recommend (lintSource): ${main.secretlint.toFixed(2)} MB/s`);
  console.log(`speed ratio: ${main.ratio.toFixed(1)}x (target >= 30x; passes ${range(main.passRatios)}); of each batch's fastest pass: ${main.bestRatio.toFixed(1)}x`);
  // (the values are the positives, then the negatives: batches wholly inside either)
  console.log(
    `  of which: positives ${main.ratioOver(0, positives.length).toFixed(1)}x, negatives ${main.ratioOver(positives.length, all.length).toFixed(1)}x (batches wholly inside either)`,
  );
  console.log(`secretlint on the same corpus: recall ${(slDetected / positives.length).toFixed(4)}, false-positive rate ${(slFlagged / negatives.length).toFixed(4)}`);
  const files = await race(asArguments(packageFiles.map((f) => f.text)), batchSize, passes);
  console.log(
    `whole package files (${packageFiles.length}, ${mb(packageFiles.reduce((s, f) => s + f.text.length, 0)).toFixed(2)} MB, not cut into values), same way: ` +
      `argspan ${files.ours.toFixed(1)} MB/s, secretlint ${files.secretlint.toFixed(2)} MB/s, ratio ${files.ratio.toFixed(1)}x (passes ${range(files.passRatios)})`,
  );
  const cold = await race(all, 1, 1);
  console.log(
    `cold single calls (one value at a time, the tools alternating): argspan ${cold.ours.toFixed(1)} MB/s, median ${cold.oursMedianUs.toFixed(1)} us per value; ` +
      `secretlint ${cold.secretlint.toFixed(2)} MB/s, median ${cold.slMedianUs.toFixed(0)} us; ratio ${cold.ratio.toFixed(1)}x`,
  );

  await secretlint.close();

  // 4. Adversarial worst case.
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
