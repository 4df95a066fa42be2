import { StoreUnavailableError } from "@service-api/domain";
import type { Repositories, StoreMonitor } from "@service-api/ports";
import type { OpenCalls } from "./open-calls.js";

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
  /** The store's running calls, for a call made outside a transaction: closing waits for it. */
  calls?: OpenCalls;
}

/** How many times a call that lost a conflict is tried in all before it is answered 503. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs one store call: a failure to reach the database is passed on as a `StoreUnavailableError`.
 * A conflict with a concurrent transaction (PostgreSQL rolled the work back whole) is tried again
 * when `retriesConflicts` (a transaction, or a call outside one), up to `CONFLICT_ATTEMPTS` in all,
 * then answered as a store that cannot serve now: no outage, but the monitor hears of it.
 * A call inside a transaction passes a conflict on as it is, for the transaction to run again.
 */
export async function guarded<T>(
  guard: StoreGuard,
  work: () => Promise<T>,
  retriesConflicts = false,
): Promise<T> {
  guard.calls?.begin();
  try {
    const startedAt = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await work();
        guard.monitor?.available(startedAt);
        return result;
      } catch (error) {
        if (!guard.isConflict?.(error)) throw unavailableOrAsIs(guard, error);
        if (!retriesConflicts) throw error;
        if (attempt >= CONFLICT_ATTEMPTS) {
          guard.monitor?.conflictsExhausted?.(error as Error);
          throw new StoreUnavailableError({ cause: error });
        }
      }
    }
  } finally {
    guard.calls?.end();
  }
}

function unavailableOrAsIs(guard: StoreGuard, error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (!guard.isUnavailable(error)) return error;
  guard.monitor?.unavailable(error as Error);
  return new StoreUnavailableError({ cause: error });
}

/**
 * The same repositories, each method run through {@link guarded}. Outside a transaction a method
 * is one statement or safe to repeat, so a conflict runs it again; inside one, the transaction does.
 */
export function guardRepositories(
  repositories: Repositories,
  storeGuard: StoreGuard,
  { inTransaction }: { inTransaction: boolean },
): Repositories {
  // A call inside a transaction is part of the transaction's call, counted once.
  const guard = inTransaction ? { ...storeGuard, calls: undefined } : storeGuard;
  const wrap = (repository: object) => {
    const wrapped: Record<string, unknown> = {};
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repository))) {
      const method = (repository as Record<string, unknown>)[name];
      if (name === "constructor" || typeof method !== "function") continue;
      wrapped[name] = (...args: unknown[]) =>
        guarded(guard, () => method.apply(repository, args), !inTransaction);
    }
    return wrapped;
  };
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [name, wrap(repository)]),
  ) as unknown as Repositories;
}
