import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources in tests: no build needed.
// The rest are Vite's default conditions, kept so that dependencies resolve as in Node.
const SOURCE = "@service-api/source";

export default defineConfig({
  resolve: { conditions: [SOURCE, "module", "browser", "development|production"] },
  ssr: { resolve: { conditions: [SOURCE, "module", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
