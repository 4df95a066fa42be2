import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.js";

/** An in-memory database that counts the statements it prepares. */
function countingDatabase() {
  const database = new Database(":memory:");
  const counter = { prepared: 0 };
  const counting = {
    close: () => database.close(),
    prepare: (sql: string) => {
      counter.prepared += 1;
      return database.prepare(sql);
    },
  };
  return { counting, counter };
}

describe("withStatementCache", () => {
  it("prepares each SQL once and reuses the statement", () => {
    const { counting, counter } = countingDatabase();
    const cached = withStatementCache(counting);
    const first = cached.prepare("select 1 as one");
    expect(cached.prepare("select 1 as one")).toBe(first);
    expect(first.all([])).toEqual([{ one: 1 }]);
    expect(counter.prepared).toBe(1);
    cached.close();
  });

  it("keeps at most its capacity, dropping the least recently used", () => {
    const { counting, counter } = countingDatabase();
    const cached = withStatementCache(counting, 2);
    cached.prepare("select 1");
    cached.prepare("select 2");
    cached.prepare("select 1");
    cached.prepare("select 3");
    expect(counter.prepared).toBe(3);
    cached.prepare("select 1");
    expect(counter.prepared).toBe(3);
    cached.prepare("select 2");
    expect(counter.prepared).toBe(4);
    cached.close();
  });
});
