import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { memoryTracing } from '../../instrumentation/test-support/tracing.js';
import { FileSpanExporter, listSpanFiles } from './file-exporter.js';

function makeSpans(n: number, pad = 0): ReadableSpan[] {
  const { provider, spans } = memoryTracing();
  const tracer = provider.getTracer('t');
  for (let i = 0; i < n; i++) tracer.startSpan(`span ${i}`, { attributes: { pad: 'p'.repeat(pad) } }).end();
  return spans();
}

function exportSync(e: FileSpanExporter, spans: ReadableSpan[]): ExportResult {
  let r: ExportResult | undefined;
  e.export(spans, (x) => (r = x));
  return r!;
}

/** Every span name in the directory's files, in write order, checking each line is one request. */
function readBack(dir: string): string[] {
  const names: string[] = [];
  for (const file of listSpanFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.slice(0, -1).split('\n')) {
      const req = JSON.parse(line);
      expect(Object.keys(req)).toEqual(['resourceSpans']);
      for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) names.push(s.name);
    }
  }
  return names;
}

describe('FileSpanExporter', () => {
  it('writes one OTLP/JSON request per line into the directory and reads back every span', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'argspan-fx-')), 'traces');
    const e = new FileSpanExporter({ directory: dir });
    const spans = makeSpans(10);
    expect(exportSync(e, spans.slice(0, 4)).code).toBe(ExportResultCode.SUCCESS);
    expect(exportSync(e, spans.slice(4)).code).toBe(ExportResultCode.SUCCESS);
    await e.shutdown();
    expect(listSpanFiles(dir)).toHaveLength(1);
    expect(readFileSync(listSpanFiles(dir)[0]!, 'utf8').split('\n')).toHaveLength(3);
    expect(readBack(dir)).toEqual(spans.map((s) => s.name));
    expect(exportSync(e, spans).code).toBe(ExportResultCode.FAILED);
  });

  it('rotates by size without splitting a line, and splits a batch too big for one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-fx-'));
    const max = 8 * 1024;
    const e = new FileSpanExporter({ directory: dir, maxFileBytes: max });
    const spans = makeSpans(60, 400);
    for (let i = 0; i < 60; i += 6) exportSync(e, spans.slice(i, i + 6));
    expect(exportSync(e, spans).code).toBe(ExportResultCode.SUCCESS); // ~30 KB batch: split
    await e.shutdown();
    const files = listSpanFiles(dir);
    expect(files.length).toBeGreaterThan(4);
    expect(files).toEqual(e.files);
    for (const f of files) expect(statSync(f).size).toBeLessThanOrEqual(max);
    expect(readBack(dir)).toEqual([...spans, ...spans].map((s) => s.name));
  });

  it('keeps at most maxFiles of its own files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'argspan-fx-'));
    const e = new FileSpanExporter({ directory: dir, maxFileBytes: 2048, maxFiles: 2 });
    const spans = makeSpans(20, 600);
    for (const s of spans) exportSync(e, [s]);
    await e.shutdown();
    expect(listSpanFiles(dir)).toHaveLength(2);
    expect(readBack(dir)).toEqual(spans.slice(-2).map((s) => s.name));
  });

  it('reports a failed export when the directory cannot be created', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'argspan-fx-')), 'not-a-dir');
    writeFileSync(file, 'x');
    const e = new FileSpanExporter({ directory: join(file, 'traces') });
    const r = exportSync(e, makeSpans(1));
    expect(r.code).toBe(ExportResultCode.FAILED);
    expect(r.error?.message).toContain('not-a-dir');
  });

  it('starts a new file when its file or directory was removed under it: no span is counted as written into a deleted file', () => {
    const base = mkdtempSync(join(tmpdir(), 'argspan-fexp-'));
    const dir = join(base, 'traces');
    const e = new FileSpanExporter({ directory: dir });
    expect(exportSync(e, makeSpans(2)).code).toBe(ExportResultCode.SUCCESS);
    rmSync(dir, { recursive: true, force: true }); // a `rm -rf traces`, a tmp reaper
    expect(exportSync(e, makeSpans(3)).code).toBe(ExportResultCode.SUCCESS);
    expect(readBack(dir)).toEqual(['span 0', 'span 1', 'span 2']);
  });

  it('on a full disk cuts a half-written line off again: the batch fails, the next one is a whole line', async (ctx) => {
    // A 64 KiB tmpfs (root in CI; elsewhere the mount is refused and the case skipped).
    const mount = mkdtempSync(join(tmpdir(), 'argspan-full-'));
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]).status !== 0) return ctx.skip();
    const dir = join(mount, 'traces');
    const e = new FileSpanExporter({ directory: dir });
    try {
      writeFileSync(join(mount, 'ballast'), Buffer.alloc(60 * 1024));
      const full = exportSync(e, makeSpans(20, 200));
      expect(full.code).toBe(ExportResultCode.FAILED);
      expect((full.error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      unlinkSync(join(mount, 'ballast'));
      expect(exportSync(e, makeSpans(2)).code).toBe(ExportResultCode.SUCCESS);
      expect(exportSync(e, makeSpans(1)).code).toBe(ExportResultCode.SUCCESS);
      // (readBack parses every line: a fragment before them would fail it)
      expect(readBack(dir)).toEqual(['span 0', 'span 1', 'span 0']);
    } finally {
      await e.shutdown();
      spawnSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('rejects bad options with a message naming the option', () => {
    expect(() => new FileSpanExporter({ maxFileBytes: 10 })).toThrow(/maxFileBytes/);
    expect(() => new FileSpanExporter({ maxFiles: -1 })).toThrow(/maxFiles/);
    expect(() => new FileSpanExporter({ prefix: '../x' })).toThrow(/prefix/);
  });
});
