import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO, demoWorkspaceFile } from "@service-api/provisioning";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomically } from "../src/io.js";
import { cli, scratch } from "./support/cli.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function place() {
  const created = await scratch();
  cleanups.push(created.cleanup);
  return created;
}

function emptyFolder() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-cli-export-"));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

describe("service-api export", () => {
  it("writes to a file the same text it writes to standard output", async () => {
    const here = await place();
    await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    const written = await here.run(["export", "backup.json"]);
    expect(written).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "Exported 1 workspace(s), 4 document(s) to backup.json.\n",
    });
    const file = readFileSync(join(here.directory, "backup.json"), "utf8");
    expect(file).toBe((await here.run(["export"])).stdout);
    expect(file).toBe(`${JSON.stringify(JSON.parse(file), null, 2)}\n`);
    expect(readdirSync(here.directory)).toEqual(["backup.json"]);
  });

  it("refuses a SQLite file that does not exist with exit 1, creating nothing", async () => {
    const directory = emptyFolder();
    for (const databaseUrl of [join(directory, "typo.sqlite"), `file:${join(directory, "typo.sqlite")}`]) {
      for (const args of [
        ["export", "backup.json"],
        ["export"],
        ["keys", "list"],
        ["keys", "revoke", DEMO.workspaceId],
      ]) {
        const result = await cli(args, { databaseUrl, cwd: directory });
        expect(result, args.join(" ")).toMatchObject({
          code: 1,
          stdout: "",
          stderr: expect.stringContaining(
            `DATABASE_URL names a SQLite file that does not exist: ${join(directory, "typo.sqlite")}`,
          ),
        });
      }
    }
    expect(readdirSync(directory)).toEqual([]);
  });

  it("says that migrate creates a SQLite file, and that a PostgreSQL database must exist", async () => {
    const help = (await (await place()).run(["migrate", "--help"])).stdout.replaceAll(/\s+/g, " ");
    expect(help).toContain("A SQLite file that does not exist is created");
    expect(help).toContain("a PostgreSQL database must exist already");
  });
});

describe("writing a file atomically", () => {
  it("leaves the target as it was, and nothing beside it, when writing fails part way", async () => {
    const directory = emptyFolder();
    const target = join(directory, "backup.json");
    writeFileSync(target, "the previous backup\n");
    const failure = new Error("the database went away");
    await expect(
      writeFileAtomically(target, async (write) => {
        await write("x".repeat(3 << 20));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(readFileSync(target, "utf8")).toBe("the previous backup\n");
    expect(readdirSync(directory)).toEqual(["backup.json"]);
  });

  it("replaces the target once everything is written", async () => {
    const directory = emptyFolder();
    const target = join(directory, "backup.json");
    writeFileSync(target, "old");
    const pieces = Array.from({ length: 5000 }, (_, index) => `piece ${index}\n`);
    expect(
      await writeFileAtomically(target, async (write) => {
        for (const piece of pieces) await write(piece);
        return "done";
      }),
    ).toBe("done");
    expect(readFileSync(target, "utf8")).toBe(pieces.join(""));
    expect(readdirSync(directory)).toEqual(["backup.json"]);
  });
});

describe("writing a file atomically, over a file that has permissions or a link to it", () => {
  it("keeps the permissions of the file it replaces", async () => {
    const target = join(emptyFolder(), "backup.json");
    writeFileSync(target, "old");
    chmodSync(target, 0o600);
    await writeFileAtomically(target, async (write) => write("new"));
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, "utf8")).toBe("new");
  });

  it("writes the file a symbolic link names, leaving the link a link", async () => {
    const directory = emptyFolder();
    const target = join(directory, "backup.json");
    const link = join(directory, "latest.json");
    writeFileSync(target, "old");
    symlinkSync(target, link);
    await writeFileAtomically(link, async (write) => write("new"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("new");
    expect(readdirSync(directory).sort()).toEqual(["backup.json", "latest.json"]);
  });
});

describe("service-api keys, given ids as the HTTP API takes them", () => {
  it("creates a key for an app named by its id in capitals", async () => {
    const here = await place();
    await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    const created = await here.run(["keys", "create", "--app", DEMO.chatAppId.toUpperCase()]);
    expect(created).toMatchObject({ code: 0, stderr: expect.stringContaining(`for app ${DEMO.chatAppId}.`) });
    const listed = await here.run(["keys", "list", "--app", DEMO.chatAppId.toUpperCase(), "--json"]);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ appId: DEMO.chatAppId })]);
  });

  it("refuses to list the keys of a workspace or app no one has, with exit 1", async () => {
    const here = await place();
    await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    const unknown = "5f0c2a1e-0000-4000-8000-000000000000";
    expect(await here.run(["keys", "list", "--workspace", unknown])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringContaining(`No workspace has the id ${unknown}.`),
    });
    expect(await here.run(["keys", "list", "--app", unknown, "--json"])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringContaining(`No app has the id ${unknown}.`),
    });
    expect(await here.run(["keys", "list", "--workspace", DEMO.workspaceId])).toMatchObject({
      code: 0,
      stderr: "No API keys.\n",
    });
  });
});
