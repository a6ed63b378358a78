import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adversarialInputs } from '../bench/secret-corpus.js';
import { SCAN_FAILED_RULE_ID, createSecretDetector, defaultSecretDetector as d } from './detector.js';
import { ALNUM, HEX, sample } from './rules/sample.js';
import type { SecretRule } from './types.js';

const GHP = `ghp_${sample(ALNUM, 36, 'detector-test')}`;
const PASSWORD = `${sample(ALNUM, 18, 'pw')}#7`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('direct matching', () => {
  it('reports the rule id and the span of the credential', () => {
    const text = `export GITHUB_TOKEN=${GHP}\n`;
    expect(d.findAll(text)).toEqual([{ ruleId: 'github-pat', start: 20, end: 20 + GHP.length }]);
    expect(d.find(text)).toEqual({ ruleId: 'github-pat', start: 20, end: 20 + GHP.length });
  });

  it('reports only the secret part of key=value and URL matches', () => {
    const text = `postgres://app:${PASSWORD}@db:5432/x`;
    const [f] = d.findAll(text);
    expect(f!.ruleId).toBe('url-password');
    expect(text.slice(f!.start, f!.end)).toBe(PASSWORD);
  });

  it('lets a provider rule win over a generic one on the same span', () => {
    expect(d.findAll(`api_key: ${GHP}`).map((f) => f.ruleId)).toEqual(['github-pat']);
  });

  it('lets a rule that reads the form (a flag, an option) win over the catch-all assignment on the same value', () => {
    const password = 'Zq8rT3vLp2Wx';
    for (const [text, ruleId] of [
      [`mysql --password=${password} db`, 'cli-user-password'],
      [`openssl enc -aes256 -pass pass:${password} -in a`, 'cli-password-option'],
    ] as const) {
      expect(d.findAll(text).map((f) => [f.ruleId, text.slice(f.start, f.end)])).toEqual([[ruleId, password]]);
    }
  });

  it('finds every credential, in order', () => {
    const akid = `AKIA${sample('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 'x')}`;
    const ids = d.findAll(`a=${akid} b=${GHP} password: "${PASSWORD}"`).map((f) => f.ruleId);
    expect(ids).toEqual(['aws-access-key-id', 'github-pat', 'generic-secret-assignment']);
  });

  it('returns nothing for empty and non-string input', () => {
    expect(d.findAll('')).toEqual([]);
    expect(d.find('')).toBeUndefined();
    expect(d.findAll(undefined as unknown as string)).toEqual([]);
  });
});

describe('passwords that read as code to a filter', () => {
  // (built at run time: a random body, then `._` and a digit)
  const pw = `${sample(ALNUM, 13, 'member-pw')}._7`;
  it('finds a password holding `._` in each form, not a member expression', () => {
    const forms = [`DB_PASSWORD=${pw}`, `password: "${pw}"`, `{"password": "${pw}"}`, `mysql -u app -p${pw} -h db`, `curl -u app:${pw} https://api.internal`, `db:\n  password: ${pw}\n`, `export SMTP_PASSWORD='${pw}'`];
    for (const text of forms) expect(d.findAll(text).map((f) => text.slice(f.start, f.end)), text).toContain(pw);
  });

  it('finds a quoted password whose != stands between two runs of letters with no vowel', () => {
    const text = `password: 'hbqr!=tkwz(4)'`;
    expect(d.findAll(text).map((f) => text.slice(f.start, f.end))).toContain('hbqr!=tkwz(4)');
  });
});

