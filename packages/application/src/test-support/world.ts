import type { Clock, IdGenerator, TokenHasher } from "@service-api/ports";
import { createInMemoryStore } from "@service-api/ports/testing";

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(public now = 1_800_000_000) {}
  nowSeconds(): number {
    return this.now;
  }
}

/** Reversible "hash" for tests: only the use cases' handling of it is under test here. */
export const plainHasher: TokenHasher = {
  hash: (token) => `hashed:${token}`,
  matches: (token, tokenHash) => `hashed:${token}` === tokenHash,
};

export const sequentialIds = (): IdGenerator => {
  let next = 0;
  return { next: () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}` };
};

/** An in-memory store with the runtime ports a use case needs. */
export function createWorld() {
  const store = createInMemoryStore();
  return { ...store.repositories, clock: new ManualClock(), ids: sequentialIds(), hasher: plainHasher };
}
