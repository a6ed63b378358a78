import { defaultSecretDetector } from '@argspan/core';
import { describe, expect, it } from 'vitest';
import { redactText } from './redact.js';

const body = 'MIIEowIBAAKCAQEAwJENcRev+eXZKvhhWLiV3Lz2MvO+naQRHo59Uo0Ya4Mh4YOOBpM1\nq8DCu9t8MhC9vG2Aaa0uEEKy4r4FV6tWXrYQ7nC9O3y0UOz4Q==';
const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;

describe('redactText', () => {
  it('removes a whole private key block, not only its header', () => {
    const r = redactText(`key: ${pem} tail`, defaultSecretDetector);
    expect(r.text).toBe('key: [REDACTED:private-key] tail');
    expect(r.ruleIds).toEqual(['private-key']);
  });

  it('works inside JSON and keeps the JSON valid, with or without a footer', () => {
    for (const key of [pem, `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`]) {
      const r = redactText(JSON.stringify({ k: key, next: 'x' }), defaultSecretDetector);
      expect(JSON.parse(r.text)).toEqual({ k: '[REDACTED:private-key]', next: 'x' });
      expect(r.text).not.toContain(body.slice(0, 20));
    }
  });

  it('still applies the detector to everything else', () => {
    const r = redactText(`a ${'AKIA' + 'Q4W7CNRY2XGSPLTB'} b ${pem}`, defaultSecretDetector);
    expect(r.text).toBe('a [REDACTED:aws-access-key-id] b [REDACTED:private-key]');
    expect(r.ruleIds.sort()).toEqual(['aws-access-key-id', 'private-key']);
  });

  it('leaves clean text alone', () => {
    expect(redactText('nothing to see', defaultSecretDetector)).toEqual({ text: 'nothing to see', ruleIds: [] });
  });
});
