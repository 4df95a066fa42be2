import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@service-api/ports";
import { aDocument, aSegment } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE, type TestDatabaseUrl } from "./support/test-database.js";

/**
 * Two server processes on one PostgreSQL database, as behind a load balancer, writing one
 * document's chunks at once: positions stay unique and dense, and the document's and the dataset's
 * word counts equal a recount.
 */
describe.runIf(TEST_STORE === "postgres")("chunks written through two instances at once", () => {
  let database: TestDatabaseUrl;
  let directory: string;
  let store: Store;
  let world: SeededWorkspace;
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabaseUrl();
    directory = mkdtempSync(join(tmpdir(), "service-api-two-chunks-"));
    store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
    world = await seedWorkspace(store.repositories);
    [first, second] = await Promise.all([
      spawnServer(directory, { DATABASE_URL: database.databaseUrl }),
      spawnServer(directory, { DATABASE_URL: database.databaseUrl }),
    ]);
  });
  afterAll(async () => {
    for (const server of [first, second]) {
      server?.child.kill("SIGTERM");
      await server?.exited;
    }
    await store?.close();
    await database?.drop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Request `index` goes to one instance, the next to the other, as a round-robin balancer. */
  const send = (index: number, method: string, path: string, body?: unknown) =>
    call(index % 2 ? first.url : second.url, method, path, { token: world.datasetKey, body });

  async function newDocument(docForm: "text_model" | "hierarchical_model", wordCount: number) {
    const document = aDocument(world.dataset.id, {
      name: `race ${crypto.randomUUID()}.txt`,
      position: 10 + Math.floor(Math.random() * 1000),
      docForm,
      wordCount,
    });
    await store.repositories.documents.save(document);
    return document;
  }

  const datasetWords = async () =>
    (await send(0, "GET", `/v1/datasets/${world.dataset.id}`)).body.word_count as number;
  const documentWords = async (documentId: string) =>
    (await store.repositories.documents.findInDataset(world.dataset.id, documentId))!.wordCount;

  it("adds, edits and deletes chunks of one document through both at once: positions dense, counts exact", async () => {
    const document = await newDocument("text_model", 0);
    const base = `/v1/datasets/${world.dataset.id}/documents/${document.id}/segments`;
    const wordsBefore = await datasetWords();
    const creates = Array.from({ length: 30 }, (_, index) =>
      send(index, "POST", base, {
        segments: [{ content: `first of ${index} ✓` }, { content: `second of request ${index}` }],
      }),
    );
    const created = await Promise.all(creates);
    expect(created.map((response) => response.status)).toEqual(created.map(() => 200));
    const stored = await store.repositories.segments.listOfDocument(document.id);
    expect(stored.map((segment) => segment.position)).toEqual(stored.map((_, index) => index + 1));
    // Each request's two chunks are adjacent: one transaction placed them.
    for (const response of created) {
      const [a, b] = response.body.data as { position: number }[];
      expect(b!.position).toBe(a!.position + 1);
    }

    // Edits and deletes raced with more creates, through both.
    const edits = stored.slice(0, 20).map((segment, index) =>
      index % 2
        ? send(index, "DELETE", `${base}/${segment.id}`)
        : send(index, "POST", `${base}/${segment.id}`, {
            segment: { content: `edited ${"x".repeat(index)}` },
          }),
    );
    const more = Array.from({ length: 10 }, (_, index) =>
      send(index, "POST", base, { segments: [{ content: `late ${index}` }] }),
    );
    const answers = await Promise.all([...edits, ...more]);
    expect(answers.map((response) => response.status).sort()).toEqual([
      ...Array(10).fill(200),
      ...Array(10).fill(200),
      ...Array(10).fill(204),
    ]);
    const final = await store.repositories.segments.listOfDocument(document.id);
    expect(final).toHaveLength(60 - 10 + 10);
    const positions = final.map((segment) => segment.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(positions.slice(-10)).toEqual(Array.from({ length: 10 }, (_, index) => 61 + index));
    const recount = final.reduce((sum, segment) => sum + segment.wordCount, 0);
    expect(await documentWords(document.id)).toBe(recount);
    expect(await datasetWords()).toBe(wordsBefore + recount);
  });

  it("adds child chunks to one parent through both at once: their positions dense", async () => {
    const document = await newDocument("hierarchical_model", 6);
    const parent = aSegment(document.id, 1, { content: "parent", wordCount: 6 });
    await store.repositories.segments.replaceForImport(document.id, [parent], []);
    const path = `/v1/datasets/${world.dataset.id}/documents/${document.id}/segments/${parent.id}/child_chunks`;
    const added = await Promise.all(
      Array.from({ length: 24 }, (_, index) => send(index, "POST", path, { content: `child ${index}` })),
    );
    expect(added.map((response) => response.status)).toEqual(added.map(() => 200));
    const children = (await store.repositories.segments.listChildrenOf([parent.id])).get(parent.id)!;
    expect(children.map((child) => child.position)).toEqual(children.map((_, index) => index + 1));
    expect(children.every((child) => child.type === "customized")).toBe(true);
    expect(await documentWords(document.id)).toBe(6);
  });
});
