import { describe, expect, it } from 'vitest';
import { Db, sizeInBytes } from './db.js';

describe('sizeInBytes', () => {
  it('reads DuckDB size settings in decimal and binary units, and nothing else', () => {
    expect([sizeInBytes('1.25GB'), sizeInBytes('2GiB'), sizeInBytes('512 mb'), sizeInBytes('1000000000b'), sizeInBytes('4096')]).toEqual([1.25e9, 2 ** 31, 512e6, 1e9, 4096]);
    expect([sizeInBytes('80%'), sizeInBytes('lots'), sizeInBytes('1.2.3GB'), sizeInBytes('')]).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('Db.withMemoryLimitShare', () => {
  const limit = async (db: Db) => String((await db.one("SELECT current_setting('memory_limit') AS v")).v);

  it('lowers DuckDB\'s limit to the share while the work runs, and gives the run\'s back after, also when it fails', async () => {
    const db = await Db.open(':memory:', { memory_limit: '1GiB' });
    try {
      expect(await limit(db)).toBe('1.0 GiB');
      expect(await db.withMemoryLimitShare(0.5, () => limit(db))).toBe('512.0 MiB');
      expect(await limit(db)).toBe('1.0 GiB');
      await expect(db.withMemoryLimitShare(0.5, () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
      expect(await limit(db)).toBe('1.0 GiB');
    } finally {
      db.close();
    }
  });

  it('keeps the limit of a database opened without one of its own', async () => {
    const db = await Db.open(':memory:');
    try {
      const before = await limit(db);
      expect(await db.withMemoryLimitShare(0.5, () => limit(db))).toBe(before);
    } finally {
      db.close();
    }
  });
});
