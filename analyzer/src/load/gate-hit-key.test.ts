import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateHitKey } from '@argspan/conventions';
import { formatPath } from '@argspan/core/internal';
import { Db } from '../db.js';
import { sqlString } from './duckdb-types.js';
import { STAGING_DDL } from './schema.js';

// The writer/reader contract: the rules' `gate_hit_key` macro names a leaf exactly as the gate does.
let db: Db;
beforeAll(async () => {
  db = await Db.open();
  await db.run(STAGING_DDL);
});
afterAll(() => db.close());

describe('gate_hit_key (SQL) agrees with gateHitKey (conventions)', () => {
  it('on flattened keys of every shape', async () => {
    const segment = fc.oneof(fc.string({ maxLength: 6 }), fc.nat({ max: 120 }), fc.constantFrom('to', '0', '[1]', 'a.b', 'x-api-key', 'ключ'));
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 8 }), fc.array(segment, { minLength: 1, maxLength: 5 }), async (tool, path) => {
        const key = formatPath(path);
        const row = await db.one(`SELECT gate_hit_key(${sqlString(tool)}, ${sqlString(key)}) AS k`);
        expect(row.k).toBe(gateHitKey(tool, key));
      }),
      { numRuns: 300 },
    );
  });

  it('removes list indices only', () => {
    expect(gateHitKey('email.send', 'to[1]')).toBe('email.send.to');
    expect(gateHitKey('t', 'files[2].path')).toBe('t.files.path');
    expect(gateHitKey('t', 'headers["x-api-key"]')).toBe('t.headers["x-api-key"]');
  });
});
