import { describe, expect, it } from 'vitest';
import { loadCorpusModule } from '../bench/secret-corpus.js';
import { BUILTIN_RULES } from './builtin-rules.js';
import { bodyTakesRightGlue, defaultSecretDetector as d } from './detector.js';
import { crc32, hex8 } from './checksums.js';
import { isGlueKeyword } from './keyword-scanner.js';
import { ALNUM, B64URL, sample } from './rules/sample.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Each token-prefix rule's own tokens: the whole match of its pattern in its true-positive examples. */
function prefixRuleTokens(): { id: string; token: string }[] {
  const out: { id: string; token: string }[] = [];
  for (const r of BUILTIN_RULES.filter((x) => x.tokenPrefix === true)) {
    for (const example of r.examples?.truePositives ?? []) {
      const m = new RegExp(r.pattern.source, r.pattern.flags).exec(example);
      if (m !== null && !/\s/.test(m[0])) out.push({ id: r.id, token: m[0] });
    }
  }
  return out;
}

describe('tokens glued on their left', () => {
  const tokens = prefixRuleTokens();

  it('covers every token-prefix rule', () => {
    expect(new Set(tokens.map((t) => t.id)).size).toBe(BUILTIN_RULES.filter((r) => r.tokenPrefix === true).length);
  });

  // A token's left boundary accepts a - before it, and / and + where its rule allows them; the
  // scan looked for token prefixes only where a run of token characters begins, and these three
  // are token characters: `obs-ghp_…` was one run, its token never looked for.
  it.each(['obs-', 'run-id-', 'a+'])('finds every token-prefix rule\'s token after "%s" inside a run', (before) => {
    for (const { id, token } of tokens) {
      const found = d.findAll(before + token).filter((f) => f.ruleId === id);
      expect(found.length, `${id} after ${before}`).toBeGreaterThan(0);
    }
  });

  it('finds a token after a / inside a run, where its rule takes / before it', () => {
    for (const { id, token } of tokens.filter((t) => !['google-oauth-refresh-token'].includes(t.id))) {
      expect(d.findAll(`refs/heads/${token}`).map((f) => f.ruleId), id).toContain(id);
    }
  });

  it('finds a token glued to a word when its proof holds, and not when it fails', async () => {
    const { KINDS, gen, prng } = await loadCorpusModule();
    const g = gen(prng(17));
    // (prefixes with a `_`: the scan looks for glued prefixes only in runs that hold one, see KeywordScanner)
    const proven = new Set(BUILTIN_RULES.filter((r) => r.proof !== undefined && (r.tokenPrefix !== true || r.keywords.every((k) => isGlueKeyword(k)))).map((r) => r.id));
    let checked = 0;
    for (const kind of KINDS) {
      for (let i = 0; i < 20; i++) {
        const token = kind.make(g);
        if (/[\s=]/.test(token)) break;
        const bare = d.findAll(token);
        if (bare.length !== 1 || !proven.has(bare[0]!.ruleId) || bare[0]!.start !== 0) break;
        const id = bare[0]!.ruleId;
        for (const before of ['x', 'deploy_', 'obs_', 'Token9']) {
          const found = d.findAll(before + token);
          expect(found, `${id} glued to ${before}`).toEqual([{ ruleId: id, start: before.length, end: before.length + bare[0]!.end }]);
        }
        // The same token with its last character changed: its checksum or payload no longer holds.
        const last = token.at(-1)!;
        const broken = token.slice(0, -1) + (last === 'A' ? 'B' : last === '0' ? '1' : /[0-9]/.test(last) ? '0' : 'A');
        if (!BUILTIN_RULES.find((r) => r.id === id)!.proof!(broken)) expect(d.findAll(`x${broken}`).filter((f) => f.ruleId === id), `${id} broken`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(100);
  });

  // Six letters and digits or more without a `_` (`ATATT3`): looked for in a run that holds a `_`,
  // as the token's base64url body nearly always does.
  it('finds an Atlassian token glued to a word when its checksum holds, and not when it fails', () => {
    const withCrc = (head: string) => head + hex8(crc32(head), true);
    for (let i = 0; i < 20; i++) {
      const body = sample(B64URL, 170, `glue-at${i}`);
      const token = withCrc(`ATATT3xFfGF0${body.slice(0, 85)}_${body.slice(85)}=`);
      for (const before of ['x', 'jira', 'Token9', 'deploy_']) {
        expect(d.findAll(`${before}${token} is the token`), before).toEqual([{ ruleId: 'atlassian-api-token', start: before.length, end: before.length + token.length }]);
        // (its body holds `_`, but it ends in the checksum's hex: the pattern ends there before a `_` after it)
        expect(d.findAll(`${before}${token}_v2 is the token`), `${before}…_v2`).toEqual([{ ruleId: 'atlassian-api-token', start: before.length, end: before.length + token.length }]);
      }
      const broken = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
      expect(d.findAll(`jira${broken}`).filter((f) => f.ruleId === 'atlassian-api-token')).toEqual([]);
    }
  });

  // Prefixes without a `_` (`ATBB`, `ABSK…`) or with a `-` (`sk-proj-`, `sk-ant-`), looked for
  // everywhere by the first filter (keywordsAnywhere): glued to a word, kept when the proof holds.
  it('finds a keywordsAnywhere rule\'s token glued to a word when its proof holds, and not when it fails', async () => {
    const { KINDS, gen, prng } = await loadCorpusModule();
    const g = gen(prng(23));
    const anywhere = new Map(BUILTIN_RULES.filter((r) => r.keywordsAnywhere !== undefined).map((r) => [r.id, r]));
    expect([...anywhere.keys()].sort()).toEqual(['anthropic-api-key', 'aws-bedrock-api-key', 'bitbucket-app-password', 'openai-api-key']);
    const seen = new Set<string>();
    for (const kind of KINDS) {
      for (let i = 0; i < 10; i++) {
        const token = kind.make(g);
        const bare = d.findAll(token);
        if (bare.length !== 1 || !anywhere.has(bare[0]!.ruleId) || !anywhere.get(bare[0]!.ruleId)!.proof!(token)) break;
        const id = bare[0]!.ruleId;
        seen.add(id);
        for (const before of ['x', 'token', 'deploy_', 'Token9', 'x=token']) {
          expect(d.findAll(`${before}${token} rest`), `${id} glued to ${before}`).toEqual([{ ruleId: id, start: before.length, end: before.length + token.length }]);
        }
        // one character more inside: a length, checksum or payload that no longer holds
        const broken = token.slice(0, 30) + (token[30] === 'A' ? 'BC' : 'AC') + token.slice(31);
        expect(d.findAll(`token${broken} rest`).filter((f) => f.ruleId === id), `${id} broken`).toEqual([]);
      }
    }
    expect([...seen].sort()).toEqual([...anywhere.keys()].sort());
  });

  it('finds no token glued to a word where nothing proves it: its rule has no proof, or the proof fails', () => {
    let checked = 0;
    for (const { id, token } of tokens) {
      const proof = BUILTIN_RULES.find((r) => r.id === id)!.proof;
      if (proof?.(token) === true) continue; // (examples of checksum formats are random: their checksums fail)
      expect(d.findAll(`xyz${token}`).filter((f) => f.ruleId === id), id).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(tokens.length / 2);
  });
});

describe('tokens glued on their right by `_`', () => {
  const tokens = prefixRuleTokens();
  const rightGlued = new Set(BUILTIN_RULES.filter((r) => r.tokenPrefix === true && bodyTakesRightGlue(r.pattern.source)).map((r) => r.id));

  it('are taken without a proof by the token-prefix rules whose body holds no `_`', () => {
    expect(rightGlued.size).toBeGreaterThan(50);
    for (const id of ['aws-access-key-id', 'github-pat', 'github-fine-grained-pat', 'slack-token', 'stripe-secret-key', 'npm-access-token', 'twilio-api-key']) expect(rightGlued, id).toContain(id);
    // (a body that may hold `_` could end at a `_` of a longer identifier)
    for (const id of ['google-api-key', 'gitlab-pat', 'vercel-token', 'supabase-secret-key', 'atlassian-api-token']) expect(rightGlued, id).not.toContain(id);
  });

  it.each(['_v2', '_prod', '_old', '_2'])('finds every such rule\'s token followed by "%s", in text, in a JSON key and after a `-`', (after) => {
    let checked = 0;
    for (const { id, token } of tokens.filter((t) => rightGlued.has(t.id))) {
      for (const [text, at] of [
        [`${token}${after}`, 0],
        [`use ${token}${after} here`, 4],
        [`{"${token}${after}": 1}`, 2],
        [`job-${token}${after}`, 4],
      ] as const) {
        expect(d.findAll(text).filter((f) => f.ruleId === id), `${id}: ${text.slice(0, at)}…${after}`).toEqual([{ ruleId: id, start: at, end: at + token.length }]);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('finds a proven token glued on its right, and on both sides where its body cannot take the glued word, when its proof holds, and not when it fails', async () => {
    const { KINDS, gen, prng } = await loadCorpusModule();
    const g = gen(prng(29));
    // (found glued to a word: prefixes with a `_` or of six letters and digits or more, and those looked for everywhere)
    const proven = new Set(
      BUILTIN_RULES.filter((r) => r.proof !== undefined && (r.tokenPrefix !== true || r.keywordsAnywhere !== undefined || r.keywords.every((k) => isGlueKeyword(k)))).map((r) => r.id),
    );
    const seen = new Set<string>();
    const bothSidesUnderscore = new Set<string>();
    for (const kind of KINDS) {
      for (let i = 0; i < 10; i++) {
        const token = kind.make(g);
        if (/[\s=]/.test(token)) break;
        const bare = d.findAll(token);
        if (bare.length !== 1 || !proven.has(bare[0]!.ruleId) || bare[0]!.start !== 0 || bare[0]!.end !== token.length) break;
        const id = bare[0]!.ruleId;
        // (a format without its proof: OpenAI's legacy `sk-…` keys)
        if (!BUILTIN_RULES.find((r) => r.id === id)!.proof!(token)) break;
        seen.add(id);
        // Glued on both sides: a body that may hold `_` takes the word after it too, where the
        // proof fails; the match cut at a `_` inside it is tried, the longest first.
        for (const before of ['deploy_', 'x', '']) {
          // (bare on the left, a body that may hold `_` may take the word after it: more is redacted, never less)
          const found = d.findAll(`${before}${token}_v2 rest`);
          expect(found.map((f) => [f.ruleId, f.start]), `${id} glued to ${before}…_v2`).toEqual([[id, before.length]]);
          expect(found[0]!.end, `${id} glued to ${before}…_v2`).toBeGreaterThanOrEqual(before.length + token.length);
        }
        if (!rightGlued.has(id)) bothSidesUnderscore.add(id);
        const last = token.at(-1)!;
        const broken = token.slice(0, -1) + (last === 'A' ? 'B' : last === '0' ? '1' : /[0-9]/.test(last) ? '0' : 'A');
        if (!BUILTIN_RULES.find((r) => r.id === id)!.proof!(broken)) expect(d.findAll(`deploy_${broken}_v2`).filter((f) => f.ruleId === id), `${id} broken`).toEqual([]);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
    // (bodies that may hold `_`: `sk-proj-…`, `sk-ant-…`, `ops_eyJ…`)
    expect([...bothSidesUnderscore].sort()).toEqual(expect.arrayContaining(['anthropic-api-key', 'onepassword-token', 'openai-api-key']));
  });

  it('finds no identifier that merely begins with a token prefix, nor a token marked as an example by the word after it', () => {
    const gh = `ghp_${sample(ALNUM, 36, 'right-fp')}`;
    for (const text of [
      'ghp_helper_v2', 'akia_config', 'AKIA_prefix_docs', 'AKIA_USER_NAME_PREFIXES', 'ASIA_PACIFIC_SOUTHEAST_2', 'ASIAPACIFICSOUTHEAST_2', 'sk_live_mode_enabled_flag',
      'npm_config_user_agent_v2', 'xoxb-your-bot-token_old', `ghp_${'x'.repeat(36)}_v2`, `${gh}_EXAMPLE`, `${gh}_fake`, `${gh}_placeholder`,
      `AKIA${sample(BASE32, 16, 'right-fp')}_example`, `AKIA${sample(BASE32, 16, 'right-fp')}_dummy_key`,
    ]) {
      expect(d.findAll(text), text).toEqual([]);
    }
  });

  // A body that may hold `_`, no proof (`AIza…`, `glpat-…`): a fixed length ends before the `_`,
  // a greedy variable one takes the glued word too (still the token's bytes, and more).
  const underscoreBodies = BUILTIN_RULES.filter(
    (r) => r.tokenPrefix === true && r.proof === undefined && !bodyTakesRightGlue(r.pattern.source) && /\(\?!\[A-Za-z0-9_-?\]\)$/.test(r.pattern.source),
  ).map((r) => r.id);

  it.each(['_prod', '_v2', '_old_2'])('finds the token of a rule whose body may hold `_` followed by "%s", in text, after `=` and in a JSON key', (after) => {
    expect(underscoreBodies.length).toBeGreaterThanOrEqual(25);
    for (const id of ['google-api-key', 'gitlab-pat', 'vercel-token', 'supabase-secret-key', 'figma-token']) expect(underscoreBodies, id).toContain(id);
    let checked = 0;
    // (not GitLab's routed form, `glpat-….01.…`: glued, it is found without its routing part, as before)
    for (const { id, token } of tokens.filter((t) => underscoreBodies.includes(t.id) && !t.token.includes('.'))) {
      for (const [text, at] of [
        [`${token}${after}`, 0],
        [`key=${token}${after} here`, 4],
        [`{"${token}${after}": 1}`, 2],
      ] as const) {
        const found = d.findAll(text).filter((f) => f.ruleId === id);
        expect(found.map((f) => f.start), `${id}: ${text.slice(0, at)}…${after}`).toEqual([at]);
        expect(found[0]!.end, id).toBeGreaterThanOrEqual(at + token.length);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(underscoreBodies.length - 1);
  });

  it('finds the 35 characters of a Google API key and the 20 of a GitLab token glued on their right, not an identifier that begins with their prefix', () => {
    const google = `AIzaSy${sample(B64URL.replace('_', ''), 33, 'right-google')}`;
    const gitlab = `glpat-${sample(B64URL.replace('_', ''), 20, 'right-gitlab')}`;
    expect(d.findAll(`key=${google}_prod`)).toEqual([{ ruleId: 'google-api-key', start: 4, end: 4 + google.length }]);
    expect(d.findAll(`${gitlab}_old`)).toEqual([{ ruleId: 'gitlab-pat', start: 0, end: gitlab.length + 4 }]);
    // (64 characters at most: the body ends at the `_` before the glued word)
    const long = `glpat-${sample(B64URL.replace('_', ''), 64, 'right-gitlab2')}`;
    expect(d.findAll(`${long}_old`)).toEqual([{ ruleId: 'gitlab-pat', start: 0, end: long.length }]);
    for (const text of [
      // an identifier's words, cut at any of its `_`: not random
      `AIza${'_client_identifier'.repeat(3)}_v2`, `AIzaGoogleClientIdentifierNameHere12345_v2`, `tfp_${'build_helpers_for_forms_'.repeat(4)}v2`,
      `figd_${'component_library_tokens_'.repeat(3)}styles`, `glpat-${'rotation-policy-helper-'.repeat(4)}_old`, `dckr_pat_${'generate_new_token_for_'.repeat(4)}user`,
      `nvapi-${'model_catalog_entry_'.repeat(5)}list`, `sb_secret_${'key_rotation_handler_'.repeat(5)}test`,
      // a documentation example's mark glued after it
      `${google}_EXAMPLE`, `${google}_fake`, `${long}_placeholder`,
    ]) {
      expect(d.findAll(text), text).toEqual([]);
    }
  });

  it('says which patterns take a `_` after them without a proof', () => {
    const L = '(?<![A-Za-z0-9_])';
    const R = '(?![A-Za-z0-9_])';
    expect(bodyTakesRightGlue(`${L}ghp_[A-Za-z0-9]{36}${R}`)).toBe(true);
    expect(bodyTakesRightGlue(`${L}xox[bp]-[0-9A-Za-z-]{10,250}(?![A-Za-z0-9_-])`)).toBe(true);
    expect(bodyTakesRightGlue(`${L}AIza[\\w-]{35}${R}`)).toBe(false);
    expect(bodyTakesRightGlue(`${L}vc[pk]_[A-Za-z0-9_-]{24,80}${R}`)).toBe(false);
    expect(bodyTakesRightGlue(`${L}tok[A-z]{20}${R}`)).toBe(false); // (a range across `_`)
    expect(bodyTakesRightGlue(`${L}tok[^\\s]{20}${R}`)).toBe(false);
    expect(bodyTakesRightGlue(`${L}tok.{20}${R}`)).toBe(false);
    expect(bodyTakesRightGlue(`${L}tok\\.[a-f0-9]{20}${R}`)).toBe(true);
    expect(bodyTakesRightGlue(`tok[a-f0-9]{20}${R}`)).toBe(false); // (no left boundary)
    expect(bodyTakesRightGlue(`${L}tok[a-f0-9]{20}`)).toBe(false); // (no right boundary)
  });
});
