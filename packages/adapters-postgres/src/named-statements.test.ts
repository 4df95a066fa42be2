import { aDataset, aDocument, aWorkspace } from "@service-api/ports/testing";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { NamedStatements } from "./named-statements.js";
import { openPostgresStore } from "./open-postgres-store.js";
import { createTestDatabase, createTestSchema, requirePostgresForTests } from "./testing/test-databases.js";

/**
 * A pool for these tests that, as the store's does, hears a connection's error while idle or ending:
 * `pool.end()` resolves before its connections have closed, and the database's drop that follows
 * ends them; unheard, that error ends the test run.
 */
function quietPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on("error", () => {});
  return pool;
}

const available = await requirePostgresForTests();

describe("NamedStatements", () => {
  it("names each text once, up to its limit, and sends the rest unnamed", () => {
    const statements = new NamedStatements(2);
    const first = statements.claim("select 1");
    expect(statements.claim("select 1")).toBe(first);
    const second = statements.claim("select 2");
    expect(second).not.toBe(first);
    expect(statements.claim("select 3")).toBeUndefined();
    expect(statements.size).toBe(2);
    expect(statements.config("select 2", [1])).toEqual({ name: second, text: "select 2", values: [1] });
    expect(statements.config("select 3", [1])).toEqual({ text: "select 3", values: [1] });
  });

  it("names nothing with a limit of 0", () => {
    const statements = new NamedStatements(0);
    expect(statements.claim("select 1")).toBeUndefined();
    expect(statements.config("select 1", [])).toEqual({ text: "select 1", values: [] });
  });
});

