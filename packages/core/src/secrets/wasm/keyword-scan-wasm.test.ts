import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, WAT_FILE, assembleKeywordScan } from '../../../scripts/build-wasm.mjs';
import { KEYWORD_SCAN_WASM } from './keyword-scan-wasm.js';

describe('the committed WebAssembly module', () => {
  it('is exactly what `npm run build:wasm` assembles from keyword-scan.wat', async () => {
    const built = await assembleKeywordScan(WAT_FILE);
    // On failure: run `npm run build:wasm` and commit keyword-scan-wasm.ts with the .wat change.
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(built.source);
    expect(Buffer.from(KEYWORD_SCAN_WASM, 'base64').length).toBe(built.bytes);
    expect(WebAssembly.validate(Buffer.from(KEYWORD_SCAN_WASM, 'base64'))).toBe(true);
  });
});
