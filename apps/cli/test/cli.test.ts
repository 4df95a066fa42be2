import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, demoWorkspaceFile, type ImportFileInput } from "@service-api/provisioning";
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

/** Tests that start the CLI once per command: seven processes, each loading the store, in turn. */
const EACH_COMMAND_TIMEOUT = 60_000;

describe("service-api", () => {
  it("lists its commands with --help and exits 0", async () => {
    const result = await (await place()).run(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["migrate", "import", "export", "demo", "workspaces", "apps", "keys"])
      expect(result.stdout).toContain(command);
  });

  it(
    "has --help on every command",
    async () => {
      const here = await place();
      for (const command of ["migrate", "import", "export", "demo", "workspaces", "apps", "keys"]) {
        const result = await here.run([command, "--help"]);
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^Usage: service-api ${command}`));
      }
    },
    EACH_COMMAND_TIMEOUT,
  );

  it(
    "exits 2 with the usage on stderr for an unknown command, option or missing argument",
    async () => {
      const here = await place();
      for (const args of [
        ["frobnicate"],
        ["import"],
        ["export", "--zip"],
        ["keys"],
        ["keys", "create"],
        [],
      ]) {
        const result = await here.run(args);
        expect(result.code, args.join(" ")).toBe(2);
        expect(result.stderr).toContain("Usage: service-api");
        expect(result.stdout).toBe("");
      }
    },
    EACH_COMMAND_TIMEOUT,
  );

  it("migrates a new database", async () => {
    const here = await place();
    const result = await here.run(["migrate"]);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining("up to date") });
    expect((await here.run(["export"])).stdout).toBe('{\n  "version": 1,\n  "workspaces": []\n}\n');
  });
});

describe("service-api import and export", () => {
  it("imports a file, and importing it again changes nothing", async () => {
    const here = await place();
    writeFileSync(join(here.directory, "data.json"), JSON.stringify(demoWorkspaceFile()));
    const first = await here.run(["import", "data.json"]);
    expect(first).toMatchObject({
      code: 0,
      stdout: "Imported 1 workspace, 1 dataset, 4 documents, 2 apps, 1 conversation, 0 API keys.\n",
    });
    const before = (await here.run(["export"])).stdout;
    expect((await here.run(["import", "data.json"])).code).toBe(0);
    expect((await here.run(["export"])).stdout).toBe(before);
  });

  it("reads the file from standard input with -", async () => {
    const here = await place();
    const result = await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    expect(result.code).toBe(0);
  });

  it("refuses a bad file with every problem's path on stderr, exit 1, and the database untouched", async () => {
    const here = await place();
    await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    const before = (await here.run(["export"])).stdout;
    const bad = demoWorkspaceFile();
    bad.workspaces[0]!.datasets![0]!.documents![0]!.metadata = { authr: "typo" };
    (bad.workspaces[0] as Record<string, unknown>).colour = "red";
    const result = await here.run(["import", "-"], JSON.stringify(bad));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("workspaces[0]: Unrecognized key");
    expect(result.stdout).toBe("");
    expect((await here.run(["export"])).stdout).toBe(before);

    delete (bad.workspaces[0] as Record<string, unknown>).colour;
    const second = await here.run(["import", "-"], JSON.stringify(bad));
    expect(second.stderr).toContain(
      'workspaces[0].datasets[0].documents[0].metadata.authr: field "authr" is not defined for this dataset',
    );
    expect(second.stderr).toContain("Nothing was imported.");
    expect((await here.run(["export"])).stdout).toBe(before);
  });

  it("refuses a file that is not JSON, or is missing, with exit 1", async () => {
    const here = await place();
    writeFileSync(join(here.directory, "broken.json"), "{ not json");
    const broken = await here.run(["import", "broken.json"]);
    expect(broken).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("broken.json is not valid JSON"),
    });
    const missing = await here.run(["import", "missing.json"]);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining("Cannot read missing.json") });
  });

  it("round-trips: export, import into an empty database, export gives the same document", async () => {
    const source = await place();
    await source.run(["demo"]);
    await source.run(["keys", "create", "--app", DEMO.workflowAppId]);
    expect((await source.run(["export", "out.json"])).code).toBe(0);
    const exported = readFileSync(join(source.directory, "out.json"), "utf8");
    expect(exported).toMatch(/"sha256:[0-9a-f]{64}"/);
    // The demo's document created by text carries its file's bytes: its text, its segments apart.
    const { documents } = (JSON.parse(exported) as ImportFileInput).workspaces[0]!.datasets![0]!;
    const faq = documents!.find((document) => document.name === "faq.txt")!;
    expect(Buffer.from(faq.upload_file!.content_base64!, "base64").toString("utf8")).toBe(
      faq.segments!.map((segment) => segment.content).join("\n\n"),
    );

    const target = await place();
    writeFileSync(join(target.directory, "in.json"), exported);
    expect((await target.run(["import", "in.json"])).stdout).toContain("3 API keys");
    expect((await target.run(["export"])).stdout).toBe(exported);
  });

  it("imports the README's minimal example file", async () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const example = /A minimal file:\s+```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const result = await (await place()).run(["import", "-"], example);
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("1 workspace, 1 dataset, 1 document, 1 app"),
    });
  });

  it("shows progress on stderr when asked", async () => {
    const here = await place();
    const result = await here.run(["import", "-", "--progress"], JSON.stringify(demoWorkspaceFile()));
    expect(result.stderr).toContain("Importing documents: 4/4");
  });
});

