/** Test support for the adapters: a temporary git repository with a planted canary, and span dumps. Not shipped. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { ArgAttributes, CallAttributes, ErrorType, GenAiAttributes, OtelAttributes, toolCallSpanName } from '@argspan/conventions';

export { inTurn, memoryTracing, only } from '../../instrumentation/test-support/tracing.js';

/** A credential-shaped canary made for one test run: `sk-` and 40 random alphanumerics. */
export function makeCanary(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  // A current-format OpenAI project key shape (the detector does not take any `sk-` string).
  const bytes = randomBytes(64);
  let s = 'sk-proj-';
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return s;
}

export interface CanaryRepo {
  root: string;
  canary: string;
  /** A value that appears only in the committed src/parser.py (for context_retrieved checks). */
  parserNotesPath: string;
  remove(): void;
}

/**
 * A real git repository: committed `src/parser.py` (which names `docs/parser-notes.md`),
 * `docs/parser-notes.md` and `src/config.py`; then `src/config.py` is changed without committing
 * (dirty tree) and an ignored `.env` holds `OPENAI_API_KEY={canary}`.
 */
export function makeCanaryRepo(): CanaryRepo {
  const root = mkdtempSync(join(tmpdir(), 'argspan-adapters-'));
  const canary = makeCanary();
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=argspan test', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const parserNotesPath = 'docs/parser-notes.md';
  git('init', '-q', '-b', 'main');
  write('.gitignore', '.env\n');
  write('src/parser.py', `"""Config parser. Design notes: ${parserNotesPath}"""\n\ndef parse(text):\n    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)\n`);
  write(parserNotesPath, '# Parser notes\n\nKeys are case-sensitive.\n');
  write('src/config.py', 'TIMEOUT = 30\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  write('src/config.py', 'TIMEOUT = 30\nRETRIES = 5  # uncommitted tweak for the tidy-up\n');
  write('.env', `OPENAI_API_KEY=${canary}\n`);
  return { root, canary, parserNotesPath, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Everything a span exports that a reader could see (names, attributes, events, links, status), as text. */
export function spansText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      links: s.links.map((l) => l.attributes),
      status: s.status,
    })),
  );
}

/** The finished span named `execute_tool {tool}` with `gen_ai.tool.call.id` = `callId`. */
export function toolSpan(spans: readonly ReadableSpan[], tool: string, callId: string): ReadableSpan {
  const found = spans.filter((s) => s.name === toolCallSpanName(tool) && s.attributes[GenAiAttributes.TOOL_CALL_ID] === callId);
  if (found.length !== 1) throw new Error(`expected one span for ${tool} ${callId}, found ${found.length}`);
  return found[0]!;
}

/** The `tool_arg` children of a tool span. */
export function argSpans(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
}

/**
 * Scene 2 ("Book a follow-up with Priya tomorrow morning", the model adds `timezone: UTC`), as both
 * framework tests replay it: `contacts_lookup` (call_contacts_3) ran, `calendar_create` (call_cal_4)
 * was asked about its timezone, and the email copied from the lookup links to that call's span.
 * Returns the calendar call's argument spans by key.
 */
export function expectBookingAsked(spans: readonly ReadableSpan[], runId: string): Record<string, ReadableSpan> {
  const lookup = toolSpan(spans, 'contacts_lookup', 'call_contacts_3');
  expect(lookup.attributes[GenAiAttributes.TOOL_NAME]).toBe('contacts_lookup');
  const cal = toolSpan(spans, 'calendar_create', 'call_cal_4');
  expect(cal.attributes).toMatchObject({
    [CallAttributes.GATE_ACTION]: 'ask',
    [CallAttributes.GATE_HITS]: ['calendar_create.timezone'],
    [OtelAttributes.ERROR_TYPE]: ErrorType.CLARIFICATION,
    [CallAttributes.RUN_ID]: runId,
  });
  const byKey = Object.fromEntries(argSpans(spans, cal).map((a) => [String(a.attributes[ArgAttributes.KEY]), a]));
  expect(byKey['attendee.email']?.attributes[ArgAttributes.PROVENANCE]).toBe('context_retrieved');
  expect(byKey['attendee.email']?.attributes[ArgAttributes.SOURCE_CALL_ID]).toBe('call_contacts_3');
  expect(byKey['attendee.email']?.links[0]?.context.spanId).toBe(lookup.spanContext().spanId);
  expect(byKey['timezone']?.attributes[ArgAttributes.PROVENANCE]).toBe('model_inferred');
  return byKey;
}
