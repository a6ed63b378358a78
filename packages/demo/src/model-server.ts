/**
 * The café outage's remote "model server": a real HTTP server on loopback that honours
 * `Idempotency-Key`. Every side effect is appended to a ledger file before the response is sent,
 * so a restarted server still knows which keys it has served. With `--die-mid-flight` it performs
 * the first side effect and then dies before answering, the way a flaky café uplink drops a hop.
 *
 * Run as a child process: `node model-server.js <ledger-file> [--die-mid-flight]`. Prints
 * `{"port": n}` once listening.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface LedgerEntry {
  key: string;
  response: string;
}

const [ledgerFile, flag] = process.argv.slice(2);
if (!ledgerFile) {
  process.stderr.write('usage: model-server <ledger-file> [--die-mid-flight]\n');
  process.exit(2);
}
const dieMidFlight = flag === '--die-mid-flight';
const served = new Map<string, string>();
if (existsSync(ledgerFile)) {
  for (const line of readFileSync(ledgerFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as LedgerEntry;
    served.set(e.key, e.response);
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') {
      res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":"Idempotency-Key required"}');
      return;
    }
    const seen = served.get(key);
    // Tell the demo what happened; the key itself is never printed.
    process.stdout.write(JSON.stringify({ event: 'request', replayed: seen !== undefined }) + '\n');
    if (seen !== undefined) {
      // A retry of a request already performed: answer it again, perform nothing.
      res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(seen);
      return;
    }
    const body = Buffer.concat(chunks).toString('utf8');
    const words = body.split(/\s+/).filter(Boolean).length;
    const response = JSON.stringify({ summary: `Summarised ${words} words of public notes.` });
    appendFileSync(ledgerFile, JSON.stringify({ key, response } satisfies LedgerEntry) + '\n'); // the side effect
    served.set(key, response);
    if (dieMidFlight) {
      process.stdout.write(JSON.stringify({ event: 'died-mid-flight' }) + '\n');
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(response);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
