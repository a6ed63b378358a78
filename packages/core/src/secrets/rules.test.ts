import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES } from './builtin-rules.js';
import { createSecretDetector, defaultSecretDetector } from './detector.js';

/** The escapes JSON allows, as a string value's text holds them (two characters and more). */
const JSON_ESCAPES = ['\\n', '\\t', '\\r', '\\b', '\\f', '\\u000a', '\\u000A', '\\u0020', '\\\\', '\\"', '\\/'];

/**
 * An example right after each JSON escape inside a string value, `{"env":"A=1\n<example>"}`, and
 * that document inside a string value again (escaped twice: `\\n`).
 */
function afterJsonEscapes(example: string): string[] {
  return JSON_ESCAPES.flatMap((escape) => {
    const once = `{"env":"A=1${escape}${JSON.stringify(example).slice(1, -1)}"}`;
    return [once, JSON.stringify({ args: once })];
  });
}

describe('built-in rules', () => {
  it('have unique kebab-case ids, a family, global patterns and their own examples', () => {
    const ids = BUILTIN_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of BUILTIN_RULES) {
      expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(r.family, r.id).toBeTruthy();
      expect(r.pattern.global, r.id).toBe(true);
      expect(r.keywords.length > 0 || r.decodedPrefix !== undefined || r.keyNames !== undefined, `${r.id}: keywords, decodedPrefix or keyNames`).toBe(true);
      // A keyword-less rule names what every match contains, for pre-filters outside the detector.
      if (r.keywords.length === 0) expect(r.prefilter, `${r.id}: prefilter`).toBeDefined();
      for (const t of r.prefilter === undefined ? [] : (r.examples?.truePositives ?? [])) {
        expect(new RegExp(r.prefilter!, 'i').test(t), `${r.id}: prefilter matches its true positives`).toBe(true);
      }
      expect(r.examples?.truePositives.length ?? 0, r.id).toBeGreaterThan(0);
      expect(r.examples?.falsePositives.length ?? 0, r.id).toBeGreaterThan(0);
    }
  });

  it('have pre-filters RE2 runs in linear time and small memory: no bounded repeat above 32', () => {
    // RE2 (DuckDB's and ClickHouse's regexes) expands {n,m} into m copies of its atom, and the
    // analyzer ORs every rule's pre-filter into one pattern: a {1,256} there took the 1M-span
    // credential scan from about 1 s to 118 s. Unbounded repeats cost nothing extra.
    for (const r of BUILTIN_RULES) {
      for (const m of (r.prefilter ?? '').matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
        expect(Number(m[2] || m[1]), `${r.id}: ${m[0]} in its prefilter`).toBeLessThanOrEqual(32);
      }
    }
  });

  it('cover the provider families the issue lists', () => {
    const families = new Set(BUILTIN_RULES.map((r) => r.family));
    for (const f of [
      'aws', 'github', 'gitlab', 'slack', 'stripe', 'openai', 'anthropic', 'google', 'npm', 'pypi', 'sendgrid',
      'twilio', 'huggingface', 'shopify', 'digitalocean', 'databricks', 'vault', 'azure', 'discord', 'telegram',
      'jwt', 'docker', 'postman', 'linear', 'newrelic', 'doppler', 'age', 'private-key', 'url-credentials',
      'http-authorization', 'generic',
      // issue 17: the providers gitleaks covers that had no rule
      '1password', 'adafruit', 'adobe', 'airtable', 'algolia', 'alibaba', 'jfrog', 'asana', 'atlassian', 'cloudflare',
      'codecov', 'coinbase', 'confluent', 'contentful', 'datadog', 'dropbox', 'duffel', 'dynatrace', 'easypost',
      'facebook', 'fastly', 'finicity', 'flyio', 'freshbooks', 'gocardless', 'harness', 'heroku', 'hubspot', 'infracost',
      'intercom', 'kubernetes', 'launchdarkly', 'linkedin', 'mailchimp', 'mailgun', 'mattermost', 'maxmind', 'netlify',
      'nuget', 'octopus', 'okta', 'openshift', 'planetscale', 'plaid', 'prefect', 'rapidapi', 'rubygems', 'scalingo',
      'sendbird', 'brevo', 'shippo', 'snyk', 'sonarqube', 'sourcegraph', 'squarespace', 'sumologic', 'travis', 'trello',
      'twitch', 'twitter', 'typeform', 'yandex', 'zendesk', 'grafana', 'vercel', 'sentry', 'hashicorp', 'sidekiq',
    ]) {
      expect(families.has(f), f).toBe(true);
    }
  });

  it('are each listed in the providers table of the README, with a proof the rule has', () => {
    const readme = readFileSync(new URL('README.md', import.meta.url), 'utf8');
    const rows = new Map([...readme.matchAll(/^\| [^|]+ \| `([a-z0-9-]+)` \| .+ \| ([a-z +0-9A-Z]+) \|$/gm)].map((m) => [m[1]!, m[2]!]));
    for (const r of BUILTIN_RULES) {
      const proof = rows.get(r.id);
      expect(proof, `${r.id} in the README table`).toBeDefined();
      if (r.keyNames) expect(proof, r.id).toBe('key name');
      else if (r.proof) expect(proof, r.id).toMatch(/^prefix \+ (?:CRC32|payload|shape)$/);
      else expect(['prefix', 'keyword'], r.id).toContain(proof);
    }
    expect(rows.size).toBe(BUILTIN_RULES.length);
  });

  // gitleaks style: every rule is validated against its own examples before it ships.
  for (const rule of BUILTIN_RULES) {
    describe(rule.id, () => {
      it.each(rule.examples?.truePositives.map((t, i) => [i, t]) ?? [])('finds true positive #%i', (_i, text) => {
        const ids = defaultSecretDetector.findAll(text).map((f) => f.ruleId);
        expect(ids).toContain(rule.id);
      });
      it.each(rule.examples?.falsePositives.map((t, i) => [i, t]) ?? [])('ignores false positive #%i', (_i, text) => {
        expect(defaultSecretDetector.findAll(text)).toEqual([]);
      });
      it('finds its true positives after every JSON escape, escaped once and twice, and nothing in its false positives', () => {
        for (const text of (rule.examples?.truePositives ?? []).flatMap(afterJsonEscapes)) {
          expect(defaultSecretDetector.findAll(text).map((f) => f.ruleId), text).toContain(rule.id);
        }
        for (const text of (rule.examples?.falsePositives ?? []).flatMap(afterJsonEscapes)) {
          expect(defaultSecretDetector.findAll(text), text).toEqual([]);
        }
      });
      it('fires on its examples alone (only this rule enabled)', () => {
        const only = createSecretDetector({ disabledRules: BUILTIN_RULES.filter((r) => r.id !== rule.id).map((r) => r.id) });
        for (const text of rule.examples?.truePositives ?? []) {
          expect(only.findAll(text).map((f) => f.ruleId)).toContain(rule.id);
        }
      });
    });
  }
});
