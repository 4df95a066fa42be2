import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  aChildChunk,
  aDataset,
  aDocument,
  aSegment,
  aWorkspace,
  searchAsRetrieved,
} from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../open-sqlite-store.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("migration 0014 (the search index keyed by unit seq)", () => {
  it("indexes the segments stored before it, as their writes would have, statistics included", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-0014-"));
    directories.push(directory);
    const path = join(directory, "store.sqlite");
    const store = await openSqliteStore({ databaseUrl: path });
    const { workspaces, datasets, documents, segments } = store.repositories;
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
    const before = await searchAsRetrieved(
      store.repositories,
      dataset.id,
      "supersonic delta",
      "content_and_keywords",
    );

    await store.close();

    // As a database that ran 0013 with 0012's first layout has it: postings keyed by a unit's id.
    const database = new Database(path);
    database.exec(`
      drop table search_postings; drop table search_units; delete from search_stats;
      create table search_units (id text primary key, dataset_id text not null, document_id text not null,
        segment_id text not null references chunks (id) on delete cascade,
        child_id text references child_chunks (id) on delete cascade,
        content_length integer not null, keyword_length integer not null);
      create table search_postings (dataset_id text not null, term text not null,
        unit_id text not null references search_units (id) on delete cascade,
        content_tf integer not null, keyword_tf integer not null,
        primary key (dataset_id, term, unit_id)) without rowid;
      delete from kysely_migration where name in ('0014-search-unit-keys', '0015-search-lookups');`);
    database.close();
    const migrated = await openSqliteStore({ databaseUrl: path });
    const reader = new Database(path);
    const columns = reader.prepare("select name from pragma_table_info('search_postings')").all();
    reader.close();
    expect(columns.map((column) => (column as { name: string }).name)).toContain("unit_seq");
    expect(
      await searchAsRetrieved(migrated.repositories, dataset.id, "supersonic delta", "content_and_keywords"),
    ).toEqual(before);
    expect(before.map((hit) => hit.segmentId).sort()).toEqual([written[0]!.id, parent.id].sort());
    const statistics = await migrated.repositories.search.statistics(dataset.id, "content_and_keywords", [
      "delta",
    ]);
    expect(statistics.units).toBe(2);
    await migrated.close();
  });
});
