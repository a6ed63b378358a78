/**
 * Two builds of the secret detector in one process: `npm run bench:secrets-ab -- --base DIR`
 * (after `tsc -b`), DIR being another build's `packages/core/dist`. For main's:
 *
 *   git archive main packages/core packages/conventions tsconfig.base.json fixtures | tar -x -C /tmp/main-core
 *   ln -s "$PWD/node_modules" /tmp/main-core/node_modules && npx tsc -b /tmp/main-core/packages/core
 *   npm run bench:secrets-ab -- --base /tmp/main-core/packages/core/dist
 *
 * (main's own bench then runs from /tmp/main-core too, beside the same node_modules.)
 *
 * 1. Findings, value by value: every value of the bench corpus (positives and negatives), the
 *    generated sets of seeds 1-3 and the adversarial inputs, through both builds' default
 *    detectors, and the positives and generated sets through detectors with other settings
 *    (decoding depth 0 and 1, a small decoding budget, the generic rules off, an allowlist, a
 *    user rule). Prints the number of values whose findings (rule id, start, end) differ: it
 *    must be 0 for a change that is meant to keep detection as it is.
 * 2. Time: the positives and the package-text negatives through both builds, alternating which
 *    goes first, `--rounds` rounds; the fastest round of each, in µs per value (noise on a shared
 *    machine only ever adds time), and the median over rounds of current/base (the two passes of
 *    a round run back to back, so load that changes between rounds moves both). With
 *    --by-context, the positives per context too.
 *
 * The bench (`bench:secrets`) times the detector against secretlint and cannot resolve a 10 %
 * change of the detector on a shared machine; this runs both versions on the same values in
 * the same process instead.
 *
 * Differences are printed (the first ten, and every one on a value without a credential) and
 * counted, those on values without a credential apart.
 *
 * Flags: --base DIR (required), --rounds N (default 20), --adversarial-kb N (default 200),
 * --seed N (the bench corpus's, default 20261130), --by-context, --no-time.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import * as current from '../secrets/index.js';
import type { SecretDetector, SecretFinding } from '../types.js';
import type { SecretDetectorConfig, SecretRule } from '../secrets/types.js';
import { REPO_ROOT, adversarialInputs, loadCorpusModule } from './secret-corpus.js';

type SecretsModule = typeof current;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const now = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Labelled {
  /** Where the value comes from, never the value (printed with a difference). */
  label: string;
  text: string;
}

