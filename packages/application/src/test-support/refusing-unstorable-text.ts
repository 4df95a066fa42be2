import { isStorableText } from "@service-api/domain";
import type { Repositories, Store } from "@service-api/ports";

/** Whether any string in `values`, however deep in arrays and objects, is text no store can hold. */
function holdsUnstorableText(values: unknown[]): boolean {
  const pending = [...values];
  const seen = new Set<object>();
  for (let index = 0; index < pending.length; index += 1) {
    const value = pending[index];
    if (typeof value === "string" && !isStorableText(value)) return true;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    pending.push(...(value instanceof Map ? [...value.entries()] : Object.values(value)));
  }
  return false;
}

function refusing<T extends object>(repository: T): T {
  return new Proxy(repository, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) =>
        holdsUnstorableText(args)
          ? Promise.reject(new Error("invalid byte sequence for encoding UTF8 (SQLSTATE 22021)"))
          : member.apply(target, args);
    },
  });
}

/**
 * The store, refusing any call given text no store can hold (a NUL, an unpaired surrogate), as
 * PostgreSQL refuses it, with an error that is no `DomainError`. The in-memory store would find
 * nothing, as SQLite does; a use case must never send such text, so tests run against this.
 */
export function refusingUnstorableText(store: Store): Store {
  const repositories = refusingAll(store.repositories);
  return {
    ...store,
    repositories,
    transaction: (work, options) => store.transaction(() => work(repositories), options),
    // A snapshot's own repositories (in memory, a copy), refusing as well.
    snapshot: (work) => store.snapshot((inSnapshot) => work(refusingAll(inSnapshot))),
  };
}

function refusingAll(repositories: Repositories): Repositories {
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [name, refusing(repository)]),
  ) as unknown as Repositories;
}
