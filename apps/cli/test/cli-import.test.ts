import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { aWorkspace } from "@service-api/ports/testing";
import { DEMO, type ImportFileInput } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import { TEST_STORE } from "@service-api/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { scratch } from "./support/cli.js";

const places: Awaited<ReturnType<typeof scratch>>[] = [];
async function place() {
  const created = await scratch();
  places.push(created);
  return created;
}
afterEach(async () => {
  for (const created of places.splice(0)) await created.cleanup();
});

/** A place with the demo loaded, and its export. */
async function withDemo() {
  const here = await place();
  expect((await here.run(["demo"])).code).toBe(0);
  const exported = (await here.run(["export"])).stdout;
  return { here, exported, file: JSON.parse(exported) as ImportFileInput };
}

describe("service-api import against what is stored", () => {
  it("refuses a copy of a workspace that names its records, exit 1, and leaves the original whole", async () => {
    const { here, exported, file } = await withDemo();
    const copy = file.workspaces[0]!;
    delete copy.id;
    copy.name = "Acme (copy)";
    copy.dataset_api_keys = [];
    for (const app of copy.apps ?? []) app.api_keys = [];

    const result = await here.run(["import", "-"], JSON.stringify(file));
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain(
      `workspaces[0].datasets[0]: id ${DEMO.datasetId} is held by another workspace's dataset`,
    );
    expect(result.stderr).toContain(`apps[1]: id ${DEMO.chatAppId} is held by another workspace's app`);
    expect(result.stderr).toContain("Nothing was imported.");
    expect((await here.run(["export"])).stdout).toBe(exported);
  });

  it("refuses to change a stored tag's or field's type, or to take a stored name, naming each path", async () => {
    const { here, exported, file } = await withDemo();
    const workspace = file.workspaces[0]!;
    const dataset = workspace.datasets![0]!;
    const tags = workspace.tags!;
    const changed = tags.findIndex((tag) => tag.type === "knowledge");
    const knowledge = tags[changed]!;
    tags[changed] = { ...knowledge, type: "app" };
    tags.push({ name: knowledge.name, type: "knowledge" });
    dataset.tag_ids = [];
    dataset.metadata_fields![0]!.type = "number";
    for (const document of dataset.documents ?? []) document.metadata = {};

    const result = await here.run(["import", "-"], JSON.stringify(file));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `workspaces[0].tags[${changed}].type: tag ${knowledge.id} is stored as a knowledge tag`,
    );
    expect(result.stderr).toContain(
      `workspaces[0].tags[${tags.length - 1}].name: another knowledge tag of this workspace is named "${knowledge.name}"`,
    );
    expect(result.stderr).toContain(
      'workspaces[0].datasets[0].metadata_fields[0].type: field "author" is stored as a string field',
    );
    expect(result.stderr).not.toMatch(/UNIQUE|constraint/);
    expect((await here.run(["export"])).stdout).toBe(exported);
  });

  it("reads a file that starts with a UTF-8 byte order mark", async () => {
    const { here, exported } = await withDemo();
    writeFileSync(join(here.directory, "bom.json"), `\uFEFF${exported}`);
    expect(await here.run(["import", "bom.json"])).toMatchObject({ code: 0, stderr: "" });
    expect((await here.run(["export"])).stdout).toBe(exported);
  });

  it("refuses a file or standard input whose bytes are not UTF-8, exit 1, and imports nothing", async () => {
    const { here, exported } = await withDemo();
    const latin1 = Buffer.from(
      '{"version":1,"workspaces":[{"name":"Caf\xe9","members":[{"name":"m"}]}]}',
      "latin1",
    );
    writeFileSync(join(here.directory, "latin1.json"), latin1);
    const runs: [string, string[], Buffer | undefined][] = [
      ["latin1.json", ["import", "latin1.json"], undefined],
      ["standard input", ["import", "-"], latin1],
    ];
    for (const [name, args, stdin] of runs) {
      const result = await here.run(args, stdin);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toContain(`${name} is not valid UTF-8`);
      expect(result.stderr).toContain("Nothing was imported.");
    }
    expect((await here.run(["export"])).stdout).toBe(exported);
  });
});

/**
 * Another process's write on the database: a transaction begun and held until `release` is called
 * (or `forMs` has passed); `committed` when it ends.
 */
async function anotherWriter(databaseUrl: string, forMs = 60_000) {
  const store = await openStore({ databaseUrl });
  let begun!: () => void;
  let release!: () => void;
  const holding = new Promise<void>((resolve) => {
    begun = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, forMs);
  });
  const committed = store
    .transaction(async ({ workspaces }) => {
      await workspaces.save(aWorkspace());
      begun();
      await released;
    })
    .finally(() => store.close());
  await holding;
  return { committed, release };
}

const aWorkspaceFile = (name: string) =>
  JSON.stringify({ version: 1, workspaces: [{ name, members: [{ name: "Ada" }] }] });

describe.runIf(TEST_STORE === "sqlite")(
  "service-api import beside a server writing to the SQLite file",
  () => {
    it("waits for the other writer's transaction, then imports", async () => {
      const here = await place();
      expect((await here.run(["demo"])).code).toBe(0);
      const writing = await anotherWriter(here.databaseUrl, 1_500);
      const result = await here.run(["import", "-"], aWorkspaceFile("beside a writer"));
      await writing.committed;
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toContain("Imported 1 workspace");
    });

    it("gives up after SQLITE_BUSY_TIMEOUT_MS, saying the database is unavailable in its own words", async () => {
      const here = await place();
      expect((await here.run(["demo"])).code).toBe(0);
      // Held until the CLI has ended, however long it takes to start.
      const writing = await anotherWriter(here.databaseUrl);
      const result = await here.run(["import", "-"], aWorkspaceFile("too late"), {
        SQLITE_BUSY_TIMEOUT_MS: "200",
      });
      writing.release();
      await writing.committed;
      expect(result).toMatchObject({
        code: 1,
        stderr: "service-api import failed: the database is unavailable (database is locked). Try again.\n",
      });
    });
  },
);
