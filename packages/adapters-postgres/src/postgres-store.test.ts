import {
  describeStoreCloseContract,
  describeStoreContract,
  describeStoreIsolationContract,
} from "@service-api/ports/testing";
import { describe } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import { createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";
import { useTestDatabase } from "./testing/use-test-database.js";

const available = await requirePostgresForTests();

describe.skipIf(!available)("the PostgreSQL store", () => {
  const database = useTestDatabase();

  // Each test gets a new schema, migrated as in production: the same contracts as every store.
  const openStore = async () => openPostgresStore({ databaseUrl: await createTestSchema(database.url) });
  describeStoreContract(openStore);
  describeStoreIsolationContract(openStore);
  describeStoreCloseContract(openStore);
});
