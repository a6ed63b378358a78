// A trace whose instrumentation scopes hold a credential: in an attribute and an attribute key, in a name, in a version.
export const SCOPE_CANARY = 'ghp_' + 'Sc0PEc4naryC4NARYsc0pec4naryC4NARYxy';

const span = (n: number) => ({
  traceId: '5c0be0000000000000000000000000a1', spanId: `5c0be000000000${String(n).padStart(2, '0')}`, name: `work ${n}`,
  startTimeUnixNano: `17000000000${n}0000000`, endTimeUnixNano: `17000000000${n}5000000`, attributes: [{ key: 'note', value: { stringValue: 'nothing here' } }],
});

/** Three scopes: one with a credential in an attribute (and an attribute key), one in its name, one in its version. */
export function scopedDocument(): unknown {
  return {
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
      scopeSpans: [
        { scope: { name: 'my.lib', version: '1.0', attributes: [{ key: 'deploy.token', value: { stringValue: `token ${SCOPE_CANARY}` } }, { key: `k_${SCOPE_CANARY}`, value: { stringValue: 'x' } }] }, spans: [span(1), span(2)] },
        { scope: { name: `lib_${SCOPE_CANARY}`, version: '2.0' }, spans: [span(3)] },
        { scope: { name: 'other.lib', version: `v-${SCOPE_CANARY}` }, spans: [span(4), span(5)] },
      ],
    }],
  };
}

/** What `credential_in_attribute` reports over it: once per scope text, on the scope's first span (span id, message). */
export const EXPECTED_SCOPE_FINDINGS = [
  ['span/5c0be00000000001', 'The attribute key k_[REDACTED:github-pat] of the span\'s instrumentation scope is a value matching the github-pat credential shape.'],
  ['span/5c0be00000000001', 'Attribute deploy.token of the span\'s instrumentation scope holds a value matching the github-pat credential shape.'],
  ['span/5c0be00000000003', 'The name of the span\'s instrumentation scope holds a value matching the github-pat credential shape.'],
  ['span/5c0be00000000004', 'The version of the span\'s instrumentation scope holds a value matching the github-pat credential shape.'],
];

