import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBin, parseJson, query, type Run } from './analyze-helpers.js';
import { tmp } from './support/analyze-foreign.js';
import { GEMINI_RUN_TOKEN, recordGeminiCliRun, type GeminiCliRun } from './support/gemini-cli-run.js';

/**
 * `argspan analyze` on what Gemini CLI itself exports (`@google/gemini-cli`, made by the real CLI in
 * each run against a scripted Gemini API on loopback, with a real MCP server's tools): its spans
 * (`telemetry.traces`: each model call a trace of its own, `llm_call`, and each batch of calls
 * another, `schedule_tool_calls` over a `tool_call` per call) and its log records — with spans on,
 * and as it writes them by default (log records only, no trace id).
 */

/** The user gives the token; the model looks the address up, mails it with the token, then asks to read `.env` (which the CLI refuses: its ignore rules). */
const MAIL_RUN = {
  prompt: `Email Maria Lopez the release notes. Put the deploy token ${GEMINI_RUN_TOKEN} in the body.`,
  replies: [
    [{ call: 'lookup_contact', args: { name: 'Maria Lopez' } }],
    [{ call: 'send_email', args: { to: 'maria.lopez@example.com', subject: 'Release notes', body: `Token: ${GEMINI_RUN_TOKEN}` } }],
    [{ call: 'read_file', args: { file_path: '.env' } }],
    [{ text: 'Sent.' }],
  ],
  files: { '.env': 'DEPLOY_ENV=staging\n' },
};

/** The user never gives an address; the model makes one up. */
const GUESS_RUN = {
  prompt: 'Send Maria the release notes.',
  replies: [[{ call: 'send_email', args: { to: 'maria@example.com', subject: 'Release notes' } }], [{ text: 'Sent.' }]],
};

/** The model writes a file with a secret file's name, its content past Gemini CLI's 10,000-character cut of each attribute. */
const WRITE_RUN = {
  prompt: 'Write the service account settings to deploy/credentials.json.',
  replies: [[{ call: 'write_file', args: { file_path: 'deploy/credentials.json', content: Array.from({ length: 600 }, (_, i) => `"key_${i}": "value ${i}",`).join('\n') } }], [{ text: 'Done.' }]],
};

/**
 * Attributes holding what the model was told and answered (each model call is a trace of its own
 * here, and the user's token is in each), and the CLI's own record of the model's reply
 * (`gemini_cli.api_response`'s `response_text`): reported by attribute, once per credential.
 */
const CONVERSATION_KEYS = new Set(['gen_ai.input.messages', 'gen_ai.output.messages', 'response_text']);

/** Findings other than the run's reports and those by conversation attribute, as [rule, tool, key, emitter], sorted. */
const callFindings = (run: Run) =>
  parseJson(run)
    .findings.filter((f) => !f.rule.startsWith('report_') && !CONVERSATION_KEYS.has(f.key ?? ''))
    .map((f) => [f.rule, f.tool, f.key, f.emitter])
    .sort();

/** Argument rows: `tool.key` → provenance. */
async function provenance(...files: string[]): Promise<Record<string, string>> {
  const db = join(tmp(), 'analysis.duckdb');
  analyzeBin(...files, '--db', db, '--format', 'json');
  const rows = await query(db, `SELECT tool, "key", provenance FROM tool_args ORDER BY tool, "key"`);
  return Object.fromEntries(rows.map((r) => [`${r.tool}.${r.key}`, r.provenance as string]));
}

