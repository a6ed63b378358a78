import type { SecretRule } from '../types.js';
import { isPasswordArgument } from '../password-values.js';
import { rule } from './define.js';
import { PASSWORD_VALUE, re } from './patterns.js';

/** What a password rule says besides where its password stands. */
type PasswordRuleSpec = Omit<SecretRule, 'pattern' | 'secretGroup' | 'generic' | 'validate'> & {
  /** Regex source of what comes before the password: a program and its flag, an option, a config word. */
  before: string;
  /** Regex source of the password, its groups named `secret`, `secret2`, `secret3` (default: PASSWORD_VALUE). */
  value?: string;
  /** The judgement of the password (default: isPasswordArgument). */
  validate?: SecretRule['validate'];
};

/**
 * A rule for a password written out after a flag, an option or a config word: generic, so a
 * provider's token in its place (`-p ghp_…`) is reported as that token.
 */
export function passwordRule({ before, value = PASSWORD_VALUE, validate = isPasswordArgument, ...r }: PasswordRuleSpec): SecretRule {
  return rule({ ...r, pattern: re(before, value), secretGroup: 'secret', generic: true, validate });
}
