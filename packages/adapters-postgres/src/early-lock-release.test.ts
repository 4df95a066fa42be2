import { StoreUnavailableError } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aDataset, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "./open-postgres-store.js";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "./testing/test-databases.js";

const available = await requirePostgresForTests();

/** Resolves once `check` is true, polling; fails past `withinMs`. */
async function eventually(check: () => Promise<boolean>, withinMs = 4_000): Promise<void> {
  const until = performance.now() + withinMs;
  while (!(await check())) {
    if (performance.now() > until) throw new Error("not within the time given");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether the promise has settled, without waiting for it. */
function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return () => settled;
}

describe.skipIf(!available)("early lock release on PostgreSQL: field renames", () => {
  let database: TestDatabase;
  let databaseUrl: string;
  let store: Store;
  let observer: pg.Client;
  const statements: string[] = [];
  let dataset: ReturnType<typeof aDataset>;
  let field: ReturnType<typeof aMetadataField>;

  beforeAll(async () => {
    database = await createTestDatabase();
    databaseUrl = await createTestSchema(database.url);
    store = await openPostgresStore({
      databaseUrl,
      pool: { max: 4 },
      fieldCountFolding: false,
      accessListener: false,
      onQuery: (sql) => statements.push(sql),
    });
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    dataset = aDataset(workspace.id);
    await store.repositories.datasets.save(dataset);
    field = aMetadataField(dataset.id, { name: "author" });
    await store.repositories.metadata.saveField(field);
    observer = new pg.Client({ connectionString: databaseUrl });
    await observer.connect();
  });
  afterAll(async () => {
    await observer?.end();
    await store?.close();
    await database?.drop();
  });

  const nameNow = async () =>
    (await observer.query<{ name: string }>("select name from metadata_fields where id = $1", [field.id]))
      .rows[0]?.name;

  /** Holds the lock the commit flush's `setval` needs, so the flush waits until `release`. */
  async function holdTheFlush() {
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("alter sequence commit_flush_marks restart");
    return async () => {
      await blocker.query("rollback");
      await blocker.end();
    };
  }

  it("lets the row go at its commit, before the WAL flush, and answers only after a flush that covers it", async () => {
    const release = await holdTheFlush();
    let first: Promise<unknown> | undefined;
    let second: Promise<unknown> | undefined;
    try {
      first = store.repositories.metadata.renameField(dataset.id, field.id, "first");
      const firstAnswered = settledFlag(first);
      await eventually(async () => (await nameNow()) === "first");
      // Committed and seen by others, the rename is not answered: its flush has not run.
      const { rows } = await observer.query<{ lsn: string }>(
        "select pg_current_wal_insert_lsn()::text as lsn",
      );
      const committedBy = rows[0]!.lsn;
      expect(firstAnswered()).toBe(false);
      // The next rename of the row does not wait for the first one's flush to take the row.
      second = store.repositories.metadata.renameField(dataset.id, field.id, "second");
      const secondAnswered = settledFlag(second);
      await eventually(async () => (await nameNow()) === "second");
      expect(firstAnswered()).toBe(false);
      expect(secondAnswered()).toBe(false);
      await release();
      expect(await first).toMatchObject({ id: field.id, name: "first" });
      // Answered: the WAL is on disk past the first rename's commit.
      const flushed = await observer.query<{ past: boolean }>(
        "select pg_current_wal_flush_lsn() >= $1::pg_lsn as past",
        [committedBy],
      );
      expect(flushed.rows[0]!.past).toBe(true);
      expect(await second).toMatchObject({ id: field.id, name: "second" });
    } finally {
      await release().catch(() => {});
      await Promise.allSettled([first, second]);
    }
    expect(statements.some((sql) => sql.includes("set_config('synchronous_commit', 'off', true)"))).toBe(
      true,
    );
    expect(statements.some((sql) => sql.includes("setval('commit_flush_marks', 1)"))).toBe(true);
  });

  it("renames in a transaction with the transaction's own flush: nothing released early, no flush of its own", async () => {
    const release = await holdTheFlush();
    statements.length = 0;
    try {
      // The flush is held: a rename that waited for it would not end.
      const renamed = await store.transaction((repositories) =>
        repositories.metadata.renameField(dataset.id, field.id, "in a transaction"),
      );
      expect(renamed).toMatchObject({ name: "in a transaction" });
    } finally {
      await release();
    }
    expect(await nameNow()).toBe("in a transaction");
    expect(statements.some((sql) => sql.includes("synchronous_commit"))).toBe(false);
    expect(statements.some((sql) => sql.includes("commit_flush_marks"))).toBe(false);
  });

  it("refuses a rename (503) when a connection was lost between its commit and its flush", async () => {
    const release = await holdTheFlush();
    let renaming: Promise<unknown> | undefined;
    try {
      renaming = store.repositories.metadata.renameField(dataset.id, field.id, "while a connection dies");
      await eventually(async () => (await nameNow()) === "while a connection dies");
      // One of the pool's idle connections ends (a restart, a failover, an administrator would end them all).
      const ended = await observer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'service-api' and datname = current_database() and state = 'idle'`,
      );
      expect(ended.rowCount).toBeGreaterThan(0);
      const failure = renaming.catch((error: unknown) => error);
      await release();
      // The flush may have reached a server that never had the commit: not vouched for.
      expect(await failure).toBeInstanceOf(StoreUnavailableError);
    } finally {
      await release().catch(() => {});
      await renaming?.catch(() => {});
    }
    // The store serves on, and vouches for the next rename.
    expect(await store.repositories.metadata.renameField(dataset.id, field.id, "after")).toMatchObject({
      name: "after",
    });
  });

  it("commits each rename with its own flush for a role that may not setval the flush's sequence", async () => {
    const role = `service_api_no_flush_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const schema = (await admin.query("select current_schema() as name")).rows[0].name as string;
    await admin.query(`create role ${role} login`);
    await admin.query(`grant usage on schema ${schema} to ${role}`);
    await admin.query(`grant all on all tables in schema ${schema} to ${role}`);
    const asRole = new URL(databaseUrl);
    asRole.username = role;
    const seen: string[] = [];
    const served = await openPostgresStore({
      databaseUrl: asRole.toString(),
      fieldCountFolding: false,
      accessListener: false,
      onQuery: (sql) => seen.push(sql),
    });
    try {
      expect(
        await served.repositories.metadata.renameField(dataset.id, field.id, "by a plain role"),
      ).toMatchObject({
        name: "by a plain role",
      });
      expect(seen.some((sql) => sql.includes("synchronous_commit"))).toBe(false);
      expect(seen.some((sql) => sql.includes("setval"))).toBe(false);
    } finally {
      await served.close();
      await admin.query(`drop owned by ${role}`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });

  it("answers a taken name or a missing field without a flush", async () => {
    await store.repositories.metadata.saveField(aMetadataField(dataset.id, { name: "taken" }));
    statements.length = 0;
    expect(await store.repositories.metadata.renameField(dataset.id, field.id, "taken")).toBe("name_taken");
    expect(await store.repositories.metadata.renameField(dataset.id, "no-such-field", "other")).toBe(
      "not_found",
    );
    expect(statements.some((sql) => sql.includes("commit_flush_marks"))).toBe(false);
  });
});
