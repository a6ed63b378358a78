import { describe, expect, it } from 'vitest';
import { otlpDocumentOf } from './converted-documents.js';

/**
 * Every field of an API answer's item reaches the converted spans (the only thing the credential
 * re-scan reads): each field of Langfuse's observation views (v1 and v2) and of LangSmith's `Run`
 * schema, and one neither has yet, holding a canary, puts it in an attribute or event.
 */
const CANARY = 'ghp_C4naryQ7xW2mK9pLr3TzV8bN5hJd1FgS6yUe';

type Item = Record<string, unknown>;
const spans = (doc: unknown) => (doc as { resourceSpans: { scopeSpans: { spans: Item[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans;
/** The text the re-scan reads of a converted span: its name, attributes and events (not its ids or times). */
const carried = (span: Item) => JSON.stringify([span.name, span.attributes, span.events]);

const observation: Item = { id: 'ace492332605b399', traceId: 'f468607689f2be600568b580d5421cb5', type: 'TOOL', name: 'write_document', startTime: '2026-01-01T00:00:00.000Z' };
/** Fields that must be strings of their shape for the item to be read; each is given a string holding the canary. */
const LANGFUSE_STRING_FIELDS = ['id', 'traceId', 'type', 'name', 'parentObservationId'];
const LANGFUSE_FIELDS = [
  ...LANGFUSE_STRING_FIELDS,
  ...['endTime', 'completionStartTime', 'model', 'modelParameters', 'input', 'version', 'metadata', 'output', 'usage', 'level', 'statusMessage', 'promptId', 'usageDetails', 'costDetails', 'environment'],
  // The observations view and v2's field groups.
  ...['promptName', 'promptVersion', 'modelId', 'inputPrice', 'outputPrice', 'totalPrice', 'calculatedInputCost', 'calculatedOutputCost', 'calculatedTotalCost', 'latency', 'timeToFirstToken'],
  ...['projectId', 'traceName', 'userId', 'sessionId', 'tags', 'release', 'createdAt', 'updatedAt', 'providedModelName', 'internalModelId', 'modelParametersJson'],
  'aFieldNeitherHasYet',
];

const run: Item = { id: 'fe0f2889-04fc-8b09-0000-000000000000', trace_id: '757b72af-5e4b-dcae-4d1f-1fbf540ac499', name: 'get_weather', run_type: 'tool', start_time: '2025-08-15T17:56:12.482000' };
const LANGSMITH_STRING_FIELDS = ['id', 'trace_id', 'name', 'run_type', 'parent_run_id'];
const LANGSMITH_FIELDS = [
  ...LANGSMITH_STRING_FIELDS,
  ...['end_time', 'extra', 'error', 'serialized', 'events', 'inputs', 'outputs', 'reference_example_id', 'tags', 'attachments', 'session_id', 'session_name', 'child_run_ids', 'child_runs'],
  ...['feedback_stats', 'app_path', 'manifest_id', 'status', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_token_details', 'completion_token_details', 'first_token_time'],
  ...['total_cost', 'prompt_cost', 'completion_cost', 'prompt_cost_details', 'completion_cost_details', 'parent_run_ids', 'dotted_order', 'in_dataset', 'inputs_s3_urls', 'outputs_s3_urls'],
  ...['trace_min_start_time', 'trace_max_start_time', 'share_token', 'thread_id', 'inputs_preview', 'outputs_preview', 'messages', 'ttl_seconds'],
  'a_field_neither_has_yet',
];

describe('API answers converted to spans carry every field', () => {
  it.each(LANGFUSE_FIELDS)('Langfuse observation %s', (field) => {
    const value = LANGFUSE_STRING_FIELDS.includes(field) ? `x:${CANARY}` : { note: CANARY };
    const [span] = spans(otlpDocumentOf('langfuse-observations', { data: [{ ...observation, [field]: value }] }, 'answer.json'));
    expect(carried(span!)).toContain(CANARY);
  });

  it.each(LANGSMITH_FIELDS)('LangSmith run %s', (field) => {
    const value = LANGSMITH_STRING_FIELDS.includes(field) ? `x:${CANARY}` : { note: CANARY };
    const [span] = spans(otlpDocumentOf('langsmith-runs', { runs: [{ ...run, [field]: value }] }, 'answer.json'));
    expect(carried(span!)).toContain(CANARY);
  });

  it('LangSmith run events in any shape, and keys of a map that is not metadata', () => {
    for (const events of [[{ name: 'new_token', time: 'not a time', kwargs: { token: CANARY } }], [CANARY], [{ [CANARY]: 1 }], { token: CANARY }]) {
      const [span] = spans(otlpDocumentOf('langsmith-runs', [{ ...run, events }], 'runs.json'));
      expect(carried(span!), JSON.stringify(events)).toContain(CANARY);
    }
  });

  it('writes the attributes the SDKs\' OpenTelemetry exports write for the same fields', () => {
    const [lf] = spans(
      otlpDocumentOf('langfuse-observations', { data: [{ ...observation, level: 'ERROR', statusMessage: 'boom', metadata: { k: 'v', n: 2, o: { a: 1 } }, tags: ['a', 'b'], promptVersion: 3 }] }, 'a.json'),
    );
    expect(lf!.attributes).toEqual(
      expect.arrayContaining([
        { key: 'langfuse.observation.level', value: { stringValue: 'ERROR' } },
        { key: 'langfuse.observation.status_message', value: { stringValue: 'boom' } },
        { key: 'langfuse.observation.metadata.k', value: { stringValue: 'v' } },
        { key: 'langfuse.observation.metadata.n', value: { intValue: '2' } },
        { key: 'langfuse.observation.metadata.o', value: { stringValue: '{"a":1}' } },
        { key: 'langfuse.trace.tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } } },
        { key: 'langfuse.observation.prompt.version', value: { intValue: '3' } },
      ]),
    );
    expect(lf!.status).toEqual({ code: 2 });
    const [ls] = spans(otlpDocumentOf('langsmith-runs', [{ ...run, error: 'boom', tags: ['a', 'b'], extra: { metadata: { thread_id: 't-1' } }, prompt_tokens: 5 }], 'r.json'));
    expect(ls!.attributes).toEqual(
      expect.arrayContaining([
        { key: 'langsmith.span.id', value: { stringValue: run.id } },
        { key: 'langsmith.trace.id', value: { stringValue: run.trace_id } },
        { key: 'langsmith.trace.name', value: { stringValue: 'get_weather' } },
        { key: 'langsmith.span.tags', value: { stringValue: 'a, b' } },
        { key: 'langsmith.metadata.thread_id', value: { stringValue: 't-1' } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '5' } },
      ]),
    );
    expect(ls!.events).toEqual([
      {
        timeUnixNano: ls!.endTimeUnixNano,
        name: 'exception',
        attributes: [
          { key: 'exception.type', value: { stringValue: 'Exception' } },
          { key: 'exception.message', value: { stringValue: 'boom' } },
        ],
      },
    ]);
    expect(ls!.status).toEqual({ code: 2 });
  });
});
