import type { SecretRule } from '../types.js';

/**
 * A built-in rule: anchored at its keywords (the pattern starts with one of them) unless said
 * otherwise, with a minimum entropy that keeps `xxxx`-style placeholders out.
 */
export function rule(r: SecretRule): SecretRule {
  return { anchored: true, ...r };
}
