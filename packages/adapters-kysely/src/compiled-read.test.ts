import Database from "better-sqlite3";
import { type Expression, Kysely, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import {
  compiledByCount,
  compiledForIds,
  compiledRead,
  LARGEST_COMPILED_COUNT,
  runCompiledDirectly,
} from "./compiled-read.js";
import type { DatabaseSchema } from "./schema.js";
import type { SqlFeatures } from "./sql-features.js";

function database() {
  const sqlite = new Database(":memory:");
  sqlite.exec("create table workspaces (id text primary key, name text, status text)");
  sqlite.exec("insert into workspaces values ('a', 'Alpha', 'normal'), ('b', 'Beta', 'archived')");
  const compiled: string[] = [];
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      compiled.push(event.query.sql);
    },
  });
  return { db, compiled };
}

describe("compiledRead", () => {
  const byIdAndStatus = compiledRead((db, id: string, status: string) =>
    db
      .selectFrom("workspaces")
      .select(["id", "name"])
      .where("id", "=", id)
      .where("status", "=", status)
      .where("name", "!=", ""),
  );

  it("gives the rows the built query gives, for each call's arguments", async () => {
    const { db } = database();
    expect(await byIdAndStatus(db, "a", "normal")).toEqual([{ id: "a", name: "Alpha" }]);
    expect(await byIdAndStatus(db, "b", "archived")).toEqual([{ id: "b", name: "Beta" }]);
    expect(await byIdAndStatus(db, "b", "normal")).toEqual([]);
  });

  it("builds the SQL once per database and keeps the constants in their places", async () => {
    const { db, compiled } = database();
    await byIdAndStatus(db, "a", "normal");
    await byIdAndStatus(db, "b", "archived");
    expect(new Set(compiled).size).toBe(1);
    expect(await byIdAndStatus(db, "a", "normal")).toHaveLength(1);
  });
});

describe("compiledByCount", () => {
  it("compiles one query per number of values and gives each call its rows", async () => {
    const { db, compiled } = database();
    const byIds = compiledByCount((database, count, ...ids) =>
      database
        .selectFrom("workspaces")
        .select("id")
        .where("id", "in", ids.slice(0, count) as string[])
        .orderBy("id"),
    );
    expect(await byIds(db, 1, "a")).toEqual([{ id: "a" }]);
    expect(await byIds(db, 2, "a", "b")).toEqual([{ id: "a" }, { id: "b" }]);
    expect(await byIds(db, 2, "b", "zz")).toEqual([{ id: "b" }]);
    expect(await byIds(db, 1, "b")).toEqual([{ id: "b" }]);
    expect(new Set(compiled).size).toBe(2);
  });
});

describe("compiledByCount beyond its largest kept count", () => {
  it("builds such queries on every call, keeping nothing", async () => {
    const { db } = database();
    let builds = 0;
    const byIds = compiledByCount((database, count, ...ids) => {
      builds += 1;
      return database
        .selectFrom("workspaces")
        .select("id")
        .where("id", "in", ids.slice(0, count) as string[]);
    });
    const many = Array.from({ length: LARGEST_COMPILED_COUNT + 1 }, (_, index) =>
      index === 0 ? "a" : `x${index}`,
    );
    expect(await byIds(db, many.length, ...many)).toEqual([{ id: "a" }]);
    expect(await byIds(db, many.length, ...many)).toEqual([{ id: "a" }]);
    expect(builds).toBe(2);
    await byIds(db, 1, "a");
    await byIds(db, 1, "b");
    expect(builds).toBe(3);
  });
});

describe("compiledForIds", () => {
  // SQLite's list form, as adapters-sqlite gives it.
  const features = {
    listParameter: (values: readonly string[]) => JSON.stringify(values),
    inList: (expression: Expression<unknown>, list: unknown) =>
      sql<boolean>`${expression} in (select value from json_each(${list}))`,
  } as SqlFeatures;
  const seen: SqlFeatures[] = [];
  const byIds = compiledForIds((database, among, given, status) => {
    seen.push(given);
    return database
      .selectFrom("workspaces")
      .select("id")
      .where(among("id"))
      .where("status", "!=", status as string)
      .orderBy("id");
  });

  it("gives the statement it builds the database's features, and builds it once per features object", async () => {
    const { db } = database();
    const other = { ...features } as SqlFeatures;
    seen.length = 0;
    await byIds(db, features, ["a"], "none");
    await byIds(db, features, ["b"], "none");
    await byIds(db, other, ["a"], "none");
    expect(seen).toEqual([features, other]);
    expect(seen[0]).toBe(features);
    expect(seen[1]).toBe(other);
  });

  it("writes up to the largest kept count of ids into the statement, one statement per count", async () => {
    const { db, compiled } = database();
    expect(await byIds(db, features, ["a", "b"], "archived")).toEqual([{ id: "a" }]);
    expect(await byIds(db, features, ["b", "zz"], "none")).toEqual([{ id: "b" }]);
    expect(await byIds(db, features, [], "none")).toEqual([]);
    expect(new Set(compiled).size).toBe(2);
    expect(compiled[0]).toContain("in (?, ?)");
  });

  it("past that, takes the ids as one parameter, however many: one statement for every count", async () => {
    const { db, compiled } = database();
    const many = (count: number) => ["b", ...Array.from({ length: count - 1 }, (_, index) => `x${index}`)];
    // More than SQLite takes parameters (32,766).
    expect(await byIds(db, features, many(70_000), "none")).toEqual([{ id: "b" }]);
    expect(await byIds(db, features, many(LARGEST_COMPILED_COUNT + 1), "archived")).toEqual([]);
    expect(new Set(compiled).size).toBe(1);
    expect(compiled[0]).toContain("json_each");
  });
});

describe("runCompiledDirectly", () => {
  const byId = compiledRead((db, id: string) =>
    db.selectFrom("workspaces").select("name").where("id", "=", id),
  );

  it("runs compiled statements through the executor while it is free, through kysely otherwise", async () => {
    const { db, compiled } = database();
    const direct: string[] = [];
    let free = true;
    const sqlite = new Database(":memory:");
    sqlite.exec("create table workspaces (id text primary key, name text, status text)");
    sqlite.exec("insert into workspaces values ('a', 'Direct', 'normal')");
    runCompiledDirectly(db, {
      isFree: () => free,
      prepare: (sql) => {
        const statement = sqlite.prepare(sql);
        return (parameters) => {
          direct.push(sql);
          return statement.all(parameters as unknown[]);
        };
      },
    });
    expect(await byId(db, "a")).toEqual([{ name: "Direct" }]);
    expect(direct).toHaveLength(1);
    free = false;
    expect(await byId(db, "a")).toEqual([{ name: "Alpha" }]);
    expect(direct).toHaveLength(1);
    expect(compiled).toHaveLength(1);
  });
});
