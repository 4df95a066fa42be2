import { existsSync } from "node:fs";
import { join } from "node:path";
import { TEST_STORE } from "@service-api/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { scratch } from "./support/cli.js";
import { type Server, startServer } from "./support/server.js";

const places: Awaited<ReturnType<typeof scratch>>[] = [];
const servers: Server[] = [];
async function place() {
  const created = await scratch();
  places.push(created);
  return created;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const created of places.splice(0)) await created.cleanup();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("service-api workspaces", () => {
  it("creates a workspace in an empty database, printing its id alone, and lists it", async () => {
    const here = await place();
    const created = await here.run(["workspaces", "create", "--name", "Acme"]);
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(UUID);
    expect(created.stderr).toMatch(new RegExp(`^Created workspace ${id}, owned by member \\S+ \\(Owner\\)`));
    const json = await here.run(["workspaces", "create", "--name", "Beta 🎉", "--owner", "Ada", "--json"]);
    const beta = JSON.parse(json.stdout);
    expect(beta).toEqual({
      id: expect.stringMatching(UUID),
      name: "Beta 🎉",
      status: "normal",
      owner: { id: expect.stringMatching(UUID), name: "Ada" },
    });

    expect(JSON.parse((await here.run(["workspaces", "list", "--json"])).stdout)).toEqual([
      { id, name: "Acme", status: "normal", datasets: 0, apps: 0 },
      { id: beta.id, name: "Beta 🎉", status: "normal", datasets: 0, apps: 0 },
    ]);
    const table = (await here.run(["workspaces", "list"])).stdout.split("\n");
    expect(table[0]).toMatch(/^ID +NAME +STATUS +DATASETS +APPS$/);
    expect(table[1]).toMatch(new RegExp(`^${id}  Acme +normal +0 +0$`));
  });

  it("lists what a workspace holds", async () => {
    const here = await place();
    await here.run(["demo"]);
    const listed = JSON.parse((await here.run(["workspaces", "list", "--json"])).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: "Acme (demo)", datasets: 1, apps: 2 })]);
  });

  it("says so when there is no workspace, and refuses a SQLite file that does not exist", async () => {
    const here = await place();
    expect(await here.run(["migrate"])).toMatchObject({ code: 0 });
    expect(await here.run(["workspaces", "list"])).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "No workspaces.\n",
    });
    expect((await here.run(["workspaces", "list", "--json"])).stdout).toBe("[]\n");
    if (TEST_STORE === "sqlite") {
      const result = await here.run(["workspaces", "list"], undefined, { DATABASE_URL: "missing.sqlite" });
      expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining("does not exist") });
      expect(existsSync(join(here.directory, "missing.sqlite"))).toBe(false);
    }
  });

  it("refuses a blank or over-long name with exit 1, creating nothing", async () => {
    const here = await place();
    for (const [args, message] of [
      [["--name", ""], "name: Name must not be blank."],
      [["--name", "   "], "name: Name must not be blank."],
      [["--name", "x".repeat(256)], "name: Name must be at most 255 characters."],
      [["--name", "Acme", "--owner", ""], "owner: Name must not be blank."],
    ] as const) {
      const result = await here.run(["workspaces", "create", ...args]);
      expect(result, args.join(" ")).toEqual({ code: 1, stdout: "", stderr: `${message}\n` });
    }
    expect((await here.run(["workspaces", "list", "--json"])).stdout).toBe("[]\n");
  });

  it("exits 2 with the usage without a name or an action", async () => {
    const here = await place();
    for (const args of [
      ["workspaces"],
      ["workspaces", "create"],
      ["workspaces", "rename"],
      ["workspaces", "create", "--colour"],
    ]) {
      const result = await here.run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: service-api workspaces");
    }
  });
});

