import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventAttributes, HopEvents } from '@argspan/conventions';
import { describe, expect, it } from 'vitest';
import { builtinPrefilter, scanCredentials } from './credential-scan.js';
import { Db } from './db.js';
import { DEFAULT_MAX_LINE_BYTES } from './load/load-file.js';
import { loadTraces } from './load/load-traces.js';
import { ArgspanTraceBuilder } from './synth/argspan-trace.js';
import { CANARY_AWS_KEY, cleanCall } from './synth/rule-cases.js';

const GITHUB_CANARY = 'ghp_C4naryQ7xW2mK9pLr3TzV8bN5hJd1FgS6yUe';
// A bare Discord bot token: no keyword, found through its base64 id (the rule's prefilter here).
const DISCORD_CANARY = `${Buffer.from('109876543210987654').toString('base64url')}.GaBcDe.k7Qx9ZpL2mN4vB8cR1tY6uW3sE5dF0gH_jK`;

describe('credential re-scan', () => {
  it('finds credential shapes in span, event and resource attributes and stores the rule id, never the value', async () => {
    const b = new ArgspanTraceBuilder(0xc4);
    const turn = b.turn('turn', 'run-c');
    b.call(turn, cleanCall({ extra: { 'custom.note': `token ${GITHUB_CANARY}` } }));
    b.call(turn, cleanCall({ events: [{ name: HopEvents.HOP_FAILED, atMs: 1, attrs: { [EventAttributes.REASON]: `bad key ${CANARY_AWS_KEY}` } }] }));
    b.call(turn, cleanCall({ extra: { 'custom.note': 'sk- and AKIA but no credential' } }));
    b.call(turn, cleanCall({ extra: { 'custom.bot': DISCORD_CANARY } }));
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-scan-')), 't.jsonl');
    writeFileSync(file, b.lines('agent', 200, { 'deployment.note': `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n` }).join('\n') + '\n');
    const db = await Db.open();
    try {
      await loadTraces(db, [file], { allowPartial: false, maxLineBytes: DEFAULT_MAX_LINE_BYTES });
      const n = await scanCredentials(db);
      const rows = await db.all(`SELECT scope, "key", rule_id, count(*) AS n FROM credential_hits GROUP BY ALL ORDER BY scope, rule_id`);
      expect(rows).toEqual([
        { scope: 'event', key: EventAttributes.REASON, rule_id: 'aws-access-key-id', n: '1' },
        { scope: 'resource', key: 'deployment.note', rule_id: 'private-key', n: '1' },
        { scope: 'span', key: 'custom.bot', rule_id: 'discord-bot-token-bare', n: '1' },
        { scope: 'span', key: 'custom.note', rule_id: 'github-pat', n: '1' },
      ]);
      expect(n).toBe(4);
      const dump = JSON.stringify(await db.all('SELECT * FROM credential_hits'));
      expect(dump).not.toContain(CANARY_AWS_KEY);
      expect(dump).not.toContain(GITHUB_CANARY);
      expect(dump).not.toContain(DISCORD_CANARY);
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
});
