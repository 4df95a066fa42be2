import { DEFAULT_POOL, type PostgresPoolOptions } from "@service-api/adapters-postgres";
import { DEFAULT_DATABASE_URL } from "@service-api/adapters-sqlite";
import type { StoreOptions } from "./open-store.js";

/** The environment variables of the store, with the pool bound each one sets. */
const POOL_VARIABLES: Record<string, keyof PostgresPoolOptions> = {
  DATABASE_POOL_MAX: "max",
  DATABASE_CONNECT_TIMEOUT_MS: "connectionTimeoutMs",
  DATABASE_STATEMENT_TIMEOUT_MS: "statementTimeoutMs",
  DATABASE_IDLE_TIMEOUT_MS: "idleTimeoutMs",
};

export class StoreEnvironmentError extends Error {}

/**
 * `DATABASE_URL` and the pool bounds (`DATABASE_POOL_MAX`, `DATABASE_CONNECT_TIMEOUT_MS`,
 * `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_IDLE_TIMEOUT_MS`) from an environment. Empty means unset.
 */
export function storeOptionsFromEnvironment(environment: Record<string, string | undefined>): StoreOptions & {
  databaseUrl: string;
  pool: PostgresPoolOptions;
} {
  const pool = { ...DEFAULT_POOL };
  const problems: string[] = [];
  for (const [variable, bound] of Object.entries(POOL_VARIABLES)) {
    const raw = environment[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    const minimum = bound === "max" ? 1 : 0;
    if (!Number.isInteger(value) || value < minimum)
      problems.push(`${variable}: expected a whole number ≥ ${minimum}`);
    else pool[bound] = value;
  }
  if (problems.length > 0) throw new StoreEnvironmentError(problems.join("; "));
  return { databaseUrl: environment.DATABASE_URL || DEFAULT_DATABASE_URL, pool };
}
