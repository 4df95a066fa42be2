import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-databases.js";

/**
 * A database of its own for the tests of the enclosing `describe`: created before them, dropped
 * after them (after the `describe`'s own `afterAll`s, which run in reverse order). Read `url` in a
 * test or a later hook. Not exported from `./testing`: other packages' code may load that without
 * a test runner.
 */
export function useTestDatabase(): { readonly url: string } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  return {
    get url() {
      if (!database)
        throw new Error("the test database is created before the tests, not when they are declared");
      return database.url;
    },
  };
}
