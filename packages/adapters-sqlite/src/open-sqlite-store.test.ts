import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StoreUnavailableError } from "@service-api/domain";
import { aWorkspace } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-open-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("openSqliteStore", () => {
  it("creates missing folders and the file, in WAL mode", async () => {
    const path = join(directory, "nested", "deeper", "kb.sqlite");
    const store = await openSqliteStore({ databaseUrl: `file:${path}` });
    await store.ping();
    await store.close();
    expect(existsSync(path)).toBe(true);
    const database = new Database(path);
    expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
    database.close();
  });

  it("keeps data across a reopen, applying migrations only once", async () => {
    const path = join(directory, "reopen.sqlite");
    const workspace = aWorkspace();
    const first = await openSqliteStore({ databaseUrl: path });
    await first.repositories.workspaces.save(workspace);
    await first.close();
    const second = await openSqliteStore({ databaseUrl: path });
    expect(await second.repositories.workspaces.findById(workspace.id)).toEqual(workspace);
    await second.close();
  });

  it.runIf(existsSync("/proc/self/maps"))("maps the file into memory only when asked to", async () => {
    // The WAL index (`-shm`) is always mapped; the question is the database file itself.
    const mappedFiles = () =>
      readFileSync("/proc/self/maps", "utf8")
        .split("\n")
        .map((line) => line.split(" ").at(-1));
    const plain = join(directory, "read-calls.sqlite");
    const mapped = join(directory, "memory-mapped.sqlite");
    const stores = [
      await openSqliteStore({ databaseUrl: plain }),
      await openSqliteStore({ databaseUrl: mapped, mmapSizeBytes: 64 * 2 ** 20 }),
    ];
    for (const store of stores) await store.repositories.workspaces.findById("anything");
    expect(mappedFiles()).toContain(mapped);
    expect(mappedFiles()).not.toContain(plain);
    for (const store of stores) await store.close();
    expect(mappedFiles()).not.toContain(mapped);
  });

  it("enforces foreign keys", async () => {
    const store = await openSqliteStore({ databaseUrl: join(directory, "fk.sqlite") });
    await expect(
      store.repositories.workspaces.saveMember({
        id: "m",
        workspaceId: "no-such-workspace",
        name: "x",
        role: "normal",
      }),
    ).rejects.toThrow(/FOREIGN KEY/);
    await store.close();
  });

  it("fails a write held up past busyTimeoutMs as unavailable, and tells its monitor of the lock", async () => {
    const path = join(directory, "busy.sqlite");
    const events: string[] = [];
    const store = await openSqliteStore({
      databaseUrl: path,
      busyTimeoutMs: 100,
      monitor: {
        unavailable: (error) => events.push(`unavailable ${(error as { code?: string }).code}`),
        lockWaitExceeded: (error) => events.push(`lock held ${(error as { code?: string }).code}`),
        available: () => events.push("available"),
        connectionLost: () => events.push("lost"),
      },
    });
    const other = new Database(path);
    other.exec("begin immediate");
    const started = Date.now();
    const failure = await store.repositories.workspaces.save(aWorkspace()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(events).toEqual(["lock held SQLITE_BUSY"]);
    other.exec("rollback");
    other.close();
    await store.repositories.workspaces.save(aWorkspace());
    expect(events).toEqual(["lock held SQLITE_BUSY", "available"]);
    await store.close();
  });

  it("waits for another connection's lock without holding the event loop, then writes", async () => {
    const path = join(directory, "waits.sqlite");
    const store = await openSqliteStore({ databaseUrl: path, busyTimeoutMs: 5000 });
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    const other = new Database(path);
    other.exec("begin immediate");
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    try {
      const started = performance.now();
      const outside = store.repositories.workspaces.save({ ...workspace, name: "outside a transaction" });
      const inside = store.transaction(({ workspaces }) => workspaces.save(aWorkspace({ name: "in one" })));
      // Reads go on meanwhile, and the lock is let go by a timer, which a blocked loop would never run.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await store.repositories.workspaces.findById(workspace.id))?.name).toBe(workspace.name);
      expect(ticks).toBeGreaterThanOrEqual(2);
      other.exec("commit");
      await Promise.all([outside, inside]);
      expect(performance.now() - started).toBeLessThan(4000);
    } finally {
      clearInterval(ticking);
      if (other.inTransaction) other.exec("rollback");
      other.close();
    }
    expect((await store.repositories.workspaces.findById(workspace.id))?.name).toBe("outside a transaction");
    await store.close();
  });

  it("refuses a rate limit's hit at once while another connection holds the lock: limits fail open", async () => {
    const path = join(directory, "limits.sqlite");
    const store = await openSqliteStore({ databaseUrl: path, busyTimeoutMs: 10_000 });
    const other = new Database(path);
    other.exec("begin immediate");
    try {
      const started = performance.now();
      const failure = await store.repositories.rateLimits
        .hit("key:k", 1, 1000)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      // Not after the busy time-out (10 s), as every other write.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect(await store.repositories.rateLimits.hit("key:k", 2, 1000)).toMatchObject({ hits: 1 });
    await store.close();
  });

  it("lets a transaction that reads first write after another connection's commit, never a 503", async () => {
    const path = join(directory, "snapshot.sqlite");
    const store = await openSqliteStore({ databaseUrl: path, busyTimeoutMs: 100 });
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    // Another process's write, here a second connection that does not wait.
    const other = new Database(path);
    other.pragma("busy_timeout = 0");
    let otherWrote: boolean | undefined;
    await store.transaction(async ({ workspaces }) => {
      await workspaces.findById(workspace.id);
      try {
        other.prepare("update workspaces set name = 'by the other' where id = ?").run(workspace.id);
        otherWrote = true;
      } catch {
        otherWrote = false;
      }
      await workspaces.save({ ...workspace, name: "by the transaction" });
    });
    other.close();
    // The transaction held the write lock from its start: the other connection had to wait.
    expect(otherWrote).toBe(false);
    expect((await store.repositories.workspaces.findById(workspace.id))?.name).toBe("by the transaction");
    await store.close();
  });

  it("opens beside another connection's write when there is nothing to migrate, taking no write lock", async () => {
    const path = join(directory, "beside-a-writer.sqlite");
    await (await openSqliteStore({ databaseUrl: path })).close();
    const other = new Database(path);
    other.exec("begin immediate");
    try {
      const store = await openSqliteStore({ databaseUrl: path, busyTimeoutMs: 50 });
      await store.close();
    } finally {
      other.exec("rollback");
      other.close();
    }
  });

  it("says why migrating failed in its message: a database a newer version migrated, say", async () => {
    const path = join(directory, "newer.sqlite");
    await (await openSqliteStore({ databaseUrl: path })).close();
    const database = new Database(path);
    database
      .prepare("insert into kysely_migration (name, timestamp) values ('9999-from-the-future', ?)")
      .run(new Date().toISOString());
    database.close();
    await expect(openSqliteStore({ databaseUrl: path })).rejects.toThrow(
      /^SQLite migration failed: .*9999-from-the-future/,
    );
  });

  it("sets how commits wait for the disk: normal by default, full on request", async () => {
    const issued: string[] = [];
    const pragma = Database.prototype.pragma;
    Database.prototype.pragma = function (this: Database.Database, source: string, options?: object) {
      issued.push(source);
      return pragma.call(this, source, options);
    } as typeof pragma;
    try {
      await (await openSqliteStore({ databaseUrl: join(directory, "normal.sqlite") })).close();
      await (
        await openSqliteStore({ databaseUrl: join(directory, "full.sqlite"), synchronous: "full" })
      ).close();
    } finally {
      Database.prototype.pragma = pragma;
    }
    expect(issued.filter((source) => source.startsWith("synchronous"))).toEqual([
      "synchronous = NORMAL",
      "synchronous = FULL",
    ]);
  });
});
