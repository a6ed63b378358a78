import { describe, expect, it } from 'vitest';
import { numericOptions } from './options.js';

describe('analyze numeric options', () => {
  it('maps --memory-limit, --threads and --max-line-bytes to the analyze() options', () => {
    expect(numericOptions({ memoryLimit: '1.5GB', threads: '1', maxLineBytes: '1024' })).toEqual({
      ok: true,
      options: { memoryLimit: '1.5GB', threads: 1, maxLineBytes: 1024 },
    });
    expect(numericOptions({ memoryLimit: '512 MiB' })).toEqual({ ok: true, options: { memoryLimit: '512MiB' } });
    expect(numericOptions({})).toEqual({ ok: true, options: {} });
  });

  it.each([
    [{ memoryLimit: 'lots' }, '--memory-limit'],
    [{ memoryLimit: '0GB' }, '--memory-limit'],
    [{ memoryLimit: '2' }, '--memory-limit'],
    [{ memoryLimit: '-1GB' }, '--memory-limit'],
    [{ threads: '0' }, '--threads'],
    [{ threads: '1.5' }, '--threads'],
    [{ threads: 'two' }, '--threads'],
    [{ maxLineBytes: '-5' }, '--max-line-bytes'],
  ])('rejects %j naming %s', (opts, flag) => {
    const r = numericOptions(opts);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(new RegExp(`^${flag} must be`));
  });
});
