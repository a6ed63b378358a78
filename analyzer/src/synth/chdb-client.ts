import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

/**
 * A `@clickhouse/client` whose queries run in the real ClickHouse engine in this process (chdb),
 * on disk at `path` or in memory: what the tests and the benchmark give `analyzeClickHouse` in
 * place of a server. chdb types its connection against its own copy of the client's interfaces.
 */
export function chdbClient(path = ':memory:'): ClickHouseClient {
  const connection = createChdbConnection({ path }) as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'];
  return createClient({ connection });
}
