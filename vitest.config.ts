import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources, never a stale dist/.
    // Exact names only: '@argspan/core' must not also catch '@argspan/core/internal'.
    alias: Object.entries({
      '@argspan/conventions': './packages/conventions/src/index.ts',
      '@argspan/core': './packages/core/src/index.ts',
      '@argspan/core/internal': './packages/core/src/internal.ts',
      '@argspan/hop': './packages/hop/src/index.ts',
      '@argspan/setup': './packages/setup/src/index.ts',
      '@argspan/instrumentation': './packages/instrumentation/src/index.ts',
      '@argspan/analyzer': './analyzer/src/index.ts',
      '@argspan/adapters/mcp': './packages/adapters/src/mcp/index.ts',
      '@argspan/adapters/ai': './packages/adapters/src/ai/index.ts',
      '@argspan/adapters/openai-agents': './packages/adapters/src/openai-agents/index.ts',
      '@argspan/adapters': './packages/adapters/src/index.ts',
    }).map(([name, path]) => ({ find: new RegExp(`^${name.replace(/[/]/g, '\\/')}$`), replacement: src(path) })),
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'analyzer/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
