import { existsSync } from "node:fs";
import {
  RandomTokenGenerator,
  RandomUuidGenerator,
  Sha256TokenHasher,
  SystemClock,
} from "@service-api/adapters-node";
import type { Store } from "@service-api/ports";
import {
  CreateApp,
  CreateWorkspace,
  ExportData,
  ImportData,
  IssueApiKey,
  ListWorkspaces,
  LoadDemoWorkspace,
  RevokeApiKey,
} from "@service-api/provisioning";
import {
  checkStoreOptions,
  openStore,
  sqlitePathOf,
  storeKindOf,
  storeOptionsFromEnvironment,
} from "@service-api/stores";
import type { CommandIo } from "./io.js";

export interface AdminOptions {
  /**
   * Refuse a SQLite file that does not exist instead of creating an empty database there: for
   * commands that only read, where a mistyped DATABASE_URL would otherwise read nothing and succeed.
   */
  existingDatabase?: boolean;
}

/**
 * The store options of a command, from its environment: the server's, but for PostgreSQL's
 * statement and lock time-outs, none unless `DATABASE_STATEMENT_TIMEOUT_MS` or
 * `DATABASE_LOCK_TIMEOUT_MS` is given. A command waits for the locks it needs as long as they are
 * held (a second import into a workspace, for the first): cut at 15 s, it failed as "the database
 * is unavailable".
 */
export function adminStoreOptions(environment: Record<string, string | undefined>) {
  return storeOptionsFromEnvironment(environment, { statementTimeoutMs: 0, lockTimeoutMs: 0 });
}

/** The CLI's composition root: the store `DATABASE_URL` names and the provisioning use cases over it. */
export async function openAdmin(io: CommandIo, { existingDatabase = false }: AdminOptions = {}) {
  // SQLite's settings as the server's: a busy time-out to wait beside it, the commits' durability.
  const { databaseUrl, pool, sqlite } = adminStoreOptions(io.env);
  // What no store can take is refused as such first: "no such file" would hide it.
  if (existingDatabase) {
    checkStoreOptions({ databaseUrl, pool });
    refuseMissingSqliteFile(databaseUrl);
  }
  const store: Store = await openStore({ databaseUrl, pool, sqlite });
  const [ids, hasher, clock] = [new RandomUuidGenerator(), new Sha256TokenHasher(), new SystemClock()];
  const importData = new ImportData(store, ids, hasher, clock);
  const issueKey = new IssueApiKey(store.repositories, new RandomTokenGenerator(), hasher, ids, clock);
  return {
    databaseUrl,
    store,
    importData,
    // The CLI opens a store of its own: a long export's snapshot holds none of a running server's connections.
    exportData: new ExportData(store),
    issueKey,
    revokeKey: new RevokeApiKey(store.repositories.apiKeys),
    loadDemo: new LoadDemoWorkspace(importData, issueKey, store.repositories),
    createWorkspace: new CreateWorkspace(store, ids),
    listWorkspaces: new ListWorkspaces(store.repositories),
    createApp: new CreateApp(store, ids),
    close: () => store.close(),
  };
}

export type Admin = Awaited<ReturnType<typeof openAdmin>>;

/** Runs `work` with the admin use cases open, closing the store whatever happens. */
export async function withAdmin<T>(
  io: CommandIo,
  work: (admin: Admin) => Promise<T>,
  options?: AdminOptions,
): Promise<T> {
  const admin = await openAdmin(io, options);
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

function refuseMissingSqliteFile(databaseUrl: string): void {
  if (storeKindOf(databaseUrl) !== "sqlite") return;
  const path = sqlitePathOf(databaseUrl);
  if (path === ":memory:" || existsSync(path)) return;
  throw new Error(
    `DATABASE_URL names a SQLite file that does not exist: ${path}. Nothing was created: check DATABASE_URL, or create the database with service-api migrate.`,
  );
}
