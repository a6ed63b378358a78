// Child process for the flush-on-exit tests: runs the compiled package (dist/), ends five spans
// into a file exporter whose batch delay is a minute, then exits (or waits for a signal).
import { trace } from '@opentelemetry/api';
import { setupTracing } from '../dist/index.js';

const [dir, mode] = process.argv.slice(2);
const handle = setupTracing({
  exporter: 'file',
  file: { directory: dir },
  batch: { scheduledDelayMillis: 60_000 },
});
if (mode !== 'no-hook') handle.flushOnExit();
const tracer = trace.getTracer('exit-child');
for (let i = 0; i < 5; i++) tracer.startSpan(`child span ${i}`).end();
if (mode === 'signal') {
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000);
}
