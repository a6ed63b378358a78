/**
 * An application's own log records (no GenAI event name) beside a trace, with GitHub-shaped canary
 * tokens planted in their bodies and attributes, inside the trace's one span and outside any span:
 * what the CLI test and the ClickHouse parity test read.
 */
const token = (word: string) => 'ghp_' + `C4NARY${word}c4naryxyzwvut1234`;
/** In the tool's arguments and in a log line of its span: reported once, by the argument. */
const ARG = token('applogARGtoolxx');
/** In a log line's body, and in an attribute of another, in the tool's span. */
const BODY = token('applogBODYspanx');
const ATTR = token('applogATTRspanx');
/** In records written outside any span: a map body (twice), a string attribute. */
const FREE_BODY = token('applogFREEbodyx');
const FREE_ATTR = token('applogFREEattrx');
/** An attribute key that is a token, in a record of the tool's span. */
const KEY = token('applogKEYspanxx');
/** In the records' resource (an attribute set from OTEL_RESOURCE_ATTRIBUTES) and their instrumentation scope's attributes. */
const RESOURCE = token('applogRESOURCEx');
const SCOPE = token('applogSCOPEattr');
/** A scope version that is a token (a build stamping its deploy key where the version goes). */
const VERSION = token('applogVERSIONxx');
export const APP_LOG_TOKENS = [ARG, BODY, ATTR, FREE_BODY, FREE_ATTR, KEY, RESOURCE, SCOPE, VERSION];
/** In the resource and the scope's attributes of a logs export that holds GenAI message records only. */
const GENAI_RESOURCE = token('genaiRESOURCExx');
const GENAI_SCOPE = token('genaiSCOPEattrx');
export const GENAI_LOG_TOKENS = [GENAI_RESOURCE, GENAI_SCOPE];

export const APP_LOG_TRACE = '0a0b0c0d0e0f00000000000000000001';
export const APP_LOG_SPAN = '0a0b0c0d00000002';
const s = (v: string) => ({ stringValue: v });

/** The logs' resource (see {@link appLogsDocument}): `RESOURCE` in an attribute. */
const LOGS_RESOURCE = { attributes: [{ key: 'service.name', value: s('agent') }, { key: 'registry.token', value: s(RESOURCE) }] };

/**
 * One trace: the `deploy` tool's span, its arguments holding `ARG`; with `sameResource`, exported
 * under the logs' resource (one service's spans and logs), else under an empty one.
 */
export function appLogTracesDocument(sameResource = false): string {
  const span = {
    traceId: APP_LOG_TRACE, spanId: APP_LOG_SPAN, name: 'execute_tool deploy', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000',
    attributes: [
      { key: 'gen_ai.operation.name', value: s('execute_tool') },
      { key: 'gen_ai.tool.name', value: s('deploy') },
      { key: 'gen_ai.tool.call.id', value: s('call_1') },
      { key: 'gen_ai.tool.call.arguments', value: s(JSON.stringify({ service: 'web', token: ARG })) },
    ],
  };
  return JSON.stringify({ resourceSpans: [{ resource: sameResource ? LOGS_RESOURCE : { attributes: [] }, scopeSpans: [{ scope: { name: 'agent-framework' }, spans: [span] }] }] });
}

/** The application's log records (no GenAI event name): in the tool's span, and outside any span. */
export function appLogsDocument(): string {
  const inSpan = { traceId: APP_LOG_TRACE, spanId: APP_LOG_SPAN, timeUnixNano: '1700000000050000000', severityText: 'DEBUG' };
  const records = [
    { ...inSpan, body: s(`Function arguments: {"service": "web", "token": "${ARG}"}`), attributes: [{ key: 'code.function.name', value: s('invoke') }] },
    { ...inSpan, body: s(`retrying deploy with ${BODY}`) },
    { ...inSpan, body: s('calling deploy'), attributes: [{ key: 'http.request.header.authorization', value: s(`Bearer ${ATTR}`) }] },
    { ...inSpan, body: s('headers'), attributes: [{ key: KEY, value: s('set') }] },
    // Outside any span: no trace id (a request logger, a startup line).
    { timeUnixNano: '1700000001000000000', body: { kvlistValue: { values: [{ key: 'msg', value: s('auth') }, { key: 'token', value: s(FREE_BODY) }] } } },
    { timeUnixNano: '1700000002000000000', body: { kvlistValue: { values: [{ key: 'msg', value: s('auth again') }, { key: 'token', value: s(FREE_BODY) }] } } },
    { observedTimeUnixNano: '1700000003000000000', body: s('connected'), attributes: [{ key: 'db.connection_string', value: s(`postgres://ci:${FREE_ATTR}@db/app`) }] },
    // Nothing shaped like a credential: a prefix alone.
    { timeUnixNano: '1700000004000000000', body: s('token kind ghp_ is only a prefix'), attributes: [{ key: 'auth.kind', value: s('ghp_') }] },
  ];
  return JSON.stringify({ resourceLogs: [{ resource: LOGS_RESOURCE, scopeLogs: [{ scope: { name: 'app', version: VERSION, attributes: [{ key: 'vendor.license', value: s(SCOPE) }] }, logRecords: records }] }] });
}


/**
 * A logs export of GenAI message records only (the user's message and the tool's result of the
 * `deploy` call, in its span), under a resource other than the traces' — the collector's logs
 * pipeline adding an attribute — holding `GENAI_RESOURCE`, and a scope holding `GENAI_SCOPE`.
 */
export function genAiLogsDocument(): string {
  const inSpan = { traceId: APP_LOG_TRACE, spanId: APP_LOG_SPAN };
  const records = [
    { ...inSpan, timeUnixNano: '1700000000010000000', eventName: 'gen_ai.user.message', body: { kvlistValue: { values: [{ key: 'content', value: s('deploy web') }] } } },
    { ...inSpan, timeUnixNano: '1700000000090000000', eventName: 'gen_ai.tool.message', body: { kvlistValue: { values: [{ key: 'content', value: s('deployed') }, { key: 'id', value: s('call_1') }] } } },
  ];
  const resource = { attributes: [{ key: 'service.name', value: s('agent') }, { key: 'collector.auth', value: s(GENAI_RESOURCE) }] };
  const scope = { name: 'opentelemetry.instrumentation.openai_v2', version: '2.1b0', attributes: [{ key: 'vendor.license', value: s(GENAI_SCOPE) }] };
  return JSON.stringify({ resourceLogs: [{ resource, scopeLogs: [{ scope, logRecords: records }] }] });
}