describe.skipIf(!available)("named statements on PostgreSQL", () => {
  it("keep their connection in the pool when the server refuses one", async () => {
    const database = await createTestDatabase();
    const pool = quietPool(database.url, 1);
    try {
      const statements = new NamedStatements(4);
      const backend = "select pg_backend_pid() as pid";
      const refused = "select 1 / $1::int as never";
      statements.claim(refused);
      const before = (await statements.sendToPool(pool, backend, [])).rows[0].pid;
      // Named, then unnamed.
      await expect(statements.sendToPool(pool, refused, [0])).rejects.toThrow("division by zero");
      await expect(statements.sendToPool(pool, "select 1 / 0", [])).rejects.toThrow("division by zero");
      expect((await statements.sendToPool(pool, backend, [])).rows[0].pid).toBe(before);
      expect(pool.totalCount).toBe(1);
    } finally {
      await pool.end();
      await database.drop();
    }
  });

  it("close a connection whose session the server ended, and go on on a new one", async () => {
    const database = await createTestDatabase();
    // As the store's pool: a connection ended while idle is the pool's to drop, not the process's end.
    const pool = quietPool(database.url, 1);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const statements = new NamedStatements(4);
      const backend = "select pg_backend_pid() as pid";
      const before = (await statements.sendToPool(pool, backend, [])).rows[0].pid;
      // Its outcome is taken at once: the rejection may come while the poll below runs.
      const sleeping = statements.sendToPool(pool, "select pg_sleep(10)", []).then(
        () => "answered",
        (error: Error) => error.message,
      );
      // Ended while the sleep runs on it, not before the pool has handed it out.
      const endWhileSleeping = `select pg_terminate_backend(pid) as done from pg_stat_activity
        where pid = $1 and state = 'active' and query like '%pg_sleep%'`;
      await expect
        .poll(async () => (await admin.query(endWhileSleeping, [before])).rows[0]?.done ?? false)
        .toBe(true);
      expect(await sleeping).toMatch(/terminating connection/);
      expect((await statements.sendToPool(pool, backend, [])).rows[0].pid).not.toBe(before);
    } finally {
      await admin.end();
      await pool.end();
      await database.drop();
    }
  });

  it("parse a name's columns as the connection that runs it prepared them", async () => {
    const database = await createTestDatabase();
    const pool = quietPool(database.url, 2);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("create table t (a int); insert into t values (1)");
      const statements = new NamedStatements(4);
      const everything = "select * from t";
      statements.claim(everything);
      expect((await statements.sendToPool(pool, everything, [])).rows).toEqual([{ a: 1 }]);
      // Another instance migrates; the connection that prepared the statement is busy, so the
      // next call runs on a new connection, which prepares the name with the new columns.
      const busy = await pool.connect();
      try {
        await admin.query("alter table t add column b text default 'x'");
        expect((await statements.sendToPool(pool, everything, [])).rows).toEqual([{ a: 1, b: "x" }]);
      } finally {
        busy.release();
      }
    } finally {
      await admin.end();
      await pool.end();
      await database.drop();
    }
  });

  it("build each name's column parsers once, and still parse every call's row as its own", async () => {
    const database = await createTestDatabase();
    const pool = quietPool(database.url, 1);
    const describing = vi.spyOn(
      pg.Query.prototype as unknown as { handleRowDescription(message: unknown): void },
      "handleRowDescription",
    );
    try {
      const statements = new NamedStatements(4);
      const numbers = "select $1::int as n, $1::int > 1 as big, $2::text as label";
      const documents = "select $1::json as body, $2::bigint as size";
      statements.claim(numbers);
      statements.claim(documents);
      for (let call = 1; call <= 3; call += 1) {
        const [row] = (await statements.sendToPool(pool, numbers, [call, `#${call}`])).rows;
        expect(row).toEqual({ n: call, big: call > 1, label: `#${call}` });
        row.n = -1;
        const [other] = (await statements.sendToPool(pool, documents, [`{"call":${call}}`, call])).rows;
        expect(other).toEqual({ body: { call }, size: expect.anything() });
        expect(Number(other.size)).toBe(call);
      }
      // Once per name: the first call's description serves the calls after it.
      expect(describing).toHaveBeenCalledTimes(2);
      // An unnamed statement is described on every call, as pg does.
      await statements.sendToPool(pool, "select 1 as one", []);
      await statements.sendToPool(pool, "select 1 as one", []);
      expect(describing).toHaveBeenCalledTimes(4);
    } finally {
      describing.mockRestore();
      await pool.end();
      await database.drop();
    }
  });

  it("ask for a name's row description only at its first call on a connection, rows or none", async () => {
    const database = await createTestDatabase();
    const describing = vi.spyOn(
      (pg as unknown as { Connection: { prototype: { describe(message: unknown): void } } }).Connection
        .prototype,
      "describe",
    );
    const pool = quietPool(database.url, 1);
    try {
      await statementsTable(pool);
      const statements = new NamedStatements(4);
      const insert = "insert into t (a) values ($1)";
      const select = "select a, a * 2 as twice from t where a = $1";
      statements.claim(insert);
      statements.claim(select);
      for (let call = 1; call <= 3; call += 1) {
        expect((await statements.sendToPool(pool, insert, [call])).rowCount).toBe(1);
        expect((await statements.sendToPool(pool, select, [call])).rows).toEqual([
          { a: call, twice: call * 2 },
        ]);
      }
      expect(describing).toHaveBeenCalledTimes(2);
      expect((await pool.query("select count(*)::int as n from t")).rows).toEqual([{ n: 3 }]);
      // Unnamed (with a parameter, so not a simple query), every call is described, as pg does.
      await statements.sendToPool(pool, "select $1::int as one", [1]);
      await statements.sendToPool(pool, "select $1::int as one", [1]);
      expect(describing).toHaveBeenCalledTimes(4);
      // A call the server refuses (a bad value) leaves the name's description good for the next.
      await expect(statements.sendToPool(pool, select, ["not a number"])).rejects.toThrow();
      expect((await statements.sendToPool(pool, select, [2])).rows).toEqual([{ a: 2, twice: 4 }]);
      expect(describing).toHaveBeenCalledTimes(4);
    } finally {
      describing.mockRestore();
      await pool.end();
      await database.drop();
    }
  });

  it("prepare again when a table changes under them (a newer instance migrated), in and out of transactions", async () => {
    const database = await createTestDatabase();
    const url = await createTestSchema(database.url);
    const store = await openPostgresStore({ databaseUrl: url, pool: { max: 4 } });
    try {
      const { workspaces, datasets, documents } = store.repositories;
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const document = aDocument(dataset.id);
      await documents.save(document);
      const read = () => documents.findDetail(workspace.id, dataset.id, document.id);
      const readInTransaction = () =>
        store.transaction((repositories) =>
          repositories.documents.findDetail(workspace.id, dataset.id, document.id),
        );
      // Every connection prepares the statement (more reads at once than connections).
      for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 8 }, read));
      await readInTransaction();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("alter table documents add column added_later integer");
      await client.end();

      // One at a time: a retry that found the next connection's old statement would fail again,
      // more times than a call is tried.
      for (const next of [read, read, readInTransaction, read]) {
        expect((await next()).detail?.document).toEqual(document);
      }
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

async function statementsTable(pool: pg.Pool): Promise<void> {
  await pool.query("create table t (a int)");
}
