import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Store } from "@service-api/ports";
import { aDataset, aDocument, aSegment, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";

// A publish of a big file (35,000 chunks) writes for seconds in one transaction. These check that
// the process goes on serving meanwhile: the event loop turns, and reads answer from the last commit.
const directory = mkdtempSync(join(tmpdir(), "service-api-long-writes-"));
const statements: string[] = [];
let store: Store;

beforeAll(async () => {
  store = await openSqliteStore({
    databaseUrl: join(directory, "store.sqlite"),
    onQuery: (sql) => statements.push(sql),
  });
});
afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A document of its own, holding one segment. */
async function aDocumentWithOneSegment() {
  const { workspaces, datasets, documents, segments } = store.repositories;
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await datasets.save(dataset);
  const document = aDocument(dataset.id);
  await documents.save(document);
  await segments.replaceForImport(document.id, [aSegment(document.id, 1)], []);
  return document;
}

const manySegments = (documentId: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    aSegment(documentId, index + 1, { content: `Chunk ${index}: wing flutter at speed ${index % 97}` }),
  );

describe("a long write on SQLite", () => {
  it("lets the event loop turn between its statements, and still writes everything", async () => {
    const document = await aDocumentWithOneSegment();
    let turns = 0;
    let ticking = true;
    const ticker = (async () => {
      while (ticking) {
        await nextTurn();
        turns += 1;
      }
    })();
    await store.repositories.segments.replaceForImport(document.id, manySegments(document.id, 3000), []);
    ticking = false;
    await ticker;
    // 3000 chunks in slices of 500, their search units and their postings: a turn between each two.
    expect(turns).toBeGreaterThanOrEqual(10);
    expect((await store.repositories.documents.chunkStats(document.id)).count).toBe(3000);
  });

  it("answers a read from the last commit while the write holds the connection", async () => {
    const document = await aDocumentWithOneSegment();
    const order: string[] = [];
    statements.length = 0;
    const writing = store.repositories.segments
      .replaceForImport(document.id, manySegments(document.id, 3000), [])
      .then(() => order.push("write"));
    // Under way: its transaction holds the connection, its first chunks written, not committed.
    while (!statements.some((sql) => sql.startsWith('insert into "chunks"'))) await nextTurn();
    const during = await store.repositories.documents.chunkStats(document.id);
    order.push("read");
    await writing;
    expect(order).toEqual(["read", "write"]);
    expect(during.count).toBe(1);
    expect((await store.repositories.documents.chunkStats(document.id)).count).toBe(3000);
  });
});
