import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WASM_MODULES, assembleWasm } from '../scripts/build-wasm.mjs';

describe('the committed WebAssembly modules', () => {
  it.each(Object.entries(WASM_MODULES))('%s is exactly what `npm run build:wasm` assembles from its .wat', async (_name, module) => {
    const built = await assembleWasm(module);
    // On failure: run `npm run build:wasm` and commit the generated module with the .wat change.
    expect(readFileSync(module.generated, 'utf8')).toBe(built.source);
    const base64 = /'([A-Za-z0-9+/=]+)'/.exec(built.source)![1]!;
    expect(WebAssembly.validate(Buffer.from(base64, 'base64'))).toBe(true);
  });
});
