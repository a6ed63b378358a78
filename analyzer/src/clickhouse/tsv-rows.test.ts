import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { hashHex } from '@argspan/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbClient } from '../synth/chdb-client.js';
import { ChSession } from './client.js';
import { TsvRows } from './tsv-rows.js';

// What TsvRows writes is what ClickHouse reads back: text with every character TabSeparated
// escapes, NULLs, integers at their bounds, and hashes in core's hex form.
const TEXTS = ['plain', '', 'tab\there', 'new\nline', 'carriage\rreturn', 'back\\slash', '\\N', 'nul\0byte', "quote ' and \"", 'ünïcødé ✓ 𝄞', '\\t literally'];
let client: ClickHouseClient;
let session: ChSession;

beforeAll(async () => {
  client = chdbClient(':memory:');
  session = new ChSession(client, 'chdb');
  await session.run('CREATE TEMPORARY TABLE tsv_rows (n UInt32, i Nullable(Int64), b Bool, t Nullable(String), h FixedString(32)) ENGINE = Memory', 'creating');
});
afterAll(async () => {
  await client.close();
});

describe('TsvRows', () => {
  it('writes rows ClickHouse reads back as written', async () => {
    const words = new Uint32Array(randomBytes(16 * (TEXTS.length + 2)).buffer);
    words.set([0, 0, 0, 0], 0);
    words.set([0xffffffff, 0x0000000f, 0x10000000, 0x00abcdef], 4);
    const want: { n: number }[] = [];
    const rows = new TsvRows(16); // small: the buffer grows while rows are written
    const values: [number, bigint | number | null, string | null][] = [
      [0, null, null],
      [4294967295, -9223372036854775808n, 'x'],
      ...TEXTS.map((t, i): [number, bigint | number | null, string | null] => [1 + i * 1_000_003, i % 2 ? BigInt(i) * 10n ** 17n : -i, t]),
    ];
    values.forEach(([n, i, t], row) => {
      rows.uint(n).int(i).bool(row % 3 === 0).text(t).hashHex(words, 4 * row).end();
      want.push({ n, i: i === null ? null : String(i), b: row % 3 === 0, t, h: hashHex(words, 4 * row) });
    });
    expect(rows.rows).toBe(values.length);
    await session.insertTsv('tsv_rows', ['n', 'i', 'b', 't', 'h'], rows.take(), 'writing');
    expect(rows.rows).toBe(0);
    const got = await session.all('SELECT n, i, b, t, h FROM tsv_rows ORDER BY n', 'reading');
    expect(got).toEqual(want.sort((x, y) => x.n - y.n));
  });
});
