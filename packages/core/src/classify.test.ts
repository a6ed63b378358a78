import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GATE_ACTION_VALUES, RESIDENCY_ORDER, Residency, VERDICT_VALUES } from '@argspan/conventions';
import { classifyCall } from './classify.js';
import type { SecretDetector } from './types.js';

const CANARY = 'canary-value-7f3a91';

describe('classifyCall gate', () => {
  it('strongest label decides: one secret leaf makes the call local', () => {
    const c = classifyCall({ tool: 'summarise', args: { a: 'x'.repeat(9000), b: { password: CANARY } } }, {}, { remoteAllowlist: ['summarise'] });
    expect(c.residency).toBe('secret');
    expect(c.verdict).toBe('local');
    expect(c.reason).toContain('secret-key-name');
    expect(c.reason).not.toContain(CANARY);
  });

  it('an empty leaf does not outvote public leaves, but an unproven bulky one does', () => {
    expect(classifyCall({ tool: 't', args: { a: 'x'.repeat(9000), b: '' } }, {}, { remoteAllowlist: ['t'] }).verdict).toBe('remote-ok');
    const strict = classifyCall({ tool: 't', args: { a: 'x'.repeat(9000), b: 'y'.repeat(9000) } }, {}, {
      remoteAllowlist: ['t'],
      strictPublic: true,
      committed: { hasBlob: (text) => text.startsWith('x') },
    });
    expect(strict.leaves.map((l) => l.rule)).toEqual(['bulky-committed', 'bulky-unproven']);
    expect(strict.residency).toBe('unknown');
    expect(strict.verdict).toBe('local');
  });

  it('a tool outside the remote allowlist is refused its remote hop whatever its label, after secret and dirty-tree', () => {
    const dirty = { root: '/r', paths: new Set(['src/a.py']), prefixes: [], lines: new Set<string>() };
    expect(classifyCall({ tool: 'run_terminal', args: { cmd: 'ls' } }).verdict).toBe('refuse');
    expect(classifyCall({ tool: 'fs.write', args: { content: 'x'.repeat(9000) } }).verdict).toBe('refuse');
    expect(classifyCall({ tool: 'fs.write', args: { path: 'src/a.py' } }, {}, { dirty }).verdict).toBe('local');
    expect(classifyCall({ tool: 'fs.read', args: { path: '.env' } }).verdict).toBe('local');
  });

  it('a refused remote hop still runs a tool on this machine; a remote tool is denied', () => {
    expect(classifyCall({ tool: 'run_terminal', args: { cmd: 'ls' } }).enforcement.action).toBe('run');
    const remote = classifyCall({ tool: 'run_terminal', args: { cmd: 'ls' } }, {}, { remoteTools: ['run_terminal'] });
    expect(remote.enforcement).toMatchObject({ action: 'deny', rule: 'remote-tool' });
    expect(remote.enforcement.reason).toContain('remoteTools');
  });

  it('enforcement follows the documented table, first matching row wins', () => {
    const env = { path: '/home/dev/app/.env' };
    expect(classifyCall({ tool: 'fs.read', args: env }).enforcement).toMatchObject({ action: 'deny', rule: 'deny-residency' });
    expect(classifyCall({ tool: 'fs.read', args: env }, {}, { denyResidencies: [] }).enforcement.action).toBe('run');
    // Deny outranks hold: a secret call with a guessed timezone is denied, not asked about.
    expect(classifyCall({ tool: 'cal', args: { timezone: 'UTC', key: env.path } }, { userText: 'book it' }).enforcement.action).toBe('deny');
    expect(classifyCall({ tool: 'cal', args: { timezone: 'UTC' } }, { userText: 'book it' }).enforcement.action).toBe('hold');
    expect(classifyCall({ tool: 'cal', args: { timezone: 'UTC' } }, { userText: 'book it' }, { inferredAction: 'block' }).enforcement).toMatchObject({ action: 'deny', rule: 'inferred-field' });
    const bulky = { text: 'x'.repeat(9000) };
    expect(classifyCall({ tool: 's', args: bulky }, {}, { remoteAllowlist: ['s'] }).enforcement.action).toBe('run');
    expect(classifyCall({ tool: 's', args: bulky }, {}, { remoteAllowlist: ['s'], remoteHop: true }).enforcement.action).toBe('hop');
    expect(classifyCall({ tool: 's', args: { text: 'hi' } }, {}, { remoteAllowlist: ['s'], remoteHop: true }).enforcement.action).toBe('run');
  });

  it('a misspelt residency in denyResidencies fails closed instead of denying nothing', () => {
    const c = classifyCall({ tool: 'fs.read', args: { path: 'README.md' } }, {}, { denyResidencies: ['secrets' as 'secret'] });
    expect(c.failedClosed).toBe(true);
    expect(c.enforcement.action).toBe('deny');
  });

  it('strips keys outside the public schema on remote-ok, naming only the keys', () => {
    const c = classifyCall(
      { tool: 'summarise', args: { text: 'x'.repeat(9000), internal_note: 'do not send', opts: { lang: 'en', debug: true } } },
      { publicSchemaKeys: ['text', 'opts', 'opts.lang'] },
      { remoteAllowlist: ['summarise'] },
    );
    expect(c.verdict).toBe('remote-ok');
    expect(c.strippedKeys).toEqual(['internal_note', 'opts.debug']);
  });

  it('dropped leaves (past maxLeaves) make the call unknown: what was not seen never goes remote', () => {
    const c = classifyCall({ tool: 't', args: { big: 'x'.repeat(9000), items: new Array(50).fill('a') } }, {}, { remoteAllowlist: ['t'], limits: { maxLeaves: 10 } });
    expect(c.residency).toBe('unknown');
    expect(c.verdict).toBe('local');
    expect(c.reason).toContain('flatten-limit');
  });

  it('a call not read whole is denied while denyResidencies is set: padding does not hide `.env`, a cut does not hide a token', () => {
    const padded = classifyCall({ tool: 'read_file', args: { pad: new Array(100_001).fill(0), path: '.env' } });
    expect(padded.droppedLeaves).toBe(2);
    expect(padded.enforcement).toMatchObject({ action: 'deny', rule: 'deny-residency' });
    expect(padded.enforcement.reason).toContain('flatten-limit: maxLeaves');
    expect(padded.enforcement.reason).not.toContain('.env');
    const token = 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4';
    const cut = classifyCall({ tool: 'notes.write', args: { body: `${'lorem ipsum '.repeat(20)}${token}` } }, {}, { limits: { maxStringLength: 64 } });
    expect(cut.residency).toBe('unknown');
    expect(cut.enforcement).toMatchObject({ action: 'deny', rule: 'deny-residency' });
    expect(cut.enforcement.reason).toContain('maxStringLength');
    expect(JSON.stringify(cut)).not.toContain(token.slice(4));
    // A subtree past the depth limit is read as JSON; cut there, it is not read whole either.
    const deep = classifyCall({ tool: 't', args: { a: { b: { c: 'x'.repeat(80), key: '.env' } } } }, {}, { limits: { maxDepth: 1, maxStringLength: 64 } });
    expect(deep.limits).toEqual(expect.arrayContaining(['depth', 'string']));
    expect(deep.enforcement.action).toBe('deny');
    // Read whole, the same depth summary is judged as it reads: nothing secret, nothing denied.
    expect(classifyCall({ tool: 't', args: { a: { b: { c: 'x' } } } }, {}, { limits: { maxDepth: 1 } }).enforcement.action).toBe('run');
    // Where nothing is denied for its residency (a model on this machine), the call runs here, as an unknown one does.
    expect(classifyCall({ tool: 'read_file', args: { pad: new Array(100_001).fill(0), path: '.env' } }, {}, { denyResidencies: [] }).enforcement).toMatchObject({ action: 'run', rule: 'local-tool' });
  });

  it('a depth summary is unknown, not public; a cycle (no JSON form) fails closed', () => {
    let deep: unknown = 'x'.repeat(9000);
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const d = classifyCall({ tool: 't', args: { deep } }, {}, { remoteAllowlist: ['t'] });
    expect(d.residency).toBe('unknown');
    expect(d.verdict).toBe('local');
    const a: Record<string, unknown> = { text: 'x'.repeat(9000) };
    a.loop = a;
    const c = classifyCall({ tool: 't', args: a }, {}, { remoteAllowlist: ['t'] });
    expect(c).toMatchObject({ residency: 'unknown', verdict: 'refuse', failedClosed: true, enforcement: { action: 'deny', rule: 'fail-closed' } });
    expect(c.reason).toBe('fail-closed: the arguments are not JSON-serialisable (cycle) (rule fail-closed)');
  });

  it('block mode refuses inferred fields instead of asking', () => {
    const c = classifyCall({ tool: 'cal', args: { timezone: 'UTC' } }, { userText: 'book it' }, { inferredAction: 'block' });
    expect(c.gate).toEqual({ action: 'block', hits: ['cal.timezone'] });
  });

  it('asks one question naming every assumed field and no value', () => {
    const c = classifyCall({ tool: 'pay', args: { price: 42.5, currency: 'CHF' } }, { userText: 'pay the invoice' });
    expect(c.gate.action).toBe('ask');
    expect(c.gate.hits).toEqual(['pay.price', 'pay.currency']);
    expect(c.gate.question).toBe('Before I run pay: which `price` and `currency` should I use? You did not give them, so I will not guess.');
    expect(c.gate.question).not.toMatch(/42|CHF/);
  });

  it('phrases the question naturally for lists and known keys', () => {
    const list = classifyCall({ tool: 'email.send', args: { to: ['maria@example.com', 'guess@example.com'] } }, { userText: 'email maria@example.com' });
    expect(list.gate.question).toBe('Before I run email.send: which recipients (`to`) should I use? You did not give them, so I will not guess.');
    const tz = classifyCall({ tool: 'cal', args: { timezone: 'UTC', attendee: { email: 'a@b.example' } } }, { userText: 'book it' });
    expect(tz.gate.question).toBe('Before I run cal: which time zone (`timezone`) and email address (`attendee.email`) should I use? You did not give them, so I will not guess.');
  });

  it('where the user\'s words cannot be seen, a denylisted value found nowhere is no_evidence, gated by noEvidenceAction', () => {
    const call = { tool: 'email.send', args: { to: 'maria@example.com', subject: 'Notes' } };
    const unseen = { userTextAvailable: false };
    const logged = classifyCall(call, unseen);
    expect(logged.leaves.map((l) => l.provenance)).toEqual(['no_evidence', 'no_evidence']);
    expect(logged.gate).toEqual({ action: 'allow', hits: [] });
    expect(logged.enforcement.action).toBe('run');
    // inferredAction does not touch no_evidence values; noEvidenceAction does.
    expect(classifyCall(call, unseen, { inferredAction: 'block' }).enforcement.action).toBe('run');
    const asked = classifyCall(call, unseen, { noEvidenceAction: 'ask' });
    expect(asked.gate).toEqual({
      action: 'ask',
      hits: ['email.send.to'],
      noEvidenceHits: ['email.send.to'],
      question: 'Before I run email.send: which recipient (`to`) should I use? I could not confirm that you gave it, so I will not guess.',
    });
    expect(asked.enforcement).toMatchObject({ action: 'hold', rule: 'inferred-field' });
    expect(asked.enforcement.reason).toBe('held for one clarifying question: value with no evidence of who gave it on email.send.to');
    const blocked = classifyCall(call, unseen, { noEvidenceAction: 'block' });
    expect(blocked.gate).toEqual({ action: 'block', hits: ['email.send.to'], noEvidenceHits: ['email.send.to'] });
    expect(blocked.enforcement.reason).toBe('denied: value with no evidence of who gave it on email.send.to (noEvidenceAction block)');
    expect(JSON.stringify([asked, blocked].map((c) => [c.gate, c.enforcement, c.reason]))).not.toContain('maria');
    // A value from an earlier tool result is context_retrieved, not gated.
    const copied = classifyCall(call, { ...unseen, context: [{ callId: 'c1', content: 'contact: maria@example.com' }] }, { noEvidenceAction: 'block' });
    expect(copied.enforcement.action).toBe('run');
    expect(() => classifyCall(call, unseen, { noEvidenceAction: 'maybe' as 'ask' })).not.toThrow();
    expect(classifyCall(call, unseen, { noEvidenceAction: 'maybe' as 'ask' }).failedClosed).toBe(true);
  });

  it('an unsafe schema default beside a no_evidence value: each is gated by its own option', () => {
    const c = classifyCall(
      { tool: 'pay', args: { currency: 'EUR', price: 12 } },
      { userTextAvailable: false, schemaDefaults: { currency: 'EUR' } },
      { noEvidenceAction: 'log', inferredAction: 'block' },
    );
    expect(c.gate).toEqual({ action: 'block', hits: ['pay.currency'] });
    expect(c.enforcement.reason).toBe('denied: model-inferred value on pay.currency (inferredAction block)');
  });

  it('matches a denylisted name whatever its case or word separators (accountId, account-id, time_zone, event.timezone), nothing longer', () => {
    const hits = (args: Record<string, unknown>) => classifyCall({ tool: 'crm', args }, { userText: 'Update my account.' }).gate.hits;
    for (const key of ['account_id', 'accountId', 'AccountID', 'account-id', 'time_zone', 'timeZone', 'e_mail', 'event.timezone', 'billing.accountId']) expect(hits({ [key]: 'ACC-7 x' }), key).toHaveLength(1);
    for (const key of ['accountIds', 'currencyCode', 'timezone_hint', 'top', 'timezone.name', 'event.', 'account_id.hint']) expect(hits({ [key]: 'ACC-7 x' }), key).toEqual([]);
  });

  it('reads a dotted denylist entry as a key, not as its last part', () => {
    const hits = (args: Record<string, unknown>) => classifyCall({ tool: 'crm', args }, { userText: 'Update my account.' }, { denyInferred: ['crm.owner.id'] }).gate.hits;
    expect(hits({ owner: { id: 'u-991' } })).toEqual(['crm.owner.id']);
    expect(hits({ id: 'u-991', team: { id: 't-4' } })).toEqual([]);
  });

  it('holds nothing of a call with no arguments, even where `$` (the whole argument) is denylisted', () => {
    const gate = (args: unknown) => classifyCall({ tool: 'locate', args }, { userText: 'Where am I?' }, { denyInferred: ['$'] }).gate;
    for (const args of [{}, []]) expect(gate(args), JSON.stringify(args)).toEqual({ action: 'allow', hits: [] });
    // A scalar argument is a value the model chose; an empty one asserts nothing.
    expect(gate('Paris').hits).toEqual(['locate.$']);
    expect(gate('').hits).toEqual([]);
  });

  it('asks nothing about an empty value on a denylisted key (null, "", [] or {}: a field not given, as OpenAI strict schemas send it)', () => {
    const user = { userText: 'Send the invoice for order 991 to billing@acme.example' };
    for (const currency of [null, '', [], {}]) {
      const c = classifyCall({ tool: 'invoice_send', args: { order: '991', to: 'billing@acme.example', currency } }, user);
      expect(c.gate, JSON.stringify(currency)).toEqual({ action: 'allow', hits: [] });
      expect(c.enforcement.action).toBe('run');
    }
    // a value the user did not give is still asked about
    expect(classifyCall({ tool: 'invoice_send', args: { order: '991', to: 'billing@acme.example', currency: 'EUR' } }, user).gate.hits).toEqual(['invoice_send.currency']);
  });

  it('judges a leaf name by each frozen denylist of its own, also after more distinct names than it remembers', () => {
    // Each frozen list remembers its leaf names' judgement: another list must not read it, and a
    // memo emptied when full must still judge the names seen before (65,536 a list).
    const accounts = Object.freeze(['account_id']);
    const zones = Object.freeze(['timezone']);
    const hits = (key: string, denyInferred: readonly string[]) => classifyCall({ tool: 'crm', args: { [key]: 'ACC-7 x' } }, { userText: 'Update my account.' }, { denyInferred }).gate.hits;
    expect(hits('accountId', accounts)).toHaveLength(1);
    expect(hits('accountId', zones)).toEqual([]);
    expect(hits('timeZone', zones)).toHaveLength(1);
    expect(hits('timeZone', accounts)).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`field_${i}`, 1]));
    expect(classifyCall({ tool: 'crm', args: many }, { userText: 'Update my account.' }, { denyInferred: accounts }).gate.hits).toEqual([]);
    expect(hits('accountId', accounts)).toHaveLength(1);
    expect(hits('account_ID', accounts)).toHaveLength(1);
    expect(hits('field_3', accounts)).toEqual([]);
  });

  it('accepts denylist entries by full tool.key path', () => {
    const c = classifyCall({ tool: 'crm.update', args: { owner: { id: 'u-991' } } }, {}, { denyInferred: ['crm.update.owner.id'] });
    expect(c.gate.hits).toEqual(['crm.update.owner.id']);
  });
});

