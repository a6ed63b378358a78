import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under `dir`, recursively (absolute paths). */
export function listFilesDeep(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFilesDeep(p));
    else out.push(p);
  }
  return out;
}

/** Files under `dir` whose bytes contain any of `needles` (canary grep). */
export function filesContaining(dir: string, needles: readonly string[]): string[] {
  return listFilesDeep(dir).filter((f) => {
    const text = readFileSync(f).toString('latin1');
    return needles.some((n) => text.includes(n));
  });
}
