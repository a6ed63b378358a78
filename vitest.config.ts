import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources, never a stale dist/.
    alias: {
      '@argspan/conventions': src('./packages/conventions/src/index.ts'),
      '@argspan/core': src('./packages/core/src/index.ts'),
      '@argspan/hop': src('./packages/hop/src/index.ts'),
      '@argspan/setup': src('./packages/setup/src/index.ts'),
      '@argspan/instrumentation': src('./packages/instrumentation/src/index.ts'),
      '@argspan/analyzer': src('./analyzer/src/index.ts'),
      '@argspan/adapters/mcp': src('./packages/adapters/src/mcp/index.ts'),
      '@argspan/adapters/ai': src('./packages/adapters/src/ai/index.ts'),
      '@argspan/adapters/openai-agents': src('./packages/adapters/src/openai-agents/index.ts'),
      '@argspan/adapters': src('./packages/adapters/src/index.ts'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'analyzer/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
