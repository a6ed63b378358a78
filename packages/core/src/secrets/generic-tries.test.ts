import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { genericTryCanYield, isRegexSpace, type Covered } from './generic-tries.js';
import { GENERIC_ASSIGNMENT_RULE, SECRET_WORDS } from './rules/generic.js';

function spans(list: readonly (readonly [number, number])[]): Covered {
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  return {
    overlaps: (s, e) => sorted.some(([fs, fe]) => s < fe && fs < e),
    firstStartFrom: (at) => sorted.find(([fs]) => fs >= at)?.[0] ?? -1,
  };
}

/** Assignment syntax, keys and values, for generated texts. */
const PIECES = [
  ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '"', "'", '`', '\\', '\\"', ']', '[', '=', ':', ':=', '::=', '?=', '+=', '.=', '||=',
  '??=', '=>', '<-', ',', '>', '<', '.', '|', '&', '*', '(', ')', ';', '{', '}', ' value=', ' Value =', 'r', 'rb#', 'b', '@', '$',
  "'static ", 'mut ', 'string', 'Option<String>', '&str', '_KEY', 'DB_', '-', 'x', 'ab12', 'ghp_aB3dE5fG7hI9jK1lM3nO5', 'Zf3D0LXC9q',
  'sk-proj-AbC', '==',
  // the forms whose tail reads letters, a line break or a brace
  '\n  value: ', ' value:', '</name>', '<value>', '|', '>-', '"""', ' to ', ' --body ', 'String::from(', '{ get; set; } = ', 'default = ', ' type = string\n', ').unwrap_or(', ') { ',
];

describe('generic tries', () => {
  const sticky = new RegExp(GENERIC_ASSIGNMENT_RULE.pattern.source, 'y');
  const words = ['password', 'PASS', 'pwd', 'secret', 'Token', 'api_key', 'API-KEY', 'client.secret', 'credentials', 'passwd', 'auth', 'private-key'];

  it('are skipped only where the regex finds nothing, or only a candidate inside a covered span', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...words),
        fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }),
        fc.array(fc.tuple(fc.nat(90), fc.integer({ min: 1, max: 40 })), { maxLength: 3 }),
        (word, after, raw) => {
          const text = word + after.join('');
          const list = raw.map(([s, n]) => [s, s + n] as const);
          const covered = spans(list);
          if (genericTryCanYield(text, 0, covered)) return;
          sticky.lastIndex = 0;
          const m = sticky.exec(text);
          const secret = m?.groups?.['secret'];
          if (!m || secret === undefined) return;
          const start = m.index + m[0].length - secret.length; // (VALUE ends the match)
          expect(covered.overlaps(start, start + secret.length)).toBe(true);
        },
      ),
      { numRuns: 20000 },
    );
  });

  it('skip a key whose value is a covered token, and not one with a value of its own', () => {
    const token = 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5';
    for (const text of [`GITHUB_TOKEN="${token}"`, `{\\"github_token\\":\\"${token}\\"}`, `token: ${token}\n`, `<token>${token}</token>`]) {
      const at = text.indexOf(token);
      expect(genericTryCanYield(text, text.search(/token/i), spans([[at, at + token.length]])), text).toBe(false);
    }
    // a value before the token, a type that reads through it, a string prefix
    for (const text of [`token = Zf3D0LXC9qwe ${token}`, `token ${token} = "Zf3D0LXC9qwe"`, `token = ${token.slice(0, 2)}"x"`]) {
      const at = text.indexOf(token.slice(0, 2));
      expect(genericTryCanYield(text, 0, spans([[at, at + 30]])), text).toBe(true);
    }
  });

  it('know the longest secret word', () => {
    for (const w of SECRET_WORDS) expect(w.length).toBeLessThanOrEqual(13);
  });

  it("read \\s as JavaScript's regexes do", () => {
    for (let c = 0; c < 0x10000; c++) expect(isRegexSpace(c), c.toString(16)).toBe(/\s/.test(String.fromCharCode(c)));
  });
});
