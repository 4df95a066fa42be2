import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore } from "@service-api/adapters-postgres";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "@service-api/adapters-postgres/testing";
import { openSqliteStore } from "@service-api/adapters-sqlite";
import type { Store } from "@service-api/ports";
import {
  createInMemoryStore,
  ManualClock,
  SequentialIdGenerator,
  SequentialTokenGenerator,
} from "@service-api/ports/testing";
import { afterAll } from "vitest";
import { CreateApp } from "./apps/create-app.js";
import { ExportData } from "./export/export-data.js";
import { ImportData } from "./import/import-data.js";
import { IssueApiKey } from "./keys/issue-api-key.js";
import { CreateWorkspace } from "./workspaces/create-workspace.js";
import { ListWorkspaces } from "./workspaces/list-workspaces.js";

/** A stand-in for SHA-256 (64 hex digits); real hashing is the Node adapter's, tested there. */
const digits = new SequentialIdGenerator();
const hasher = {
  hash: (token: string) => `${digits.derive("a", token)}${digits.derive("b", token)}`.replaceAll("-", ""),
  matches: (token: string, tokenHash: string) => hasher.hash(token) === tokenHash,
};

/** One PostgreSQL database per test file, a schema in it per store, dropped when the file's tests end. */
let database: Promise<TestDatabase> | undefined;
afterAll(async () => (await database)?.drop());

/**
 * The stores provisioning runs on in these tests: in memory, a real SQLite file (removed on close),
 * and PostgreSQL where it answers (CI requires it).
 */
export const STORES: [string, () => Promise<Store>][] = [
  ["in memory", async () => createInMemoryStore()],
  [
    "on a SQLite file",
    async () => {
      const directory = mkdtempSync(join(tmpdir(), "service-api-provisioning-"));
      const store = await openSqliteStore({ databaseUrl: join(directory, "provisioning.sqlite") });
      return {
        ...store,
        close: async () => {
          await store.close();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  ],
  ...((await requirePostgresForTests())
    ? [
        [
          "on PostgreSQL",
          async () => {
            database ??= createTestDatabase();
            const databaseUrl = await createTestSchema((await database).url);
            return openPostgresStore({ databaseUrl, accessListener: false });
          },
        ] as [string, () => Promise<Store>],
      ]
    : []),
];

/** A store (in memory unless given) with the provisioning use cases over it. */
export function createProvisioningWorld(store: Store = createInMemoryStore()) {
  const clock = new ManualClock();
  const ids = new SequentialIdGenerator();
  return {
    store,
    clock,
    importData: new ImportData(store, ids, hasher, clock),
    exportData: new ExportData(store),
    issueKey: new IssueApiKey(store.repositories, new SequentialTokenGenerator(), hasher, ids, clock),
    createWorkspace: new CreateWorkspace(store, ids),
    listWorkspaces: new ListWorkspaces(store.repositories),
    createApp: new CreateApp(store, ids),
    hasher,
  };
}
