import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { aWorkspace } from "@service-api/ports/testing";
import { DEMO } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import { afterEach, describe, expect, it } from "vitest";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE, type TestDatabaseUrl } from "./support/test-database.js";

const run = promisify(execFile);
const directories: string[] = [];
const processes: ServerProcess[] = [];
const databases: TestDatabaseUrl[] = [];
/** A fresh, empty database of the store under test. */
async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabaseUrl();
  databases.push(database);
  return database.databaseUrl;
}
function workingDirectory() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-first-run-"));
  directories.push(directory);
  return directory;
}
afterEach(async () => {
  for (const { child, exited } of processes.splice(0)) {
    child.kill("SIGKILL");
    await exited;
  }
  for (const database of databases.splice(0)) await database.drop();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function start(cwd: string, environment: Record<string, string>) {
  const server = await spawnServer(cwd, environment);
  processes.push(server);
  return server;
}

/** Waits until the demo banner has been written (it follows the "listening" line). */
async function bannerOf(server: ServerProcess): Promise<string> {
  for (
    let waited = 0;
    waited < 10_000 && !server.stderr().includes("Get App WebApp Settings");
    waited += 50
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server.stderr();
}

describe("the first run", () => {
  it("loads the demo into an empty database and prints keys and a curl per operation (retrieval among them), each of which works", async () => {
    const server = await start(workingDirectory(), { DEMO: "auto", DATABASE_URL: await emptyDatabase() });
    const banner = await bannerOf(server);
    expect(banner).toContain(`service-api is running at ${server.url}`);
    const appKey = /Demo app key[^:]*:\s+(app-\S+)/.exec(banner)?.[1];
    const knowledgeKey = /Demo knowledge key[^:]*:\s+(ds-\S+)/.exec(banner)?.[1];
    expect(appKey).toMatch(/^app-[A-Za-z0-9]{40}$/);
    expect(knowledgeKey).toMatch(/^ds-[A-Za-z0-9]{40}$/);

    const commands = banner.split("\n").filter((line) => line.trim().startsWith("curl "));
    expect(commands).toHaveLength(13);
    const outputs = [];
    for (const command of commands) {
      const { stdout } = await run("sh", ["-c", command]);
      outputs.push(stdout);
    }
    const [
      document,
      fields,
      binding,
      variable,
      site,
      documents,
      values,
      tags,
      variables,
      info,
      created,
      status,
      retrieved,
    ] = outputs;
    expect(JSON.parse(document!)).toMatchObject({ id: DEMO.documentId, name: "getting-started.md" });
    expect(JSON.parse(fields!).doc_metadata.map((field: { name: string }) => field.name)).toContain("author");
    expect(binding!.trim()).toBe("HTTP 204");
    expect(JSON.parse(variable!)).toMatchObject({ id: DEMO.variableId, value: "French" });
    expect(JSON.parse(site!)).toMatchObject({ title: "Acme Support" });
    expect(JSON.parse(documents!).data.map((item: { name: string }) => item.name)).toEqual(["warranty.pdf"]);
    expect(JSON.parse(values!)).toEqual({ result: "success" });
    expect(
      JSON.parse(tags!).map((tag: { name: string; binding_count: string }) => [tag.name, tag.binding_count]),
    ).toEqual([
      ["support", "1"],
      ["product", "1"],
    ]);
    expect(JSON.parse(variables!).data[0]).toMatchObject({ id: DEMO.variableId, value: "French" });
    expect(JSON.parse(info!)).toMatchObject({
      name: "Support assistant",
      tags: ["assistants"],
      author_name: "Ada Lovelace",
    });
    expect(JSON.parse(created!)).toMatchObject({
      document: { name: "release-notes.txt", indexing_status: "waiting" },
      batch: expect.stringMatching(/^\d{20}$/),
    });
    expect(JSON.parse(status!).data).toEqual([
      expect.objectContaining({ indexing_status: "completed", total_segments: 2, completed_segments: 2 }),
    ]);
    const { records } = JSON.parse(retrieved!);
    const found = records.map((record: { segment: { content: string } }) => record.segment.content);
    expect(found).toContain(
      "How do I reset it? Hold the button for ten seconds, until the light blinks red.",
    );
    expect(found.every((content: string) => /reset|widget/i.test(content))).toBe(true);
    expect(records[0].score).toBeGreaterThan(records.at(-1).score);
    expect(banner).toContain(`${server.url}/docs`);
  });

  it("issues new demo keys on each start, and keeps what the API changed in the demo", async () => {
    const cwd = workingDirectory();
    const environment = { DEMO: "auto", DATABASE_URL: await emptyDatabase() };
    const first = await start(cwd, environment);
    const banner = await bannerOf(first);
    const oldKey = /Demo app key[^:]*:\s+(app-\S+)/.exec(banner)?.[1];
    const knowledgeKey = /Demo knowledge key[^:]*:\s+(ds-\S+)/.exec(banner)?.[1];
    // What a user does with the demo: a tag deleted and made again (its name now another id's),
    // a document archived. Loading the demo file again would clash with the one and undo the other.
    const knowledge = (method: string, path: string, body: unknown) =>
      fetch(`${first.url}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${knowledgeKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await knowledge("DELETE", "/datasets/tags", { tag_id: DEMO.tagIds[0] })).status).toBe(204);
    const remade = await knowledge("POST", "/datasets/tags", { name: "product" });
    expect(remade.status).toBe(200);
    const archive = `/datasets/${DEMO.datasetId}/documents/status/archive`;
    expect((await knowledge("PATCH", archive, { document_ids: [DEMO.documentId] })).status).toBe(200);
    first.child.kill("SIGTERM");
    await first.exited;

    const second = await start(cwd, environment);
    const secondBanner = await bannerOf(second);
    const newKey = /Demo app key[^:]*:\s+(app-\S+)/.exec(secondBanner)?.[1];
    const newKnowledgeKey = /Demo knowledge key[^:]*:\s+(ds-\S+)/.exec(secondBanner)?.[1];
    expect(newKey).not.toBe(oldKey);
    const old = await fetch(`${second.url}/v1/site`, { headers: { authorization: `Bearer ${oldKey}` } });
    expect(old.status).toBe(401);
    const fresh = await fetch(`${second.url}/v1/site`, { headers: { authorization: `Bearer ${newKey}` } });
    expect(fresh.status).toBe(200);
    const read = (path: string) =>
      fetch(`${second.url}/v1${path}`, { headers: { authorization: `Bearer ${newKnowledgeKey}` } }).then(
        (response) => response.json(),
      );
    const document = await read(`/datasets/${DEMO.datasetId}/documents/${DEMO.documentId}`);
    expect(document).toMatchObject({ archived: true });
    const tags = (await read("/datasets/tags")) as { id: string; name: string }[];
    expect(tags.find((tag) => tag.name === "product")?.id).toBe(((await remade.json()) as { id: string }).id);
  });

  it.runIf(TEST_STORE === "sqlite").each([
    ["NODE_ENV=production", { NODE_ENV: "production", DEMO: "auto" }],
    ["DEMO=off", { DEMO: "off" }],
  ])("with %s seeds nothing and prints no key", async (_name, environment) => {
    const cwd = workingDirectory();
    const server = await start(cwd, environment);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.lines.find((line) => line.msg === "listening")).toMatchObject({ demo: false });
    server.child.kill("SIGTERM");
    await server.exited;
    expect(server.stderr()).not.toMatch(/app-|ds-/);
    const store = await openStore({ databaseUrl: join(cwd, "data", "service-api.sqlite") });
    expect(await store.repositories.workspaces.list()).toEqual([]);
    await store.close();
  });

  it("leaves a database with other data alone even in demo mode", async () => {
    const databaseUrl = await emptyDatabase();
    const store = await openStore({ databaseUrl, pool: { max: 2 } });
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    const server = await start(workingDirectory(), { DEMO: "auto", DATABASE_URL: databaseUrl });
    await server.waitForLine((line) => String(line.msg).startsWith("demo mode"));
    expect(server.stderr()).not.toMatch(/app-|ds-/);
    expect(await store.repositories.workspaces.list()).toEqual([workspace]);
    await store.close();
  });

  it("ends the demo keys printed before when a later start finds other data and loads nothing", async () => {
    const cwd = workingDirectory();
    const environment = { DEMO: "auto", DATABASE_URL: await emptyDatabase() };
    const first = await start(cwd, environment);
    const oldKey = /Demo knowledge key[^:]*:\s+(ds-\S+)/.exec(await bannerOf(first))?.[1];
    first.child.kill("SIGTERM");
    await first.exited;
    const store = await openStore({ databaseUrl: environment.DATABASE_URL, pool: { max: 2 } });
    await store.repositories.workspaces.save(aWorkspace());
    await store.close();

    const second = await start(cwd, environment);
    await second.waitForLine((line) => String(line.msg).startsWith("demo mode"));
    const old = await fetch(`${second.url}/v1/datasets`, { headers: { authorization: `Bearer ${oldKey}` } });
    expect(old.status).toBe(401);
  });
});