describe('fail closed', () => {
  it('a throwing detector refuses the call and names the stage, never the value or the error text', () => {
    const detector: SecretDetector = {
      find: () => {
        throw new Error(`boom ${CANARY}`);
      },
      findAll: () => [],
    };
    const c = classifyCall({ tool: 'summarise', args: { text: CANARY } }, {}, { remoteAllowlist: ['summarise'], detector });
    expect(c.failedClosed).toBe(true);
    expect(c.verdict).toBe('refuse');
    expect(c.gate.action).toBe('block');
    expect(c.reason).toMatch(/fail-closed: classification stage "keys"/); // the first stage that runs the detector
    expect(JSON.stringify({ ...c, flat: undefined })).not.toContain(CANARY);
  });

  it('invalid options fail closed rather than throwing', () => {
    const c = classifyCall({ tool: 't', args: { a: 1 } }, {}, { bulkyThreshold: Number.NaN });
    expect(c.failedClosed).toBe(true);
    expect(c.reason).toContain('"options"');
  });

  it('judges the arguments as JSON sends them: a toJSON of an array or a Map is read, a Map JSON sends as {} is not', () => {
    const token = 'AKIA' + 'Q7R2XKZ4M3PLT3VB';
    const arr = Object.assign(['hello'], { toJSON: () => [token] });
    expect(classifyCall({ tool: 't', args: { arr } }).residency).toBe('secret');
    const map = Object.assign(new Map([['k', 'hello']]), { toJSON: (key: string) => (key === 'map' ? token : 'x') });
    expect(classifyCall({ tool: 't', args: { map } }).residency).toBe('secret');
    expect(classifyCall({ tool: 't', args: { m: new Map([['k', token]]) } }).residency).not.toBe('secret');
  });

  it.each([
    ['a getter that throws', () => Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error(CANARY); } }), 'getter'],
    ['a proxy whose ownKeys throws', () => ({ p: new Proxy({}, { ownKeys: () => { throw new Error(CANARY); } }) }), 'getter'],
    ['a toJSON that throws', () => ({ j: { toJSON: () => { throw new Error(CANARY); } } }), 'toJSON'],
    ['a BigInt', () => ({ n: 1n }), 'bigint'],
  ])('fails closed on %s, naming the kind of value, never it', (_name, args, kind) => {
    const c = classifyCall({ tool: 't', args: args() });
    expect(c).toMatchObject({ failedClosed: true, verdict: 'refuse', enforcement: { action: 'deny', rule: 'fail-closed' } });
    expect(c.reason).toBe(`fail-closed: the arguments are not JSON-serialisable (${kind}) (rule fail-closed)`);
    expect(JSON.stringify(c)).not.toContain(CANARY);
  });

  it('a tool name that is not a string fails closed (its toString could say one thing to the gate, another to the dispatcher)', () => {
    const c = classifyCall({ tool: { toString: () => 'upload' } as unknown as string, args: { a: 'b' } });
    expect(c).toMatchObject({ tool: '(unnamed)', failedClosed: true, enforcement: { action: 'deny' }, reason: 'fail-closed: the tool name is not a string (rule fail-closed)' });
  });

  it('a missing tool name still classifies under a placeholder name', () => {
    const c = classifyCall({ tool: undefined as unknown as string, args: { a: 'b' } });
    expect(c.tool).toBe('(unnamed)');
  });

  it('no input object makes the gate throw, and every outcome is a valid label (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withObjectString: true, withBoxedValues: true }),
        fc.string(),
        fc.array(fc.oneof(fc.string(), fc.record({ callId: fc.string(), content: fc.anything() }))),
        fc.dictionary(fc.string(), fc.anything()),
        (args, userText, context, schemaDefaults) => {
          const c = classifyCall({ tool: 'prop.tool', args }, { userText, context, schemaDefaults }, { remoteAllowlist: ['prop.tool'] });
          expect(RESIDENCY_ORDER).toContain(c.residency);
          expect(VERDICT_VALUES).toContain(c.verdict);
          expect(GATE_ACTION_VALUES).toContain(c.gate.action);
          for (const l of c.leaves) expect(RESIDENCY_ORDER).toContain(l.residency);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('object keys that are values', () => {
  const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYQAZ7TRW4PLM';
  const shown = (c: ReturnType<typeof classifyCall>) => c.leaves.map((l) => [l.key, l.leaf, l.residency, l.rule]);

  it('a key inside a credential slot that is not a field name is part of the credential: secret, and shown redacted', () => {
    const c = classifyCall({ tool: 't', args: { aws_secret_access_key: { [AWS_SECRET]: 1 }, password: { 'Sup3rS3cretCanaryPw!': true } } });
    expect(shown(c)).toEqual([
      ['aws_secret_access_key["[REDACTED:secret-key-name]"]', '[REDACTED:secret-key-name]', 'secret', 'secret-key-name'],
      ['password["[REDACTED:secret-key-name]"]', '[REDACTED:secret-key-name]', 'secret', 'secret-key-name'],
    ]);
    expect(c.leaves.map((l) => l.hiddenKeys)).toEqual([[1], [1]]);
    expect(JSON.stringify(c.leaves) + c.reason).not.toMatch(/wJalrX|Sup3r/);
  });

  it('a token glued on its right by `_` in the tool\'s name, a key, a JSON key inside a value and a value is secret, and shown redacted', () => {
    const GH = 'ghp_' + 'R1ghtG1uedC4naryK3yR1ghtG1uedC4naryK3y'.slice(0, 36);
    const AWS = 'AKIA' + 'RGHTGLUEQ2345XBZ';
    const c = classifyCall({ tool: `${AWS}_deploy`, args: { [`${GH}_v2`]: 1, nested: { [`deploy_${GH}_old`]: 'x' }, note: `token ${GH}_v2`, body: JSON.stringify({ [`${AWS}_prod`]: 1 }) } });
    expect(c.tool).toBe('[REDACTED:aws-access-key-id]_deploy');
    expect(c.residency).toBe('secret');
    expect(shown(c)).toEqual([
      ['[REDACTED:github-pat]_v2', '[REDACTED:github-pat]_v2', 'secret', 'secret-in-key'],
      ['nested.deploy_[REDACTED:github-pat]_old', 'deploy_[REDACTED:github-pat]_old', 'secret', 'secret-in-key'],
      ['note', 'note', 'secret', 'github-pat'],
      ['body', 'body', 'secret', 'aws-access-key-id'],
    ]);
    expect(JSON.stringify({ ...c, flat: undefined })).not.toMatch(/R1ghtG1ued|RGHTGLUE/);
  });

  it('field names inside a credential slot stay readable', () => {
    const c = classifyCall({ tool: 't', args: { credentials: { username: 'bob', apiKey: 'k9!Xq2#Lm' }, password: { value: 'abc' } } });
    expect(c.leaves.map((l) => l.key)).toEqual(['credentials.username', 'credentials.apiKey', 'password.value']);
    expect(c.leaves.every((l) => l.hiddenKeys === undefined)).toBe(true);
  });

  it('a key copied from a secret source inherits its label and is hidden; a key naming a secret file makes its leaf secret', () => {
    const seed = 'q7Zr2Lm9Xv4Tn8Wb3Yc6Hd1Jf5Gs0Pa2Ke';
    const c = classifyCall(
      { tool: 'http_post', args: { url: 'https://x.example/p', data: { [seed]: 'yes it is' } } },
      { userText: 'post it', context: [{ callId: 'read-env', content: `INTERNAL_SIGNING_SEED=${seed}`, residency: Residency.SECRET }] },
    );
    expect(shown(c)[1]).toEqual(['data["[REDACTED:inherited-secret]"]', '[REDACTED:inherited-secret]', 'secret', 'inherited-secret']);
    expect(c.leaves[1]!.sourceCallId).toBe('read-env');
    expect(c.residency).toBe(Residency.SECRET);
    const files = classifyCall({ tool: 'read', args: { files: { '/home/u/.ssh/id_rsa': 'read' } } });
    expect(files.leaves.map((l) => [l.residency, l.rule])).toEqual([['secret', 'secret-file-name']]);
    // A key that is merely in the user's text, or in a clean result, is no secret.
    const clean = classifyCall({ tool: 'http_post', args: { data: { [seed]: 'x' } } }, { userText: `use ${seed}`, context: [{ callId: 'c', content: seed }] });
    expect(clean.leaves[0]!.residency).not.toBe(Residency.SECRET);
  });

  it('a credential or secret file nested past the depth limit is still found', () => {
    const nest = (leaf: object) => {
      let v: object = leaf;
      for (let i = 0; i < 40; i++) v = { a: v };
      return v;
    };
    const token = classifyCall({ tool: 't', args: nest({ token: 'ghp_Qz8Lm2Xv7Rk4Tn9Wb3Yc6Hd1Jf5Gs0Pa2Ke4' }) });
    expect(token.leaves.map((l) => [l.residency, l.rule])).toEqual([['secret', 'github-pat']]);
    const file = classifyCall({ tool: 't', args: nest({ path: '/app/.env' }) });
    expect(file.leaves.map((l) => [l.residency, l.rule])).toEqual([['secret', 'secret-file-name']]);
    for (const slot of [{ db: { password: 'hunter2-prod' } }, { password: 424242 }, { headers: { Authorization: 'Token abc123' } }]) {
      const c = classifyCall({ tool: 't', args: nest(slot) });
      expect(c.leaves.map((l) => [l.residency, l.rule]), JSON.stringify(slot)).toEqual([['secret', 'secret-key-name']]);
    }
    expect(classifyCall({ tool: 't', args: nest({ password: '${DB_PASSWORD}' }) }).leaves.map((l) => l.residency)).toEqual(['unknown']);
    const plain = classifyCall({ tool: 't', args: nest({ city: 'Tokyo' }) });
    expect(plain.leaves.map((l) => [l.residency, l.rule])).toEqual([['unknown', 'flatten-limit']]);
  });
});
