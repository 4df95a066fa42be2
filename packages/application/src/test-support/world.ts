import type { Store, TokenHasher } from "@service-api/ports";
import { createInMemoryStore, ManualClock, SequentialIdGenerator } from "@service-api/ports/testing";
import { refusingUnstorableText } from "./refusing-unstorable-text.js";

/** Reversible "hash" for tests: only the use cases' handling of it is under test here. */
export const plainHasher: TokenHasher = {
  hash: (token) => `hashed:${token}`,
  matches: (token, tokenHash) => `hashed:${token}` === tokenHash,
};

/** Everything an in-memory store holds, to compare before and after a call that must write nothing. */
function contentsOf(store: Store): unknown[] {
  return Object.values(store.repositories).map((repository) =>
    (repository as unknown as { snapshot(): unknown }).snapshot(),
  );
}

/**
 * An in-memory store with the runtime ports a use case needs. With `refusingUnstorableText`, its
 * repositories refuse text no store can hold as PostgreSQL does (`refusingUnstorableText`).
 */
export function createWorld(options: { refusingUnstorableText?: boolean } = {}) {
  const memory = createInMemoryStore();
  const store = options.refusingUnstorableText ? refusingUnstorableText(memory) : memory;
  return {
    ...store.repositories,
    store,
    /** What the store holds now; `toEqual` an earlier one when nothing was written in between. */
    contents: () => contentsOf(memory),
    clock: new ManualClock(),
    ids: new SequentialIdGenerator(),
    hasher: plainHasher,
  };
}
