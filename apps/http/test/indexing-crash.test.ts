import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@service-api/ports";
import { aMember, aWorkspace } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { sleep } from "./support/load.js";
import { issueKey } from "./support/seed.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE } from "./support/test-database.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-indexing-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Each paragraph one chunk (a custom rule on blank lines, chunks up to 200 characters). */
const RULE = {
  mode: "custom",
  rules: {
    pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
    segmentation: { separator: "\\n\\n", max_tokens: 200, chunk_overlap: 0 },
  },
};
const paragraphsOf = (index: number) =>
  Array.from({ length: (index % 5) + 1 }, (_, paragraph) => `Document ${index}, paragraph ${paragraph + 1}.`);

/** A workspace, its owner, a knowledge key and an economy dataset, stored directly. */
async function seed(store: Store) {
  const { repositories } = store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  return { workspace, key: await issueKey(repositories, workspace.id) };
}

/** Creates documents `from`…`from + count - 1` by text through `server`: their ids, in that order. */
async function createDocuments(
  server: ServerProcess,
  key: string,
  datasetId: string,
  count: number,
  from = 0,
) {
  const ids: string[] = [];
  for (let index = from; index < from + count; index += 1) {
    const response = await call(server.url, "POST", `/v1/datasets/${datasetId}/document/create-by-text`, {
      token: key,
      body: { name: `doc-${index}`, text: paragraphsOf(index).join("\n\n"), process_rule: RULE },
    });
    expect(response.status).toBe(200);
    ids.push(response.body.document.id);
  }
  return ids;
}

/** Waits until every document completed (or `timeoutMs` passed): how many did. */
async function completedCount(store: Store, datasetId: string, ids: string[], timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const documents = await store.repositories.documents.listInDataset(datasetId);
    const completed = documents.filter(
      (document) => ids.includes(document.id) && document.indexingStatus === "completed",
    );
    if (completed.length === ids.length || performance.now() > deadline) return completed.length;
    await sleep(100);
  }
}

/**
 * The job queue's counts once it drains (or `timeoutMs` passed). A worker deletes its job just
 * after the document's completion commits, so the last job may outlive its document's status.
 */
async function drainedJobs(store: Store, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const counts = await store.repositories.jobs.countByKind();
    if (Object.keys(counts).length === 0 || performance.now() > deadline) return counts;
    await sleep(50);
  }
}

/** Every document holds exactly its paragraphs as segments, in order, none twice. */
async function expectExactSegments(store: Store, ids: string[]) {
  for (const [index, id] of ids.entries()) {
    const segments = await store.repositories.segments.listOfDocument(id);
    expect(segments.map((segment) => [segment.position, segment.content])).toEqual(
      paragraphsOf(index).map((paragraph, position) => [position + 1, paragraph]),
    );
  }
}

describe.runIf(TEST_STORE === "sqlite")("indexing through a crash", () => {
  it("finishes every document once, with exactly its chunks, after a SIGKILL mid-indexing and a restart", async () => {
    const databaseUrl = `file:${join(directory, "indexing.sqlite")}`;
    const seeding = await openStore({ databaseUrl });
    const { key } = await seed(seeding);
    const environment = { DATABASE_URL: databaseUrl, INDEXING_LEASE_MS: "2000" };
    // All 200 queued first, by a server that indexes nothing (its workers would keep pace).
    const queueing = await spawnServer(directory, { ...environment, INDEXING_CONCURRENCY: "0" });
    const created = await call(queueing.url, "POST", "/v1/datasets", {
      token: key,
      body: { name: "Crash", indexing_technique: "economy" },
    });
    const datasetId = created.body.id as string;
    const ids = await createDocuments(queueing, key, datasetId, 200);
    queueing.child.kill("SIGTERM");
    await queueing.exited;
    // Killed part way: some documents indexed, the others waiting or under way.
    const server = await spawnServer(directory, environment);
    while ((await completedCount(seeding, datasetId, ids, 0)) < 20) await sleep(5);
    server.child.kill("SIGKILL");
    await server.exited;
    const before = await completedCount(seeding, datasetId, ids, 0);
    expect(before).toBeLessThan(200);

    const restarted = await spawnServer(directory, environment);
    try {
      expect(await completedCount(seeding, datasetId, ids, 60_000)).toBe(200);
      await expectExactSegments(seeding, ids);
      expect(await drainedJobs(seeding, 10_000)).toEqual({});
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
      await seeding.close();
    }
  }, 120_000);
});

describe.runIf(TEST_STORE === "postgres")("indexing on two instances", () => {
  it("indexes 500 documents between two server processes, each exactly once", async () => {
    const database = await createTestDatabaseUrl();
    const seeding = await openStore({ databaseUrl: database.databaseUrl });
    const servers: ServerProcess[] = [];
    try {
      const { key } = await seed(seeding);
      const environment = { DATABASE_URL: database.databaseUrl, INDEXING_CONCURRENCY: "2" };
      servers.push(await spawnServer(directory, environment), await spawnServer(directory, environment));
      const created = await call(servers[0]!.url, "POST", "/v1/datasets", {
        token: key,
        body: { name: "Shared", indexing_technique: "economy" },
      });
      const datasetId = created.body.id as string;
      const halves = await Promise.all([
        createDocuments(servers[0]!, key, datasetId, 250),
        createDocuments(servers[1]!, key, datasetId, 250, 250),
      ]);
      const ids = [...halves[0], ...halves[1]];
      expect(await completedCount(seeding, datasetId, ids, 150_000)).toBe(500);
      await expectExactSegments(seeding, ids);
      // Each job done once, by one worker of one of the two (its line logged just after the commit).
      const doneLines = () =>
        servers.flatMap((server) =>
          server.lines.filter((line) => line.msg === "background job done" && line.kind === "index_document"),
        );
      const deadline = performance.now() + 10_000;
      while (doneLines().length < 500 && performance.now() < deadline) await sleep(50);
      const done = doneLines();
      expect(done).toHaveLength(500);
      expect(new Set(done.map((line) => line.subject)).size).toBe(500);
      expect(servers.every((server) => done.some((line) => server.lines.includes(line)))).toBe(true);
    } finally {
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.exited));
      await seeding.close();
      await database.drop();
    }
  }, 240_000);
});
