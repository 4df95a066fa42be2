import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aWorkspace } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteDirectExecutor } from "./direct-executor.js";
import { openSqliteStore } from "./open-sqlite-store.js";
import { SharedReadTransaction } from "./shared-read-transaction.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-shared-read-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Once the current callbacks and microtasks are over, as when the event loop takes the next input. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A WAL database with one counter, our executor on it, and a second connection to the same file. */
function databases(name: string) {
  const path = join(directory, `${name}.sqlite`);
  const database = new Database(path);
  database.pragma("journal_mode = WAL");
  database.exec("create table counter (value integer not null); insert into counter values (1)");
  const reads = new SharedReadTransaction(database);
  const executor = sqliteDirectExecutor(database, reads);
  const other = new Database(path);
  const value = executor.prepare("select value from counter");
  const read = () => (value([]) as { value: number }[])[0]!.value;
  const close = () => {
    other.close();
    database.close();
  };
  return { database, executor, other, read, close };
}

/**
 * A read, then the tick's commit refused (an iterator holds the connection busy through it), then
 * the iterator closed: the shared transaction is still open.
 */
async function commitRefusedAtTheTick(name: string) {
  const opened = databases(name);
  opened.read();
  const iterator = opened.database.prepare("select value from counter").iterate();
  iterator.next();
  await nextTurn();
  expect(opened.database.inTransaction).toBe(true);
  iterator.return?.();
  return opened;
}

describe("SharedReadTransaction", () => {
  it("gives the reads of one turn one transaction, over before the next turn", async () => {
    const { database, read, close } = databases("one-turn");
    expect(read()).toBe(1);
    expect(database.inTransaction).toBe(true);
    expect(read()).toBe(1);
    await nextTurn();
    expect(database.inTransaction).toBe(false);
    close();
  });

  it("keeps it over the awaits after a read made outside any microtask, as a request's first read is", async () => {
    const { database, read, close } = databases("awaits");
    const afterAwaits = await new Promise<boolean>((resolve) =>
      setImmediate(async () => {
        read();
        await Promise.resolve();
        await Promise.resolve();
        resolve(database.inTransaction);
      }),
    );
    expect(afterAwaits).toBe(true);
    await nextTurn();
    expect(database.inTransaction).toBe(false);
    close();
  });

  it("reads one snapshot within a turn, and another connection's write from the next turn on", async () => {
    const { read, other, close } = databases("snapshot");
    expect(read()).toBe(1);
    other.exec("update counter set value = 2");
    expect(read()).toBe(1);
    await nextTurn();
    expect(read()).toBe(2);
    close();
  });

  it("ends before a write, which commits at once and is read after it in the same turn", () => {
    const { database, executor, read, other, close } = databases("write");
    expect(read()).toBe(1);
    executor.prepare("update counter set value = value + 1")([]);
    expect(database.inTransaction).toBe(false);
    expect(other.prepare("select value from counter").get()).toEqual({ value: 2 });
    expect(read()).toBe(2);
    const returned = executor.prepare("update counter set value = value + 1 returning value")([]);
    expect(returned).toEqual([{ value: 3 }]);
    expect(other.prepare("select value from counter").get()).toEqual({ value: 3 });
    close();
  });

  it("outlives a commit refused at the tick (an iterator still open), and ends before the next write", async () => {
    const { database, executor, other, close } = await commitRefusedAtTheTick("busy");
    executor.prepare("update counter set value = 5")([]);
    expect(database.inTransaction).toBe(false);
    expect(other.prepare("select value from counter").get()).toEqual({ value: 5 });
    close();
  });

  it("tries again at the next turn when the tick's commit was refused, so reads do not keep an old snapshot", async () => {
    const { database, read, other, close } = await commitRefusedAtTheTick("retry");
    other.exec("update counter set value = 7");
    await nextTurn();
    expect(database.inTransaction).toBe(false);
    expect(read()).toBe(7);
    close();
  });

  it("ends when another store on the file writes, so a call after the write reads it in the same turn", async () => {
    const path = join(directory, "two-stores.sqlite");
    const [writer, reader] = [
      await openSqliteStore({ databaseUrl: path }),
      await openSqliteStore({ databaseUrl: `file:${path}` }),
    ];
    try {
      // Calls one after the other with no turn of the event loop between: direct calls, not requests.
      const [first, second] = [aWorkspace(), aWorkspace()];
      expect(await reader.repositories.workspaces.findById(first.id)).toBeUndefined();
      await writer.repositories.workspaces.save(first);
      expect(await reader.repositories.workspaces.findById(first.id)).toEqual(first);
      // A transaction's writes, once it commits.
      await writer.transaction((repositories) => repositories.workspaces.save(second));
      expect(await reader.repositories.workspaces.findById(second.id)).toEqual(second);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it("ends before kysely's statements: a store transaction right after a read commits", async () => {
    const path = join(directory, "store.sqlite");
    const store = await openSqliteStore({ databaseUrl: path });
    await store.repositories.apiKeys.accessRevision();
    const workspace = aWorkspace();
    await store.transaction((repositories) => repositories.workspaces.save(workspace));
    await store.repositories.apiKeys.accessRevision();
    await store.close();
    const other = new Database(path);
    expect(other.prepare("select id from workspaces").all()).toEqual([{ id: workspace.id }]);
    other.close();
  });
});
