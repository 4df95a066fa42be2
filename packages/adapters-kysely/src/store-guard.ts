import { StoreUnavailableError } from "@service-api/domain";
import type { Repositories, StoreMonitor } from "@service-api/ports";
import type { LockWaits } from "./lock-waits.js";
import type { OpenCalls } from "./open-calls.js";

/**
 * How a store tells a failure to reach its database (down, restarting, connections refused or
 * dropped, out of connections), a conflict and a lock held elsewhere from every other failure.
 */
export interface StoreGuard {
  isUnavailable(error: unknown): boolean;
  /**
   * Whether a failure is a conflict with a concurrent transaction (a deadlock, a serialization
   * failure) that running the transaction again resolves. Not an outage: the monitor hears nothing.
   */
  isConflict?(error: unknown): boolean;
  /**
   * Whether a failure is a lock another connection holds, not had within the call's wait for it
   * (SQLite's busy, PostgreSQL's `lock_timeout`). Not an outage: the caller gets a
   * `StoreUnavailableError`, the monitor hears `lockWaitExceeded`.
   */
  isLocked?(error: unknown): boolean;
  /**
   * For a database that does not wait for such a lock itself (SQLite with no busy time-out, whose
   * own wait would sleep on the event loop): how long a call waits for it, in ms, trying again.
   */
  lockRetryMs?: number;
  /** The store's calls waiting for such a lock: one tries at a time (without it, each tries). */
  lockWaits?: LockWaits;
  monitor?: StoreMonitor;
  /** The store's running calls, for a call made outside a transaction: closing waits for it. */
  calls?: OpenCalls;
}

/** The longest pause between two tries at a held lock, in ms: how late a freed lock may be seen. */
export const LONGEST_LOCK_PAUSE_MS = 20;

/** How many times a call that lost a conflict is tried in all before it is answered 503. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs one store call: a failure to reach the database is passed on as a `StoreUnavailableError`.
 * A conflict with a concurrent transaction (PostgreSQL rolled the work back whole) is tried again
 * when `retriesConflicts` (a transaction, or a call outside one), up to `CONFLICT_ATTEMPTS` in all,
 * then answered as a store that cannot serve now: no outage, but the monitor hears of it.
 * A call inside a transaction passes a conflict on as it is, for the transaction to run again.
 * A lock another connection holds (`guard.isLocked`) is waited for by the calls that run again
 * after a conflict, for `guard.lockRetryMs`, in pauses that leave the event loop free (1 ms,
 * doubling up to {@link LONGEST_LOCK_PAUSE_MS}), one call trying at a time (`guard.lockWaits`);
 * then, or once the store is closing, the call is refused, without an outage.
 */
export async function guarded<T>(
  guard: StoreGuard,
  work: () => Promise<T>,
  retriesConflicts = false,
): Promise<T> {
  guard.calls?.begin();
  let leading: (() => void) | undefined;
  try {
    const startedAt = performance.now();
    let lockPause = 1;
    for (let attempt = 1; ; ) {
      try {
        const result = await work();
        guard.monitor?.available(startedAt);
        return result;
      } catch (error) {
        if (guard.isLocked?.(error)) {
          const waits = retriesConflicts && !guard.calls?.closing;
          const left = waits ? startedAt + (guard.lockRetryMs ?? 0) - performance.now() : 0;
          if (left > 0) {
            leading ??= guard.lockWaits ? guard.lockWaits.lead() : () => {};
            if (leading) {
              await pause(Math.min(lockPause, left));
              lockPause = Math.min(lockPause * 2, LONGEST_LOCK_PAUSE_MS);
            } else await guard.lockWaits?.followed(left);
            continue;
          }
          guard.monitor?.lockWaitExceeded?.(error as Error);
          throw new StoreUnavailableError({ cause: error });
        }
        if (!guard.isConflict?.(error)) throw unavailableOrAsIs(guard, error);
        if (!retriesConflicts) throw error;
        if (attempt++ >= CONFLICT_ATTEMPTS) {
          guard.monitor?.conflictsExhausted?.(error as Error);
          throw new StoreUnavailableError({ cause: error });
        }
      }
    }
  } finally {
    // However this call ended, the others waiting for the lock try again.
    leading?.();
    guard.calls?.end();
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
  // Rate limits fail open: a request is not held while its counter waits for a lock (the port says so).
  const noLockWait = { ...guard, lockRetryMs: undefined };
  const wrap = (repository: object, repositoryGuard: StoreGuard) => {
    const wrapped: Record<string, unknown> = {};
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repository))) {
      const method = (repository as Record<string, unknown>)[name];
      if (name === "constructor" || typeof method !== "function") continue;
      wrapped[name] = (...args: unknown[]) =>
        guarded(repositoryGuard, () => method.apply(repository, args), !inTransaction);
    }
    return wrapped;
  };
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [
      name,
      wrap(repository, name === "rateLimits" ? noLockWait : guard),
    ]),
  ) as unknown as Repositories;
}
