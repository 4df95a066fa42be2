import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@service-api/stores";
import { afterEach, describe, expect, it } from "vitest";
import { spawnRefusedServer } from "./support/server-process.js";
import { TEST_STORE } from "./support/test-database.js";

// What the standalone process does when it cannot serve: it says why on stderr, in words, without
// a stack trace, exits 1 and leaves the database as it was. Configuration does not depend on the
// store, so these run in the SQLite pass only.

const directories: string[] = [];
const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function workingDirectory() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-refused-"));
  directories.push(directory);
  return directory;
}

const isRoot = process.getuid?.() === 0;
/**
 * Makes a file unwritable to this process: `chmod` is enough for a user, but root writes past
 * permissions, so as root the file is made immutable (`chattr +i`, which binds root too). False
 * where neither is possible (root on a file system without the attribute).
 */
function makeUnwritable(path: string): boolean {
  if (!isRoot) {
    chmodSync(path, 0o444);
    return true;
  }
  if (spawnSync("chattr", ["+i", path]).status !== 0) return false;
  undo.push(() => spawnSync("chattr", ["-i", path]));
  return true;
}
/** Whether a file can be made unwritable here (probed once, on a scratch file). */
const canMakeUnwritable = (() => {
  const directory = mkdtempSync(join(tmpdir(), "service-api-probe-"));
  try {
    const probe = join(directory, "probe");
    writeFileSync(probe, "");
    const made = makeUnwritable(probe);
    for (const step of undo.splice(0)) step();
    return made;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
})();

/** A Node.js older than 22 on this machine (Debian's, say), if there is one. */
const olderNode = ["/usr/bin/node", "/usr/local/bin/node"].find((path) => {
  if (!existsSync(path)) return false;
  const version = spawnSync(path, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
  return Number(version.split(".")[0]) < 22;
});

const digestOf = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const STACK_LINE = /^\s+at /m;

describe.runIf(TEST_STORE === "sqlite")("a server that cannot start", () => {
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "8080", METRICS_PORT: "8080" }, "METRICS_PORT: must differ from PORT"],
    [{ HEADERS_TIMEOUT_MS: "20000", REQUEST_TIMEOUT_MS: "10000" }, "HEADERS_TIMEOUT_MS"],
    [{ DATABASE_URL: "mysql://localhost/kb" }, "DATABASE_URL"],
  ])("refuses the configuration %o, naming the setting, and exits 1", async (environment, named) => {
    const cwd = workingDirectory();
    const { code, stdout, stderr } = await spawnRefusedServer(cwd, environment);
    expect(code).toBe(1);
    expect(stderr).toContain(named);
    expect(stderr).not.toMatch(STACK_LINE);
    expect(stdout).not.toContain("listening");
  });

  it.runIf(canMakeUnwritable)(
    "refuses a SQLite file it may only read, naming it, exits 1 and leaves it as it was",
    async () => {
      const cwd = workingDirectory();
      const path = join(cwd, "kb.sqlite");
      // A migrated store, closed, so every page is in the file itself.
      const store = await openStore({ databaseUrl: path });
      await store.close();
      const before = digestOf(path);
      expect(makeUnwritable(path)).toBe(true);

      const { code, stdout, stderr } = await spawnRefusedServer(cwd, { DATABASE_URL: `file:${path}` });
      expect(code).toBe(1);
      // Without the check SQLite opens the file read-only without a word: the server would start,
      // say it is ready, and answer every write 500.
      expect(stdout).not.toContain("listening");
      expect(stderr).toContain(`The SQLite database ${path} is read-only to this process`);
      expect(stderr).not.toMatch(STACK_LINE);
      expect(digestOf(path)).toBe(before);
    },
  );

  it.runIf(olderNode !== undefined)(
    "on a Node.js older than 22, refuses SQLite in words instead of ending in a crash, creating nothing",
    async () => {
      const cwd = workingDirectory();
      const path = join(cwd, "kb.sqlite");
      const { code, signal, stderr } = await spawnRefusedServer(
        cwd,
        { DATABASE_URL: `file:${path}` },
        { node: olderNode },
      );
      // better-sqlite3 13 ends such a process with a segfault (signal SIGSEGV, exit 139 in a shell).
      expect({ code, signal }).toEqual({ code: 1, signal: null });
      expect(stderr).toContain("SQLite needs Node.js 22 or later");
      expect(stderr).not.toMatch(STACK_LINE);
      expect(existsSync(path)).toBe(false);
    },
  );
});
