import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { SHAPE, keyed } from './keyed.js';
import { L, R, re } from './patterns.js';
import { ALNUM, HEX, LOWER_NUM, sample } from './sample.js';

const digits = (n: number, salt: string) => sample('0123456789', n, salt);

/**
 * Social networks and streaming: Facebook / Meta, Twitter / X, LinkedIn, Twitch, Reddit, Spotify.
 * (A Twitter app bearer token, AAAA…, is found after its key here and in an Authorization header
 * by authorization-bearer: a keyword of twenty A would hit at every position of a run of A.)
 */
export const SOCIAL_RULES: readonly SecretRule[] = [
  rule({
    id: 'facebook-app-access-token',
    family: 'facebook',
    description: 'Facebook app access token (<app id>|<app secret>) as an access_token value',
    keywords: ['access_token'],
    pattern: re(String.raw`access_token["']?[ \t]{0,2}[=:][ \t]{0,2}["']?\d{15,16}(?:\||%7[Cc])(?<secret>[0-9a-f]{32})`, R),
    secretGroup: 'secret',
    minEntropy: 3,
    examples: { truePositives: [`https://graph.facebook.com/me?access_token=${digits(15, 'fa1')}|${sample(HEX, 32, 'fa2')}`], falsePositives: [`access_token=${digits(15, 'fa3')}|${'0'.repeat(32)}`, 'access_token=123|abc'] },
  }),
  keyed({
    id: 'facebook-app-secret',
    family: 'facebook',
    description: 'Facebook / Meta access token (EAA…) or app secret (32 hex, or <app id>|<secret>) after a facebook / fb / meta_app / instagram key',
    names: ['facebook', 'fb', 'meta_app', 'instagram'],
    values: ['EAA[A-Za-z0-9]{90,400}', '\\d{15,16}\\|[0-9a-f]{32}', SHAPE.hex(32)],
    example: { env: 'FACEBOOK_APP_SECRET', value: (s) => sample(HEX, 32, s) },
    truePositives: [`FB_ACCESS_TOKEN=EAAG${sample(ALNUM, 180, 'fb1')}`],
  }),
  keyed({
    id: 'twitter-credential',
    family: 'twitter',
    description: 'Twitter / X API key or secret, access token or secret (25, 35-50 characters, <user id>-<characters>) after a twitter / x_ key',
    names: ['twitter', 'consumer'],
    values: ['\\d{1,20}-[A-Za-z0-9]{20,50}', '%?[A-Za-z0-9%]{80,140}', SHAPE.alnum(45, 50), SHAPE.alnum(25)],
    minEntropy: 3.5,
    example: { env: 'TWITTER_API_SECRET', value: (s) => sample(ALNUM, 50, s) },
    truePositives: [`TWITTER_ACCESS_TOKEN=${digits(19, 'tw4')}-${sample(ALNUM, 40, 'tw5')}`, `twitterApiKey: '${sample(ALNUM, 25, 'tw6')}'`],
  }),
  keyed({
    id: 'linkedin-credential',
    family: 'linkedin',
    description: 'LinkedIn client secret (16 characters) or access token (AQ…) after a linkedin key',
    names: ['linkedin'],
    values: ['AQ[\\w-]{300,400}', SHAPE.alnum(16)],
    minEntropy: 2.2, // below the lowest of a million random tokens of this shape
    example: { env: 'LINKEDIN_CLIENT_SECRET', value: (s) => sample(ALNUM, 16, s) },
  }),
  keyed({
    id: 'twitch-token',
    family: 'twitch',
    description: 'Twitch OAuth token or client secret (30 lowercase letters and digits, oauth: optional) after a twitch key',
    names: ['twitch'],
    values: ['(?:oauth:)?[a-z0-9]{30}'],
    minEntropy: 3.0, // below the lowest of a million random tokens of this shape
    example: { env: 'TWITCH_CLIENT_SECRET', value: (s) => sample(LOWER_NUM, 30, s) },
    truePositives: [`TWITCH_OAUTH_TOKEN=oauth:${sample(LOWER_NUM, 30, 'tt')}`],
  }),
  keyed({
    id: 'reddit-client-secret',
    family: 'reddit',
    description: 'Reddit app client secret (27 or 30 characters) after a reddit key',
    names: ['reddit'],
    values: [SHAPE.urlSafe(27, 30)],
    minEntropy: 3.3,
    example: { env: 'REDDIT_CLIENT_SECRET', value: (s) => sample(ALNUM, 30, s) },
  }),
  keyed({
    id: 'spotify-client-secret',
    family: 'spotify',
    description: 'Spotify client secret (32 hex) after a spotify key',
    names: ['spotify'],
    values: [SHAPE.hex(32)],
    example: { env: 'SPOTIFY_CLIENT_SECRET', value: (s) => sample(HEX, 32, s) },
  }),
  rule({
    id: 'facebook-page-access-token',
    family: 'facebook',
    description: 'Facebook / Meta user or page access token (EAAM / EAAC + 100 or more letters and digits) anywhere',
    keywords: ['EAAM', 'EAAC'],
    tokenPrefix: true,
    keywordsMatchCase: true,
    pattern: re(L, 'EAA[MC][A-Za-z0-9]{100,400}', R),
    minEntropy: 4,
    // random letters and digits have all three kinds; a run of base64 padding or one case does not
    validate: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s.slice(4)) && /\d/.test(s),
    examples: {
      truePositives: [`curl "https://graph.facebook.com/v19.0/me/feed?access_token=EAAM${sample(ALNUM, 180, 'fp1')}"`, `{"token": "EAAC${sample(ALNUM, 120, 'fp2')}"}`],
      falsePositives: [`EAAM${'A'.repeat(120)}`, `EAAC${sample(ALNUM, 40, 'fp3')}`, `xEAAM${sample(ALNUM, 150, 'fp4')}`],
    },
  }),
];
