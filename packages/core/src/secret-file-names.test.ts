import { describe, expect, it } from 'vitest';
import { isSecretFileName, namesSecretFile } from './secret-file-names.js';

describe('secret file names', () => {
  it.each(['.env', '.env.production', '.env.local', 'app/.env', '/home/u/app/.env.staging', 'id_rsa', '~/.ssh/id_ed25519',
    '.npmrc', '.netrc', '.pgpass', 'credentials.json', 'server.key', 'private.pem', '~/.aws/credentials', '/root/.aws/credentials',
    'C:\\Users\\dev\\.aws\\credentials', '.git-credentials', 'keystore.p12'])('%s names a secret file', (p) => expect(isSecretFileName(p)).toBe(true));

  it.each(['.env.example', '.env.sample', '.env.template', 'src/token.ts', 'id_rsa.pub', 'cert.pem', 'fullchain.pem', 'ca.pem',
    'README.md', 'environment.ts', '.envrc.md', 'docs/credentials.md', 'keys.ts', 'src/password-reset.ts'])(
    '%s does not',
    (p) => expect(isSecretFileName(p)).toBe(false),
  );

  it('finds a secret file inside a command line or a list', () => {
    expect(namesSecretFile('cat ./config/.env | grep DB')).toBe(true);
    expect(namesSecretFile('tar czf bundle.tgz src/parser.py src/config.py .env')).toBe(true);
    expect(namesSecretFile('src/config.py:12: loads settings from .env.example')).toBe(false);
  });

  it('does not flag prose that mentions a password', () => {
    expect(namesSecretFile('Please reset my password and email me the link')).toBe(false);
  });
});
