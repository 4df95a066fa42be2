import { afterEach, beforeEach } from "vitest";
import type { Repositories, Store } from "../../repositories.js";

/** Opens a fresh, empty store before each test and closes it after. */
export type OpenStore = () => Promise<Store>;

export function useStore(openStore: OpenStore): () => Repositories {
  let store: Store | undefined;
  beforeEach(async () => {
    store = await openStore();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (!store) throw new Error("The store is only open inside a test");
    return store.repositories;
  };
}
