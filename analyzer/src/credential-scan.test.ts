import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventAttributes, HopEvents } from '@argspan/conventions';
import { SPELLING_CALLS } from '@argspan/core/internal';
import { describe, expect, it } from 'vitest';
import { builtinPrefilter, prefilterPattern, scanCredentials } from './credential-scan.js';
import { sqlString } from './load/duckdb-types.js';
import { Db } from './db.js';
import { DEFAULT_MAX_LINE_BYTES } from './load/load-file.js';
import { loadTraces } from './load/load-traces.js';
import { ArgspanTraceBuilder } from './synth/argspan-trace.js';
import { CANARY_AWS_KEY, cleanCall } from './synth/rule-cases.js';

const HASH_KEY = new Uint8Array(32).fill(3);
const GITHUB_CANARY = 'ghp_C4naryQ7xW2mK9pLr3TzV8bN5hJd1FgS6yUe';
// A bare Discord bot token: no keyword, found through its base64 id (the rule's prefilter here).
const DISCORD_CANARY = `${Buffer.from('109876543210987654').toString('base64url')}.GaBcDe.k7Qx9ZpL2mN4vB8cR1tY6uW3sE5dF0gH_jK`;

/** The builder's spans (with `resource`'s attributes) written to a file and loaded into a fresh DuckDB; `check` runs on it, and the database is closed after. */
async function withLoaded(b: ArgspanTraceBuilder, check: (db: Db) => Promise<void>, resource?: Record<string, string>): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), 'argspan-scan-')), 't.jsonl');
  writeFileSync(file, b.lines('agent', 200, resource).join('\n') + '\n');
  const db = await Db.open();
  try {
    await loadTraces(db, [file], { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
    await check(db);
  } finally {
    db.close();
  }
}

/** Keys of the span attributes whose values the pre-filter alone sends to the detector. */
async function passedByPrefilter(db: Db): Promise<string[]> {
  const rows = await db.all(`SELECT "key" FROM (SELECT unnest(attr_keys) AS "key", unnest(attr_str) AS v FROM span_structs) WHERE regexp_matches(v, ${sqlString(prefilterPattern(builtinPrefilter()))}, 'i') ORDER BY 1`);
  return rows.map((r) => r.key as string);
}

describe('credential re-scan', () => {
  it('finds credential shapes in span, event, link and resource attributes and stores the rule id, never the value', async () => {
    const b = new ArgspanTraceBuilder(0xc4);
    const turn = b.turn('turn', 'run-c');
    b.call(turn, cleanCall({ extra: { 'custom.note': `token ${GITHUB_CANARY}` } }));
    b.call(turn, cleanCall({ events: [{ name: HopEvents.HOP_FAILED, atMs: 1, attrs: { [EventAttributes.REASON]: `bad key ${CANARY_AWS_KEY}` } }] }));
    b.call(turn, cleanCall({ extra: { 'custom.note': 'sk- and AKIA but no credential' } }));
    b.call(turn, cleanCall({ extra: { 'custom.bot': DISCORD_CANARY } }));
    b.otherSpan(turn, 'linked', { linkAttributes: { 'link.note': `token ${GITHUB_CANARY}`, 'link.plain': 'sk- but no credential' } });
    const resource = { 'deployment.note': `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n`, [`deploy_${GITHUB_CANARY}`]: 'x' };
    await withLoaded(b, async (db) => {
      const n = await scanCredentials(db, HASH_KEY);
      const rows = await db.all(`SELECT scope, "key", rule_id, count(*) AS n FROM credential_hits GROUP BY ALL ORDER BY scope, rule_id`);
      expect(rows).toEqual([
        { scope: 'event', key: EventAttributes.REASON, rule_id: 'aws-access-key-id', n: '1' },
        { scope: 'link', key: 'link.note', rule_id: 'github-pat', n: '1' },
        { scope: 'resource', key: 'deployment.note', rule_id: 'private-key', n: '1' },
        // A key glued to the token: recorded redacted.
        { scope: 'resource attribute key', key: 'deploy_[REDACTED:github-pat]', rule_id: 'github-pat', n: '1' },
        { scope: 'span', key: 'custom.bot', rule_id: 'discord-bot-token-bare', n: '1' },
        { scope: 'span', key: 'custom.note', rule_id: 'github-pat', n: '1' },
      ]);
      expect(n).toBe(6);
      const dump = JSON.stringify(await db.all('SELECT * FROM credential_hits'));
      expect(dump).not.toContain(CANARY_AWS_KEY);
      expect(dump).not.toContain(GITHUB_CANARY);
      expect(dump).not.toContain(DISCORD_CANARY);
    }, resource);
  });

  it('finds a Docker config "auth" inside a JSON-encoded string (the keyword is spelled \\"auth\\" there)', async () => {
    const auth = Buffer.from('deploy:Qm7xT2pLr9ZvK4wN8sDf').toString('base64');
    const dockerJson = JSON.stringify({ auths: { 'registry.internal': { auth } } });
    const b = new ArgspanTraceBuilder(0xc5);
    const turn = b.turn('turn', 'run-d');
    // once and twice encoded: a tool argument holding a JSON document as text
    b.call(turn, cleanCall({ extra: { 'custom.args': JSON.stringify({ dockerJson }) } }));
    b.call(turn, cleanCall({ extra: { 'custom.nested': JSON.stringify({ body: JSON.stringify({ dockerJson }) }) } }));
    await withLoaded(b, async (db) => {
      expect(await scanCredentials(db, HASH_KEY)).toBe(2);
      const rows = await db.all(`SELECT "key", rule_id FROM credential_hits ORDER BY "key"`);
      expect(rows).toEqual([
        { key: 'custom.args', rule_id: 'docker-config-auth' },
        { key: 'custom.nested', rule_id: 'docker-config-auth' },
      ]);
      expect(JSON.stringify(await db.all('SELECT * FROM credential_hits'))).not.toContain(auth);
    });
  });

  it('reads base64 that may encode text (a file an API answered in base64), where no keyword is left; hex ids and paths stay out', async () => {
    const env = `# settings\nAWS_ACCESS_KEY_ID=${CANARY_AWS_KEY}\nGITHUB_TOKEN=${GITHUB_CANARY}\n`;
    // GitHub's contents API: base64 in lines of 60 characters.
    const content = Buffer.from(env).toString('base64').match(/.{1,60}/g)!.join('\n');
    const b = new ArgspanTraceBuilder(0xc6);
    const turn = b.turn('turn', 'run-e');
    b.otherSpan(turn, 'GET /repos/o/r/contents/config', { attributes: { 'http.response.body': JSON.stringify({ encoding: 'base64', path: 'config', content }) } });
    b.otherSpan(turn, 'ids', { attributes: { 'request.id': 'c0ffee00deadbeef0123456789abcdef', 'commit.sha': '3d21ec53a331a6f037a91c368710b99387d012c1', 'file.path': '/home/user/projects/app/src/components/index.ts' } });
    await withLoaded(b, async (db) => {
      expect(await scanCredentials(db, HASH_KEY)).toBe(1);
      expect(await db.all(`SELECT "key", rule_id FROM credential_hits`)).toEqual([{ key: 'http.response.body', rule_id: expect.stringMatching(/^(aws-access-key-id|github-pat|generic-secret-assignment)$/) }]);
      // The pre-filter alone: the ids and the path are not sent to the detector.
      expect(await passedByPrefilter(db)).toEqual(['http.response.body']);
    });
  });

  it('reads hex that may encode text (`xxd -p .env` read back by a tool), where no keyword is left; hashes and ids stay out', async () => {
    const env = `# settings\nAWS_ACCESS_KEY_ID=${CANARY_AWS_KEY}\nGITHUB_TOKEN=${GITHUB_CANARY}\n`;
    const dump = Buffer.from(env).toString('hex').match(/.{1,60}/g)!.join('\n');
    const b = new ArgspanTraceBuilder(0xc7);
    const turn = b.turn('turn', 'run-h');
    b.otherSpan(turn, 'exec', { attributes: { 'process.command_output': `${dump}\n` } });
    b.otherSpan(turn, 'ids', { attributes: { 'content.sha256': '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', 'request.id': '550e8400e29b41d4a716446655440000' } });
    await withLoaded(b, async (db) => {
      // Both credentials of the dump, each known by its token (not by the dump: two hits, not one).
      expect(await scanCredentials(db, HASH_KEY)).toBe(2);
      expect(await db.all(`SELECT "key", rule_id FROM credential_hits ORDER BY rule_id`)).toEqual([
        { key: 'process.command_output', rule_id: 'aws-access-key-id' },
        { key: 'process.command_output', rule_id: 'github-pat' },
      ]);
      expect(await passedByPrefilter(db)).toEqual(['process.command_output']);
    });
  });

  it('reads a token spelled in byte escapes (`printf \'\\x67\\x68…\'`, or octal `\\147\\150…`), where no keyword is left; terminal colours stay out', async () => {
    const escaped = [...GITHUB_CANARY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
    const b = new ArgspanTraceBuilder(0xc8);
    const turn = b.turn('turn', 'run-x');
    const octal = [...CANARY_AWS_KEY].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');
    b.otherSpan(turn, 'exec', { attributes: { 'process.command_line': `printf '${escaped}' > out.txt`, 'process.output': String.raw`\x1b[32mok\x1b[0m done \033[0m` } });
    b.otherSpan(turn, 'exec-octal', { attributes: { 'process.command_line': `printf '${octal}' > key.txt` } });
    await withLoaded(b, async (db) => {
      expect(await scanCredentials(db, HASH_KEY)).toBe(2);
      expect(await db.all(`SELECT "key", rule_id FROM credential_hits ORDER BY rule_id`)).toEqual([
        { key: 'process.command_line', rule_id: 'aws-access-key-id' },
        { key: 'process.command_line', rule_id: 'github-pat' },
      ]);
      expect(await passedByPrefilter(db)).toEqual(['process.command_line', 'process.command_line']);
    });
  });

  it('reads a token hidden by invisible, tag or fullwidth characters, or behind an emoji; chat text with emoji and CJK text stay out', async () => {
    const tags = (t: string) => [...t].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const selectors = (t: string) => [...Buffer.from(t)].map((x) => String.fromCodePoint(x < 16 ? 0xfe00 + x : 0xe0100 + x - 16)).join('');
    const b = new ArgspanTraceBuilder(0xca);
    const turn = b.turn('turn', 'run-hidden');
    b.otherSpan(turn, 'hidden', {
      attributes: {
        'note.split': `token ${GITHUB_CANARY.slice(0, 4)}\u200b${GITHUB_CANARY.slice(4)}`,
        'note.tags': `hello ${tags(GITHUB_CANARY)}`,
        'note.emoji': `ok \u{1f600}${selectors(`AWS_ACCESS_KEY_ID=${CANARY_AWS_KEY}`)}`,
        'note.escaped': JSON.stringify({ v: `${GITHUB_CANARY.slice(0, 6)}\u200b${GITHUB_CANARY.slice(6)}` }).replace('\u200b', '\\u200b'),
        'chat.text': 'Great job \u{1f44d}\u{1f3fd}\u2764\ufe0f thanks \u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
        'cjk.text': '\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001\uff11\uff12\uff13',
      },
    });
    await withLoaded(b, async (db) => {
      expect(await scanCredentials(db, HASH_KEY)).toBe(4);
      expect(await db.all(`SELECT "key", rule_id FROM credential_hits ORDER BY "key"`)).toEqual([
        { key: 'note.emoji', rule_id: 'aws-access-key-id' },
        { key: 'note.escaped', rule_id: 'github-pat' },
        { key: 'note.split', rule_id: 'github-pat' },
        { key: 'note.tags', rule_id: 'github-pat' },
      ]);
      expect(await passedByPrefilter(db)).toEqual(['note.emoji', 'note.escaped', 'note.split', 'note.tags']);
    });
  });

  it('reads a token spelled out as character references, a list of codes, chr() calls or joined literals; HTML and code that spell nothing stay out', async () => {
    const codes = (t: string) => [...t].map((c) => c.charCodeAt(0)).join(', ');
    const b = new ArgspanTraceBuilder(0xcc);
    const turn = b.turn('turn', 'run-spelled');
    b.otherSpan(turn, 'spelled', {
      attributes: {
        'note.html': `<input value="${[...GITHUB_CANARY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')}">`,
        'note.codes': `const t = String.fromCharCode(${codes(GITHUB_CANARY)});`,
        'note.chr': `k = ${[...CANARY_AWS_KEY].map((c) => `chr(${c.charCodeAt(0)})`).join('+')}`,
        'note.joined': `String k = "${CANARY_AWS_KEY.slice(0, 8)}" +\n  "${CANARY_AWS_KEY.slice(8)}";`,
        'page.html': '<p>Don&#39;t miss it &#8212; caf&#233; &#169; 2024</p>',
        'code.js': 'const msg = "Hello, " + name + "!"; const n = [1, 2, 3].length;',
      },
    });
    await withLoaded(b, async (db) => {
      expect(await scanCredentials(db, HASH_KEY)).toBe(4);
      expect(await db.all(`SELECT "key", rule_id FROM credential_hits ORDER BY "key"`)).toEqual([
        { key: 'note.chr', rule_id: 'aws-access-key-id' },
        { key: 'note.codes', rule_id: 'github-pat' },
        { key: 'note.html', rule_id: 'github-pat' },
        { key: 'note.joined', rule_id: 'aws-access-key-id' },
      ]);
      expect(await passedByPrefilter(db)).toEqual(['note.chr', 'note.codes', 'note.html', 'note.joined']);
    });
  });

  it("passes every call the detector reads a spelled-out token through (the core's list), in any case, and not the call's name alone", async () => {
    const db = await Db.open();
    try {
      const passes = async (v: string) => (await db.one(`SELECT regexp_matches(${sqlString(v)}, ${sqlString(prefilterPattern(builtinPrefilter()))}, 'i') AS m`)).m;
      expect(SPELLING_CALLS.length).toBeGreaterThan(5);
      for (const call of SPELLING_CALLS) {
        expect(await passes(`x = ${call.toUpperCase()}1, 2`), call).toBe(true);
        expect(await passes(`x = ${call}1, 2`), call).toBe(true);
        expect(await passes(`x = ${call.slice(0, -1)} 1, 2`), call).toBe(false);
      }
    } finally {
      db.close();
    }
  });

  it('pre-filters on every built-in rule (an empty pre-filter would send every value through the detector)', () => {
    const prefilter = builtinPrefilter();
    expect(prefilter.length).toBeGreaterThan(50);
    expect(prefilter).toContain('ghp_');
    expect(prefilter.some((p) => new RegExp(p, 'i').test(DISCORD_CANARY))).toBe(true);
  });

  it('rules ordinary text out (a two-letter provider name such as `co` or `cf` passes only before a credential word)', () => {
    const any = new RegExp(builtinPrefilter().join('|'), 'i');
    for (const text of [
      'Please read the config docs before you commit the code',
      'SELECT count(*) FROM orders WHERE region = $1',
      'list the files in /src/components',
      'see https://example.com/docs/tasks for the task list', // a URL without user:password@, `sk` in task
    ]) {
      expect(any.test(text), text).toBe(false);
    }
    // the same names before a credential word still pass
    for (const text of ['CO_API_KEY=x', 'cfToken: x', 'DD_APP_KEY=x', 'postgres://app:pw@db', String.raw`{"url":"postgres:\/\/app:pw@db"}`]) {
      expect(any.test(text), text).toBe(true);
    }
  });
});
