import type { TokenHasher } from "@service-api/ports";
import { createInMemoryStore, ManualClock, SequentialIdGenerator } from "@service-api/ports/testing";

/** Reversible "hash" for tests: only the use cases' handling of it is under test here. */
export const plainHasher: TokenHasher = {
  hash: (token) => `hashed:${token}`,
  matches: (token, tokenHash) => `hashed:${token}` === tokenHash,
};

/** An in-memory store with the runtime ports a use case needs. */
export function createWorld() {
  const store = createInMemoryStore();
  return {
    ...store.repositories,
    store,
    clock: new ManualClock(),
    ids: new SequentialIdGenerator(),
    hasher: plainHasher,
  };
}
