import { base64Text } from '../checksums.js';
import type { SecretRule } from '../types.js';
import { rule } from './define.js';
import { ASSIGN, ASSIGN_OR_SPACE, L, R, RD, ci, re, spacedAssignment } from './patterns.js';
import { ALNUM, B64URL, HEX, LOWER_NUM, UPPER_NUM, sample, sampleUuid } from './sample.js';
import { SHAPE, keyed } from './keyed.js';

const digits = (n: number, salt: string) => sample('0123456789', n, salt);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const uuidOf = sampleUuid;
/** A Discord bot token: the bot's id (a 17-20 digit snowflake) in base64, a timestamp, an HMAC. */
const discordToken = (salt: string) =>
  `${Buffer.from(`1${digits(17, `${salt}i`)}`).toString('base64url')}.${sample(B64URL, 6, `${salt}t`)}.${sample(B64URL, 38, `${salt}h`)}`;

/** How a Discord bot token starts: base64 of the first two digits of an id (1-9, then 0-9). */
const DISCORD_ID_STARTS = Array.from({ length: 90 }, (_, i) => Buffer.from(`${10 + i}0`).toString('base64').slice(0, 3));

/** Slack, Discord, Telegram, Twilio, SendGrid. */
export const MESSAGING_RULES: readonly SecretRule[] = [
  rule({
    id: 'slack-session-token',
    family: 'slack',
    description: "Slack browser session token (xoxc-<ids>-<64 hex>) or its cookie d (xoxd-, URL-encoded base64), together a logged-in user's session, as Slack MCP servers take them (SLACK_MCP_XOXC_TOKEN, SLACK_MCP_XOXD_TOKEN)",
    keywords: ['xoxc-', 'xoxd-'],
    tokenPrefix: true,
    pattern: re(L, String.raw`xox(?:c-\d{8,14}-\d{8,14}-\d{8,14}-[0-9a-f]{64}|d-(?:[A-Za-z0-9+/]|%2[BbFf]){40,400}(?:%3[Dd]|=){0,2})`, String.raw`(?![A-Za-z0-9%+/=])`),
    minEntropy: 3.3,
    examples: {
      truePositives: [
        `SLACK_MCP_XOXC_TOKEN=xoxc-${digits(12, 'sc1')}-${digits(12, 'sc2')}-${digits(13, 'sc3')}-${sample(HEX, 64, 'sc4')}`,
        `curl -b "d=xoxd-${sample(ALNUM, 40, 'sd1')}%2F${sample(ALNUM, 60, 'sd2')}%2B${sample(ALNUM, 30, 'sd3')}%3D" https://acme.slack.com/api/auth.test`,
      ],
      falsePositives: [
        'SLACK_XOXC_TOKEN=xoxc-XXXXXXXXXXXX-XXXXXXXXXXXX-XXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
        `SLACK_XOXD_COOKIE=xoxd-${'X'.repeat(120)}`,
        'SLACK_MCP_XOXD_TOKEN="" # Replace with your actual token',
      ],
    },
  }),
  rule({
    id: 'slack-token',
    family: 'slack',
    description: 'Slack bot, user, app, workspace, refresh or configuration token (xoxb-, xoxp-, xoxe-, ...)',
    keywords: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxr-', 'xoxs-', 'xoxe-', 'xoxe.'],
    tokenPrefix: true,
    pattern: re(L, 'xox(?:[abposr]|e(?:\\.xox[bp])?)-[0-9A-Za-z-]{10,250}', RD),
    minEntropy: 3,
    // Bot, user and legacy tokens carry numeric ids; rotating tokens (xoxe.xoxp-1-…) and refresh
    // tokens (xoxe-1-…) are long random bodies instead.
    validate: (s) => (s.startsWith('xoxe') ? s.length >= 60 : /\d{6}/.test(s)),
    examples: {
      truePositives: [
        `SLACK_BOT_TOKEN=xoxb-${digits(12, 's1')}-${digits(13, 's2')}-${sample(ALNUM, 24, 's3')}`,
        `SLACK_USER_TOKEN=xoxe.xoxp-1-${sample(ALNUM, 150, 's11')}`,
        `SLACK_REFRESH_TOKEN=xoxe-1-${sample(ALNUM, 146, 's12')}`,
        `xoxp-${digits(11, 's4')}-${digits(11, 's5')}-${digits(12, 's6')}-${sample(HEX, 32, 's7')}`,
        `{"env":"A=1\\txoxb-${digits(12, 's8')}-${digits(13, 's9')}-${sample(ALNUM, 24, 's10')}"}`,
        `rotate xoxb-${digits(12, 's16')}-${digits(13, 's17')}-${sample(ALNUM, 24, 's18')}_old`, // glued on its right by `_`
      ],
      falsePositives: ['xoxb-your-bot-token', 'xoxb-' + 'x'.repeat(30), 'xoxe-1-abcdefg', `xoxp-${digits(11, 's13')}-${digits(11, 's14')}-${digits(12, 's15')}-####`, 'xoxb-your-bot-token_old'],
    },
  }),
  rule({
    id: 'slack-app-token',
    family: 'slack',
    description: 'Slack app-level token (xapp-)',
    keywords: ['xapp-'],
    tokenPrefix: true,
    pattern: re(L, 'xapp-\\d-[A-Z0-9]{6,20}-\\d{6,20}-[a-z0-9]{32,80}', R),
    minEntropy: 3,
    examples: {
      truePositives: [`xapp-1-A${sample(UPPER_NUM, 10, 'xa')}-${digits(13, 'xb')}-${sample(LOWER_NUM, 64, 'xc')}`],
      falsePositives: ['xapp-1-your-token'],
    },
  }),
  rule({
    id: 'slack-webhook-url',
    family: 'slack',
    description: 'Slack incoming webhook or workflow URL (hooks.slack.com/...)',
    keywords: ['hooks.slack.com/'],
    pattern: re('hooks\\.slack\\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9+/]{43,80})(?![A-Za-z0-9+/])'),
    secretGroup: 'secret',
    minEntropy: 3.5,
    examples: {
      truePositives: [
        `curl -X POST https://hooks.slack.com/services/T${sample(UPPER_NUM, 8, 'w1')}/B${sample(UPPER_NUM, 10, 'w2')}/${sample(ALNUM, 24, 'w3')}`,
      ],
      falsePositives: ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
    },
  }),
  rule({
    id: 'discord-bot-token',
    family: 'discord',
    description: 'Discord bot token, client secret or application key (64 hex) after a discord key name',
    keywords: ['discord'],
    pattern: re(
      ci('discord'),
      ASSIGN,
      '(?<secret>[MNO][A-Za-z0-9_-]{23,27}\\.[\\w-]{6,7}\\.[\\w-]{27,40}|[0-9a-fA-F]{64}|[\\w-]{32})',
      RD,
    ),
    secretGroup: 'secret',
    minEntropy: 3.0, // below the lowest of a million random tokens of this shape
    examples: {
      truePositives: [
        `DISCORD_BOT_TOKEN=MT${sample(ALNUM, 24, 'd1')}.${sample(ALNUM, 6, 'd2')}.${sample(B64URL, 38, 'd3')}`,
        `discord_client_secret: "${sample(B64URL, 32, 'd4')}"`,
        `discord_token = "${sample(HEX, 64, 'd5')}"`,
      ],
      falsePositives: ['discord: https://discord.gg/invite', 'DISCORD_TOKEN=${DISCORD_TOKEN}'],
    },
  }),
  rule({
    id: 'discord-bot-token-bare',
    family: 'discord',
    description: 'Discord bot token with no key name around it, found through its first part: the bot id in base64',
    // The first three characters of the base64 of an id's first two digits (MTA … OTk): run
    // keywords, looked for only where a long run of token characters begins. (Base64 of digits
    // often holds no digit itself, so the scan's base64 runs, which need one, may not list it.)
    keywords: DISCORD_ID_STARTS,
    tokenPrefix: true,
    keywordsMatchCase: true,
    prefilter: '[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6,7}\\.',
    pattern: re(L, '(?<id>[MNO][A-Za-z0-9_-]{23,27})\\.[\\w-]{6,7}\\.[\\w-]{27,40}', RD),
    minEntropy: 3.5,
    validate: (_s, m) => /^[1-9]\d{16,19}$/.test(base64Text(m.groups!['id']!) ?? ''),
    examples: {
      truePositives: [
        `client.login("${discordToken('b1')}")`,
        `python bot.py ${discordToken('b2')}`,
        `Authorization: Bot ${discordToken('b3')}`,
        // an id whose base64 holds no digit
        `${Buffer.from('3014903202007734230').toString('base64url')}.${sample(B64URL, 6, 'b4')}.${sample(B64URL, 38, 'b5')}`,
      ],
      falsePositives: [
        // the id part alone, or with the wrong shape after it
        `user ${Buffer.from('109876543210987654').toString('base64url')} joined`,
        `${Buffer.from('109876543210987654').toString('base64url')}.abc.def`,
        // the shape, but the first part is not an id
        `${Buffer.from('10987654321098765x').toString('base64url')}.${sample(B64URL, 6, 'b6')}.${sample(B64URL, 38, 'b7')}`,
      ],
    },
  }),
  rule({
    id: 'discord-webhook-url',
    family: 'discord',
    description: 'Discord webhook URL (discord.com/api/webhooks/...)',
    keywords: ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
    pattern: re('discord(?:app)?\\.com/api/webhooks/\\d{17,20}/(?<secret>[\\w-]{60,68})', RD),
    secretGroup: 'secret',
    minEntropy: 3.5,
    examples: {
      truePositives: [`https://discord.com/api/webhooks/${digits(18, 'dw')}/${sample(B64URL, 68, 'dw2')}`],
      falsePositives: ['https://discord.com/api/webhooks/123/abc'],
    },
  }),
  rule({
    id: 'telegram-bot-token',
    family: 'telegram',
    description: 'Telegram bot API token (123456789:AA...)',
    keywords: [':aa'],
    anchored: false,
    pattern: re('(?<![\\d:])\\d{8,10}:(?<secret>AA[\\w-]{33})', RD),
    secretGroup: 'secret',
    minEntropy: 3.5,
    examples: {
      truePositives: [`https://api.telegram.org/bot${digits(10, 't1')}:AA${sample(B64URL, 33, 't2')}/getMe`, `TELEGRAM_TOKEN=${digits(9, 't3')}:AA${sample(B64URL, 33, 't4')}`],
      falsePositives: ['12:AAAA', `${digits(10, 't5')}:AA${'x'.repeat(33)}`],
    },
  }),
  rule({
    id: 'twilio-api-key',
    family: 'twilio',
    description: 'Twilio API key SID (SK + 32 hex)',
    keywords: ['SK'],
    // (pre-filters outside the detector match case-insensitively: `sk` alone is in every `task`)
    prefilter: 'SK[0-9a-fA-F]{32}',
    tokenPrefix: true,
    keywordsMatchCase: true, // 'sk' is in every task, disk and ask
    pattern: re(L, 'SK[0-9a-fA-F]{32}', R),
    minEntropy: 2.6, // below the lowest of a million random tokens of this shape
    examples: { truePositives: [`TWILIO_API_KEY=SK${sample(HEX, 32, 'tw')}`], falsePositives: ['SK' + '0'.repeat(32), 'TASK' + sample(HEX, 32, 'tw2')] },
  }),
  rule({
    id: 'twilio-auth-token',
    family: 'twilio',
    description: 'Twilio auth token or API secret after a twilio key name',
    keywords: ['twilio'],
    pattern: re(ci('twilio'), ASSIGN_OR_SPACE, '(?<secret>[0-9a-fA-F]{32}|[A-Za-z0-9]{32})', R),
    secretGroup: 'secret',
    minEntropy: 2.4, // below the lowest of a million random tokens of this shape
    validate: (_, m) => m.groups!['ws'] === undefined || spacedAssignment(m.input, m.index, m[0]),
    examples: {
      truePositives: [`TWILIO_AUTH_TOKEN=${sample(HEX, 32, 'ta')}`, `ENV TWILIO_AUTH_TOKEN ${sample(HEX, 32, 'ta2')}`],
      falsePositives: ['TWILIO_AUTH_TOKEN=your_auth_token', 'twilio: ^4.0.0', `twilioAuthToken ${sample(HEX, 32, 'ta3')}`],
    },
  }),
  rule({
    id: 'sendgrid-api-key',
    family: 'sendgrid',
    description: 'SendGrid API key (SG.xxx.yyy)',
    keywords: ['sg.'],
    pattern: re(L, 'SG\\.[\\w-]{22}\\.[\\w-]{43}', RD),
    minEntropy: 3.5,
    examples: { truePositives: [`SENDGRID_API_KEY=SG.${sample(B64URL, 22, 'sg')}.${sample(B64URL, 43, 'sg2')}`], falsePositives: ['SG.Example'] },
  }),
  keyed({
    id: 'messagebird-api-key',
    family: 'messagebird',
    description: 'MessageBird (Bird) API access key (25 letters and digits) after a messagebird key',
    names: ['messagebird', 'message_bird'],
    values: [SHAPE.alnum(25)],
    example: { env: 'MESSAGEBIRD_ACCESS_KEY', value: (s) => sample(ALNUM, 25, s) },
  }),
  rule({
    id: 'microsoft-teams-webhook',
    family: 'microsoft-teams',
    description: 'Microsoft Teams incoming webhook URL (…webhook.office.com/webhookb2/<uuid>@<uuid>/IncomingWebhook/<32 hex>/<uuid>): the path after IncomingWebhook/ is the secret',
    // (found at IncomingWebhook/, the host read back: `.webhook.` or `outlook` as a keyword let the scan's first filter pass far more text)
    keywords: ['incomingwebhook/'],
    pattern: re(
      String.raw`(?<=(?:\.webhook\.office\.com/webhookb2|outlook\.office\.com/webhook)/${UUID}@${UUID}/)IncomingWebhook/`,
      String.raw`(?<secret>[0-9a-f]{32}/${UUID}(?:/V2[\w-]{20,80})?)`,
      R,
    ),
    secretGroup: 'secret',
    minEntropy: 3,
    examples: {
      truePositives: [`TEAMS_WEBHOOK_URL=https://contoso.webhook.office.com/webhookb2/${uuidOf('tm1')}@${uuidOf('tm2')}/IncomingWebhook/${sample(HEX, 32, 'tm3')}/${uuidOf('tm4')}`],
      falsePositives: [`https://contoso.webhook.office.com/webhookb2/${uuidOf('tm5')}@${uuidOf('tm6')}/IncomingWebhook/<secret>/<id>`, 'https://contoso.webhook.office.com/webhookb2/'],
    },
  }),
];
