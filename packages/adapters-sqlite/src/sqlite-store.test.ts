import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeStoreCloseContract,
  describeStoreContract,
  describeStoreIsolationContract,
} from "@service-api/ports/testing";
import { afterAll, describe } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-sqlite-"));
let opened = 0;
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// Every test gets its own database file, with the migrations applied as in production.
const openStore = () => openSqliteStore({ databaseUrl: join(directory, `contract-${++opened}.sqlite`) });
describeStoreContract(openStore);
describeStoreIsolationContract(openStore);
describeStoreCloseContract(openStore);

// With `gatherReads` (the benchmark's comparison), a request's reads go as one statement each, as on
// PostgreSQL, where SQLite can: the same answers.
describe("gathering reads", () => {
  describeStoreContract(() =>
    openSqliteStore({ databaseUrl: join(directory, `gathered-${++opened}.sqlite`), gatherReads: true }),
  );
});