describe('argspan analyze on Gemini CLI\'s own telemetry', () => {
  let mail: GeminiCliRun;
  let guess: GeminiCliRun;
  let guessDefault: GeminiCliRun;
  let mailOutfile: GeminiCliRun;
  let guessOutfile: GeminiCliRun;
  let write: GeminiCliRun;
  beforeAll(async () => {
    mail = await recordGeminiCliRun(MAIL_RUN);
    guess = await recordGeminiCliRun(GUESS_RUN);
    guessDefault = await recordGeminiCliRun({ ...GUESS_RUN, traces: false });
    mailOutfile = await recordGeminiCliRun({ ...MAIL_RUN, outfile: true });
    guessOutfile = await recordGeminiCliRun({ ...GUESS_RUN, outfile: true });
    write = await recordGeminiCliRun(WRITE_RUN);
  }, 180_000);

  it('spans and log records: each call once, by the tool Gemini CLI ran — the token by tool and key, the refused `.env` read as the model\'s request; the copied address not a guess', async () => {
    for (const files of [[mail.traces!, mail.logs], [mail.traces!], [mailOutfile.outfile!]]) {
      const run = analyzeBin(...files, '--format', 'json');
      expect(run.code, run.stderr).toBe(1);
      expect(parseJson(run).stats).toMatchObject({ foreign_calls: 3, no_evidence_calls: 0, unreadable_args_calls: 0 });
      expect(callFindings(run)).toEqual([
        ['credential_in_attribute', 'mcp_contacts_send_email', 'body', 'gemini-cli'],
        ['sensitive_arg_dispatched', 'read_file', 'file_path', 'gemini-cli'],
      ]);
      // (the CLI refused to run it: the model's request)
      expect(parseJson(run).findings.find((f) => f.rule === 'sensitive_arg_dispatched')?.message).toContain('the model asked for the call');
      expect(parseJson(run).findings.filter((f) => f.tool === '(unnamed)')).toEqual([]);
      // (the credential as the detector sees it, `Token: …`, first written by the model's reply, then in every later model
      // call's input, trace after trace, and in its event copy: one finding, where it first was, the copies counted)
      const conversation = parseJson(run).findings.filter((f) => f.rule === 'credential_in_attribute' && CONVERSATION_KEYS.has(f.key ?? ''));
      expect(conversation.map((f) => f.key)).toEqual(['gen_ai.output.messages']);
      expect(conversation[0]!.message).toMatch(/ The same credential is in \d+ more place\(s\) like this one, in [2-9] traces in all\.$/);
      for (const value of [GEMINI_RUN_TOKEN, 'maria.lopez@example.com']) expect(run.stdout + run.stderr).not.toContain(value);
      expect(await provenance(...files)).toMatchObject({ 'mcp_contacts_send_email.to': 'context_retrieved', 'mcp_contacts_lookup_contact.name': 'user_explicit' });
    }
  });

  it('an address the user never gave is reported as the model\'s guess, by tool and key: from spans, and from the log records Gemini CLI writes by default', () => {
    for (const files of [[guess.traces!], [guess.traces!, guess.logs], [guessDefault.logs], [guessOutfile.outfile!]]) {
      const run = analyzeBin(...files, '--format', 'json');
      expect(run.code, `${files.join(' ')}: ${run.stdout}`).toBe(1);
      expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0 });
      expect(callFindings(run)).toEqual([['assumption_span', 'mcp_contacts_send_email', 'to', 'gemini-cli']]);
    }
  });

  it('a request Gemini CLI cut at 10,000 characters: its complete arguments read by key (the secret file written found as `file_path`), the rest counted as not checked; the model\'s reply, cut too, the same call', async () => {
    for (const files of [[write.traces!], [write.traces!, write.logs]]) {
      const run = analyzeBin(...files, '--format', 'json');
      expect(run.code, run.stderr).toBe(1);
      // (the reply's copy, cut before the call's id, is the call that ran: no second call, no unnamed one)
      expect(parseJson(run).stats).toMatchObject({ foreign_calls: 1, no_evidence_calls: 0 });
      expect(callFindings(run)).toEqual([['sensitive_arg_dispatched', 'write_file', 'file_path', 'gemini-cli']]);
    }
    // (spans alone: the request cut is the only copy of the arguments; the rest of it one leaf, unknown)
    expect(Object.entries(await provenance(write.traces!)).filter(([k]) => k.startsWith('write_file.'))).toEqual([['write_file.$', 'no_evidence'], ['write_file.file_path', 'user_explicit']]);
  });

  it('its telemetry file (`telemetry.outfile`: the SDK\'s objects as JSON) cut off while written: exit 2 naming the line of the object it ends inside; with --allow-partial the objects before it are read', () => {
    const text = readFileSync(mailOutfile.outfile!, 'utf8');
    // (cut inside the last object: the CLI killed while it wrote)
    const lastOpens = text.lastIndexOf('\n{\n') + 1;
    const cut = join(tmp(), 'gemini-telemetry.log');
    writeFileSync(cut, text.slice(0, lastOpens + 40));
    const line = text.slice(0, lastOpens).split('\n').length;
    const run = analyzeBin(cut, '--format', 'json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${cut}:${line}: the file ends inside this object (cut off while it was written)`);
    const partial = analyzeBin(cut, '--allow-partial', '--format', 'json');
    expect(partial.code, partial.stderr).toBe(1);
    expect(parseJson(partial).stats).toMatchObject({ foreign_calls: 3 });
    for (const value of [GEMINI_RUN_TOKEN, 'maria.lopez@example.com']) expect(run.stdout + run.stderr + partial.stdout + partial.stderr).not.toContain(value);
  });
});
