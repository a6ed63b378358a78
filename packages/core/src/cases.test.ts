import { describe, expect, it } from 'vitest';
import { checkCase, classifyCase, loadCases } from '../../../test/support/case-table.js';

describe('shared case table (seed 000 / seed 002 test plans, look-alikes)', () => {
  const cases = loadCases();
  it('has the ported seed test plans', () => {
    expect(cases.filter((c) => c.name.startsWith('seed000-')).map((c) => c.name.slice(0, 9))).toEqual(
      expect.arrayContaining(['seed000-1', 'seed000-2', 'seed000-3', 'seed000-4']),
    );
    const seed002 = new Set(cases.filter((c) => c.name.startsWith('seed002-')).map((c) => c.name.slice(0, 9)));
    expect(seed002.size).toBe(7);
  });
  for (const c of cases) {
    it(c.name, () => checkCase(classifyCase(c.raw), c.expect));
  }
});
