import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlannedOnceSqliteDialect } from "./planned-once-dialect.js";

interface Schema {
  fields: { id: string; dataset_id: string; position: number };
}

/** A table of fields in two datasets, read in order the way the metadata reads are. */
function fieldsDatabase() {
  const database = new Database(":memory:");
  database.exec(`create table fields (id text primary key, dataset_id text not null, position integer not null);
    create index fields_in_order on fields (dataset_id, position, id);`);
  const insert = database.prepare("insert into fields values (?, ?, ?)");
  for (let index = 0; index < 6; index++) insert.run(`f${index}`, `d${index % 2}`, 5 - index);
  return database;
}

/**
 * How many times SQLite prepared `sql` while it ran `runs` times with alternating values. better-sqlite3
 * builds a statement's row shape (a function, through `Function`) when it is prepared, and again
 * each time SQLite prepared it again.
 */
function preparesOver(database: Database.Database, sql: string, runs: number) {
  const statement = database.prepare(sql);
  statement.all("d0");
  const built = vi.spyOn(globalThis, "Function");
  const rows = Array.from({ length: runs }, (_, run) => statement.all(`d${run % 2}`));
  const prepares = built.mock.calls.length;
  built.mockRestore();
  return { prepares, rows };
}

afterEach(() => vi.restoreAllMocks());

describe("PlannedOnceSqliteDialect", () => {
  it("writes every parameter as +?", () => {
    const db = new Kysely<Schema>({ dialect: new PlannedOnceSqliteDialect({ database: fieldsDatabase() }) });
    const { sql, parameters } = db
      .selectFrom("fields")
      .select("id")
      .where("dataset_id", "=", "d0")
      .where("id", "in", ["f0", "f2"])
      .orderBy("position")
      .limit(2)
      .compile();
    expect(sql).toBe(
      'select "id" from "fields" where "dataset_id" = +? and "id" in (+?, +?) order by "position" limit +?',
    );
    expect(parameters).toEqual(["d0", "f0", "f2", 2]);
  });

  it("keeps an ordered read with a new value each run from being prepared again, with the same rows", async () => {
    const database = fieldsDatabase();
    const ordered = "select id from fields where dataset_id = ? order by position, id";
    const bare = preparesOver(database, ordered, 10);
    const plus = preparesOver(database, ordered.replace("= ?", "= +?"), 10);
    // SQLite's own behaviour, which the dialect works around: a bare parameter, a new plan each run.
    expect(bare.prepares).toBe(10);
    expect(plus.prepares).toBe(0);
    expect(plus.rows).toEqual(bare.rows);
    expect(plus.rows[0]).toEqual([{ id: "f4" }, { id: "f2" }, { id: "f0" }]);

    const db = new Kysely<Schema>({ dialect: new PlannedOnceSqliteDialect({ database }) });
    const compiled = db
      .selectFrom("fields")
      .select("id")
      .where("dataset_id", "=", "d0")
      .orderBy("position")
      .orderBy("id")
      .compile();
    expect(preparesOver(database, compiled.sql, 10).prepares).toBe(0);
    expect(database.prepare(`explain query plan ${compiled.sql}`).all("d0")).toEqual([
      expect.objectContaining({
        detail: "SEARCH fields USING COVERING INDEX fields_in_order (dataset_id=?)",
      }),
    ]);
    await db.destroy();
  });
});

describe("migrations", () => {
  it("apply in one transaction with their records: one that fails halfway leaves nothing behind", async () => {
    const database = new Database(":memory:");
    const db = new Kysely<unknown>({ dialect: new PlannedOnceSqliteDialect({ database }) });
    database.exec("create table fields (id text primary key)");
    let failHalfway = true;
    const migrations: Record<string, Migration> = {
      "0001-position": {
        up: async (trx) => {
          await sql`alter table fields add column position integer`.execute(trx);
        },
      },
      "0002-order": {
        up: async (trx) => {
          await sql`alter table fields add column sort_key text`.execute(trx);
          // As a process killed here: the column is added, the migration not recorded.
          if (failHalfway) throw new Error("killed");
          await sql`create index fields_in_order on fields (sort_key)`.execute(trx);
        },
      },
    };
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const columns = () =>
      (database.pragma("table_info(fields)") as { name: string }[]).map(({ name }) => name);

    expect((await migrator.migrateToLatest()).error).toEqual(new Error("killed"));
    expect(columns()).toEqual(["id"]);

    failHalfway = false;
    const { error, results } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    expect(results?.map(({ migrationName, status }) => `${migrationName} ${status}`)).toEqual([
      "0001-position Success",
      "0002-order Success",
    ]);
    expect(columns()).toEqual(["id", "position", "sort_key"]);
    await db.destroy();
  });
});
