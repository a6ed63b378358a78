import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'chdb';

/**
 * ClickHouse's HTTP interface on loopback, answered by the real engine in this process (chdb):
 * enough of the protocol for `@clickhouse/client` — the query in the body or in `?query=` (then
 * the body is the INSERT's data), settings and the database as URL parameters, basic auth, errors
 * as ClickHouse writes them (`Code: N. DB::Exception: … (TYPE)` with a non-200 status). It lets a
 * test run the real `argspan` binary against a URL. One engine serves one session at a time: a
 * request with a new `session_id` starts with no temporary tables, as a new server session does.
 */
export interface ClickHouseHttp {
  url: string;
  /** Run SQL in the engine directly (to create and fill the traces table). */
  query(sql: string): string;
  close(): Promise<void>;
}

/** URL parameters of the HTTP interface that are not settings. */
const NOT_SETTINGS = new Set(['query', 'query_id', 'database', 'session_id', 'session_timeout', 'session_check', 'default_format', 'user', 'password', 'wait_end_of_query']);

export async function startClickHouseHttp(credentials: { user: string; password: string }): Promise<ClickHouseHttp> {
  const session = new Session();
  let currentSession: string | undefined;
  const server: Server = createServer((req, res) => {
    void handle(req).then(
      ({ status, body }) => {
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8', ...(status === 200 ? {} : { 'X-ClickHouse-Exception-Code': /Code: (\d+)/.exec(body)?.[1] ?? '0' }) });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end('Code: 1001. DB::Exception: test server failure (STD_EXCEPTION)');
      },
    );
  });

  async function handle(req: IncomingMessage): Promise<{ status: number; body: string }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/ping') return { status: 200, body: 'Ok.\n' };
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `${credentials.user}:${credentials.password}`) {
      return { status: 516, body: `Code: 516. DB::Exception: ${credentials.user ? 'Authentication failed' : 'no user'}: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)` };
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const inUrl = url.searchParams.get('query');
    const sql = inUrl !== null ? `${inUrl}\n${body}` : body;
    const sessionId = url.searchParams.get('session_id') ?? undefined;
    try {
      if (sessionId !== currentSession) {
        // A new session: the previous one's temporary tables are gone, as on a server.
        const temps = session.query("SELECT name FROM system.tables WHERE is_temporary FORMAT TSV", 'TSV').split('\n').filter(Boolean);
        for (const t of temps) session.query(`DROP TEMPORARY TABLE IF EXISTS \`${t}\``);
        currentSession = sessionId;
      }
      session.query(`USE \`${url.searchParams.get('database') ?? 'default'}\``);
      for (const [k, v] of url.searchParams) {
        if (!NOT_SETTINGS.has(k) && !k.startsWith('param_')) session.query(`SET ${k} = ${/^-?\d+$/.test(v) ? v : `'${v.replace(/'/g, "\\'")}'`}`);
      }
      return { status: 200, body: session.query(sql, 'TSV') };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const ch = /Code: \d+\. DB::Exception: [\s\S]*/.exec(message)?.[0] ?? `Code: 1001. DB::Exception: ${message} (STD_EXCEPTION)`;
      return { status: 500, body: ch };
    }
  }

  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    query: (sql) => session.query(sql, 'TSV'),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      session.close();
    },
  };
}