describe('decoding', () => {
  it('base64: a Kubernetes secret value is decoded; the finding covers the encoded run', () => {
    const enc = b64(GHP);
    const text = `apiVersion: v1\nkind: Secret\ndata:\n  DEPLOY: ${enc}\n`;
    const [f] = d.findAll(text);
    expect(f!.ruleId).toBe('github-pat');
    expect(text.slice(f!.start, f!.end)).toBe(enc);
  });

  it('base64 without a digit is decoded when its padding completes it (a Basic header in a Secret)', () => {
    const enc = 'QmFzaWMgWTJrNkswVkpiMTlIUVhWcFJIUks='; // base64('Basic ' + base64('ci:+EIo_GAuiDtJ'))
    expect(enc).not.toMatch(/\d/);
    const text = `data:\n  AUTH_HEADER: ${enc}\n  LOG_LEVEL: aW5mbw==\n`;
    const [f] = d.findAll(text);
    expect(f!.ruleId).toBe('authorization-basic');
    expect(text.slice(f!.start, f!.end)).toBe(enc);
  });

  it('base64 of a whole .env file', () => {
    const enc = b64(`NODE_ENV=production\nDB_PASSWORD=${PASSWORD}\n`);
    const [f] = d.findAll(enc);
    expect(f).toEqual({ ruleId: 'generic-secret-assignment', start: 0, end: enc.length });
  });

  it('hex: a token or a .env dumped as hex (xxd -p, .hex(), bin2hex) is decoded; the finding covers the encoded run', () => {
    const hex = (s: string) => Buffer.from(s).toString('hex');
    for (const enc of [hex(GHP), `0x${hex(GHP)}`, hex(GHP).toUpperCase()]) {
      const text = `{"payload_hex":"${enc}"}`;
      const [f, ...rest] = d.findAll(text);
      expect(rest).toEqual([]);
      expect(f!.ruleId).toBe('github-pat');
      expect(text.slice(f!.start, f!.end)).toBe(enc);
    }
    const env = hex(`NODE_ENV=production\nDB_PASSWORD=${PASSWORD}\n`);
    expect(d.findAll(`printf %s ${env} | xxd -r -p > .env`)).toEqual([{ ruleId: 'generic-secret-assignment', start: 10, end: 10 + env.length }]);
    // `xxd -p .env`: 60 digits a line; the token crosses lines
    const dump = env.match(/.{1,60}/g)!.join('\n');
    expect(d.findAll(`${dump}\n`)).toEqual([{ ruleId: 'generic-secret-assignment', start: 0, end: dump.length }]);
    // the call's decoding budget bounds a dump however long: what lies past it is not read
    const late = hex(`${'#'.repeat(200)}\ntoken: ${GHP}\n`);
    expect(createSecretDetector({ maxDecodedChars: 100 }).findAll(late)).toEqual([]);
    expect(createSecretDetector({ maxDecodedChars: 400 }).findAll(late).map((f) => f.ruleId)).toEqual(['github-pat']);
    // hex of base64 of a token: two layers
    const twice = hex(b64(`token: ${GHP}`));
    expect(d.findAll(twice)).toEqual([{ ruleId: 'github-pat', start: 0, end: twice.length }]);
  });

  it('byte escapes: a token spelled `\\x67\\x68…` (printf, Python, C), also inside a JSON string; the finding covers the escapes', () => {
    const escaped = (s: string) => [...s].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const text = `printf '${escaped(GHP)}' > ~/.token`;
    const [f, ...rest] = d.findAll(text);
    expect(rest).toEqual([]);
    expect(f!.ruleId).toBe('github-pat');
    expect(text.slice(f!.start, f!.end)).toBe(escaped(GHP));
    const json = JSON.stringify({ cmd: `printf '${escaped(`DB_PASSWORD=${PASSWORD}`)}' >> .env` });
    expect(d.findAll(json).map((x) => x.ruleId)).toEqual(['generic-secret-assignment']);
    // terminal colours and other control bytes are no text to read
    expect(d.findAll(String.raw`echo -e "\x1b[31mfailed\x1b[0m: see \x1b[1mlog\x1b[0m"`)).toEqual([]);
    expect(d.findAll(String.raw`printf '\033[31mfailed\033[0m\n'`)).toEqual([]);
    // octal escapes likewise (`printf '\147\150…'`)
    const octal = (s: string) => [...s].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');
    const octalText = `printf '${octal(GHP)}' > ~/.token`;
    const [o, ...more] = d.findAll(octalText);
    expect(more).toEqual([]);
    expect(o!.ruleId).toBe('github-pat');
    expect(octalText.slice(o!.start, o!.end)).toBe(octal(GHP));
  });

  it('hex that is no text is left alone: hashes, ids, hex of harmless text', () => {
    const hex = (s: string) => Buffer.from(s).toString('hex');
    for (const text of [
      'git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
      'id 550e8400e29b41d4a716446655440000',
      hex('the weather in Paris is mild for the season\n'),
      `0x${hex('SELECT name FROM users WHERE id = 42')}`,
    ]) {
      expect(d.findAll(text)).toEqual([]);
    }
  });

  it('URL-encoding: the finding maps back to the encoded characters', () => {
    // The inner URL carries its password percent-encoded, as URLs must; then the whole URL is
    // encoded again as a query parameter.
    const pw = encodeURIComponent(`${PASSWORD}/+@`);
    const text = `https://x.test/cb?db=${encodeURIComponent(`mysql://root:${pw}@db/app`)}&page=2`;
    const f = d.findAll(text).find((x) => x.ruleId === 'url-password')!;
    expect(text.slice(f.start, f.end)).toBe(encodeURIComponent(pw));
  });

  it('JSON inside a JSON string (escaped quotes, \\/ and \\u escapes)', () => {
    const inner = JSON.stringify({ url: `https://ci:${PASSWORD}@git.internal/r.git` }).replace(/\//g, '\\/');
    const outer = JSON.stringify({ payload: inner });
    const f = d.findAll(outer).find((x) => x.ruleId === 'url-password')!;
    expect(outer.slice(f.start, f.end)).toBe(PASSWORD);
    const uni = `{"k":"\\u0067hp_${GHP.slice(4)}"}`;
    const g = d.findAll(uni)[0]!;
    expect(g.ruleId).toBe('github-pat');
    expect(uni.slice(g.start, g.end)).toBe(`\\u0067hp_${GHP.slice(4)}`);
  });

  it('a token right after a JSON escape (\\n, \\t, \\u000a, ...), escaped once or twice: the finding is the token itself', () => {
    for (const escape of ['\\n', '\\t', '\\r', '\\b', '\\f', '\\u000a', '\\u00e9', '\\\\', '\\"', '\\/']) {
      const once = `{"env":"A=1${escape}${GHP}${escape}B=2"}`;
      for (const text of [once, JSON.stringify({ args: once })]) {
        expect(d.findAll(text).map((f) => text.slice(f.start, f.end)), text).toEqual([GHP]);
      }
    }
    // An escape that stands for a letter joins the token to a word, raw and decoded alike.
    expect(d.findAll(`{"env":"A=1\\u0041${GHP}"}`)).toEqual([]);
  });

  it('an escape before the start of a match that is not at its keyword, and before a base64 run', () => {
    const azure = `${sample(ALNUM, 3, 'az')}8Q~${sample(ALNUM, 34, 'az2')}`;
    expect(d.findAll(`{"env":"A=1\\n${azure}"}`).map((f) => f.ruleId)).toEqual(['azure-ad-client-secret']);
    const enc = b64(`token: ${GHP}`);
    const text = `{"data":"x\\n${enc}"}`;
    const [f] = d.findAll(text);
    expect(text.slice(f!.start, f!.end)).toBe(enc);
  });

  it('an escape before the match of a user rule without keywords (\\b sees the escape\'s letter)', () => {
    const det = createSecretDetector({ builtinRules: false, rules: [{ id: 'ticket', description: 'd', keywords: [], pattern: /\bTKT-\d{6}\b/g }] });
    expect(det.findAll('{"msg":"see\\nTKT-123456"}').map((f) => f.ruleId)).toEqual(['ticket']);
  });

  it('a keyword holding a quote, as JSON escapes it: a Docker config inside a JSON string, once and twice', () => {
    const auth = b64(`me:${PASSWORD}`);
    const config = JSON.stringify({ auths: { 'ghcr.io': { auth } } });
    for (const text of [JSON.stringify({ path: '.docker/config.json', content: config }), JSON.stringify({ args: JSON.stringify({ content: config }) })]) {
      const found = d.findAll(text);
      expect(found.map((f) => f.ruleId), text).toContain('docker-config-auth');
      expect(found.map((f) => text.slice(f.start, f.end))).toContain(auth);
    }
  });

  it('nested encodings up to the depth limit', () => {
    const twice = b64(`token=${encodeURIComponent(b64(GHP))}`);
    expect(d.findAll(twice).map((f) => f.ruleId)).toContain('github-pat');
    const tooDeep = createSecretDetector({ maxDecodeDepth: 1 });
    expect(tooDeep.findAll(twice).map((f) => f.ruleId)).not.toContain('github-pat');
    expect(createSecretDetector({ maxDecodeDepth: 0 }).findAll(b64(GHP))).toEqual([]);
  });

  it('judges no generic candidate inside a specific finding of a decoded layer, and still judges one outside', () => {
    const judged: string[] = [];
    const blob: SecretRule = {
      id: 'blob-value',
      description: 'a generic user rule that records what it judges',
      keywords: ['blob='],
      anchored: true,
      generic: true,
      allowPlaceholders: true,
      pattern: /blob=(?<secret>[A-Za-z0-9+/]{16,}={0,2})/g,
      secretGroup: 'secret',
      validate: (secret) => judged.push(secret) > 0,
    };
    const det = createSecretDetector({ rules: [blob] });
    // The value's text is a token: the generic finding would be dropped, so it is not judged.
    const token = `blob=${b64(`x ${GHP}`)}`;
    expect(det.findAll(token)).toEqual([{ ruleId: 'github-pat', start: 5, end: token.length }]);
    expect(judged).toEqual([]);
    // Text that holds no token, in the same layer: judged and reported.
    const words = b64('nothing here but words and more words');
    expect(det.findAll(`blob=${words}`)).toEqual([{ ruleId: 'blob-value', start: 5, end: 5 + words.length }]);
    expect(judged).toEqual([words]);
    // Without decoding, the token's value is an ordinary candidate.
    judged.length = 0;
    expect(createSecretDetector({ rules: [blob], maxDecodeDepth: 0 }).findAll(token).map((f) => f.ruleId)).toEqual(['blob-value']);
    expect(judged).toHaveLength(1);
  });

  it('hidden characters: a token split by invisible ones, spelled in tag characters, fullwidth forms or variation selectors; the finding covers what hides it', () => {
    const tags = (t: string) => [...t].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const selectors = (t: string) => [...Buffer.from(t)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
    const fullwidth = (t: string) => [...t].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    const split = `${GHP.slice(0, 9)}\u200b${GHP.slice(9, 20)}\u200d\u2060${GHP.slice(20)}`;
    for (const [hidden, before, after] of [
      [split, 'token: ', ' ok'],
      [tags(GHP), 'see ', ''],
      [fullwidth(GHP), '\u30c8\u30fc\u30af\u30f3\uff1a', '\u3002'],
      [selectors(GHP), '\u{1f600}', ' \u{1f44d}'],
    ] as const) {
      const text = `${before}${hidden}${after}`;
      expect(d.findAll(text)).toEqual([{ ruleId: 'github-pat', start: before.length, end: before.length + hidden.length }]);
    }
    // A password whose key is split, in a .env line; inside a JSON string as a `\u200b` escape
    expect(d.findAll(`DB_PASS\u200bWORD=${PASSWORD}`).map((f) => f.ruleId)).toEqual(['generic-secret-assignment']);
    const escaped = JSON.stringify({ note: split }).replace('\u200b', '\\u200b');
    expect(d.findAll(escaped).map((f) => f.ruleId)).toEqual(['github-pat']);
    // Text outside ASCII that hides nothing: prose, emoji, right-to-left marks
    for (const text of ['\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001\uff11\uff12\uff13', 'Great job \u{1f44d}\u{1f3fd}\u2764\ufe0f thanks', '\u200f\u05e9\u05dc\u05d5\u05dd \u200eabc']) expect(d.findAll(text)).toEqual([]);
    // Decoding off: as written
    expect(createSecretDetector({ maxDecodeDepth: 0 }).findAll(split)).toEqual([]);
  });

  it('characters spelled out: references, lists of codes, chr() chains, joined literals; the finding covers the spelling', () => {
    const codes = (t: string, sep = ', ') => [...t].map((c) => c.charCodeAt(0)).join(sep);
    const aws = `AKIA${sample('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 'spelled-aws')}`;
    for (const token of [GHP, aws]) {
      const forms: [spelled: string, before: string, after: string][] = [
        [[...token].map((c) => `&#${c.charCodeAt(0)};`).join(''), '<input value="', '">'],
        [`${token.slice(0, 2)}&#x${token.charCodeAt(2).toString(16)};${token.slice(3)}`, '<p>', '</p>'],
        [`String.fromCharCode(${codes(token)})`, 'const t = ', ';'],
        [`bytes([${codes(token)}])`, 'key = ', '.decode()'],
        [`[]byte{${[...token].map((c) => `0x${c.charCodeAt(0).toString(16)}`).join(', ')}}`, 'k := ', ''],
        [[...token].map((c) => `chr(${c.charCodeAt(0)})`).join(' + '), 'k = ', ''],
        [`"${token.slice(0, 10)}" +\n    "${token.slice(10)}"`, 'String k = ', ';'],
        [`'${token.slice(0, 6)}' . '${token.slice(6)}'`, '$k = ', ';'],
      ];
      for (const [spelled, before, after] of forms) {
        const text = `${before}${spelled}${after}`;
        const found = d.findAll(text);
        expect(found.map((f) => f.ruleId), spelled).toEqual([token === GHP ? 'github-pat' : 'aws-access-key-id']);
        // the finding lies inside the spelling and covers the token's first and last characters' spelling
        expect(found[0]!.start).toBeGreaterThanOrEqual(before.length);
        expect(found[0]!.end).toBeLessThanOrEqual(before.length + spelled.length);
        expect(text.slice(found[0]!.start, found[0]!.end)).not.toContain(after || '\u0000');
      }
    }
    // A password spelled as codes, under its key
    expect(d.findAll(`DB_PASSWORD = bytes([${codes(PASSWORD)}]).decode()`).map((f) => f.ruleId)).toEqual(['generic-secret-assignment']);
    // What spells nothing: HTML's entities, concatenation with variables, data lists
    for (const text of [
      '<p>Don&#39;t &#8212; &copy; &#169; 2024 &#x2014; caf&#233;</p>',
      'const msg = "Hello, " + name + "! You have " + n + " new messages";',
      'const widths = [12, 48, 96, 120, 64, 32, 80, 100, 110, 72];',
      'SELECT CHAR(65), CHAR(66) FROM t; x = bytes([0, 255, 1, 2, 3, 4, 5, 6, 7])',
    ]) expect(d.findAll(text), text).toEqual([]);
    // Decoding off: as written
    expect(createSecretDetector({ maxDecodeDepth: 0 }).findAll(`String.fromCharCode(${codes(GHP)})`)).toEqual([]);
  });

  it('stops decoding when the per-call budget is spent', () => {
    const enc = b64(`x ${GHP}`);
    expect(createSecretDetector({ maxDecodedChars: 4 }).findAll(enc)).toEqual([]);
    expect(createSecretDetector({ maxDecodedChars: 4096 }).findAll(enc)).toHaveLength(1);
  });
});

describe('configuration', () => {
  const rule: SecretRule = {
    id: 'acme-key',
    description: 'ACME internal key',
    keywords: ['acme_'],
    anchored: true,
    pattern: /acme_[a-z0-9]{20}/g,
  };

  it('adds user rules, anchored or not, and keyword-less ones', () => {
    const det = createSecretDetector({
      rules: [rule, { id: 'ticket', description: 'scan-everything rule', keywords: [], pattern: /\bTKT-\d{6}\b/g }],
    });
    expect(det.findAll('k=acme_q7w3e9r1t5y8u2i4o6p0').map((f) => f.ruleId)).toEqual(['acme-key']);
    expect(det.findAll('see TKT-123456').map((f) => f.ruleId)).toEqual(['ticket']);
    // Unanchored rule with a keyword: runs over the whole text when the keyword occurs.
    const un = createSecretDetector({ rules: [{ ...rule, anchored: false, pattern: /x-acme_[a-z0-9]{20}/g }] });
    expect(un.findAll('x-acme_q7w3e9r1t5y8u2i4o6p0')).toHaveLength(1);
  });

  it('skips hits in the wrong case for a rule whose keywords match case, and only for that rule', () => {
    // The pattern itself ignores case, so only keywordsMatchCase can tell the two apart.
    const exact: SecretRule = { ...rule, id: 'acme-upper', keywords: ['ACME_'], keywordsMatchCase: true, pattern: /acme_[a-z0-9]{20}/gi };
    const det = createSecretDetector({ builtinRules: false, rules: [exact, { ...rule, pattern: /acme_[a-z0-9]{20}/gi }] });
    expect(det.findAll('k=ACME_q7w3e9r1t5y8u2i4o6p0').map((f) => f.ruleId).sort()).toEqual(['acme-key', 'acme-upper']);
    expect(det.findAll('k=acme_q7w3e9r1t5y8u2i4o6p0').map((f) => f.ruleId)).toEqual(['acme-key']);
    expect(det.findAll('k=Acme_q7w3e9r1t5y8u2i4o6p0').map((f) => f.ruleId)).toEqual(['acme-key']);
    // The built-in Twilio key: SK, never sk.
    const hex = sample(HEX, 32, 'twilio-case');
    expect(d.findAll(`TWILIO_KEY=SK${hex}`).map((f) => f.ruleId)).toContain('twilio-api-key');
    expect(d.findAll(`TWILIO_KEY=sk${hex}`).map((f) => f.ruleId)).not.toContain('twilio-api-key');
  });

  it('rejects duplicate ids and non-global patterns, naming the rule', () => {
    expect(() => createSecretDetector({ rules: [{ ...rule, id: 'github-pat' }] })).toThrow(/duplicate secret rule id "github-pat"/);
    expect(() => createSecretDetector({ rules: [{ ...rule, pattern: /acme/ }] })).toThrow(/"acme-key": pattern must have the g flag/);
  });

  it('allowlists by regex, by rule id and by value hash', () => {
    const text = `GITHUB_TOKEN=${GHP}\npassword: "${PASSWORD}"`;
    expect(d.findAll(text)).toHaveLength(2);
    expect(createSecretDetector({ allowlist: [/^ghp_/] }).findAll(text).map((f) => f.ruleId)).toEqual(['generic-secret-assignment']);
    expect(
      createSecretDetector({ allowlist: [{ ruleIds: ['generic-secret-assignment'] }] }).findAll(text).map((f) => f.ruleId),
    ).toEqual(['github-pat']);
    const hash = createHash('sha256').update(GHP).digest('hex');
    expect(createSecretDetector({ allowlist: [{ valueSha256: [hash.toUpperCase()] }] }).findAll(text).map((f) => f.ruleId)).toEqual([
      'generic-secret-assignment',
    ]);
    // All given fields must hold: right hash, wrong rule => not allowed.
    expect(createSecretDetector({ allowlist: [{ valueSha256: [hash], ruleIds: ['jwt'] }] }).findAll(text)).toHaveLength(2);
    // A stateful (global) regex in the allowlist behaves the same on every call.
    const det = createSecretDetector({ allowlist: [/ghp_/g] });
    expect(det.findAll(text)).toHaveLength(1);
    expect(det.findAll(text)).toHaveLength(1);
  });

  it('switches built-in rules off, or all of them', () => {
    expect(createSecretDetector({ disabledRules: ['github-pat'] }).findAll(GHP)).toEqual([]);
    expect(createSecretDetector({ builtinRules: false }).findAll(GHP)).toEqual([]);
    expect(createSecretDetector({ builtinRules: false, rules: [rule] }).findAll('acme_q7w3e9r1t5y8u2i4o6p0')).toHaveLength(1);
  });

  it('keeps a finding when a user validate hook throws (fail closed)', () => {
    const det = createSecretDetector({
      builtinRules: false,
      rules: [{ ...rule, validate: () => { throw new Error('boom'); } }],
    });
    expect(det.findAll('acme_q7w3e9r1t5y8u2i4o6p0')).toHaveLength(1);
  });

  it('gives the same results when a user validate hook scans another text with the same detector', () => {
    // The entropy and placeholder checks read the bytes the scan left in memory; a hook that
    // scans something else in between must not make the rest of the outer call read those.
    // Random characters where the outer text has its placeholders.
    const inner = `token ${sample(ALNUM, 200, 'inner')}`;
    let det: ReturnType<typeof createSecretDetector> | undefined;
    const reentrant = { ...rule, validate: () => (det!.findAll(inner), true) };
    det = createSecretDetector({ rules: [reentrant] });
    const plain = createSecretDetector({ rules: [rule] });
    const text = `acme_q7w3e9r1t5y8u2i4o6p0 then ghp_${'a'.repeat(36)} and ${GHP} and token=${'x'.repeat(20)} api_key=${PASSWORD}`;
    expect(det.findAll(text)).toEqual(plain.findAll(text));
    expect(det.findAll(text).map((f) => f.ruleId)).toEqual(['acme-key', 'github-pat', 'generic-secret-assignment']);
  });

  it('fails closed when a scan throws: the whole value is one finding', () => {
    const det = createSecretDetector({
      builtinRules: false,
      // An unbounded alternation loop over 8 MB overflows the regexp backtrack stack.
      rules: [{ id: 'bad', description: 'unbounded', keywords: ['start'], anchored: true, pattern: /start(?:x|[\w-])*\./g }],
    });
    const text = `start${'a'.repeat(8 << 20)}`;
    expect(det.findAll(text)).toEqual([{ ruleId: SCAN_FAILED_RULE_ID, start: 0, end: text.length }]);
  });

  it('keeps no state across calls', () => {
    const text = `a ${GHP} b`;
    const first = JSON.stringify(d.findAll(text));
    for (let i = 0; i < 5; i++) d.findAll(`${'x'.repeat(i)} ${GHP}`);
    expect(JSON.stringify(d.findAll(text))).toBe(first);
  });
});

describe('adversarial inputs complete with correct results', () => {
  // 256 KB each: a quadratic pattern would not finish within the test timeout. Time is measured
  // by the benchmark (npm run bench:secrets), not asserted here.
  for (const { name, text } of adversarialInputs(256 * 1024)) {
    it(name, () => {
      const found = d.findAll(text);
      for (const f of found) {
        expect(f.start).toBeGreaterThanOrEqual(0);
        expect(f.end).toBeLessThanOrEqual(text.length);
        expect(f.start).toBeLessThan(f.end);
      }
      if (!/nested|BEGIN \+ body|mixed|password=|PASSWORD=/.test(name)) expect(found).toEqual([]);
    });
  }

  it('a secret after 1 MB of decoys is still found', () => {
    const text = `${'password=password='.repeat(60_000)} ${GHP}`;
    expect(d.findAll(text).map((f) => f.ruleId)).toContain('github-pat');
  });

  it('a token across the 64 K chunk boundary of the scan is found, whatever its prefix (two characters too)', () => {
    const twilio = `SK${'3f9a0b7c1d2e4a5b6c7d8e9f0a1b2c3d'}`;
    for (const token of [GHP, twilio]) {
      for (const pad of [65_530, 65_536 - token.length + 1, 65_535]) {
        const at = d.findAll(`${' '.repeat(pad)}${token} end`).map((f) => f.start);
        expect(at, `${token.slice(0, 4)} at ${pad}`).toEqual([pad]);
      }
    }
  });

  it('10 MB runs that a greedy pattern would backtrack over complete without throwing', () => {
    for (const unit of ['eyJ', 'eyJabcdefghij.', 'MIIE']) {
      const text = (unit === 'MIIE' ? '-----BEGIN PRIVATE KEY-----\n' : '') + unit.repeat((10 << 20) / unit.length);
      const ids = d.findAll(text).map((f) => f.ruleId);
      expect(ids).not.toContain(SCAN_FAILED_RULE_ID);
    }
  });

  it('a 10 MB string completes', () => {
    const text = `${'a1B2 c3D4 '.repeat(1_000_000)}${GHP}`;
    expect(d.findAll(text).map((f) => f.ruleId)).toEqual(['github-pat']);
  });
});

describe('properties', () => {
  const pieces = fc.constantFrom(
    GHP, PASSWORD, 'password=', 'token: ', '://u:', '@h', '%2F', '%', '\\"', '\\u0041', '\\', 'eyJ', '.', '-----BEGIN RSA PRIVATE KEY-----\n',
    'AKIA', 'Bearer ', 'Basic ', b64(GHP), '=', ' ', '\n', 'é', '🙂', 'sk-', ':AA', 'Q~', 'dGVzdA==',
  );
  const text = fc.oneof(fc.string(), fc.array(pieces, { maxLength: 40 }).map((a) => a.join('')), fc.string({ unit: 'binary' }));

  it('find and findAll never throw; findings are within bounds, sorted, and find is the first', () => {
    fc.assert(
      fc.property(text, (t) => {
        const all = d.findAll(t);
        for (let i = 0; i < all.length; i++) {
          const f = all[i]!;
          expect(f.start).toBeGreaterThanOrEqual(0);
          expect(f.end).toBeLessThanOrEqual(t.length);
          expect(f.start).toBeLessThan(f.end);
          if (i > 0) expect(f.start).toBeGreaterThanOrEqual(all[i - 1]!.start);
        }
        expect(d.find(t)).toEqual(all[0]);
      }),
      { numRuns: 500 },
    );
  });
});