/** Settings beside the defaults whose code paths a change may touch. */
function otherConfigs(mod: SecretsModule): { name: string; config: SecretDetectorConfig }[] {
  const genericIds = mod.BUILTIN_RULES.filter((r) => r.generic === true).map((r) => r.id);
  const userRule: SecretRule = {
    id: 'user-generic-ticket',
    description: 'a user rule: ticket= assignments',
    keywords: ['ticket'],
    pattern: /ticket[ \t]*[=:][ \t]*["']?(?<secret>[A-Za-z0-9]{12,40})/g,
    anchored: true,
    secretGroup: 'secret',
    generic: true,
    minEntropy: 3,
  };
  return [
    { name: 'decoding depth 0', config: { maxDecodeDepth: 0 } },
    { name: 'decoding depth 1', config: { maxDecodeDepth: 1 } },
    { name: 'decoding budget 64', config: { maxDecodedChars: 64 } },
    { name: 'generic rules off', config: { disabledRules: genericIds } },
    { name: 'allowlist', config: { allowlist: [/[0-9]{4}/, { ruleIds: ['generic-secret-assignment'], regex: /[A-Z]{3}/ }] } },
    { name: 'user rule', config: { rules: [userRule] } },
  ];
}

const same = (a: readonly SecretFinding[], b: readonly SecretFinding[]): boolean =>
  a.length === b.length && a.every((f, i) => f.ruleId === b[i]!.ruleId && f.start === b[i]!.start && f.end === b[i]!.end);

/** Findings as rule ids and offsets only (a finding's text is never printed). */
const describe = (fs: readonly SecretFinding[]): string => fs.map((f) => `${f.ruleId}@${f.start}-${f.end}`).join(' ') || 'none';

/** Values whose findings differ, and of those, the values with no credential (negatives, adversarial inputs). */
interface Differences {
  values: number;
  negatives: number;
}

function compare(name: string, a: SecretDetector, b: SecretDetector, values: readonly Labelled[]): Differences {
  const d: Differences = { values: 0, negatives: 0 };
  for (const v of values) {
    const fa = a.findAll(v.text);
    const fb = b.findAll(v.text);
    if (same(fa, fb)) continue;
    const negative = !v.label.includes('positive');
    // Every difference on a value without a credential is shown: each is a finding gained or lost where none belongs.
    if (d.values < 10 || negative) console.log(`  differs (${name}, ${v.label}): base ${describe(fa)}; current ${describe(fb)}`);
    d.values++;
    if (negative) d.negatives++;
  }
  return d;
}

/** µs per value of one pass over `texts`. */
function timePass(d: SecretDetector, texts: readonly string[]): number {
  const t0 = now();
  for (const t of texts) d.findAll(t);
  return ((now() - t0) * 1000) / texts.length;
}

async function main(): Promise<void> {
  const baseDir = option('base');
  if (baseDir === undefined) {
    console.error('usage: secret-ab --base <another build of packages/core/dist> [--rounds N] [--adversarial-kb N] [--by-context] [--no-time]');
    process.exit(2);
  }
  const base = (await import(pathToFileURL(resolve(baseDir, 'secrets/index.js')).href)) as SecretsModule;
  const rounds = flag('rounds', 20);
  const advKb = flag('adversarial-kb', 200);
  const seed = flag('seed', 20261130);
  const corpus = await loadCorpusModule();
  const hand = corpus.readHandSets();
  const asArguments = (texts: readonly string[]): string[] => JSON.parse(JSON.stringify(texts)) as string[];

  const positives = [...corpus.generatePositives(seed, 4), ...hand.positives];
  const packageText = corpus.toArgumentValues(corpus.readPackageNegatives(fileURLToPath(new URL('node_modules', REPO_ROOT))).files, seed);
  const negatives = [...corpus.generateNegatives(seed, 25), ...hand.negatives, ...packageText];
  const label = (p: { family: string; kind?: string; context?: string }, set: string): string => `${set} ${p.family}${p.kind ? `/${p.kind}` : ''}${p.context ? ` in ${p.context}` : ''}`;
  const positiveValues: Labelled[] = positives.map((p) => ({ label: label(p, 'positive'), text: p.text }));
  const negativeValues: Labelled[] = negatives.map((n) => ({ label: label(n, 'negative'), text: n.text }));
  const generated: Labelled[] = [];
  for (const s of [1, 2, 3]) {
    for (const p of corpus.generatePositives(s, 4)) generated.push({ label: label(p, `seed ${s} positive`), text: p.text });
    for (const n of corpus.generateNegatives(s, 25)) generated.push({ label: label(n, `seed ${s} negative`), text: n.text });
  }
  const adversarial: Labelled[] = adversarialInputs(advKb * 1024).map((a) => ({ label: `adversarial ${a.name}`, text: a.text }));
  for (const set of [positiveValues, negativeValues, generated]) {
    const texts = asArguments(set.map((v) => v.text));
    set.forEach((v, i) => (v.text = texts[i]!));
  }

  // 1. Findings.
  const checked = positiveValues.length + negativeValues.length + generated.length + adversarial.length;
  const first = compare('default', base.defaultSecretDetector, current.defaultSecretDetector, [...positiveValues, ...negativeValues, ...generated, ...adversarial]);
  let differ = first.values;
  let negativesDiffer = first.negatives;
  const baseConfigs = otherConfigs(base);
  let configured = 0;
  for (const [i, { name, config }] of otherConfigs(current).entries()) {
    const values = [...positiveValues, ...generated];
    const d = compare(name, base.createSecretDetector(baseConfigs[i]!.config), current.createSecretDetector(config), values);
    differ += d.values;
    negativesDiffer += d.negatives;
    configured += values.length;
  }
  console.log(
    `findings compared: ${checked} values with the default detectors (${positiveValues.length} positives, ${negativeValues.length} negatives, ` +
      `${generated.length} of seeds 1-3, ${adversarial.length} adversarial inputs of ${advKb} KB), ${configured} with other settings`,
  );
  console.log(`values whose findings differ: ${differ}, of which values without a credential (negatives, adversarial inputs): ${negativesDiffer}`);
  if (process.argv.includes('--no-time')) {
    process.exitCode = differ === 0 ? 0 : 1;
    return;
  }

  // 2. Time.
  const sets: { name: string; texts: string[] }[] = [
    { name: 'positives', texts: positiveValues.map((v) => v.text) },
    { name: 'package text', texts: packageText.length > 0 ? negativeValues.slice(negativeValues.length - packageText.length).map((v) => v.text) : [] },
  ];
  if (process.argv.includes('--by-context')) {
    const byContext = new Map<string, string[]>();
    positives.forEach((p, i) => {
      const list = byContext.get(p.context) ?? [];
      list.push(positiveValues[i]!.text);
      byContext.set(p.context, list);
    });
    for (const [context, texts] of byContext) sets.push({ name: `  ${context}`, texts });
  }
  const detectors = [base.defaultSecretDetector, current.defaultSecretDetector];
  for (const d of detectors) for (const s of sets) timePass(d, s.texts); // warm-up
  const best = sets.map(() => [Infinity, Infinity]);
  // per round, current/base of the two passes run back to back: load that changes between
  // rounds moves both
  const paired: number[][] = sets.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [si, s] of sets.entries()) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      const us = [0, 0];
      for (const which of order) {
        us[which] = timePass(detectors[which]!, s.texts);
        best[si]![which] = Math.min(best[si]![which]!, us[which]!);
      }
      paired[si]!.push(us[1]! / us[0]!);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(`time, ${rounds} alternating rounds, us per value: fastest round base -> current (current/base); median of the rounds' current/base`);
  for (const [si, s] of sets.entries()) {
    const [b, c] = best[si]!;
    console.log(
      `  ${s.name.padEnd(22)} ${String(s.texts.length).padStart(6)} values  ${b!.toFixed(2)} -> ${c!.toFixed(2)} (${(c! / b!).toFixed(3)}x); median ${median(paired[si]!).toFixed(3)}x`,
    );
  }
  process.exitCode = differ === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(3);
});
