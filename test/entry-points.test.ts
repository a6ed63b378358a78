import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCase, loadCases } from './support/case-table.js';
import { DISPATCHING_ENTRY_POINTS, fromCliLine, viaClassifyCall, viaClassifyCallUnseen, viaMcpProxy, type Outcome } from './support/entry-points.js';

const BIN = fileURLToPath(new URL('../packages/cli/bin/argspan.js', import.meta.url));

/**
 * One policy, one answer: every case of the shared table goes through every entry point —
 * classifyCall, `argspan classify`, instrumentDispatch, wrapTool and the MCP, AI SDK and OpenAI
 * Agents adapters — and each must give the same verdict, gate action and hits, enforcement (and
 * its reason) and leaf labels, matching the case's expectations; the dispatching entry points
 * must reach the tool exactly when enforcement says run.
 */
describe('one policy, one answer: the case table through every entry point', () => {
  const cases = loadCases();
  let cli: Outcome[];
  beforeAll(() => {
    const r = spawnSync(process.execPath, [BIN, 'classify'], { input: cases.map((c) => c.line).join('\n') + '\n', encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    cli = r.stdout.trim().split('\n').map((l) => fromCliLine(JSON.parse(l) as Record<string, unknown>));
    expect(cli).toHaveLength(cases.length);
  });

  cases.forEach((c, i) => {
    it(c.name, async () => {
      const reference = viaClassifyCall(c.raw);
      checkCase(reference, c.expect);
      expect(cli[i], 'argspan classify').toEqual(reference);
      for (const [name, via] of Object.entries(DISPATCHING_ENTRY_POINTS)) {
        const got = (await via(c.raw))!;
        const { dispatched, ...answer } = got;
        expect(answer, name).toEqual(reference);
        const runs = reference.enforcement.action === 'run' || reference.enforcement.action === 'hop';
        expect(dispatched, `${name}: the tool is reached exactly when enforcement runs it`).toBe(runs);
      }
    });
  });
});

/**
 * The same table through `argspan mcp-proxy`'s relay. A proxy never sees the user's words, so a
 * value the user typed is `no_evidence` there: its answer must equal classifyCall's for the same
 * call without the user text (same policy, same results, same schema), and the server is reached
 * exactly when that enforcement runs the call.
 */
describe('one policy, one answer: the case table through the MCP proxy', () => {
  for (const c of loadCases()) {
    it(c.name, async () => {
      const reference = viaClassifyCallUnseen(c.raw);
      const { dispatched, ...answer } = await viaMcpProxy(c.raw);
      expect(answer).toEqual(reference);
      expect(dispatched).toBe(reference.enforcement.action === 'run' || reference.enforcement.action === 'hop');
    });
  }
});
