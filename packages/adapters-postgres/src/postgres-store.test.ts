import {
  describeStoreCloseContract,
  describeStoreContract,
  describeStoreIsolationContract,
} from "@service-api/ports/testing";
import { afterAll, beforeAll, describe } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "./testing/test-databases.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("the PostgreSQL store", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  // Each test gets a new schema, migrated as in production: the same contracts as every store.
  const openStore = async () => openPostgresStore({ databaseUrl: await createTestSchema(database.url) });
  describeStoreContract(openStore);
  describeStoreIsolationContract(openStore);
  describeStoreCloseContract(openStore);
});
