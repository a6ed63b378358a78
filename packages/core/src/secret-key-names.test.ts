import { describe, expect, it } from 'vitest';
import { isPlaceholderValue, isSecretKeyName } from './secret-key-names.js';

describe('isSecretKeyName', () => {
  it.each(['password', 'db_password', 'PASSWD', 'api_key', 'apiKey', 'x-api-key', 'Authorization', 'client_secret', 'clientSecret',
    'access_token', 'github_token', 'token', 'refresh-token', 'private_key', 'AWS_SECRET_ACCESS_KEY', 'passphrase', 'cookie'])(
    '%s is a credential slot',
    (k) => expect(isSecretKeyName(k)).toBe(true),
  );
  it.each(['max_tokens', 'tokenizer', 'maxTokens', 'next_page_token', 'pageToken', 'input_tokens', 'password_hint_shown',
    'keyboard', 'monkey', 'key', 'secretary', 'token_count', 'path', 'src/token.ts'])(
    '%s is not a credential slot',
    (k) => expect(isSecretKeyName(k)).toBe(false),
  );
});

describe('isPlaceholderValue', () => {
  it.each(['', '   ', '****', 'xxxxxxxx', '<your-api-key>', '${API_KEY}', '$API_KEY', '{{ secrets.X }}', '%TOKEN%', 'REDACTED',
    '[REDACTED:aws-access-key-id]', 'your_api_key_here', 'changeit_placeholder'])(
    '%j is a placeholder',
    (v) => expect(isPlaceholderValue(v)).toBe(true),
  );
  it.each(['hunter2', 'correct horse battery staple', 'p@ssw0rd!', 'x'])('%j is a value', (v) => expect(isPlaceholderValue(v)).toBe(false));
});
