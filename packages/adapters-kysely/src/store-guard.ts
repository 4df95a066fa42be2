import { StoreUnavailableError } from "@service-api/domain";
import type { Repositories, StoreMonitor } from "@service-api/ports";

/**
 * How a store tells a failure to reach its database (down, restarting, connections refused or
 * dropped, out of connections, locked past its wait) from every other failure.
 */
export interface StoreGuard {
  isUnavailable(error: unknown): boolean;
  /**
   * Whether a failure is a conflict with a concurrent transaction (a deadlock, a serialization
   * failure) that running the transaction again resolves. Not an outage: the monitor hears nothing.
   */
  isConflict?(error: unknown): boolean;
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
  if (guard.isConflict?.(error)) return error;
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

/** How often a transaction that lost a conflict runs again before the request is answered 503. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a transaction, again when it lost a conflict with a concurrent one (PostgreSQL then has
 * rolled it back whole); a conflict lost every time is answered 503, as a store that cannot serve now.
 */
export async function retryingConflicts<T>(guard: StoreGuard, transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!guard.isConflict?.(error)) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) throw new StoreUnavailableError({ cause: error });
    }
  }
}
