import { openStore } from "@service-api/stores";
import { type SeededWorkspace, seedWorkspace } from "./seed.js";
import { createTestDatabaseUrl, type TestDatabaseUrl } from "./test-database.js";

/**
 * A fresh database of the store under test, seeded and closed again: its URL and the seeded
 * workspace. Its `drop` joins `cleanups`, for the test's `afterEach` to run.
 */
export async function seededDatabase(
  cleanups: (() => unknown)[],
): Promise<TestDatabaseUrl & { world: SeededWorkspace }> {
  const database = await createTestDatabaseUrl();
  cleanups.push(database.drop);
  const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
  const world = await seedWorkspace(store.repositories);
  await store.close();
  return { ...database, world };
}
