import { describe, expect, it } from 'vitest';
import { isDocumentationPassword, isPasswordArgument, isWrittenPassword } from './password-values.js';

describe('isWrittenPassword', () => {
  it('takes a password written out, however short or plain', () => {
    for (const pw of ['k9#x', 'Welcome1', 'S3cure-Passw0rd!', 'correct horse']) expect(isWrittenPassword(pw), pw).toBe(true);
  });
  it('takes a password that begins with % and is no Windows variable', () => {
    for (const pw of ['%wlIcdPYNS+fzY4f4xA2', '%m33IsqoYrJxTp.HJ', '%1kQ9zT', '%25xK8%2Bq']) expect(isWrittenPassword(pw), pw).toBe(true);
    for (const pw of ['%DB_PASS%', '%redis.password%', '%1', '%~1']) expect(isWrittenPassword(pw), pw).toBe(false);
  });
  it('refuses defaults, variables, placeholders and template fields', () => {
    for (const pw of ['abc', 'password', 'CHANGEME', 'foobared', 'changeit', 'tiger', '$MYSQL_PWD', '%DB_PASS%', '${PASSWORD}', '<password>', '****', 'your_password', '{password}', '{0}', '%(password)s']) {
      expect(isWrittenPassword(pw), pw).toBe(false);
    }
  });
});

describe('isDocumentationPassword', () => {
  it('knows documentation defaults in any case, and nothing longer than they are', () => {
    expect(isDocumentationPassword('Hunter2')).toBe(true);
    expect(isDocumentationPassword('hunter2hunter2')).toBe(false);
  });
});

describe('isPasswordArgument', () => {
  it('takes a short written password, and a long one only when it is random enough', () => {
    expect(isPasswordArgument('k9#x')).toBe(true);
    expect(isPasswordArgument('Tq7vLm2Rx9Kw#')).toBe(true);
    // words, names and code, as the generic rules judge values
    for (const pw of ['app_password', 'Passwords', 'this.password', 'getPassword']) expect(isPasswordArgument(pw), pw).toBe(false);
    // vendors' documented defaults and examples
    for (const pw of ['YourStrong@Passw0rd', 'Harbor12345', 'P@ssw0rd', 'Oradoc_db1']) expect(isPasswordArgument(pw), pw).toBe(false);
    // an operator's characters between random ones, as a generator's symbols fall
    for (const pw of ['GpvaUWcDrlo!=8', 'Xk4&&qTz9Lm2', 'Rw9--Lq2Zx7t']) expect(isPasswordArgument(pw), pw).toBe(true);
  });
});
