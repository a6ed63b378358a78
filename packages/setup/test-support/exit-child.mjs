// Child process for the flush-on-exit tests: runs the compiled package (dist/), ends five spans
// into an exporter whose batch delay is a minute, then exits (or waits for a signal).
//   node exit-child.mjs DIR exit|no-hook|signal     file exporter into DIR
//   node exit-child.mjs URL hang SPILLDIR           OTLP to URL (a receiver that never answers), SIGTERM; spill into SPILLDIR
import { trace } from '@opentelemetry/api';
import { setupTracing } from '../dist/index.js';

const [target, mode, spillDir] = process.argv.slice(2);
const handle = setupTracing(
  mode === 'hang'
    ? { exporter: 'otlp', otlpUrl: target, file: { directory: spillDir }, batch: { scheduledDelayMillis: 60_000 } }
    : { exporter: 'file', file: { directory: target }, batch: { scheduledDelayMillis: 60_000 } },
);
if (mode !== 'no-hook') handle.flushOnExit(mode === 'hang' ? 500 : undefined);
const tracer = trace.getTracer('exit-child');
for (let i = 0; i < 5; i++) tracer.startSpan(`child span ${i}`).end();
if (mode === 'signal' || mode === 'hang') {
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000);
}
