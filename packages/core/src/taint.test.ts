import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyCall } from './classify.js';
import { carriesTaint, resultResidency } from './taint.js';
import type { ClassifyOptions, ContextEntry, DirtySet } from './types.js';

const PASSPHRASE = 'correct-horse-battery-staple-42';
const ENV_FILE = `# local settings\nDB_HOST=db.internal\nDB_PASSWORD=${PASSPHRASE}\nTZ=UTC\nDEBUG=true\n`;
const fromEnv: ContextEntry = { callId: 'read-env', content: ENV_FILE, residency: 'secret' };

/** The label a value gets when the model copies it from `entry` into `summarize_docs`. */
function labelOf(value: unknown, entry: ContextEntry, options: ClassifyOptions = {}, userText?: string) {
  const c = classifyCall(
    { tool: 'summarize_docs', args: { text: value } },
    { context: [entry], ...(userText !== undefined ? { userText } : {}) },
    { remoteAllowlist: ['summarize_docs'], ...options },
  );
  return { leaf: c.leaves[0]!, call: c };
}

describe('residency follows the value', () => {
  it('a passphrase read from .env stays secret when copied into a later call, and the source is named', () => {
    const { leaf, call } = labelOf(PASSPHRASE, fromEnv);
    expect(leaf).toMatchObject({ residency: 'secret', rule: 'inherited-secret', provenance: 'context_retrieved', sourceCallId: 'read-env' });
    expect(call.verdict).toBe('local');
    expect(call.reason).toBe('secret argument stays local (rule inherited-secret at text, copied from the result of call read-env)');
    expect(JSON.stringify(call.leaves) + call.reason + call.enforcement.reason).not.toContain('horse');
  });

  it('without taint tracking the same value is labelled by its own look', () => {
    const { leaf } = labelOf(PASSPHRASE, fromEnv, { inheritResidency: false });
    expect(leaf).toMatchObject({ residency: 'tiny-public', rule: 'tiny', provenance: 'context_retrieved' });
  });

  it('a dirty-tree source passes dirty-tree on, and a stronger own label is kept', () => {
    const draft: ContextEntry = { callId: 'read-draft', content: 'release codename: quiet-lynx-7Q2 (do not publish)', residency: 'dirty-tree' };
    expect(labelOf('quiet-lynx-7Q2', draft).leaf).toMatchObject({ residency: 'dirty-tree', rule: 'inherited-dirty-tree', sourceCallId: 'read-draft' });
    const ownSecret = labelOf('AKIAQ3EGRTY6KCM2XB7W', { callId: 'x', content: 'key AKIAQ3EGRTY6KCM2XB7W', residency: 'dirty-tree' }).leaf;
    expect(ownSecret).toMatchObject({ residency: 'secret', rule: 'aws-access-key-id' });
  });

  it('a value that is also in the user text is the user\'s', () => {
    const { leaf } = labelOf(PASSPHRASE, fromEnv, {}, `please use ${PASSPHRASE} as the title`);
    expect(leaf).toMatchObject({ residency: 'tiny-public', provenance: 'user_explicit' });
  });

  it('a labelled source holding the value wins over a more recent clean one, and is the one named', () => {
    const c = classifyCall(
      { tool: 'summarize_docs', args: { text: PASSPHRASE } },
      { context: [fromEnv, { callId: 'echo', content: `you said ${PASSPHRASE}` }] },
    );
    expect(c.leaves[0]).toMatchObject({ rule: 'inherited-secret', sourceCallId: 'read-env' });
  });

  it('a result not known to be secret passes the label only to the credentials found in its own text', () => {
    const result: ContextEntry = {
      callId: 'describe-service',
      content: { service: 'billing-api-7f3c9e21', region: 'eu-west-1', config: `API_TOKEN=${PASSPHRASE}` },
    };
    expect(labelOf(PASSPHRASE, result).leaf).toMatchObject({ residency: 'secret', rule: 'inherited-secret', sourceCallId: 'describe-service' });
    // Another high-entropy value from the same result is not a credential: it keeps its own label.
    expect(labelOf('billing-api-7f3c9e21', result).leaf).toMatchObject({ residency: 'tiny-public', provenance: 'context_retrieved' });
  });
});

