import pg from "pg";
import type { ViteUserConfig } from "vitest/config";

/**
 * For a suite's PostgreSQL pass (SERVICE_API_TEST_STORE=postgres): the config unchanged when the
 * test server answers; in CI, a failure when it does not; elsewhere, a pass that says it skipped.
 */
export async function postgresPass(config: ViteUserConfig): Promise<ViteUserConfig> {
  if (process.env.SERVICE_API_TEST_STORE !== "postgres") return config;
  const url = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return config;
  } catch {
    // Where, without who: no user, password or query (a password may hide in any of them).
    const where = URL.canParse(url) ? new URL(url).host : "the URL given";
    const message = `PostgreSQL does not answer at ${where}`;
    if (process.env.CI === "true") throw new Error(`${message}: CI requires the PostgreSQL pass.`);
    console.warn(`${message}: the PostgreSQL pass is skipped.`);
    return { ...config, test: { ...config.test, include: [], passWithNoTests: true } };
  }
}
