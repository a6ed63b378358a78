import { createHash } from 'node:crypto';

/**
 * On-disk record framing. Every state file is one record:
 *
 *     argspan-hop/<version> <kind> <sha256 of body, hex> <body byte length>\n<body JSON>\n
 *
 * so an empty file, a truncated file, a flipped byte and a file written by another schema
 * version are each detected and named.
 */

/** Schema version of every record this package writes. */
export const RECORD_VERSION = 1;
const MAGIC = 'argspan-hop/';

/** What kind of record a file holds. */
export type RecordKind = 'checkpoint' | 'lease' | 'lease-release' | 'queue-item' | 'queue-done';

/** Why a record could not be read. */
export type RecordDefect = 'empty' | 'truncated' | 'corrupt' | 'checksum' | 'wrong-version' | 'wrong-kind';

export type DecodeResult<T> = { ok: true; body: T } | { ok: false; defect: RecordDefect; detail: string };

/** Encode one record. */
export function encodeRecord(kind: RecordKind, body: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  const sum = createHash('sha256').update(json).digest('hex');
  const header = Buffer.from(`${MAGIC}${RECORD_VERSION} ${kind} ${sum} ${json.length}\n`, 'utf8');
  return Buffer.concat([header, json, Buffer.from('\n')]);
}

/** Decode and verify one record; never throws. `validate` checks the body's shape. */
export function decodeRecord<T>(
  kind: RecordKind,
  data: Uint8Array,
  validate: (body: unknown) => string | undefined,
): DecodeResult<T> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length === 0) return { ok: false, defect: 'empty', detail: 'file is empty' };
  const nl = buf.indexOf(0x0a);
  if (nl < 0) return { ok: false, defect: 'truncated', detail: 'no complete header line' };
  const header = buf.subarray(0, nl).toString('utf8');
  const m = /^argspan-hop\/(\d+) ([a-z-]+) ([0-9a-f]{64}) (\d+)$/.exec(header);
  if (!m) {
    return header.startsWith(MAGIC)
      ? { ok: false, defect: 'corrupt', detail: 'malformed header' }
      : { ok: false, defect: 'corrupt', detail: 'not an argspan-hop record' };
  }
  const [, version, fileKind, sum, len] = m as unknown as [string, string, string, string, string];
  if (Number(version) !== RECORD_VERSION) {
    return { ok: false, defect: 'wrong-version', detail: `schema version ${version}, this build reads ${RECORD_VERSION}` };
  }
  if (fileKind !== kind) return { ok: false, defect: 'wrong-kind', detail: `holds a ${fileKind} record, expected ${kind}` };
  const length = Number(len);
  const body = buf.subarray(nl + 1);
  if (body.length < length + 1) {
    return { ok: false, defect: 'truncated', detail: `body has ${body.length} of ${length + 1} bytes` };
  }
  if (body.length > length + 1 || body[length] !== 0x0a) {
    return { ok: false, defect: 'corrupt', detail: 'trailing bytes after the body' };
  }
  const json = body.subarray(0, length);
  if (createHash('sha256').update(json).digest('hex') !== sum) {
    return { ok: false, defect: 'checksum', detail: 'checksum mismatch' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    return { ok: false, defect: 'corrupt', detail: 'body is not JSON' };
  }
  const problem = validate(parsed);
  if (problem !== undefined) return { ok: false, defect: 'corrupt', detail: problem };
  return { ok: true, body: parsed as T };
}

/** Tiny shape checks for record bodies. Each returns a problem description or undefined. */
export const shape = {
  object(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  },
  fields(v: unknown, spec: Record<string, 'string' | 'number' | 'boolean' | 'string?' | 'number?' | 'object'>): string | undefined {
    if (!shape.object(v)) return 'body is not an object';
    for (const [key, type] of Object.entries(spec)) {
      const value = v[key];
      const optional = type.endsWith('?');
      if (optional && value === undefined) continue;
      const want = optional ? type.slice(0, -1) : type;
      if (want === 'object' ? !shape.object(value) : typeof value !== want) return `field ${key} is not a ${want}`;
      if (want === 'number' && !Number.isFinite(value)) return `field ${key} is not finite`;
    }
    return undefined;
  },
};
