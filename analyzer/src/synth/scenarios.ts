import { ArgspanTraceBuilder } from './argspan-trace.js';
import { CANARY_AWS_KEY, FIXTURE_RESOURCE, cleanCall, hopEvents } from './rule-cases.js';

/**
 * The Tokyo invite: "invite Alice to tomorrow's 3pm sync". The agent looked Alice up, then
 * created the event; the model invented the timezone (Asia/Tokyo) and Alice's e-mail address,
 * and this (older) gate let the call through.
 */
export function tokyoInvite(): ArgspanTraceBuilder {
  const b = new ArgspanTraceBuilder(0x70c0);
  const turn = b.turn('invoke_agent calendar-assistant', 'run-tokyo');
  const lookup = b.call(turn, cleanCall({ tool: 'contacts.lookup', runId: 'run-tokyo', args: [{ key: 'name', provenance: 'user_explicit' }] }));
  b.call(
    turn,
    cleanCall({
      tool: 'calendar.create',
      runId: 'run-tokyo',
      atMs: 200,
      args: [
        { key: 'title', provenance: 'user_explicit' },
        { key: 'start', provenance: 'user_explicit' },
        { key: 'timezone', provenance: 'model_inferred', denylisted: true },
        { key: 'attendee.name', provenance: 'context_retrieved', linkTo: lookup },
        { key: 'attendee.email', provenance: 'model_inferred', denylisted: true },
        { key: 'duration_minutes', provenance: 'schema_default' },
      ],
    }),
  );
  return b;
}

/**
 * The dotenv leak: the agent read `.env` and passed its text to the remote `summarise` tool.
 * The leaf was labelled secret and the verdict was local, yet the call went remote, and an
 * excerpt holding the key was recorded.
 */
export function dotenvLeak(): ArgspanTraceBuilder {
  const b = new ArgspanTraceBuilder(0xd07e);
  const turn = b.turn('invoke_agent repo-helper', 'run-dotenv');
  const read = b.call(turn, cleanCall({ tool: 'fs.read', runId: 'run-dotenv', args: [{ key: 'path', provenance: 'user_explicit' }] }));
  b.call(
    turn,
    cleanCall({
      tool: 'summarise',
      runId: 'run-dotenv',
      atMs: 200,
      verdict: 'local',
      verdictReason: 'text is secret (aws-access-key-id)',
      remote: true,
      hopFingerprint: 'fp-dotenv',
      stopwatch: { localMs: 1, remoteRttMs: 41 },
      events: hopEvents('fp-dotenv', 'lease-dotenv'),
      args: [
        { key: 'text', provenance: 'context_retrieved', residency: 'secret', rule: 'aws-access-key-id', linkTo: read, excerpt: `AWS_ACCESS_KEY_ID=${CANARY_AWS_KEY}` },
        { key: 'max_words', provenance: 'schema_default' },
      ],
    }),
  );
  return b;
}

export { FIXTURE_RESOURCE };
