import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexStoredSegments } from "@service-api/adapters-kysely";
import { analyze, BM25_B, BM25_K1, bm25Weights, countTerms } from "@service-api/domain";
import { aChildChunk, aDataset, aDocument, aSegment, aWorkspace } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../open-sqlite-store.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("migration 0012 (the search index)", () => {
  it("indexes the segments stored before it, as their writes would have, statistics included", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-0012-"));
    directories.push(directory);
    const path = join(directory, "store.sqlite");
    const store = await openSqliteStore({ databaseUrl: path });
    const { workspaces, datasets, documents, segments, search } = store.repositories;
    const workspace = aWorkspace();
    await workspaces.save(workspace);
    const dataset = aDataset(workspace.id);
    await datasets.save(dataset);
    const text = aDocument(dataset.id, { docForm: "text_model" });
    const tree = aDocument(dataset.id, { docForm: "hierarchical_model", position: 2 });
    await documents.save(text);
    await documents.save(tree);
    const written = [aSegment(text.id, 1, { content: "Supersonic wings", keywords: ["delta"] })];
    const parent = aSegment(tree.id, 1, { content: "Parent", keywords: [] });
    await segments.replaceForImport(text.id, written, []);
    await segments.replaceForImport(
      tree.id,
      [parent],
      [aChildChunk(parent, 1, { content: "Supersonic flutter" })],
    );
    const before = await searchOf(store, dataset.id);

    // As a database migrated from 0011 has them: segments, and no index.
    const database = new Database(path);
    database.exec("delete from search_units; delete from search_stats;");
    expect(database.prepare("select count(*) as n from search_postings").get()).toEqual({ n: 0 });
    expect(await searchOf(store, dataset.id)).toEqual([]);
    await indexStoredSegments(new Kysely<unknown>({ dialect: new SqliteDialect({ database }) }));
    database.close();
    expect(await searchOf(store, dataset.id)).toEqual(before);
    expect(before.map((hit) => hit.segmentId).sort()).toEqual([written[0]!.id, parent.id].sort());
    expect((await search.statistics(dataset.id, "content_and_keywords", ["delta"])).units).toBe(2);
    await store.close();
  });
});

async function searchOf(store: Awaited<ReturnType<typeof openSqliteStore>>, datasetId: string) {
  const terms = countTerms(analyze("supersonic delta"));
  const stats = await store.repositories.search.statistics(
    datasetId,
    "content_and_keywords",
    Object.keys(terms),
  );
  const { weights } = bm25Weights(terms, stats.units, stats.documentFrequencies);
  return store.repositories.search.topSegments({
    datasetId,
    field: "content_and_keywords",
    weights,
    k1: BM25_K1,
    b: BM25_B,
    averageLength: stats.units ? stats.totalLength / stats.units : 1,
    topK: 10,
  });
}