describe("service-api apps", () => {
  it("creates an app of a new workspace, for which keys create issues an app key", async () => {
    const here = await place();
    const workspace = (await here.run(["workspaces", "create", "--name", "Acme"])).stdout.trim();
    const created = await here.run([
      "apps",
      "create",
      "--workspace",
      workspace.toUpperCase(),
      "--name",
      "Helper",
      "--mode",
      "advanced-chat",
    ]);
    expect(created.code).toBe(0);
    const app = created.stdout.trim();
    expect(app).toMatch(UUID);
    const key = await here.run(["keys", "create", "--app", app]);
    expect(key).toMatchObject({ code: 0, stdout: expect.stringMatching(/^app-[A-Za-z0-9]{40}\n$/) });
    expect(JSON.parse((await here.run(["workspaces", "list", "--json"])).stdout)).toEqual([
      expect.objectContaining({ id: workspace, apps: 1 }),
    ]);
    const json = await here.run([
      "apps",
      "create",
      "--workspace",
      workspace,
      "--name",
      "Writer",
      "--mode",
      "completion",
      "--json",
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      workspaceId: workspace,
      name: "Writer",
      mode: "completion",
      enableApi: true,
    });
  });

  it("refuses an unknown workspace or mode with exit 1, and missing flags with exit 2", async () => {
    const here = await place();
    const workspace = (await here.run(["workspaces", "create", "--name", "Acme"])).stdout.trim();
    const missing = "0d3f5a10-6c2e-4b7d-9a41-000000000000";
    expect(
      await here.run(["apps", "create", "--workspace", missing, "--name", "H", "--mode", "chat"]),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: `No workspace has the id ${missing}.\n`,
    });
    const mode = await here.run(["apps", "create", "--workspace", workspace, "--name", "H", "--mode", "bot"]);
    expect(mode).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("mode: must be one of advanced-chat, workflow"),
    });
    for (const args of [
      ["apps", "create", "--workspace", workspace, "--name", "H"],
      ["apps"],
      ["apps", "list"],
    ]) {
      const result = await here.run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: service-api apps create");
    }
  });
});

describe("from an empty database to a document over the API", () => {
  it("creates a workspace and a key with the CLI, then a dataset and a document by text that completes", async () => {
    const here = await place();
    const created = JSON.parse(
      (await here.run(["workspaces", "create", "--name", "Acme", "--owner", "Ada", "--json"])).stdout,
    );
    const issued = await here.run(["keys", "create", "--workspace", created.id]);
    expect(issued.code).toBe(0);
    const key = issued.stdout.trim();

    const server = await startServer(here.databaseUrl, here.directory);
    servers.push(server);
    const send = (method: string, path: string, body?: unknown) => server.call(key, method, path, body);
    const dataset = await send("POST", "/datasets", { name: "Handbook", indexing_technique: "economy" });
    expect(dataset).toMatchObject({
      status: 200,
      body: { name: "Handbook", created_by: created.owner.id, author_name: "Ada" },
    });
    const datasetId = dataset.body.id as string;

    const document = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
      name: "faq.txt",
      text: "How do I reset it?\n\nHold the button for ten seconds.",
      indexing_technique: "economy",
      process_rule: { mode: "automatic" },
    });
    expect(document).toMatchObject({
      status: 200,
      body: { document: { name: "faq.txt", created_by: created.owner.id } },
    });
    const batch = document.body.batch as string;
    const deadline = Date.now() + 15_000;
    let status: string | undefined;
    while (status !== "completed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await send("GET", `/datasets/${datasetId}/documents/${batch}/indexing-status`);
      status = answer.body.data?.[0]?.indexing_status;
      expect(status).not.toBe("error");
    }
    expect(status).toBe("completed");
    const listed = await send("GET", `/datasets/${datasetId}/documents`);
    expect(listed.body).toMatchObject({
      total: 1,
      data: [{ name: "faq.txt", indexing_status: "completed" }],
    });
    await server.stop();
    servers.length = 0;
    expect(JSON.parse((await here.run(["workspaces", "list", "--json"])).stdout)).toEqual([
      expect.objectContaining({ id: created.id, datasets: 1 }),
    ]);
  }, 60_000);
});