describe('resultResidency: what a call passes on to values copied from its result', () => {
  const dirty: DirtySet = { root: '/repo', paths: new Set(['notes/draft.md']), prefixes: [], lines: new Set() };
  const passed = (tool: string, args: unknown, options: ClassifyOptions = {}) => resultResidency(tool, classifyCall({ tool, args }, {}, options), options);

  it('a read of a secret file, a listed secrets-manager tool, a read of an uncommitted file', () => {
    expect(passed('read_multiple_files', { paths: ['README.md', '.env'] })).toBe('secret');
    expect(passed('vault.read', { name: 'payments/db' }, { secretSourceTools: ['vault.read'] })).toBe('secret');
    expect(passed('read_file', { path: 'notes/draft.md' }, { dirty })).toBe('dirty-tree');
  });

  it('not a call that merely holds a credential, nor an ordinary read', () => {
    expect(passed('http_get', { url: 'https://example.com/', headers: { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz0123' } })).toBeUndefined();
    expect(passed('read_file', { path: 'README.md' }, { dirty })).toBeUndefined();
  });
});

describe('guards against false cascades', () => {
  const COMMON = [
    'true', 'false', '1', '42', '3.14', 'UTC', 'main', 'master', 'localhost', 'localhost:8080', 'production', 'Tokyo office',
    'Asia/Tokyo', 'America/New_York', 'Etc/GMT+5', '2026-12-01', '2026-12-01T09:30:00Z', '09:30', 'v1.2.3', '10.0.0.12',
    '127.0.0.1:5432', 'application/json', '#ff8800', 'null', 'README.md', 'db.internal', 'quarterly planning',
  ];

  it('short and common values never carry a label', () => {
    for (const v of COMMON) expect(carriesTaint(v), v).toBe(false);
    for (const v of COMMON) {
      const { leaf } = labelOf(v, { callId: 'read-env', content: `${ENV_FILE}\nX=${v}`, residency: 'secret' });
      expect(leaf.rule.startsWith('inherited'), v).toBe(false);
    }
  });

  it('passphrases, tokens and long account numbers do', () => {
    for (const v of [PASSPHRASE, 'Tr0ub4dor&3xyz', 'hunter2-prod-eu!', 'q8Zr2LmX0pVt', '4111111111111111', 'postgres://app:pw@db:5432/app']) {
      expect(carriesTaint(v), v).toBe(true);
    }
  });

  const secretSource = (v: string): ContextEntry => ({ callId: 'read-env', content: `${ENV_FILE}\nVALUE=${v}\n`, residency: 'secret' });

  it('property: common values copied from a secret source never inherit its label', () => {
    const common = fc.oneof(
      fc.boolean().map(String),
      fc.integer({ min: -1e9, max: 1e9 }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
      fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.tuple(fc.nat(99), fc.nat(99), fc.nat(999)).map(([a, b, c]) => `v${a}.${b}.${c}`),
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.')),
      fc.constantFrom('UTC', 'main', 'localhost', 'Europe/Berlin', 'America/Los_Angeles', 'production', 'staging', 'enabled', 'application/json'),
      fc.stringMatching(/^[a-z]{1,12}$/), // one word
      fc.tuple(fc.stringMatching(/^[a-z]{2,9}$/), fc.stringMatching(/^[a-z]{2,9}$/)).map(([a, b]) => `${a} ${b}`), // two words
      fc.string({ maxLength: 7 }), // anything short
    );
    fc.assert(
      fc.property(common, (v) => {
        const { leaf } = labelOf(v, secretSource(v));
        return !leaf.rule.startsWith('inherited');
      }),
      { numRuns: 500 },
    );
  });

  it('property: a random token copied from a secret source keeps its label (no silent loss)', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_\-]{12,40}$/).filter(carriesTaint);
    fc.assert(
      fc.property(token, (v) => {
        const { leaf } = labelOf(v, secretSource(v));
        return leaf.residency === 'secret' && (leaf.rule === 'inherited-secret' || leaf.provenance === 'context_retrieved');
      }),
      { numRuns: 300 },
    );
  });

  it('random base62 tokens of 16 characters almost always carry taint', () => {
    let rejected = 0;
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9]{16}$/), (v) => void (carriesTaint(v) || rejected++)), { numRuns: 2000, seed: 7 });
    expect(rejected).toBeLessThanOrEqual(2);
  });
});