describe("service-api keys and demo", () => {
  it("creates a key, printed once, listed by prefix only, and revokes it", async () => {
    const here = await place();
    await here.run(["import", "-"], JSON.stringify(demoWorkspaceFile()));
    const created = await here.run(["keys", "create", "--workspace", DEMO.workspaceId]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^ds-[A-Za-z0-9]{40}$/);
    const id = /Created key (\S+)/.exec(created.stderr)?.[1];

    const listed = await here.run(["keys", "list"]);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain(`${token.slice(0, 7)}…`);
    expect(listed.stdout).not.toContain(token.slice(7, 20));
    const json = JSON.parse((await here.run(["keys", "list", "--json"])).stdout);
    expect(json).toEqual([expect.objectContaining({ id, kind: "dataset", lastUsedAt: null })]);
    expect(JSON.stringify(json)).not.toContain(token.slice(3));

    expect(await here.run(["keys", "revoke", id!])).toMatchObject({
      code: 0,
      stdout: `Revoked key ${id}.\n`,
    });
    expect((await here.run(["keys", "list", "--json"])).stdout.trim()).toBe("[]");
    expect(await here.run(["keys", "revoke", id!])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No API key"),
    });
  });

  it("lists a key imported as its hash by its kind, with one ellipsis", async () => {
    const here = await place();
    const file = demoWorkspaceFile();
    file.workspaces[0]!.dataset_api_keys = [`sha256:${"ab".repeat(32)}`];
    expect((await here.run(["import", "-"], JSON.stringify(file))).code).toBe(0);
    const listed = (await here.run(["keys", "list"])).stdout;
    expect(listed).toMatch(/ ds-… /);
    expect(listed).not.toContain("……");
  });

  it("exits 1 when the app or workspace does not exist", async () => {
    const result = await (await place()).run(["keys", "create", "--app", DEMO.chatAppId]);
    expect(result).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringContaining("No app has the id"),
    });
  });

  it("loads the demo and prints fresh keys each time", async () => {
    const here = await place();
    const first = await here.run(["demo"]);
    const second = await here.run(["demo"]);
    const key = (output: string) => /app key:\s+(\S+)/.exec(output)?.[1];
    expect(key(first.stdout)).toMatch(/^app-/);
    expect(key(second.stdout)).not.toBe(key(first.stdout));
    const listed = JSON.parse((await here.run(["keys", "list", "--json"])).stdout) as {
      displayPrefix: string;
    }[];
    expect(listed.map((entry) => entry.displayPrefix).sort()).toEqual(
      [key(second.stdout)!.slice(0, 8), /knowledge key:\s+(\S+)/.exec(second.stdout)![1]!.slice(0, 7)].sort(),
    );
  });
});
