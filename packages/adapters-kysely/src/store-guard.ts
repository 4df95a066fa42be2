import { StoreUnavailableError } from "@service-api/domain";
import type { Repositories, StoreMonitor } from "@service-api/ports";

/**
 * How a store tells a failure to reach its database (down, restarting, connections refused or
 * dropped, out of connections, locked past its wait) from every other failure.
 */
export interface StoreGuard {
  isUnavailable(error: unknown): boolean;
  monitor?: StoreMonitor;
}

/** Runs one store call: a failure to reach the database is passed on as a `StoreUnavailableError`. */
export async function guarded<T>(guard: StoreGuard, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    const result = await work();
    guard.monitor?.available(startedAt);
    return result;
  } catch (error) {
    throw unavailableOrAsIs(guard, error);
  }
}

function unavailableOrAsIs(guard: StoreGuard, error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (!guard.isUnavailable(error)) return error;
  guard.monitor?.unavailable(error as Error);
  return new StoreUnavailableError({ cause: error });
}

/** The same repositories, each method run through {@link guarded}. */
export function guardRepositories(repositories: Repositories, guard: StoreGuard): Repositories {
  const wrap = (repository: object) => {
    const wrapped: Record<string, unknown> = {};
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repository))) {
      const method = (repository as Record<string, unknown>)[name];
      if (name === "constructor" || typeof method !== "function") continue;
      wrapped[name] = (...args: unknown[]) => guarded(guard, () => method.apply(repository, args));
    }
    return wrapped;
  };
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [name, wrap(repository)]),
  ) as unknown as Repositories;
}
