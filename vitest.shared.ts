import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources in tests: no build needed.
const conditions = ["@service-api/source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@service-api/source"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
