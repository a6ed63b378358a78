import { atlassianChecksumHolds, crc32, hex8 } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, RD, re } from './patterns.js';
import { ALNUM, B64URL, HEX, sample } from './sample.js';

/** An Atlassian-family token: a body, then the CRC32 of everything before the last eight characters in uppercase hex. */
const withCrc = (head: string) => head + hex8(crc32(head), true);
const apiToken = (salt: string) => withCrc(`ATATT3xFfGF0${sample(B64URL, 171, salt)}=`);

/** Atlassian (Jira, Confluence), Bitbucket and Trello. */
export const ATLASSIAN_RULES: readonly SecretRule[] = [
  rule({
    id: 'atlassian-api-token',
    family: 'atlassian',
    description: 'Atlassian API token or Bitbucket access token (ATATT3…, ATCTT3…; CRC32 checksum)',
    keywords: ['ATATT3', 'ATCTT3'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'AT[AC]TT3[A-Za-z0-9_=-]{170,200}[0-9A-F]{8}', RD),
    minEntropy: 4,
    proof: atlassianChecksumHolds,
    examples: {
      truePositives: [`JIRA_API_TOKEN=${apiToken('at1')}`, `curl -u me@corp.example:${withCrc(`ATCTT3xFfGN0${sample(B64URL, 171, 'at2')}=`)} https://x.atlassian.net`],
      falsePositives: ['ATATT3xFfGF0' + 'x'.repeat(180) + '0A1B2C3D', 'ATATT3xFfGF0...'],
    },
  }),
  rule({
    id: 'bitbucket-app-password',
    family: 'atlassian',
    description: 'Bitbucket app password (ATBB + 24 characters + CRC32 checksum)',
    keywords: ['ATBB'],
    tokenPrefix: true,
    // (everywhere, for a password glued to a word, `tokenATBB…`: kept when its checksum holds)
    keywordsAnywhere: ['ATBB'],
    keywordsMatchCase: true,
    pattern: re(L, 'ATBB[A-Za-z0-9]{24}[0-9A-F]{8}', R),
    minEntropy: 3.5,
    proof: atlassianChecksumHolds,
    examples: {
      truePositives: [
        `BITBUCKET_APP_PASSWORD=${withCrc(`ATBB${sample(ALNUM, 24, 'bb1')}`)}`,
        `git clone https://me:${withCrc(`ATBB${sample(ALNUM, 24, 'bb2')}`)}@bitbucket.org/t/r.git`,
        `echo "apppassword${withCrc(`ATBB${sample(ALNUM, 24, 'bb4')}`)}" >> notes.txt`,
      ],
      falsePositives: [
        'ATBBxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        `ATBB${sample(ALNUM, 12, 'bb3')}`,
        // glued to a word with a checksum that fails: a random word's tail
        `apppasswordATBB${sample(ALNUM, 24, 'bb5')}DEADBEEF`,
        'CATBBQ_SAUCE_RECIPE_BOOK_2024_FINAL_EDITION',
      ],
    },
  }),
  rule({
    id: 'trello-token',
    family: 'trello',
    description: 'Trello token (ATTA + 64 hex + CRC32 checksum)',
    keywords: ['ATTA'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'ATTA[0-9a-f]{64}[0-9A-F]{8}', R),
    minEntropy: 3,
    proof: atlassianChecksumHolds,
    examples: {
      truePositives: [`TRELLO_TOKEN=${withCrc(`ATTA${sample(HEX, 64, 'tr1')}`)}`],
      falsePositives: [`ATTA${'0'.repeat(64)}DEADBEEF`, 'ATTACHMENT_MAX_SIZE=10'],
    },
  }),
  keyed({
    id: 'atlassian-api-token-keyed',
    family: 'atlassian',
    description: 'Atlassian, Jira or Confluence API token of the older kind (24 characters) after a jira / confluence / atlassian key',
    names: ['jira', 'confluence', 'atlassian'],
    values: [SHAPE.alnum(24)],
    minEntropy: 2.9, // below the lowest of a million random tokens of this shape
    example: { env: 'JIRA_API_TOKEN', value: (s) => sample(ALNUM, 24, s) },
  }),
  keyed({
    id: 'trello-key',
    family: 'trello',
    description: 'Trello API key, OAuth secret or token of the older kind (32 or 64 hex) after a trello key',
    names: ['trello'],
    values: [SHAPE.hex(64), SHAPE.hex(32)],
    example: { env: 'TRELLO_API_KEY', value: (s) => sample(HEX, 32, s) },
    truePositives: [`trelloToken := "${sample(HEX, 64, 'tk')}"`],
  }),
];
