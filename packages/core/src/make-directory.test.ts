import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectorySync } from './make-directory.js';

const dir = mkdtempSync(join(tmpdir(), 'argspan-mkdir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDirectorySync', () => {
  it('creates missing parents with the mode, and accepts an existing directory', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeDirectorySync(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(deep).mode & 0o777).toBe(0o700);
    expect(() => makeDirectorySync(deep)).not.toThrow();
  });

  it("returns the file system's error instead of spinning: procfs answers ENOENT, a file in the way ENOTDIR", () => {
    // Node 20's recursive mkdir loops forever on the first; this must throw at once.
    expect(() => makeDirectorySync('/proc/argspan-state/inner')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => makeDirectorySync(join(dir, 'file', 'state'))).toThrow(expect.objectContaining({ code: expect.stringMatching(/ENOTDIR|EEXIST/) }));
  });
});
